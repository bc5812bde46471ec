/* labrubric.c: grader/rubric.md, written from the lab table (`tl-lab rubric`). The rules section is
 * the grader's policy in words; every number in it and every lab section comes from labtable.c and
 * param.h, so the rubric cannot drift from what the grader does (tests/meson.build compares the
 * checked-in rubric.md with this output). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "labtable.h"
#include "param.h"
#include "tilelab.h"

/* "1,15,17x3x4" -> "1, 15, 17x3x4" as written in the table, only the sizes variant v accepts (all
 * when v is NULL). */
static void sizes_list(FILE *out, const char *sizes, const tl_lab_variant *v)
{
    char buf[1024], err[160];
    snprintf(buf, sizeof buf, "%s", sizes ? sizes : "");
    int first = 1;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        tl_sizes s;
        if (tl_parse_sizes(tok, &s, err, sizeof err) != 0 || s.count != 1)
            continue;
        int m = s.m[0], k = s.k[0], n = s.n[0];
        if (v && v->square_only && !(m == k && k == n && !strchr(tok, 'x')))
            continue;
        if (v && v->multiple_of > 0 && (m % v->multiple_of || k % v->multiple_of || n % v->multiple_of))
            continue;
        fprintf(out, "%s%s", first ? "" : ", ", tok);
        first = 0;
    }
    if (first)
        fputs("(none)", out);
}

static void hidden_what(FILE *out, const tl_lab_info *l, const tl_lab_variant *v)
{
    fprintf(out, "correctness: %d %ssizes in %d..%d from the secret seed", l->hidden_count,
            v && v->square_only && l->hidden_rect ? "square " : "", l->hidden_min, l->hidden_max);
    if (l->hidden_multiple > 0)
        fprintf(out, ", multiples of %d (the first at most 480, so it runs emulated too)", l->hidden_multiple);
    else if (l->hidden_ragged)
        fputs(" (one small odd, one 64q+1)", out);
    if (l->hidden_rect && v && !v->square_only)
        fprintf(out, ", and %d m x k x n: m = 1, n = 1, k = 1, tall and skinny (m 1000..1500, k 2..40, "
                     "n 1..9), wide and flat, then any", l->hidden_count + 2);
}

static void test_row(FILE *out, const tl_lab_info *l, const tl_lab_test *t)
{
    const tl_lab_variant *v = t->variant ? tl_lab_variant_find(l, t->variant) : NULL;
    fprintf(out, "| %s | ", t->name);
    switch (t->kind) {
    case TL_TEST_PUBLIC:
        fputs("correctness: ", out);
        sizes_list(out, l->public_sizes, v);
        break;
    case TL_TEST_HIDDEN:
        hidden_what(out, l, v);
        break;
    case TL_TEST_RACECHECK:
    case TL_TEST_MEMCHECK:
        fprintf(out, "compute-sanitizer %s at ", t->kind == TL_TEST_RACECHECK ? "racecheck" : "memcheck");
        sizes_list(out, l->safety_sizes, NULL);
        break;
    case TL_TEST_SPEED:
        fprintf(out, "Width %s: ", l->speed_size ? l->speed_size : "?");
        if (t->tiers[0].max_ratio > 0) {
            fputs("tiers of the time ratio to the reference:", out);
            for (int i = 0; i < TL_LAB_MAX_TIERS && t->tiers[i].max_ratio > 0; ++i)
                fprintf(out, "%s up to %gx %g%%", i ? "," : "", t->tiers[i].max_ratio, 100 * t->tiers[i].credit);
            fputs(", slower 0", out);
        } else {
            fprintf(out, "full up to %gx the reference's time, linear to 0 at %gx", TL_SPEED_FULL, TL_SPEED_ZERO);
        }
        break;
    case TL_TEST_POLICY:
        fputs("static scan of ", out);
        for (int i = 0; i < TL_LAB_MAX_FILES && l->files[i]; ++i)
            fprintf(out, "%s%s", i ? ", " : "", l->files[i]);
        fputs(", and the seccomp filter at run time", out);
        break;
    case TL_TEST_DEVFACTS:
        fprintf(out, "`print_device_facts` asked through `lab%s --serve` (its lines on fd 4), each of the %d facts "
                "compared with the grader's own query of the device (`tl-device --facts`, another process; "
                "emulated: the emulator's model): integers exactly, the peak bandwidth within %g%%; points in "
                "proportion to the facts right", l->id, TL_FACT_COUNT, 100 * TL_FACTS_BW_TOL);
        break;
    case TL_TEST_CALC:
    case TL_TEST_CALC_API:
        break;
    }
    if (t->what)
        fprintf(out, "%s%s", t->kind == TL_TEST_CALC || t->kind == TL_TEST_CALC_API ? "" : "; ", t->what);
    fprintf(out, " | %g |\n", t->points);
}

static void shape(FILE *out, const tl_lab_variant *v)
{
    if (!v->square_only)
        fputs("m x k x n", out);
    else if (v->multiple_of > 0)
        fprintf(out, "square, multiples of %d", v->multiple_of);
    else
        fputs("square, any Width", out);
}

