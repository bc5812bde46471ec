/* progress.c: a class run's progress, for the person waiting on it. Workers say which stage they
 * are in (tg_stage) through a small shared table; the run's parent shows it:
 *   on a terminal   one live line, redrawn each second and for every stage a worker enters:
 *                   done/total, failures so far, each worker's student and stage, the time left;
 *                   finished students scroll above it. Workers log each stage they enter in their
 *                   row (log, nlog); the parent draws every logged stage it has not shown yet, at
 *                   its next tick or when the worker ends, so a stage is shown however short it
 *                   was and however busy the machine is (no stage depends on the timing of ticks)
 *   otherwise       plain lines, one per finished student, with the same figures
 *   always          DIR/progress.json, written atomically each second: what --status and an
 *                   instructor's `watch cat` read
 * The time left is the students left times the wall time between this run's completions since its
 * first (tg_eta_s; graded earlier ones cost nothing and are not counted).
 * The profile (profile.c): each worker sums, in its row, the wall and CPU time of every stage it
 * leaves by the stage's kind; the parent adds a row's sums to the run's when the worker ends. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "grade.h"

#define TG_STAGE_LOG 32                /* stages one student's row remembers for the live line  */

typedef struct pslot {
    int    busy;
    char   student[128];
    char   stage[64];
    double since_ms;                  /* when this stage began                               */
    char   log[TG_STAGE_LOG][64];     /* the stages entered, in order (the worker writes)     */
    unsigned nlog;                    /* how many are in log (worker: release; parent: acquire) */
    unsigned shown;                   /* how many of them the parent has drawn (parent only)  */
    int    kind;                      /* the current stage's kind (TG_PROF_*; -1 none)        */
    double kind_ms, kind_cpu;         /* when it began: wall ms, the worker's CPU s           */
    double started_ms;                /* when the slot was given (the student left the queue) */
    tg_profile prof;                  /* the worker's sums (the worker writes)                */
} pslot;

struct tg_progress {
    const grun *R;
    int    total, slots, tty;
    int    done, failed, earlier;     /* graded (this run), not graded, graded earlier        */
    double t0, last_draw, last_json;
    double first_ms;                  /* this run's first student graded or not graded (0: none yet) */
    int    drawn;                     /* a live line is on the screen                         */
    pslot *slot;                      /* shared with the workers (MAP_SHARED)                 */
    tg_profile prof;                  /* the run's: set-up and the ended workers' sums        */
    double class_t0;                  /* when the class run began (set-up included)           */
};

static pslot *my_slot;                /* in a worker: its row of the table (NULL: none)        */

tg_progress *tg_progress_start(const grun *R, int total, int slots)
{
    tg_progress *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->R = R;
    p->total = total;
    p->slots = slots > 0 ? slots : 1;
    p->tty = isatty(2) && getenv("TERM") && strcmp(getenv("TERM"), "dumb") != 0;
    p->t0 = p->class_t0 = tl_now_ms();
    p->prof.jobs = R->opt->jobs < p->slots ? R->opt->jobs : p->slots;   /* (slots: --jobs, or more on a GPU: run.c) */
    p->slot = mmap(NULL, sizeof(pslot) * (size_t)p->slots, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p->slot == MAP_FAILED)
        p->slot = NULL;
    return p;
}

int tg_progress_slot(tg_progress *p, const char *student)
{
    if (!p || !p->slot)
        return -1;
    for (int i = 0; i < p->slots; ++i)
        if (!p->slot[i].busy) {
            memset(&p->slot[i], 0, sizeof p->slot[i]);
            p->slot[i].busy = 1;
            snprintf(p->slot[i].student, sizeof p->slot[i].student, "%s", student);
            snprintf(p->slot[i].stage, sizeof p->slot[i].stage, "starting");
            p->slot[i].since_ms = p->slot[i].started_ms = tl_now_ms();
            p->slot[i].kind = -1;
            return i;
        }
    return -1;
}

void tg_progress_worker(tg_progress *p, int slot)
{
    my_slot = p && p->slot && slot >= 0 ? &p->slot[slot] : NULL;
}

/* The worker: the stage it leaves, added to its row's sums by kind. */
static void close_kind(pslot *s)
{
    double now = tl_now_ms(), cpu = tg_profile_cpu_now();
    if (s->kind >= 0 && s->kind < TG_PROF_N) {
        s->prof.wall_s[s->kind] += (now - s->kind_ms) / 1000.0;
        s->prof.cpu_s[s->kind] += cpu - s->kind_cpu > 0 ? cpu - s->kind_cpu : 0;
    }
    s->kind_ms = now;
    s->kind_cpu = cpu;
}

void tg_stage_end(void)
{
    if (!my_slot)
        return;
    close_kind(my_slot);
    my_slot->kind = -1;
}

void tg_stage_name(char *out, size_t len)
{
    snprintf(out, len, "%s", my_slot ? my_slot->stage : "");
}

int tg_stage_kind(void)
{
    return my_slot && my_slot->kind >= 0 && my_slot->kind < TG_PROF_N ? my_slot->kind : TG_PROF_OTHER;
}

