/* test_slides.c: the lecture deck and its build (slides/).
 *
 *   meson test -C build --suite slides          (Criterion, TAP)
 *   build/tests/slides/test_slides --verbose    (one binary, readable messages)
 *
 * What is checked:
 *   - the deck shows only the charts the plots part promises, and all of them;
 *   - plots/kit-plots.sh really renders every chart the deck references (skipped
 *     until the plots part is in this tree, or without gnuplot);
 *   - the key figures, GPU and date come from the records, written by the program that prepares
 *     the charts (tl-plotprep --tex), so charts and numbers cannot disagree;
 *   - kit-slides.sh refuses a missing chart (exit 2, naming it), bad options and
 *     unreadable records;
 *   - the deck builds to a PDF of at least 15 pages naming the records' GPU
 *     (skipped, never passed, without pandoc or LaTeX).
 * Needs TL_ROOT (the kit's top folder) in the environment; meson sets it.
 */
#define _GNU_SOURCE /* asprintf, open_memstream, strndup */
#include <criterion/criterion.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The charts plots/kit-plots.sh renders into $TL_BUILD/plots/ (issue 7, CONTRACTS). */
static const char *const charts[] = {
    "ladder", "roofline", "mission", "gflops-vs-size", "cpu-baseline", "boundary-cost", "rectangular",
    "tile-occupancy-sweep", "nbody", "lab06",
};
#define NCHARTS (sizeof charts / sizeof charts[0])
#define MIN_PAGES 15

/* ---------------------------------------------------------------- helpers */

static const char *root(void)
{
    const char *r = getenv("TL_ROOT");
    cr_assert(r && *r, "TL_ROOT is not set: run the tests through meson (meson test -C build)");
    cr_assert(!strchr(r, '\''), "TL_ROOT '%s' holds a single quote; these tests cannot quote it", r);
    return r;
}

static char *path(const char *a, const char *b)
{
    char *p = NULL;
    cr_assert(asprintf(&p, "%s/%s", a, b) > 0);
    return p;
}

static bool exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

static char *slurp(const char *p)
{
    FILE *f = fopen(p, "rb");
    cr_assert(f, "cannot open '%s'", p);
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        fwrite(chunk, 1, n, m);
    fclose(f);
    fclose(m);
    return buf;
}

/* Runs cmd under sh, stdout and stderr into *out; returns the exit status (-1: signal). */
static int run(const char *cmd, char **out)
{
    char *full = NULL;
    cr_assert(asprintf(&full, "( %s\n) 2>&1", cmd) > 0);
    FILE *p = popen(full, "r");
    cr_assert(p, "cannot run: %s", cmd);
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, p)) > 0)
        fwrite(chunk, 1, n, m);
    fclose(m);
    int st = pclose(p);
    free(full);
    if (out)
        *out = buf;
    else
        free(buf);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static bool have(const char *tool)
{
    char *cmd = NULL;
    cr_assert(asprintf(&cmd, "command -v %s >/dev/null 2>&1", tool) > 0);
    bool ok = system(cmd) == 0;
    free(cmd);
    return ok;
}

static bool have_latex(void)
{
    return have("pandoc") && have("pdflatex") && have("kpsewhich") &&
           system("test -n \"$(kpsewhich beamer.cls)\" && test -n \"$(kpsewhich pgfcore.sty)\" && "
                  "test -n \"$(kpsewhich lmodern.sty)\"") == 0;
}

static char *tempdir(void)
{
    const char *t = getenv("TMPDIR");
    char *d = path(t && *t ? t : "/tmp", "tl-slides-test.XXXXXX");
    cr_assert(mkdtemp(d), "cannot create a temporary folder");
    return d;
}

static void rmtree(const char *d)
{
    char *cmd = NULL;
    if (asprintf(&cmd, "rm -rf '%s'", d) > 0 && strstr(d, "tl-slides-test."))
        (void)system(cmd);
    free(cmd);
}

