/* tl-lab.c: the lab table (common/labtable.c) for shell scripts: `kit`, the kit-*.sh scripts and the
 * device scripts ask it instead of restating a lab's facts.
 *
 * Build:  ninja -C build common/tl-lab
 * Run:    build/common/tl-lab list                 the lab ids, one a line
 *         build/common/tl-lab dir 03               03-tiled-kernel
 *         build/common/tl-lab files 03             the student files, one a line
 *         build/common/tl-lab title 03
 *         build/common/tl-lab get 03 public_sizes  one field (tl-lab fields: the names)
 *         build/common/tl-lab rubric               grader/rubric.md, written from the table
 *         build/common/tl-lab readme [--check] FILE...
 *                                                  the tables of labs in README.md, grader/README.md
 *                                                  (labdocs.c); --check: exit 1 when one differs
 *         build/common/tl-lab args 03 --sizes 100     the lab program's options and values checked
 *                                                  (kit check, before it builds the program): one line, exit 2
 *         build/common/tl-lab work 03 16 64 64 64 L GLD GST SLD SST
 *                                                  the lab's work rule on counts measured elsewhere
 *                                                  (ncu on a GPU): exit 0 as the lab asks, 1 not
 * Exit:   0 ok, 2 bad usage, an unknown lab or an unknown field (the message names the fix). */
#define _POSIX_C_SOURCE 200809L
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "labtable.h"
#include "tilelab.h"

static void usage(FILE *out)
{
    fputs("usage: tl-lab list | dir NN | files NN | title NN | get NN FIELD | fields | rubric\n"
          "       tl-lab readme [--check] FILE... | work NN TILE M K N COUNTS... | args NN OPTIONS...\n"
          "The lab table (common/labtable.c) for scripts. NN: 01, 1 or the lab's folder name.\n"
          "  list          the lab ids, one a line\n"
          "  dir NN        the lab's folder name (labs/DIR)\n"
          "  files NN      the student files, one a line\n"
          "  title NN      the lab's title\n"
          "  get NN FIELD  one fact (a list: one item a line; empty when the lab has none)\n"
          "  fields        the FIELD names get knows\n"
          "  rubric        the rubric in Markdown (what grader/rubric.md holds)\n"
          "  readme [--check] FILE...  rewrite the tables of labs between FILE's '<!-- tl-lab table'\n"
          "                markers from the table; --check: rewrite nothing, exit 1 when one differs\n"
          "  work NN TILE M K N LAUNCHES GLOBAL_LOADS GLOBAL_STORES SHARED_LOADS SHARED_STORES\n"
          "                the lab's work rule (tl_work_judge) on one case's counts: the figures, then\n"
          "                the headline when the work is not what the lab asks (exit 1)\n"
          "  args NN OPTIONS...  the lab program's options read as it reads them (what kit check passes\n"
          "                it), before it is built: an unknown one (with the nearest, TL_KIT_OPTIONS's too),\n"
          "                a missing or bad value is one line on stderr, exit 2\n"
          "exit codes: 0 ok, 1 the work is not what the lab asks, 2 bad usage, unknown lab or unknown field\n", out);
}

typedef enum { F_STR, F_INT, F_REAL, F_SPECIAL } ftype;

typedef struct field {
    const char *name;
    ftype       type;
    size_t      off;
    const char *what;
} field;

#define S(f, w) {#f, F_STR, offsetof(tl_lab_info, f), w}
#define I(f, w) {#f, F_INT, offsetof(tl_lab_info, f), w}
#define R(f, w) {#f, F_REAL, offsetof(tl_lab_info, f), w}
#define X(n, w) {n, F_SPECIAL, 0, w}

