/* test_kit_plots.c: plots/kit-plots.sh end to end: it renders 5 charts x 3 formats that are valid
 * images, and it refuses what it must (no gnuplot, no dataset, bad records) with exit 2. The
 * rendering tests are skipped, never passed, when gnuplot is not installed. */
#include "plots_test.h"

#include <stdint.h>

static run_result result;
static char build[256];   /* a temporary TL_BUILD: the charts land in build/plots/ */

static void fresh_build(void) { make_temp_dir(build, sizeof build); }
static void drop_build(void) { remove_tree(build); }

static const char *const charts[] = {"ladder", "roofline", "mission", "gflops-vs-size", "cpu-baseline",
                                     "boundary-cost", "rectangular", "tile-occupancy-sweep", "nbody", "lab06"};

static int have_gnuplot(void)
{
    static run_result probe;
    char *argv[] = {"sh", "-c", "command -v gnuplot", NULL};
    run(&probe, argv, NULL);
    return probe.code == 0;
}

/* sh plots/kit-plots.sh ARGS... with TL_BUILD, TL_PLOTPREP and the extra settings in ENV. */
static void kit_plots(const char *records, char *const env_extra[])
{
    char tl_build[300], tl_plotprep[4200];
    snprintf(tl_build, sizeof tl_build, "TL_BUILD=%s", build);
    snprintf(tl_plotprep, sizeof tl_plotprep, "TL_PLOTPREP=%s", env_or_die("TL_PLOTPREP"));
    char *env[8] = {tl_build, tl_plotprep};
    size_t n = 2;
    for (size_t i = 0; env_extra && env_extra[i] && n < 7; i++)
        env[n++] = env_extra[i];
    env[n] = NULL;
    char *argv[] = {"sh", (char *)env_or_die("TL_KIT_PLOTS"), (char *)records, NULL};
    run(&result, argv, env);
}

static uint32_t be32(const unsigned char *p) { return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3]; }

static void assert_png(const char *path, const unsigned char *b, size_t n)
{
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    cr_assert(n > 33 && memcmp(b, sig, 8) == 0, "%s: no PNG signature", path);
    cr_assert(memcmp(b + 12, "IHDR", 4) == 0, "%s: first chunk is not IHDR", path);
    uint32_t w = be32(b + 16), h = be32(b + 20);
    cr_assert(w >= 640 && w <= 8000 && h >= 360 && h <= 8000, "%s: PNG is %u x %u, not a slide-sized chart", path,
              w, h);
}

static void assert_pdf(const char *path, const char *b, size_t n)
{
    cr_assert(n > 64 && memcmp(b, "%PDF-", 5) == 0, "%s: no %%PDF- header", path);
    size_t end = n;
    while (end > 0 && (b[end - 1] == '\n' || b[end - 1] == '\r' || b[end - 1] == ' '))
        end--;
    cr_assert(end >= 5 && memcmp(b + end - 5, "%%EOF", 5) == 0, "%s: no %%%%EOF trailer", path);
}

static void assert_svg(const char *path, const char *b, size_t n)
{
    cr_assert(n > 64 && (strncmp(b, "<?xml", 5) == 0 || strncmp(b, "<svg", 4) == 0),
              "%s: does not start with <?xml or <svg", path);
    cr_assert(strstr(b, "<svg") != NULL, "%s: no <svg element", path);
    size_t end = n;
    while (end > 0 && (b[end - 1] == '\n' || b[end - 1] == '\r' || b[end - 1] == ' ' || b[end - 1] == '\t'))
        end--;
    cr_assert(end >= 6 && memcmp(b + end - 6, "</svg>", 6) == 0, "%s: does not end with </svg>", path);
}

/* All 24 files exist, are valid images, and kit-plots.sh said it wrote each of them. */
static void assert_all_charts(void)
{
    for (size_t i = 0; i < sizeof charts / sizeof charts[0]; i++) {
        static const char *const fmts[] = {"png", "pdf", "svg"};
        for (size_t j = 0; j < 3; j++) {
            char path[512];
            snprintf(path, sizeof path, "%s/plots/%s.%s", build, charts[i], fmts[j]);
            size_t n = 0;
            char *b = slurp_file(path, &n);
            cr_assert_not_null(b, "%s was not written\n--- stdout:\n%s\n--- stderr:\n%s", path, result.out, result.err);
            if (j == 0)
                assert_png(path, (const unsigned char *)b, n);
            else if (j == 1)
                assert_pdf(path, b, n);
            else
                assert_svg(path, b, n);
            free(b);
            char said[600];
            snprintf(said, sizeof said, "wrote %s ", path);
            assert_contains(result.out, said, "kit-plots.sh's report");
            snprintf(path, sizeof path, "%s/plots/.%s.%s.tmp", build, charts[i], fmts[j]);
            cr_assert(access(path, F_OK) != 0, "temporary file %s was left behind", path);
        }
    }
}

TestSuite(kit_plots, .init = fresh_build, .fini = drop_build, .timeout = 120);

Test(kit_plots, renders_eight_charts_in_three_formats_from_the_synthetic_ladder)
{
    if (!have_gnuplot())
        cr_skip_test("gnuplot is not installed (apt-get install --no-install-recommends gnuplot-nox)");
    kit_plots(data_path("synthetic-ladder.csv"), NULL);
    assert_run_code(&result, 0);
    assert_all_charts();
    assert_contains(result.out, "drawn from: ", "kit-plots.sh's report");
    char path[512];
    snprintf(path, sizeof path, "%s/plots/measured.tex", build);
    char *tex = slurp_file(path, NULL);
    cr_assert_not_null(tex, "no %s: the slides' figures come from the same run", path);
    assert_contains(tex, "\\newcommand{\\tlsize}{4096}", "measured.tex");
    free(tex);
}