static void variants_line(FILE *out, const tl_lab_info *l)
{
    if (l->nvariants == 0)
        return;
    int same = 1;
    for (int i = 1; i < l->nvariants; ++i)
        same &= l->variants[i].square_only == l->variants[0].square_only &&
                l->variants[i].multiple_of == l->variants[0].multiple_of;
    fputs(l->nvariants > 1 ? "Variants " : "Variant ", out);
    for (int i = 0; i < l->nvariants; ++i) {
        const tl_lab_variant *v = &l->variants[i];
        fprintf(out, "%s`%s`", i == 0 ? "" : i + 1 == l->nvariants ? " and " : ", ", v->name);
        if (!same) {
            fputs(" (", out);
            shape(out, v);
            fputs(")", out);
        }
    }
    if (same) {
        fputs(l->nvariants > 1 ? " (all " : " (", out);
        shape(out, &l->variants[0]);
        fputs(")", out);
    }
    if (l->yardstick)
        fprintf(out, "; the kit's `%s` yardstick is not graded", l->yardstick);
    fputs(".\n\n", out);
}

static void limits_line(FILE *out, const tl_lab_info *l)
{
    fprintf(out, "Wall-clock limit %g s per case", l->case_limit_s);
    int sanitized = 0;
    for (int i = 0; i < l->ntests; ++i)
        sanitized |= l->tests[i].kind == TL_TEST_RACECHECK || l->tests[i].kind == TL_TEST_MEMCHECK;
    if (sanitized && l->sanitizer_limit_s > 0)
        fprintf(out, ", %g s per sanitizer case", l->sanitizer_limit_s);
    fputs(".\n", out);
    if (l->emu_binary && l->public_sizes) {
        tl_sizes s;
        char err[160];
        fputs("Emulated (no GPU): ", out);
        char buf[1024];
        snprintf(buf, sizeof buf, "%s", l->public_sizes);
        int n = 0;
        for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
            if (tl_parse_sizes(tok, &s, err, sizeof err) == 0 && (double)s.m[0] * s.k[0] * s.n[0] > TL_EMU_MAX_WORK)
                fprintf(out, "%s%s", n++ ? ", " : "public sizes ", tok);
        if (n)
            fprintf(out, " are not run (above %.0f^3); ", cbrt(TL_EMU_MAX_WORK));
        double speed = 0;
        for (int i = 0; i < l->ntests; ++i)
            if (l->tests[i].kind == TL_TEST_SPEED)
                speed += l->tests[i].points;
        fprintf(out, "speed is not graded, so the maximum is %g.\n", tl_lab_points(l) - speed);
    }
}

/* In two parts: ISO C's string literal limit is 4095 characters. */
static const char rules[] =
    "## How a test scores\n"
    "\n"
    "- **Correctness** (public and hidden): a test worth P points scores P x (work of the cases correct /\n"
    "  work of the cases run), each case weighing log2(1 + m*k*n); cases with every dimension below 4\n"
    "  earn nothing unless a larger one is correct too (size 1 is right by accident for most bugs).\n"
    "  A case is correct only when the product that came back on fd 4 passes the kit's checker\n"
    "  (`common/check.c`: per-element bound `2 k u (|M||N|)ij`, NaN/Inf always wrong) against the\n"
    "  double-precision reference computed by the grader itself. Public cases are the lab's public\n"
    "  sizes (the lab programs' default sizes); hidden cases are more sizes drawn from the secret\n"
    "  seed. Inputs always come from the secret seed.\n"
    "- A case that crashes, exits, prints instead of answering, or answers something malformed is wrong.\n"
    "  A case that hits the wall-clock limit is wrong, the rest of that variant's cases are not run (and\n"
    "  count as wrong), and after 4 time-outs in one submission nothing more of it runs.\n"
    "- **Safety** (GPU labs): the student's binary runs under `compute-sanitizer --tool racecheck` or\n"
    "  `--tool memcheck` with `--error-exitcode 99` at small sizes; all points when the sanitizer exits 0\n"
    "  and every case answered, none otherwise. No safety credit when no case stored its product\n"
    "  (every element of P still the poison: the skeleton's empty kernel has nothing to race on).\n"
    "  Without a GPU, the emulated build's race and bounds diagnostics decide; with neither, the test\n"
    "  is reported \"skipped: no GPU and no emulated build\" and counts neither way.\n"
    "- **Speed** (GPU labs): the reference solution's binary and the student's are timed on the same GPU\n"
    "  in the same run, one at a time (a lock), on the same inputs (`case V m k n 1`: median of %d timed\n"
    "  runs after %d warm-ups, CUDA events, L2 flushed). ratio = student median / reference median.\n"
    "  Credit, unless the lab's test states tiers: **full up to %gx, then linear down to 0 at %gx**\n"
    "  (`TL_SPEED_FULL`, `TL_SPEED_ZERO` in `common/labtable.h`; at %gx half the points). No speed\n"
    "  credit for a wrong result. Refused (not attempted, reported as such) under emulation or without\n"
    "  a GPU. The medians are measured inside the student's process (by the kit's harness: CUDA events\n"
    "  can only be recorded there), so the grader cross-checks them with the wall clock: a timed\n"
    "  request does %d more runs than an untimed one, and the difference of their wall-clock times\n"
    "  bounds one run from below. A reported median 3x below that bound, while the reference's agrees\n"
    "  with its own, is marked REVIEW for the instructor (not scored).\n";