static const field fields[] = {
    S(id, "the lab's id, 01"),
    S(dir, "its folder name (labs/DIR)"),
    S(title, "its title"),
    X("files", "the student files, one a line"),
    S(binary, "the student build under a build folder"),
    S(ref_binary, "the reference solution's build under a build folder"),
    S(emu_target, "the emulated build's ninja target (empty: none)"),
    S(emu_binary, "the emulated build under a build folder (empty: none)"),
    S(emu_ref_binary, "the reference's emulated build under a build folder (empty: none)"),
    I(gpu, "1: it runs on a GPU"),
    X("emulated", "1: it has an emulated build"),
    X("work", "1: the grader judges the work its kernels do (launches, loads per multiply-add)"),
    I(own_main, "1: lab.c has its own main (no --serve)"),
    S(public_sizes, "the public sizes, as --sizes takes them (empty: own main)"),
    I(own_main_size, "own main: the default of its --size"),
    X("repeat", "checked runs per GPU case by default"),
    S(yardstick, "the kit-code variant it also serves when built with it (cublas)"),
    X("variants", "the graded variants, one a line"),
    X("all_variants", "the graded variants, then the yardstick, one a line"),
    I(hidden_count, "hidden sizes drawn from the secret seed"),
    I(hidden_min, "their smallest"),
    I(hidden_max, "their largest"),
    I(hidden_ragged, "1: one small odd size and one 64q+1"),
    I(hidden_rect, "1: rectangular hidden sizes as well"),
    I(hidden_multiple, "> 0: hidden sizes are multiples of this"),
    S(safety_sizes, "the sanitizer runs' sizes"),
    S(speed_size, "the timed case's size"),
    X("speed_variant", "the variant the speed test times"),
    R(case_limit_s, "CPU-time limit of one case, seconds (the wall clock ends it at TL_WALL_BACKSTOP_* times that)"),
    R(sanitizer_limit_s, "CPU-time limit of one sanitizer case, seconds"),
    X("points", "the rubric's total"),
    X("tests", "the rubric's tests: points, a tab, the name; one a line"),
};
#define NFIELDS (sizeof fields / sizeof fields[0])

static int special(const tl_lab_info *l, const char *name)
{
    if (strcmp(name, "files") == 0) {
        for (int i = 0; i < TL_LAB_MAX_FILES && l->files[i]; ++i)
            printf("%s\n", l->files[i]);
    } else if (strcmp(name, "emulated") == 0) {
        printf("%d\n", l->emu_binary != NULL);
    } else if (strcmp(name, "work") == 0) {
        printf("%d\n", l->work.kernel != 0);
    } else if (strcmp(name, "repeat") == 0) {
        printf("%d\n", l->repeat > 1 ? l->repeat : 1);
    } else if (strcmp(name, "variants") == 0 || strcmp(name, "all_variants") == 0) {
        for (int i = 0; i < l->nvariants; ++i)
            printf("%s\n", l->variants[i].name);
        if (l->yardstick && strcmp(name, "all_variants") == 0)
            printf("%s\n", l->yardstick);
    } else if (strcmp(name, "speed_variant") == 0) {
        const char *v = tl_lab_speed_variant(l);
        printf("%s\n", v ? v : "");
    } else if (strcmp(name, "points") == 0) {
        printf("%g\n", tl_lab_points(l));
    } else if (strcmp(name, "tests") == 0) {
        for (int i = 0; i < l->ntests; ++i)
            printf("%g\t%s\n", l->tests[i].points, l->tests[i].name);
    }
    return TL_EXIT_OK;
}

static int get(const tl_lab_info *l, const char *name)
{
    for (size_t i = 0; i < NFIELDS; ++i) {
        const field *f = &fields[i];
        if (strcmp(f->name, name) != 0)
            continue;
        const char *base = (const char *)l;
        switch (f->type) {
        case F_STR: {
            const char *s = *(const char *const *)(base + f->off);
            printf("%s\n", s ? s : "");
            break;
        }
        case F_INT: printf("%d\n", *(const int *)(base + f->off)); break;
        case F_REAL: printf("%g\n", *(const double *)(base + f->off)); break;
        case F_SPECIAL: return special(l, name);
        }
        return TL_EXIT_OK;
    }
    fprintf(stderr, "tl-lab: no field '%s'; 'tl-lab fields' lists them\n", name);
    return TL_EXIT_USAGE;
}

static const tl_lab_info *lab_or_die(const char *id)
{
    const tl_lab_info *l = tl_lab_find(id);
    if (!l) {
        fprintf(stderr, "tl-lab: no lab '%s': the labs are", id);
        for (int i = 0; i < tl_nlabs; ++i)
            fprintf(stderr, " %s", tl_labs[i].id);
        fprintf(stderr, " (give 01, 1 or the folder name, e.g. %s)\n", tl_labs[0].dir);
    }
    return l;
}

/* args: ARGV (argv[0] the lab) read as the lab program reads its options (cli.c, drivercli.c): an
 * unknown option, a missing or bad value, a stray argument is the program's one line, exit 2. */