void tg_stage(int kind, const char *fmt, ...)
{
    if (!my_slot)
        return;
    char s[64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s, sizeof s, fmt, ap);
    va_end(ap);
    close_kind(my_slot);
    my_slot->kind = kind >= 0 && kind < TG_PROF_N ? kind : TG_PROF_OTHER;
    memcpy(my_slot->stage, s, sizeof s);
    my_slot->since_ms = tl_now_ms();
    unsigned n = __atomic_load_n(&my_slot->nlog, __ATOMIC_RELAXED);
    if (n < TG_STAGE_LOG) {
        memcpy(my_slot->log[n], s, sizeof s);
        __atomic_store_n(&my_slot->nlog, n + 1, __ATOMIC_RELEASE);
    }
}

static void fmt_left(char *b, size_t l, double s)
{
    if (s < 0)
        snprintf(b, l, "time left: unknown yet");
    else if (s == 0)
        snprintf(b, l, "none left");
    else if (s < 90)
        snprintf(b, l, "about %.0f s left", s);
    else if (s < 5400)
        snprintf(b, l, "about %.0f min left", s / 60);
    else
        snprintf(b, l, "about %.1f h left", s / 3600);
}

/* The students left times the time between completions since the first, once a round of --jobs
 * completions came after it; before that the time per student since the start; -1 unknown yet.
 * Since the first: a class on a GPU grades nothing until its timed phase (every submission's untimed
 * work first), then one every few tenths of a second, and the time per student since the start read
 * 'about 2 min left' with 7 s to go (one H100, 2026-11-27 12:21Z); a class's set-up (the kit's build)
 * is left out the same way. Not before a round: workers that started together end together, and the
 * gap between two of them said 'about 0 s left' while the third had 5 s to go. */
double tg_eta_s(double now_ms, double t0_ms, double first_ms, int finished, int left, int jobs)
{
    if (left <= 0)
        return 0;
    if (finished <= 0)
        return -1;
    if (finished - 1 >= (jobs > 1 ? jobs : 1) && first_ms > 0 && now_ms > first_ms)
        return (now_ms - first_ms) / 1000.0 / (finished - 1) * left;
    return (now_ms - t0_ms) / 1000.0 / finished * left;
}

static double eta_s(const tg_progress *p)
{
    return tg_eta_s(tl_now_ms(), p->t0, p->first_ms, p->done + p->failed, p->total - p->done - p->failed - p->earlier,
                    p->R->opt->jobs);
}

static void write_json(tg_progress *p, int final)
{
    if (p->R->opt->slurm_task)             /* many tasks share DIR: --status reads their markers instead */
        return;
    cJSON *js = cJSON_CreateObject();
    time_t now = time(NULL);
    char when[64];
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    cJSON_AddStringToObject(js, "lab", p->R->lab->id);
    cJSON_AddStringToObject(js, "updated", when);
    cJSON_AddStringToObject(js, "state", final ? "finished" : "running");
    cJSON_AddNumberToObject(js, "total", p->total);
    cJSON_AddNumberToObject(js, "graded", p->done + p->earlier);
    cJSON_AddNumberToObject(js, "graded_earlier", p->earlier);
    cJSON_AddNumberToObject(js, "not_graded", p->failed);
    cJSON_AddNumberToObject(js, "elapsed_s", tg_round2((tl_now_ms() - p->t0) / 1000.0));
    double e = eta_s(p);
    if (e >= 0)
        cJSON_AddNumberToObject(js, "left_s", tg_round2(e));
    else
        cJSON_AddNullToObject(js, "left_s");
    cJSON *w = cJSON_AddArrayToObject(js, "workers");
    for (int i = 0; p->slot && i < p->slots; ++i) {
        if (!p->slot[i].busy)
            continue;
        pslot s = p->slot[i];
        s.student[sizeof s.student - 1] = s.stage[sizeof s.stage - 1] = '\0';
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "student", s.student);
        cJSON_AddStringToObject(o, "stage", s.stage);
        cJSON_AddNumberToObject(o, "stage_s", tg_round2((tl_now_ms() - s.since_ms) / 1000.0));
        cJSON_AddItemToArray(w, o);
    }
    tg_profile pr;                    /* where the time went so far (final: the whole run) */
    tg_progress_profile(p, &pr);
    tg_profile_json(&pr, js);
    char *text = cJSON_Print(js);
    cJSON_Delete(js);
    if (text) {
        char path[PATH_MAX + 32];
        snprintf(path, sizeof path, "%s/progress.json", p->R->run.out);
        size_t l = strlen(text);
        text[l] = '\n';               /* cJSON_Print's buffer ends in NUL: a newline in its place */
        tg_write_atomic(path, text, l + 1);
        free(text);
    }
    p->last_json = tl_now_ms();
}

static void clear_line(tg_progress *p)
{
    if (p->tty && p->drawn) {
        fputs("\r\033[K", stderr);
        p->drawn = 0;
    }
}

/* Draws the live line; slot `only` (-1: none) shown with stage `stage` instead of its current one. */
static void draw_as(tg_progress *p, int only, const char *stage);