/* The deck's image targets, as kit-slides.sh finds them: '![alt](TARGET)' on one line. */
static size_t deck_figures(char *figs[], size_t max)
{
    char *deck = slurp(path(root(), "slides/lecture.md"));
    size_t n = 0;
    for (char *line = strtok(deck, "\n"); line; line = strtok(NULL, "\n")) {
        for (char *p = strstr(line, "!["); p; p = strstr(p + 2, "![")) {
            char *close = strchr(p + 2, ']');
            if (!close || close[1] != '(')
                continue;
            char *end = strchr(close + 2, ')');
            if (!end)
                continue;
            cr_assert(n < max, "the deck references more than %zu images", max);
            figs[n++] = strndup(close + 2, (size_t)(end - close - 2));
        }
        /* a chart page: \tlchart{NAME} (slides/preamble.tex) */
        for (char *p = strstr(line, "\\tlchart{"); p; p = strstr(p + 9, "\\tlchart{")) {
            char *end = strchr(p + 9, '}');
            if (!end)
                continue;
            cr_assert(n < max, "the deck references more than %zu images", max);
            figs[n++] = strndup(p + 9, (size_t)(end - p - 9));
        }
    }
    free(deck);
    return n;
}

static bool is_chart(const char *name)
{
    for (size_t i = 0; i < NCHARTS; i++)
        if (strcmp(name, charts[i]) == 0)
            return true;
    return false;
}

static char *records(void)
{
    return path(root(), "tests/slides/data/synthetic.csv");
}

/* A copy of the kit's slides/ in a temporary TL_ROOT, with a stub plots/kit-plots.sh. */
static char *fake_root(const char *stub)
{
    char *d = tempdir();
    char *cmd = NULL;
    cr_assert(asprintf(&cmd, "mkdir -p '%s/plots' '%s/common' && cp -R '%s/slides' '%s/' && "
                       "cp '%s/common/kit-lib.sh' '%s/common/' && cat > '%s/plots/kit-plots.sh' <<'EOF'\n%s\nEOF",
                       d, d, root(), d, root(), d, d, stub) > 0);
    char *out = NULL;
    cr_assert_eq(run(cmd, &out), 0, "cannot set up a fake kit: %s", out);
    free(cmd);
    free(out);
    return d;
}

/* Page objects ('/Type /Page', not '/Pages'): kit-slides.sh keeps them out of compressed streams. */
/* A plots stand-in that writes every chart as a tiny valid 4 x 3 PNG (or all but SKIP). */
static const char *png_stub =
    "mkdir -p \"$TL_BUILD/plots\"\n"
    "\"$TL_PLOTPREP\" --tex \"$TL_BUILD/plots/measured.tex\" \"$@\" || exit 2\n"
    "echo \"kit plots: charts and measured.tex drawn from: $*\"\n"
    "for c in ladder roofline mission gflops-vs-size cpu-baseline boundary-cost rectangular tile-occupancy-sweep nbody lab06; do\n"
    "  [ \"$c\" = \"${SKIP:-}\" ] && continue\n"
    "  printf '\\211\\120\\116\\107\\015\\012\\032\\012\\000\\000\\000\\015\\111\\110\\104\\122\\000\\000"
    "\\000\\004\\000\\000\\000\\003\\010\\000\\000\\000\\000\\221\\237\\361\\032\\000\\000\\000\\016"
    "\\111\\104\\101\\124\\170\\234\\143\\370\\017\\004\\014\\160\\002\\000\\131\\265\\013\\365"
    "\\265\\136\\141\\060\\000\\000\\000\\000\\111\\105\\116\\104\\256\\102\\140\\202' "
    "> \"$TL_BUILD/plots/$c.png\"\n"
    "done";

static int pdf_page_objects(const char *pdf)
{
    char *cmd = NULL, *out = NULL;
    cr_assert(asprintf(&cmd, "LC_ALL=C grep -a -o '/Type */Pages*' '%s' | grep -c 'Page$'", pdf) > 0);
    run(cmd, &out);
    int pages = atoi(out);
    free(cmd);
    free(out);
    return pages;
}

/* pdfinfo (poppler-utils) when present, checked against the object count; else the object count. */
static int pdf_pages(const char *pdf)
{
    int objects = pdf_page_objects(pdf);
    if (!have("pdfinfo"))
        return objects;
    char *cmd = NULL, *out = NULL;
    cr_assert(asprintf(&cmd, "pdfinfo '%s' | sed -n 's/^Pages: *//p'", pdf) > 0);
    cr_assert_eq(run(cmd, &out), 0, "pdfinfo failed on %s: %s", pdf, out);
    int pages = atoi(out);
    cr_expect_eq(objects, pages, "counting '/Type /Page' objects gives %d, pdfinfo %d: the fallback "
                 "used without poppler would be wrong", objects, pages);
    free(cmd);
    free(out);
    return pages;
}

