/* classrun.h: one class run as its steps share it (run.c's set-up, workers.c's workers): not
 * for the other parts, which see the run context (grun) only. */
#ifndef TILELAB_GRADER_CLASSRUN_H
#define TILELAB_GRADER_CLASSRUN_H

#include "grade.h"

/* One class run, handed from step to step: the students, the out dir's lock, what this process
 * grades. R holds the run's options, environment and state; this holds the rest. */
typedef struct crun {
    grun       *R;
    const char *out;             /* the out dir as given (the errors quote it)                */
    const char *secret;          /* --secret FILE (NULL: kit check's, or the out dir's)       */
    gstudent   *st;              /* the class: this run's students, then earlier runs'        */
    srow       *rows;            /* each student's row of the gradebook                       */
    int         ns, nrun;        /* students in all; this run's (the first nrun)              */
    int         from_list;       /* a Slurm job: the list the submit wrote                    */
    int         prebuilt;        /* kit check built the program: no tools, no copy            */
    int         lock_fd;         /* the out dir's lock, held for the whole run                */
    int        *todo, ntodo;     /* the students this process grades (all, or a task's few)   */
    double      t0, cpu0;        /* the run's start: the profile's set-up stage               */
} crun;

/* Every student of c->todo graded, each in a worker process of its own (or skipped: graded
 * already); their rows filled. Returns the class's wall seconds (workers.c). */
double tg_class_grade(crun *c);
/* One student's row from what their worker left in DIR: the .done marker (graded) or
 * not-graded.txt (why not). in_finish: a Slurm run's finishing job, where a student with neither
 * had a task that never ended well. */
void   tg_collect_row(const grun *R, const gstudent *s, srow *row, int in_finish);

#endif