static void draw(tg_progress *p)
{
    draw_as(p, -1, NULL);
}

/* Draws every stage a worker logged and the line has not shown yet (terminal only). */
static void catch_up(tg_progress *p, int i)
{
    if (!p->tty || !p->slot || i < 0 || i >= p->slots || !p->slot[i].busy)
        return;
    unsigned n = __atomic_load_n(&p->slot[i].nlog, __ATOMIC_ACQUIRE);
    while (p->slot[i].shown < n) {
        char st[64];
        memcpy(st, p->slot[i].log[p->slot[i].shown++], sizeof st);
        st[sizeof st - 1] = '\0';
        draw_as(p, i, st);
    }
}

static void draw_as(tg_progress *p, int only, const char *stage)
{
    char left[64], line[1024];
    fmt_left(left, sizeof left, eta_s(p));
    int n = snprintf(line, sizeof line, "[%d/%d] %d not graded | %s", p->done + p->earlier + p->failed, p->total,
                     p->failed, left);
    for (int i = 0; p->slot && i < p->slots && n < (int)sizeof line - 1; ++i) {
        if (!p->slot[i].busy)
            continue;
        pslot *s = &p->slot[i];
        char who[128], what[64];
        memcpy(who, s->student, sizeof who);
        memcpy(what, i == only && stage ? stage : s->stage, sizeof what);
        who[sizeof who - 1] = what[sizeof what - 1] = '\0';
        n += snprintf(line + n, sizeof line - (size_t)n, " | %.20s: %s %.0fs", who, what,
                      i == only ? 0.0 : (tl_now_ms() - s->since_ms) / 1000.0);
    }
    /* One screen line: cut to the terminal's width (COLUMNS, else 120). */
    int width = getenv("COLUMNS") ? atoi(getenv("COLUMNS")) : 120;
    if (width < 40)
        width = 120;
    if ((int)strlen(line) > width - 1)
        line[width - 1] = '\0';
    fprintf(stderr, "\r\033[K%s", line);
    fflush(stderr);
    p->drawn = 1;
    p->last_draw = tl_now_ms();
}

void tg_progress_tick(tg_progress *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->slots; ++i)
        catch_up(p, i);
    double now = tl_now_ms();
    if (p->tty && now - p->last_draw >= 1000)
        draw(p);
    if (now - p->last_json >= 1000)
        write_json(p, 0);
}

void tg_progress_done(tg_progress *p, int slot, const char *student, int how, const char *what)
{
    if (!p)
        return;
    catch_up(p, slot);                /* the stages it entered since the last tick */
    if (p->slot && slot >= 0 && slot < p->slots && p->slot[slot].busy) {
        pslot *s = &p->slot[slot];
        s->prof.queued_s = (s->started_ms - p->t0) / 1000.0;   /* its wait for this slot */
        if (s->prof.queued_s < 0)
            s->prof.queued_s = 0;
        s->prof.students = 1;
        tg_profile_add(&p->prof, &s->prof);
        s->busy = 0;
    }
    if (how == 0)
        ++p->done;
    else if (how == 1)
        ++p->failed;
    else
        ++p->earlier;
    if (how <= 1 && p->first_ms <= 0)
        p->first_ms = tl_now_ms();
    clear_line(p);
    int finished = p->done + p->failed + p->earlier;
    if (p->tty || how == 2) {
        fprintf(stderr, "[%d/%d] %s ... %s\n", finished, p->total, student, what);
    } else {
        char left[64];
        fmt_left(left, sizeof left, eta_s(p));
        fprintf(stderr, "[%d/%d] %s ... %s; %d not graded so far; %s\n", finished, p->total, student, what, p->failed,
                left);
    }
    if (p->tty && finished < p->total)
        draw(p);
    write_json(p, 0);
}

void tg_progress_setup(tg_progress *p, double class_t0_ms, double setup_wall_s, double setup_cpu_s)
{
    if (!p)
        return;
    p->class_t0 = class_t0_ms;
    p->prof.wall_s[TG_PROF_SETUP] = setup_wall_s;
    p->prof.cpu_s[TG_PROF_SETUP] = setup_cpu_s;
}

/* The run's profile: set-up, the ended workers' sums, and what the running ones have summed. */
void tg_progress_profile(const tg_progress *p, tg_profile *out)
{
    memset(out, 0, sizeof *out);
    if (!p)
        return;
    *out = p->prof;
    for (int i = 0; p->slot && i < p->slots; ++i)
        if (p->slot[i].busy) {
            tg_profile w = p->slot[i].prof;
            w.students = 0;
            w.queued_s = (p->slot[i].started_ms - p->t0) / 1000.0;
            if (w.queued_s < 0)
                w.queued_s = 0;
            tg_profile_add(out, &w);
        }
    out->run_wall_s = (tl_now_ms() - p->class_t0) / 1000.0;
    out->jobs = p->prof.jobs;
    out->have = 1;
}

void tg_progress_end(tg_progress *p)
{
    if (!p)
        return;
    clear_line(p);
    write_json(p, 1);
    if (p->slot)
        munmap(p->slot, sizeof(pslot) * (size_t)p->slots);
    free(p);
}