static const char rules_rest[] =
    "- **Policy** (every lab, 5 points): all or nothing. (a) A static scan of the student files, after\n"
    "  comments and string literals are blanked, for calls a lab file never needs: the network\n"
    "  (`socket`, `connect`, `bind`, `getaddrinfo`, ..., and `#include <sys/socket.h>`, `<netinet/...>`,\n"
    "  `<arpa/inet.h>`, `<netdb.h>`), processes (`fork`, `vfork`, `clone`, `exec*`, `system`, `popen`,\n"
    "  `posix_spawn`, `kill`), files (`fopen`, `freopen`, `open`, `openat`, `creat`, `unlink`, `remove`,\n"
    "  `rename`, `opendir`, `mkdir`, ...), `syscall`, `dlopen`, `getenv`, inline `asm`. A call is a name\n"
    "  followed by `(`, not after `.`, `->` or `::`; the report names the file, the line and the call.\n"
    "  (b) At run time the sandboxed lab program runs under a seccomp filter (installed in the child\n"
    "  just before exec: `PR_SET_NO_NEW_PRIVS`, then a BPF filter with an architecture check) that\n"
    "  kills the process (`SECCOMP_RET_KILL_PROCESS`, SIGSYS) when it asks for an `AF_INET`, `AF_INET6`\n"
    "  or `AF_PACKET` socket; the case then fails with \"killed: tried to open a network socket\", and the\n"
    "  policy test fails too. `AF_UNIX` and `AF_NETLINK` stay allowed (the CUDA driver uses them);\n"
    "  `connect`/`sendto` to an inet address need an inet socket first (BPF cannot read the address).\n"
    "  The filter is not used under compute-sanitizer (which talks to its target over TCP). The report\n"
    "  says whether seccomp was used; where it cannot be installed it says \"not used\" and the static\n"
    "  scan alone decides. A violation is named in results.json (the policy test's output and the top\n"
    "  output) and in summary.md.\n"
    "- **Emulated** (GPU labs without a GPU, or `--emulate`): the `labNN-emu` programs\n"
    "  (`labs/emulated/`). Correctness cases above %.0f^3 work (m*k*n, `TL_EMU_MAX_WORK`) are **not run\n"
    "  under emulation (too large for the CPU)**: neither passed nor failed; the test's points are\n"
    "  scaled over the cases run, and its output says which sizes were not run. Safety = the\n"
    "  emulator's diagnostics: any verdict it writes (one per diagnostic it prints) fails the test.\n"
    "  Speed is refused and reported as not graded, and so left out of the maximum:\n"
    "  an emulated class is graded out of the lab's points minus the speed points, which the\n"
    "  `Score: x/y` line shows.\n"
    "- **Not graded** is not zero: a test the grader could not run for its own reasons (no usable CUDA\n"
    "  device, no compute-sanitizer, no reference build) is listed as not graded and left out of the\n"
    "  maximum, so `Score: x/y` is over what was graded. results.json lists them under\n"
    "  `tilelab.not_graded`.\n"
    "- A build failure scores 0 on every test; the report quotes the compiler's first errors.\n";

void tl_lab_rubric(FILE *out)
{
    fputs("# Rubric: points per test, per lab\n"
          "\n"
          "Written by `build/common/tl-lab rubric` from the lab table, `common/labtable.c` (do not edit by\n"
          "hand: change the table, then `ninja -C build rubric`); a test fails when this file differs from\n"
          "the table. `./kit grade` prints points per test and then `Score: x/y`.\n"
          "\n", out);
    fprintf(out, rules, TL_TIMED_RUNS, TL_WARMUP_RUNS, TL_SPEED_FULL, TL_SPEED_ZERO,
            (TL_SPEED_FULL + TL_SPEED_ZERO) / 2, TL_TIMED_RUNS + TL_WARMUP_RUNS);
    fprintf(out, rules_rest, cbrt(TL_EMU_MAX_WORK));
    for (int i = 0; i < tl_nlabs; ++i) {
        const tl_lab_info *l = &tl_labs[i];
        fprintf(out, "\n## Lab %s: %s (%g points)\n\n", l->id, l->title, tl_lab_points(l));
        if (l->rubric_intro)
            fprintf(out, "%s\n", l->rubric_intro);
        variants_line(out, l);
        fputs("| test | what | points |\n|---|---|---|\n", out);
        for (int t = 0; t < l->ntests; ++t)
            test_row(out, l, &l->tests[t]);
        fputs("\n", out);
        limits_line(out, l);
        if (l->rubric_notes)
            fprintf(out, "\n%s", l->rubric_notes);
    }
}