/* ---------------------------------------------------------------- the deck */

Test(deck, shows_every_chart_and_only_charts_the_plots_part_renders, .timeout = 10)
{
    char *figs[64];
    size_t n = deck_figures(figs, 64);
    cr_assert_gt(n, 0, "slides/lecture.md references no image");
    for (size_t i = 0; i < n; i++)
        cr_expect(is_chart(figs[i]),
                  "the deck shows '%s', which is not one of the charts plots/kit-plots.sh renders "
                  "(ladder, roofline, mission, gflops-vs-size, cpu-baseline, boundary-cost, rectangular, "
                  "tile-occupancy-sweep, nbody, lab06); "
                  "reference charts by name, without folder or extension", figs[i]);
    for (size_t c = 0; c < NCHARTS; c++) {
        bool used = false;
        for (size_t i = 0; i < n; i++)
            used = used || strcmp(figs[i], charts[c]) == 0;
        cr_expect(used, "the deck never shows the chart '%s'", charts[c]);
    }
}

Test(deck, has_at_least_15_slides_in_its_source, .timeout = 10)
{
    char *deck = slurp(path(root(), "slides/lecture.md"));
    int slides = 0;
    bool code = false;
    for (char *line = strtok(deck, "\n"); line; line = strtok(NULL, "\n")) {
        if (strncmp(line, "```", 3) == 0)
            code = !code;
        else if (!code && strncmp(line, "## ", 3) == 0)
            slides++;
    }
    cr_expect_geq(slides, MIN_PAGES, "slides/lecture.md has %d slides ('## ' headings); expected at least %d",
                  slides, MIN_PAGES);
    free(deck);
}

Test(deck, names_the_gpu_and_date_on_every_chart_slide, .timeout = 10)
{
    /* Every measurement slide must say where its numbers come from: \measured (GPU and date). */
    char *deck = slurp(path(root(), "slides/lecture.md"));
    int charts_shown = 0, measured_lines = 0;
    for (char *p = deck; (p = strstr(p, "](")); p += 2) {
        char *end = strchr(p, ')');
        if (end) {
            char *name = strndup(p + 2, (size_t)(end - p - 2));
            charts_shown += is_chart(name);
            free(name);
        }
    }
    for (char *p = deck; (p = strstr(p, "\\measured")); p += 9)
        measured_lines++;
    cr_expect_geq(measured_lines, charts_shown,
                  "the deck shows %d charts but names the GPU and date (\\measured) only %d times",
                  charts_shown, measured_lines);
    free(deck);
}

/* ---------------------------------------------------------------- the numbers */

/* tl-plotprep --tex FILE RECORDS...: the deck's macros, as kit-plots.sh writes them with the charts. */
static int tex_of(const char *records_path, char **out)
{
    const char *pp = getenv("TL_PLOTPREP");
    cr_assert(pp && *pp, "TL_PLOTPREP is not set: run the tests through meson");
    char *d = tempdir(), *cmd = NULL;
    cr_assert(asprintf(&cmd, "'%s' --tex '%s/m.tex' '%s' && cat '%s/m.tex'", pp, d, records_path, d) > 0);
    int rc = run(cmd, out);
    free(cmd);
    rmtree(d);
    return rc;
}

Test(figures, come_from_the_records_pass_rows_only, .timeout = 20)
{
    char *out = NULL;
    cr_assert_eq(tex_of(records(), &out), 0, "tl-plotprep --tex failed: %s", out);
    cr_expect(strstr(out, "\\newcommand{\\tldevice}{synthetic test data (not measured)}"), "device not read:\n%s", out);
    cr_expect(strstr(out, "\\newcommand{\\tldate}{2026-11-20}"), "date not read:\n%s", out);
    cr_expect(strstr(out, "\\newcommand{\\tlbw}{3,900}"), "copy bandwidth not read:\n%s", out);
    cr_expect(strstr(out, "\\newcommand{\\tlpeak}{51,000}"), "FMA peak not read:\n%s", out);
    /* 8192 appears only as a FAIL row: the largest size is 4096 */
    cr_expect(strstr(out, "\\newcommand{\\tlsize}{4096}"), "the size should be 4096 (a FAIL row does not count):\n%s", out);
    cr_expect(strstr(out, "\\newcommand{\\tlnaivebound}{975}"), "naive model bound should be 3900/4 = 975:\n%s", out);
    cr_expect(strstr(out, "\\newcommand{\\tlcublas}{41,879}"), "cuBLAS at 4096 not read:\n%s", out);
    cr_expect(strstr(out, "\\newcommand{\\tlladdertable}"), "no ladder table:\n%s", out);
    /* version 1 records: no traffic, no L2 ceiling: said, not invented */
    cr_expect(strstr(out, "\\newcommand{\\tltraffic}{none}"), "traffic should be 'none':\n%s", out);
    cr_expect(strstr(out, "\\newcommand{\\tlltwobw}{n/a}"), "a missing ceiling should print n/a:\n%s", out);
    free(out);
}