Test(kit_plots, renders_every_chart_from_version_1_records_without_traffic)
{
    if (!have_gnuplot())
        cr_skip_test("gnuplot is not installed (apt-get install --no-install-recommends gnuplot-nox)");
    kit_plots(data_path("synthetic.csv"), NULL);
    assert_run_code(&result, 0);
    assert_all_charts();
}

Test(kit_plots, renders_every_chart_when_most_series_have_no_data)
{
    if (!have_gnuplot())
        cr_skip_test("gnuplot is not installed (apt-get install --no-install-recommends gnuplot-nox)");
    kit_plots(data_path("tiny.csv"), NULL);
    assert_run_code(&result, 0);
    assert_all_charts();
}

/* These refusals come before gnuplot runs: TL_GNUPLOT=true stands in for it, so they run anywhere. */

Test(kit_plots, says_which_package_to_install_when_gnuplot_is_missing)
{
    char *env[] = {"TL_GNUPLOT=/nonexistent/gnuplot", NULL};
    kit_plots(data_path("synthetic.csv"), env);
    assert_run_code(&result, 2);
    assert_contains(result.err, "apt-get install --no-install-recommends gnuplot-nox", "stderr");
}

Test(kit_plots, passes_on_the_plotprep_message_for_bad_records)
{
    char *env[] = {"TL_GNUPLOT=true", NULL};
    kit_plots(data_path("bad-header.csv"), env);
    assert_run_code(&result, 2);
    assert_contains(result.err, "bad-header.csv:7: header field 17 is 'gflop'", "stderr");
}

Test(kit_plots, refuses_when_the_kit_ships_no_dataset)
{
    /* A kit top folder whose plots/data/ is empty; the script itself is the real one. */
    char root[300], data[340], tl_root[320];
    snprintf(root, sizeof root, "%s/kit", build);
    snprintf(data, sizeof data, "%s/plots/data", root);
    char *mk[] = {"mkdir", "-p", data, NULL};
    run(&result, mk, NULL);
    assert_run_code(&result, 0);
    snprintf(tl_root, sizeof tl_root, "TL_ROOT=%s", root);
    char *env[] = {tl_root, "TL_GNUPLOT=true", NULL};
    kit_plots(NULL, env);
    assert_run_code(&result, 2);
    assert_contains(result.err, "no records", "stderr");
    assert_contains(result.err, "./kit bench", "stderr");
}

Test(kit_plots, refuses_a_build_folder_that_meson_did_not_configure)
{
    char *env[] = {"TL_GNUPLOT=true", "TL_PLOTPREP=", NULL};
    kit_plots(data_path("synthetic.csv"), env);
    assert_run_code(&result, 2);
    assert_contains(result.err, "is not a configured Meson build folder", "stderr");
}

Test(kit_plots, draws_the_lecturers_newest_bench_records_and_says_which)
{
    char dir[300], older[340], newer[340];
    snprintf(dir, sizeof dir, "%s/bench", build);
    snprintf(older, sizeof older, "%s/records-old.csv", dir);
    snprintf(newer, sizeof newer, "%s/records-new.csv", dir);
    char *mk[] = {"mkdir", "-p", dir, NULL};
    run(&result, mk, NULL);
    char *cp1[] = {"cp", (char *)data_path("tiny.csv"), older, NULL};
    run(&result, cp1, NULL);
    char *touch[] = {"touch", "-d", "2020-01-01", older, NULL};
    run(&result, touch, NULL);
    char *cp2[] = {"cp", (char *)data_path("synthetic-ladder.csv"), newer, NULL};
    run(&result, cp2, NULL);
    char *env[] = {"TL_GNUPLOT=true", NULL};
    kit_plots(NULL, env);
    char want[400];
    snprintf(want, sizeof want, "drawing your newest records: %s", newer);
    assert_contains(result.out, want, "kit-plots.sh's report");
}

Test(kit_plots, a_shipped_dataset_passed_alone_gets_its_devices_supplements)
{
    /* the H200 edition (./kit plots plots/data/nvidia-h200-DATE.csv) draws labs 07 and 08 as the H100 one
     * does: the supplements of its device are added, the other device's are not */
    char h200[4200];
    snprintf(h200, sizeof h200, "%s/plots/data/nvidia-h200-2026-11-22.csv", env_or_die("TL_ROOT"));
    char *env[] = {"TL_GNUPLOT=true", NULL}; /* tl-plotprep runs; no chart is drawn */
    kit_plots(h200, env);
    assert_contains(result.out, "extra/nvidia-h200-2026-11-26-lab07.csv (same device)", "kit-plots.sh's report");
    assert_contains(result.out, "extra/nvidia-h200-2026-11-26-lab08.csv (same device)", "kit-plots.sh's report");
    cr_assert_null(strstr(result.out, "extra/nvidia-h100"), "an H100 supplement joined the H200 edition:\n%s", result.out);
    char path[400];
    snprintf(path, sizeof path, "%s/plots/work/ladder.dat", build);
    char *l = slurp_file(path, NULL);
    cr_assert_not_null(l, "no %s\n%s", path, result.err);
    assert_contains(l, "\"tma\" 47579.4 93.2", "ladder.dat");          /* lab 07 against its run's cuBLAS */
    assert_contains(l, "\"wgmma_bf16\" 721965 96.2", "ladder.dat");   /* lab 08 against cuBLAS BF16 */
    free(l);
    /* records that are not a shipped dataset get no supplement */
    kit_plots(data_path("synthetic-ladder.csv"), env);
    cr_assert_null(strstr(result.out, "adding the supplement"), "a supplement joined other records:\n%s", result.out);
}
