/* profile.c: where a class run's time went (issue 29 item 3). Each worker's stages (tg_stage's
 * names) fall into a few kinds; the wall time and the CPU time (the worker and every child it
 * waited for: compilers, sandboxed programs, sanitizers) spent in each kind are summed over the
 * class. The run's own set-up before any worker (the pristine kit, the kit built once, the
 * reference, the cases) is one more kind. The time a student waited for a job slot is kept apart
 * (queued): no process works then, so it is not a stage and not in the stages' sum, which is at
 * most the run's wall time times its jobs. Written into DIR/progress.json (progress.c) and as a
 * short table into summary.md (report.c). */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include <cjson/cJSON.h>

#include "grade.h"

static const char *const kind_name[TG_PROF_N] = {
    [TG_PROF_SETUP] = "set-up (kit build, reference, cases; once)",
    [TG_PROF_INTAKE] = "intake",
    [TG_PROF_BUILD] = "build",
    [TG_PROF_CASES] = "correctness cases",
    [TG_PROF_WORK] = "work count (emulated twin)",
    [TG_PROF_NCU] = "profiled runs (ncu; one at a time, the device shared)",
    [TG_PROF_SANITIZER] = "sanitizers",
    [TG_PROF_TIMED] = "speed test, device shared (the reference's start)",
    [TG_PROF_ALONE] = "timed runs, device alone",
    [TG_PROF_GPU_WAIT] = "waiting: GPU",
    [TG_PROF_QUEUE_WAIT] = "waiting: GPU, timed queue",
    [TG_PROF_STOPPED] = "a request stopped for timed runs (on the CPU when they queued)",
    [TG_PROF_OTHER] = "other tests (policy, calculator, device facts)",
    [TG_PROF_REPORT] = "reports",
};

/* The short names progress.json uses (stable keys for scripts). */
static const char *const kind_key[TG_PROF_N] = {
    [TG_PROF_SETUP] = "setup",        [TG_PROF_INTAKE] = "intake",     [TG_PROF_BUILD] = "build",
    [TG_PROF_CASES] = "cases",        [TG_PROF_WORK] = "work_count",   [TG_PROF_NCU] = "profiled",
    [TG_PROF_SANITIZER] = "sanitizers",
    [TG_PROF_TIMED] = "timed_runs",   [TG_PROF_ALONE] = "timed_alone",
    [TG_PROF_GPU_WAIT] = "waiting_gpu", [TG_PROF_QUEUE_WAIT] = "waiting_gpu_timed",
    [TG_PROF_STOPPED] = "stopped_for_timed", [TG_PROF_OTHER] = "other_tests",
    [TG_PROF_REPORT] = "reports",
};

const char *tg_profile_key(int kind)
{
    return kind >= 0 && kind < TG_PROF_N ? kind_key[kind] : "?";
}


/* CPU seconds of this process, of the children it has waited for, and of its sandboxed trees
 * beyond what their reaping passed up (child.c: bubblewrap keeps its children's time). */
double tg_profile_cpu_now(void)
{
    struct rusage a, b;
    if (getrusage(RUSAGE_SELF, &a) != 0 || getrusage(RUSAGE_CHILDREN, &b) != 0)
        return 0;
    return tg_sandbox_cpu_s() + (double)(a.ru_utime.tv_sec + a.ru_stime.tv_sec + b.ru_utime.tv_sec + b.ru_stime.tv_sec) +
           (double)(a.ru_utime.tv_usec + a.ru_stime.tv_usec + b.ru_utime.tv_usec + b.ru_stime.tv_usec) / 1e6;
}

void tg_profile_add(tg_profile *to, const tg_profile *from)
{
    for (int k = 0; k < TG_PROF_N; ++k) {
        to->wall_s[k] += from->wall_s[k];
        to->cpu_s[k] += from->cpu_s[k];
    }
    to->queued_s += from->queued_s;
    to->students += from->students;
}

void tg_profile_json(const tg_profile *pr, void *obj)
{
    cJSON *js = obj, *o = cJSON_AddObjectToObject(js, "profile");
    if (!o)
        return;
    cJSON_AddNumberToObject(o, "run_wall_s", tg_round2(pr->run_wall_s));
    cJSON_AddNumberToObject(o, "jobs", pr->jobs);
    cJSON_AddNumberToObject(o, "students", pr->students);
    cJSON_AddNumberToObject(o, "queued_wall_s", tg_round2(pr->queued_s));
    cJSON *a = cJSON_AddArrayToObject(o, "stages");
    double w = 0, c = 0;
    for (int k = 0; a && k < TG_PROF_N; ++k) {
        cJSON *s = cJSON_CreateObject();
        cJSON_AddStringToObject(s, "stage", kind_key[k]);
        cJSON_AddStringToObject(s, "what", kind_name[k]);
        cJSON_AddNumberToObject(s, "wall_s", tg_round2(pr->wall_s[k]));
        cJSON_AddNumberToObject(s, "cpu_s", tg_round2(pr->cpu_s[k]));
        cJSON_AddItemToArray(a, s);
        w += pr->wall_s[k];
        c += pr->cpu_s[k];
    }
    cJSON_AddNumberToObject(o, "stages_wall_s", tg_round2(w));
    cJSON_AddNumberToObject(o, "stages_cpu_s", tg_round2(c));
}

void tg_profile_md(const tg_profile *pr, tg_buf *md)
{
    double w = 0, c = 0;
    for (int k = 0; k < TG_PROF_N; ++k) {
        w += pr->wall_s[k];
        c += pr->cpu_s[k];
    }
    tg_buf_printf(md, "## Where the time went\n\n%.1f s of wall time for the run, %d job(s), %d submission(s) graded "
                  "in it; wall and CPU seconds (the grader and the programs it ran) per stage, summed over the "
                  "submissions:\n\n| stage | wall s | CPU s |\n|---|---|---|\n", pr->run_wall_s, pr->jobs, pr->students);
    for (int k = 0; k < TG_PROF_N; ++k)
        if (pr->wall_s[k] > 0 || pr->cpu_s[k] > 0)
            tg_buf_printf(md, "| %s | %.1f | %.1f |\n", kind_name[k], pr->wall_s[k], pr->cpu_s[k]);
    tg_buf_printf(md, "| all stages | %.1f | %.1f |\n", w, c);
    tg_buf_printf(md, "\nWaiting for a job slot (not a stage; no process works then): %.1f s summed over the "
                  "submissions.\n\n", pr->queued_s);
}