Test(figures, escape_latex_in_device_names, .timeout = 20)
{
    char *d = tempdir();
    char *f = path(d, "odd.csv");
    FILE *w = fopen(f, "w");
    cr_assert(w);
    fputs("# tilelab_records: 1\n# device: GPU_X & co #1 100%\n# date: 2026-11-21T00:00:00Z\n"
          "kind,lab,variant,m,k,n,tile,regs,smem_bytes,occ_calc,occ_api,status,reps,median_ms,min_ms,max_ms,gflops,gbps\n"
          "ceiling,,copy_bandwidth,,,,,,,,,PASS,20,1,1,1,,3000\n"
          "ceiling,,fma_peak,,,,,,,,,PASS,20,1,1,1,60000,\n"
          "gemm,02,naive,300,300,300,16,,,,,PASS,5,1,1,1,12.5,\n", w);
    fclose(w);
    char *out = NULL;
    cr_assert_eq(tex_of(f, &out), 0, "tl-plotprep --tex failed: %s", out);
    cr_expect(strstr(out, "{GPU\\_X \\& co \\#1 100\\%}"), "device name not escaped for LaTeX:\n%s", out);
    cr_expect(strstr(out, "\\newcommand{\\tlnaive}{12.5}"), "naive at 300 not read:\n%s", out);
    cr_expect(strstr(out, "\\newcommand{\\tlcublas}{n/a}"), "a kernel not measured should print n/a:\n%s", out);
    free(out);
    rmtree(d);
}

/* ---------------------------------------------------------------- kit-slides.sh */

Test(kit_slides, help_exits_0_and_an_unknown_option_exits_2, .timeout = 20)
{
    char *cmd = NULL, *out = NULL;
    cr_assert(asprintf(&cmd, "TL_BUILD=/nonexistent sh '%s/slides/kit-slides.sh' --help", root()) > 0);
    cr_expect_eq(run(cmd, &out), 0, "--help: %s", out);
    cr_expect(strstr(out, "usage:"), "--help prints no usage: %s", out);
    free(cmd);
    cr_assert(asprintf(&cmd, "TL_BUILD=/nonexistent sh '%s/slides/kit-slides.sh' --bogus", root()) > 0);
    cr_expect_eq(run(cmd, &out), 2, "--bogus should exit 2: %s", out);
    cr_expect(strstr(out, "--bogus"), "the error should name the option: %s", out);
}

Test(kit_slides, an_unreadable_or_foreign_records_file_exits_2, .timeout = 20)
{
    char *d = fake_root("exit 0");
    char *cmd = NULL, *out = NULL;
    cr_assert(asprintf(&cmd, "TL_ROOT='%s' TL_BUILD='%s/build' sh '%s/slides/kit-slides.sh' '%s/nope.csv'", d, d, d, d) > 0);
    cr_expect_eq(run(cmd, &out), 2, "a missing records file should exit 2: %s", out);
    cr_expect(strstr(out, "nope.csv"), "the error should name the file: %s", out);
    free(cmd);
    cr_assert(asprintf(&cmd, "TL_ROOT='%s' TL_BUILD='%s/build' sh '%s/slides/kit-slides.sh' '%s/slides/lecture.md'", d, d, d, d) > 0);
    cr_expect_eq(run(cmd, &out), 2, "a file that is not a records file should exit 2: %s", out);
    cr_expect(strstr(out, "tilelab_records"), "the error should say what a records file holds: %s", out);
    rmtree(d);
}