static int check_args(const tl_lab_info *l, int argc, char **argv)
{
    static tl_lab_opts o;
    char msg[400];
    int help;
    if (tl_lab_parse_options(l, argc, argv, &o, &help, getenv("TL_KIT_OPTIONS"), msg, sizeof msg) != 0) {
        fprintf(stderr, "%s\n", msg);
        return TL_EXIT_USAGE;
    }
    return TL_EXIT_OK;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return TL_EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        usage(stdout);
        return TL_EXIT_OK;
    }
    if (strcmp(cmd, "work") == 0) {
        if (argc != 12) {
            fprintf(stderr, "tl-lab work: takes 11 arguments (NN TILE M K N and five counts), got %d\n", argc - 2);
            usage(stderr);
            return TL_EXIT_USAGE;
        }
        const tl_lab_info *l = lab_or_die(argv[2]);
        if (!l)
            return TL_EXIT_USAGE;
        int tile, m, k, n;
        tl_work_counts c = {0};
        if (sscanf(argv[3], "%d", &tile) != 1 || sscanf(argv[4], "%d", &m) != 1 || sscanf(argv[5], "%d", &k) != 1 ||
            sscanf(argv[6], "%d", &n) != 1 || m < 1 || k < 1 || n < 1 || tile < 0 ||
            sscanf(argv[7], "%llu", &c.launches) != 1 || sscanf(argv[8], "%llu", &c.global_loads) != 1 ||
            sscanf(argv[9], "%llu", &c.global_stores) != 1 || sscanf(argv[10], "%llu", &c.shared_loads) != 1 ||
            sscanf(argv[11], "%llu", &c.shared_stores) != 1) {
            fprintf(stderr, "tl-lab work: TILE, M, K, N and the counts must be whole numbers (M, K, N >= 1)\n");
            return TL_EXIT_USAGE;
        }
        char head[480], fig[480];
        int bad = tl_work_judge(l, tile, m, k, n, &c, head, sizeof head, fig, sizeof fig);
        printf("%s\n", fig[0] ? fig : "no work rule for this lab");
        if (bad)
            printf("%s\n", head);
        return bad ? TL_EXIT_FAIL : TL_EXIT_OK;
    }
    if (strcmp(cmd, "args") == 0) {
        if (argc < 3) {
            fprintf(stderr, "tl-lab args: give the lab, then its program's options: tl-lab args 03 --sizes 100\n");
            return TL_EXIT_USAGE;
        }
        const tl_lab_info *l = lab_or_die(argv[2]);
        if (!l)
            return TL_EXIT_USAGE;
        return l->own_main ? TL_EXIT_OK : check_args(l, argc - 2, argv + 2);   /* lab 05's main is its own */
    }
    if (strcmp(cmd, "readme") == 0) {
        int check = argc > 2 && strcmp(argv[2], "--check") == 0, worst = 0;
        if (argc < 3 + check) {
            fprintf(stderr, "tl-lab readme: give the README files, e.g. README.md grader/README.md\n");
            return TL_EXIT_USAGE;
        }
        for (int i = 2 + check; i < argc; ++i) {
            int rc = tl_lab_doc_splice(argv[i], check);
            worst = rc > worst ? rc : worst;
        }
        return worst == 2 ? TL_EXIT_USAGE : worst == 1 ? TL_EXIT_FAIL : TL_EXIT_OK;
    }
    int want = strcmp(cmd, "get") == 0 ? 4
             : strcmp(cmd, "dir") == 0 || strcmp(cmd, "files") == 0 || strcmp(cmd, "title") == 0 ? 3
             : strcmp(cmd, "list") == 0 || strcmp(cmd, "rubric") == 0 || strcmp(cmd, "fields") == 0 ? 2 : 0;
    if (!want) {
        fprintf(stderr, "tl-lab: no command '%s'\n", cmd);
        usage(stderr);
        return TL_EXIT_USAGE;
    }
    if (argc != want) {
        fprintf(stderr, "tl-lab %s: takes %d argument%s, got %d\n", cmd, want - 2, want == 3 ? "" : "s", argc - 2);
        usage(stderr);
        return TL_EXIT_USAGE;
    }
    if (strcmp(cmd, "list") == 0) {
        for (int i = 0; i < tl_nlabs; ++i)
            printf("%s\n", tl_labs[i].id);
        return TL_EXIT_OK;
    }
    if (strcmp(cmd, "fields") == 0) {
        for (size_t i = 0; i < NFIELDS; ++i)
            printf("%-18s %s\n", fields[i].name, fields[i].what);
        return TL_EXIT_OK;
    }
    if (strcmp(cmd, "rubric") == 0) {
        tl_lab_rubric(stdout);
        return fflush(stdout) == 0 && !ferror(stdout) ? TL_EXIT_OK : TL_EXIT_FAIL;
    }
    const tl_lab_info *l = lab_or_die(argv[2]);
    if (!l)
        return TL_EXIT_USAGE;
    if (strcmp(cmd, "dir") == 0)
        return get(l, "dir");
    if (strcmp(cmd, "title") == 0)
        return get(l, "title");
    if (strcmp(cmd, "files") == 0)
        return get(l, "files");
    return get(l, argv[3]);
}