Test(kit_slides, a_missing_chart_stops_the_build_with_exit_2_naming_it, .timeout = 30)
{
    /* a plots stand-in that renders every chart but 'roofline' */
    char *d = fake_root(png_stub);
    char *cmd = NULL, *out = NULL;
    cr_assert(asprintf(&cmd, "SKIP=roofline TL_ROOT='%s' TL_BUILD='%s/build' sh '%s/slides/kit-slides.sh' '%s'", d, d, d, records()) > 0);
    cr_expect_eq(run(cmd, &out), 2, "a missing chart should exit 2: %s", out);
    cr_expect(strstr(out, "'roofline'"), "the error should name the missing chart 'roofline': %s", out);
    char *pdf = path(d, "build/slides/lecture.pdf");
    cr_expect(!exists(pdf), "no PDF may be written when a chart is missing");
    rmtree(d);
}

Test(kit_slides, a_failing_plots_step_stops_the_build_with_its_exit_code, .timeout = 30)
{
    char *d = fake_root("echo 'kit-plots: broken on purpose' >&2; exit 1");
    char *cmd = NULL, *out = NULL;
    cr_assert(asprintf(&cmd, "TL_ROOT='%s' TL_BUILD='%s/build' sh '%s/slides/kit-slides.sh' '%s'", d, d, d, records()) > 0);
    cr_expect_eq(run(cmd, &out), 1, "kit-plots.sh's exit 1 should come back: %s", out);
    cr_expect(strstr(out, "kit-plots.sh failed"), "the error should say the plots step failed: %s", out);
    rmtree(d);
}

Test(kit_slides, without_records_lets_the_plots_part_choose_and_says_which_file, .timeout = 30)
{
    /* without RECORDS, kit-plots.sh chooses (the newest bench records, else a shipped dataset): the
     * stub records what it was given and stops the build */
    char *d = fake_root("mkdir -p \"$TL_BUILD\"; printf '[%s]\\n' \"$#\" > \"$TL_BUILD/plots-args\"; exit 3");
    char *cmd = NULL, *out = NULL;
    cr_assert(asprintf(&cmd, "TL_ROOT='%s' TL_BUILD='%s/build' sh '%s/slides/kit-slides.sh'", d, d, d) > 0);
    cr_expect_eq(run(cmd, &out), 3, "the plots step's exit 3 should come back: %s", out);
    char *args = slurp(path(d, "build/plots-args"));
    cr_expect_str_eq(args, "[0]\n", "kit-plots.sh should be called without records, to choose them itself");
    rmtree(d);
}

/* ---------------------------------------------------------------- with the real plots part */

Test(plots, render_every_chart_the_deck_references, .timeout = 120)
{
    char *script = path(root(), "plots/kit-plots.sh");
    if (!exists(script))
        cr_skip_test("plots/kit-plots.sh is not in this tree yet (the plots part renders the charts)");
    if (!have("gnuplot"))
        cr_skip_test("gnuplot is not installed: plots/kit-plots.sh cannot render (apt-get install gnuplot-nox)");
    char *d = tempdir();
    char *cmd = NULL, *out = NULL;
    cr_assert(asprintf(&cmd, "TL_ROOT='%s' TL_BUILD='%s' sh '%s' '%s'", root(), d, script, records()) > 0);
    cr_assert_eq(run(cmd, &out), 0, "plots/kit-plots.sh failed on the test records: %s", out);
    char *figs[64];
    size_t n = deck_figures(figs, 64);
    for (size_t i = 0; i < n; i++) {
        char *png = NULL, *pdf = NULL;
        cr_assert(asprintf(&png, "%s/plots/%s.png", d, figs[i]) > 0);
        cr_assert(asprintf(&pdf, "%s/plots/%s.pdf", d, figs[i]) > 0);
        cr_expect(exists(png) || exists(pdf), "the deck shows '%s' but plots/kit-plots.sh rendered neither %s nor %s",
                  figs[i], png, pdf);
    }
    rmtree(d);
}

Test(build, makes_a_pdf_of_at_least_15_pages_naming_the_records_gpu, .timeout = 300)
{
    if (!have_latex())
        cr_skip_test("pandoc or pdflatex (with beamer, pgf, lmodern) is missing: "
                     "apt-get install --no-install-recommends pandoc texlive-latex-base "
                     "texlive-latex-recommended texlive-pictures lmodern");
    if (!exists(path(root(), "plots/kit-plots.sh")))
        cr_skip_test("plots/kit-plots.sh is not in this tree yet: the deck has no charts to build with");
    if (!have("gnuplot"))
        cr_skip_test("gnuplot is not installed: the charts cannot be rendered");
    char *d = tempdir();
    char *cmd = NULL, *out = NULL;
    cr_assert(asprintf(&cmd, "TL_ROOT='%s' TL_BUILD='%s' sh '%s/slides/kit-slides.sh' '%s'", root(), d, root(), records()) > 0);
    int rc = run(cmd, &out);
    cr_assert_eq(rc, 0, "kit-slides.sh exited %d: %s", rc, out);
    char *pdf = path(d, "slides/lecture.pdf");
    cr_assert(exists(pdf), "no %s after a successful build", pdf);
    int pages = pdf_pages(pdf);
    cr_expect_geq(pages, MIN_PAGES, "lecture.pdf has %d pages; expected at least %d", pages, MIN_PAGES);
    cr_expect(!strstr(out, "too tall"), "a slide of the deck overflows its page: %s", out);
    free(cmd);
    cr_assert(asprintf(&cmd, "ls -a '%s/slides' | grep -c '^\\.lecture-' || true", d) > 0);
    run(cmd, &out);
    cr_expect_eq(atoi(out), 0, "a temporary PDF was left behind in %s/slides", d);
    if (have("pdftotext")) {
        free(cmd);
        cr_assert(asprintf(&cmd, "pdftotext '%s' -", pdf) > 0);
        cr_assert_eq(run(cmd, &out), 0);
        cr_expect(strstr(out, "synthetic test data (not measured)"),
                  "the PDF does not name the GPU from the records ('synthetic test data (not measured)')");
        cr_expect(strstr(out, "2026-11-20"), "the PDF does not give the records' date 2026-11-20");
    }
    rmtree(d);
}

Test(build, a_deck_latex_rejects_exits_1_and_leaves_no_pdf, .timeout = 120)
{
    if (!have_latex())
        cr_skip_test("pandoc or pdflatex (with beamer, pgf, lmodern) is missing");
    char *d = fake_root(png_stub);
    char *cmd = NULL, *out = NULL;
    cr_assert(asprintf(&cmd, "printf '\\n## Broken\\n\\n\\\\thismacroisnotdefined\\n' >> '%s/slides/lecture.md'", d) > 0);
    cr_assert_eq(run(cmd, &out), 0, "%s", out);
    free(cmd);
    cr_assert(asprintf(&cmd, "TL_ROOT='%s' TL_BUILD='%s/build' sh '%s/slides/kit-slides.sh' '%s'", d, d, d, records()) > 0);
    cr_expect_eq(run(cmd, &out), 1, "a LaTeX error should exit 1: %s", out);
    cr_expect(strstr(out, "lecture.log"), "the error should point at the log: %s", out);
    cr_expect(strstr(out, "thismacroisnotdefined"), "the error should show LaTeX's complaint: %s", out);
    cr_expect(!exists(path(d, "build/slides/lecture.pdf")), "no lecture.pdf may appear after a failed build");
    free(cmd);
    cr_assert(asprintf(&cmd, "ls -a '%s/build/slides' | grep -c '^\\.lecture-' || true", d) > 0);
    run(cmd, &out);
    cr_expect_eq(atoi(out), 0, "a temporary PDF was left behind");
    rmtree(d);
}

Test(build, a_slide_too_tall_for_its_page_is_reported, .timeout = 120)
{
    if (!have_latex())
        cr_skip_test("pandoc or pdflatex (with beamer, pgf, lmodern) is missing");
    char *d = fake_root(png_stub);
    char *cmd = NULL, *out = NULL;
    cr_assert(asprintf(&cmd, "printf '\\n## Too long\\n\\n' >> '%s/slides/lecture.md' && "
                       "for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25; do "
                       "echo \"- bullet $i\" >> '%s/slides/lecture.md'; done", d, d) > 0);
    cr_assert_eq(run(cmd, &out), 0, "%s", out);
    free(cmd);
    cr_assert(asprintf(&cmd, "TL_ROOT='%s' TL_BUILD='%s/build' sh '%s/slides/kit-slides.sh' '%s'", d, d, d, records()) > 0);
    cr_expect_eq(run(cmd, &out), 0, "an overflowing slide is a warning, not a failure: %s", out);
    cr_expect(strstr(out, "1 slide(s) too tall"), "the overflowing slide should be reported once: %s", out);
    rmtree(d);
}
