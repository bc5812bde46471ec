/* test_grader_unit.c: the grader's pieces that need no class run: the JSON text (cJSON and tg_utf8_clean), the speed
 * credit, the rubric table against grader/rubric.md and the labs' --help, the pristine copy's
 * exclusions. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <sched.h>
#include <signal.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "grade.h"
#include "labtable.h"
#include "policy.h"
#include "sandbox.h"
#include "util.h"

/* ------------------------------------------------------------ helpers */

/* What results.json holds for a string of any bytes: tg_utf8_clean, then cJSON's printer. */
static char *escape(const char *s, size_t len)
{
    char *clean = tg_utf8_clean(s, len);
    cr_assert(clean);
    cJSON *j = cJSON_CreateString(clean);
    char *out = cJSON_PrintUnformatted(j);
    cJSON_Delete(j);
    free(clean);
    return out;
}

static void assert_escapes(const char *in, size_t len, const char *want)
{
    char *got = escape(in, len);
    cr_assert_str_eq(got, want, "escaping %zu bytes: got %s, expected %s", len, got, want);
    free(got);
}

#define FFFD "\xef\xbf\xbd"   /* U+FFFD, the replacement character, in UTF-8 */

/* ------------------------------------------------------------ JSON (cJSON + tg_utf8_clean) */

Test(json, quotes_and_backslashes_are_escaped, .timeout = 10)
{
    assert_escapes("say \"hi\" \\ bye", 14, "\"say \\\"hi\\\" \\\\ bye\"");
}

Test(json, control_characters_become_short_or_u_escapes, .timeout = 10)
{
    assert_escapes("a\nb\tc\rd\be\ff", 11, "\"a\\nb\\tc\\rd\\be\\ff\"");
    assert_escapes("\x01\x1f", 2, "\"\\u0001\\u001f\"");
}

Test(json, an_embedded_nul_is_replaced_not_a_terminator, .timeout = 10)
{
    assert_escapes("a\0b", 3, "\"a" FFFD "b\"");
}

Test(json, valid_utf8_passes_unchanged, .timeout = 10)
{
    const char *s = "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80";   /* café € 😀 */
    char want[64];
    snprintf(want, sizeof want, "\"%s\"", s);
    assert_escapes(s, strlen(s), want);
}

Test(json, invalid_utf8_is_replaced_byte_by_byte, .timeout = 10)
{
    assert_escapes("a\xff" "b", 3, "\"a" FFFD "b\"");                      /* never valid        */
    assert_escapes("\xc0\xaf", 2, "\"" FFFD FFFD "\"");                    /* overlong '/'       */
    assert_escapes("\xed\xa0\x80", 3, "\"" FFFD FFFD FFFD "\"");           /* a UTF-16 surrogate */
    assert_escapes("\xe2\x82", 2, "\"" FFFD FFFD "\"");                    /* truncated          */
    assert_escapes("\xf4\x90\x80\x80", 4, "\"" FFFD FFFD FFFD FFFD "\"");  /* above U+10FFFF     */
    assert_escapes("\x80x", 2, "\"" FFFD "x\"");                           /* stray continuation */
}

Test(json, cjson_reads_back_what_was_written, .timeout = 10)
{
    char *got = escape("line 1\n\"quoted\" caf\xc3\xa9 \xff", 23);
    cJSON *j = cJSON_Parse(got);
    cr_assert(cJSON_IsString(j), "cJSON cannot read back %s", got);
    cr_assert_str_eq(j->valuestring, "line 1\n\"quoted\" caf\xc3\xa9 " FFFD);
    cJSON_Delete(j);
    free(got);
}

Test(json, every_byte_value_gives_valid_json_per_python, .timeout = 30)
{
    char all[256];
    for (int i = 0; i < 256; ++i)
        all[i] = (char)i;
    char *got = escape(all, sizeof all);
    char path[] = "/tmp/tl-json-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "{\"s\": %s}\n", got);
    fclose(f);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "python3 -c 'import json,sys; json.load(open(sys.argv[1], encoding=\"utf-8\"))' %s", path);
    int rc = system(cmd);
    unlink(path);
    free(got);
    if (rc == 127 << 8)
        cr_skip_test("python3 is not installed: cannot cross-check the JSON");
    cr_assert_eq(rc, 0, "python's json module rejects the output for bytes 0..255");
}

/* ------------------------------------------------------------ speed credit */

Test(speed, full_credit_within_1_2x_none_from_4x_linear_between, .timeout = 10)
{
    cr_assert_float_eq(tl_speed_credit(0.5), 1.0, 1e-12);
    cr_assert_float_eq(tl_speed_credit(1.2), 1.0, 1e-12);
    cr_assert_float_eq(tl_speed_credit(2.6), 0.5, 1e-12);
    cr_assert_float_eq(tl_speed_credit(4.0), 0.0, 1e-12);
    cr_assert_float_eq(tl_speed_credit(9.0), 0.0, 1e-12);
    cr_assert_float_eq(tl_speed_credit(0.0), 0.0, 1e-12, "a zero or missing ratio earns nothing");
}

/* The waits for a core a speed test leaves out of its wall-clock estimate (session 15): an honest
 * spinner descheduled between its kernels (the H100 class 0711Z: the solution's timed request 67 ms
 * longer than its untimed one under load), never more than its tree was off the CPU. */
Test(speed, waits_for_a_core_are_left_out_only_where_the_tree_was_off_the_cpu, .timeout = 10)
{
    /* one spinner: 100 ms of wall, 40 on the CPU, 60 waiting: all 60 left out */
    cr_assert_float_eq(tg_waits_left_out(60, 100, 40), 60, 1e-9);
    /* a forger's own spinners: 16 tasks waited 900 ms in all while its tree used 1500 ms of CPU in
     * 100 ms of wall: nothing left out */
    cr_assert_float_eq(tg_waits_left_out(900, 100, 1500), 0, 1e-9);
    /* waits beyond the time off the CPU are cut to it */
    cr_assert_float_eq(tg_waits_left_out(80, 100, 50), 50, 1e-9);
    /* nothing waited, or the CPU not known: nothing */
    cr_assert_float_eq(tg_waits_left_out(0, 100, 10), 0, 1e-9);
    cr_assert_float_eq(tg_waits_left_out(30, 100, -1), 0, 1e-9);
}

/* ------------------------------------------------------------ the table */

Test(labs, every_lab_is_worth_100_points, .timeout = 10)
{
    for (int i = 0; i < tl_nlabs; ++i)
        cr_assert_float_eq(tl_lab_points(&tl_labs[i]), 100.0, 1e-9, "lab %s is worth %g points", tl_labs[i].id,
                           tl_lab_points(&tl_labs[i]));
}

Test(labs, every_test_names_a_variant_of_its_lab, .timeout = 10)
{
    for (int i = 0; i < tl_nlabs; ++i)
        for (int t = 0; t < tl_labs[i].ntests; ++t) {
            const tl_lab_test *x = &tl_labs[i].tests[t];
            if (x->kind == TL_TEST_CALC || x->kind == TL_TEST_CALC_API || x->kind == TL_TEST_POLICY || x->kind == TL_TEST_DEVFACTS)
                continue;
            cr_assert(tl_lab_variant_find(&tl_labs[i], x->variant), "lab %s test '%s' names unknown variant '%s'",
                      tl_labs[i].id, x->name, x->variant);
        }
}

Test(labs, rubric_md_holds_the_same_points_as_the_code, .timeout = 10)
{
    char *md = tg_read_file(TL_SOURCE_ROOT "/grader/rubric.md", 1 << 20, NULL);
    cr_assert(md, "cannot read grader/rubric.md");
    for (int i = 0; i < tl_nlabs; ++i)
        for (int t = 0; t < tl_labs[i].ntests; ++t) {
            const tl_lab_test *x = &tl_labs[i].tests[t];
            char head[300];
            snprintf(head, sizeof head, "\n| %s |", x->name);
            char *row = strstr(md, head);
            cr_assert(row, "rubric.md has no row for lab %s test '%s'", tl_labs[i].id, x->name);
            char *end = strchr(row + 1, '\n');
            cr_assert(end);
            char want[32];
            snprintf(want, sizeof want, "| %g |", x->points);
            cr_assert(memmem(row, (size_t)(end - row), want, strlen(want)),
                      "rubric.md gives '%s' other points than labs.c (%g)", x->name, x->points);
        }
    free(md);
}

Test(labs, lab_lookup_accepts_01_1_and_the_folder_name, .timeout = 10)
{
    cr_assert_eq(tl_lab_find("01"), &tl_labs[0]);
    cr_assert_eq(tl_lab_find("1"), &tl_labs[0]);
    cr_assert_eq(tl_lab_find("01-cpu-baseline"), &tl_labs[0]);
    cr_assert_null(tl_lab_find("99"));
    cr_assert_null(tl_lab_find(""));
}

Test(labs, public_sizes_equal_each_built_labs_default_sizes, .timeout = 30)
{
    int checked = 0;
    for (int i = 0; i < tl_nlabs; ++i) {
        char bin[1024];
        snprintf(bin, sizeof bin, "%s/%s", TL_BUILD_ROOT, tl_labs[i].binary);
        if (access(bin, X_OK) != 0 || !tl_labs[i].public_sizes)
            continue;                 /* not in this kit (yet), or lab 05 (its own main, no sizes) */
        char cmd[1200];
        snprintf(cmd, sizeof cmd, "'%s' --help", bin);
        FILE *p = popen(cmd, "r");
        cr_assert(p);
        char text[8192];
        size_t n = fread(text, 1, sizeof text - 1, p);
        text[n] = '\0';
        pclose(p);
        char want[300];
        snprintf(want, sizeof want, "(default %s)", tl_labs[i].public_sizes);
        cr_assert(strstr(text, want), "lab %s: the grader's public sizes '%s' are not the binary's default sizes",
                  tl_labs[i].id, tl_labs[i].public_sizes);
        for (int v = 0; v < tl_labs[i].nvariants; ++v) {
            char name[80];
            snprintf(name, sizeof name, "  %s ", tl_labs[i].variants[v].name);
            cr_assert(strstr(text, name), "lab %s: the binary has no variant '%s'", tl_labs[i].id,
                      tl_labs[i].variants[v].name);
        }
        ++checked;
    }
    cr_assert(checked >= 1, "no lab binary was built");
}

Test(labs, lab_05_grades_occupancy_c_only_and_no_variant, .timeout = 10)
{
    const tl_lab_info *l = tl_lab_find("05");
    cr_assert(l);
    cr_assert(tl_lab_is_student_file(l, "occupancy.c"));
    cr_assert(!tl_lab_is_student_file(l, "sweep.cu"), "sweep.cu is the kit's");
    cr_assert(!tl_lab_is_student_file(l, "devices.c"), "devices.c is the kit's");
    for (int i = 0; i < tl_nlabs; ++i)
        cr_assert_null(tl_lab_variant_find(&tl_labs[i], "cublas"), "lab %s grades the kit's cublas", tl_labs[i].id);
}

Test(labs, every_lab_has_a_policy_test, .timeout = 10)
{
    for (int i = 0; i < tl_nlabs; ++i) {
        int n = 0;
        for (int t = 0; t < tl_labs[i].ntests; ++t)
            n += tl_labs[i].tests[t].kind == TL_TEST_POLICY;
        cr_assert_eq(n, 1, "lab %s has %d policy tests", tl_labs[i].id, n);
    }
}

/* ------------------------------------------------------------ policy scan */

static int scan(const char *text, tg_buf *out)
{
    return tg_policy_scan("f.cu", text, strlen(text), out);
}

Test(policy, calls_are_named_with_their_line, .timeout = 10)
{
    tg_buf b = {0};
    cr_assert_eq(scan("int x;\nint f(void) {\n  return socket (2, 1, 0);\n}\n", &b), 1);
    cr_assert(strstr(b.s, "f.cu:3: calls socket()"), "%s", b.s);
    tg_buf_free(&b);
    cr_assert_eq(scan("void g(){ FILE *f = fopen(\"x\", \"r\"); system(\"ls\"); execvp(a, b); }", &b), 3);
    cr_assert(strstr(b.s, "fopen()") && strstr(b.s, "system()") && strstr(b.s, "execvp()"), "%s", b.s);
    tg_buf_free(&b);
    cr_assert_eq(scan("void g(){ char *h = getenv(\"HOME\"); __asm__(\"nop\"); }", &b), 2, "%s", b.s);
    tg_buf_free(&b);
    cr_assert_eq(scan("#include <sys/socket.h>\n#include <netinet/in.h>\n", &b), 2, "%s", b.s);
    tg_buf_free(&b);
}

Test(policy, comments_strings_members_and_longer_names_are_not_calls, .timeout = 10)
{
    tg_buf b = {0};
    cr_assert_eq(scan("// socket(1)\n/* fopen(x)\n system(y) */\nconst char *s = \"open(\\\"x\\\")\";\n"
                      "int my_open(int); int y = my_open(1) + s.open(2) + p->remove(3) + q::fork(4);\n"
                      "__global__ void MatrixMulKernel(float *Md) { int system_size = 4; }\n", &b), 0,
                 "%s", b.s ? b.s : "");
    tg_buf_free(&b);
}

/* The scan reads the file through the kit's one lexer (common/emu/tl-lex.h); each of these hid a call
 * or a header from the scanner it replaced, or made one up. */
Test(policy, what_the_compiler_reads_as_code_is_scanned_as_code, .timeout = 10)
{
    tg_buf b = {0};
    /* a ' digit separator opened a "character literal" that blanked the rest of the line */
    cr_assert_eq(scan("int n = 1'000; system(\"sh\"); char c = 'x';\n", &b), 1, "%s", b.s ? b.s : "");
    cr_assert(strstr(b.s, "f.cu:1: calls system()"), "%s", b.s);
    tg_buf_free(&b);
    /* a raw string's inner quote ended it early, so its tail (and a call after it) was misread */
    cr_assert_eq(scan("const char *r = R\"x( \" )x\"; fork();\nconst char *q = R\"(system(1))\";\n", &b), 1,
                 "%s", b.s ? b.s : "");
    cr_assert(strstr(b.s, "f.cu:1: calls fork()"), "%s", b.s);
    tg_buf_free(&b);
    /* a name split by a continuation is one name to the compiler */
    cr_assert_eq(scan("int a;\nint g(void) { return sys\\\ntem(\"ls\"); }\nint z;\n", &b), 1, "%s", b.s ? b.s : "");
    cr_assert(strstr(b.s, "f.cu:2: calls system()"), "%s", b.s);
    tg_buf_free(&b);
    /* a byte-order mark before line 1's #include, a comment before a #include */
    cr_assert_eq(scan("\xEF\xBB\xBF#include <sys/socket.h>\n/* c */ #include <netdb.h>\n", &b), 2, "%s", b.s ? b.s : "");
    cr_assert(strstr(b.s, "f.cu:1: includes <sys/socket.h") && strstr(b.s, "f.cu:2: includes <netdb.h"), "%s", b.s);
    tg_buf_free(&b);
    /* an #include inside a comment, a continued // comment: no code */
    cr_assert_eq(scan("/*\n#include <sys/socket.h>\n*/\n// note \\\n system(1);\nint x;\n", &b), 0, "%s", b.s ? b.s : "");
    tg_buf_free(&b);
}

Test(policy, the_solutions_and_skeletons_are_clean, .timeout = 10)
{
    for (int i = 0; i < tl_nlabs; ++i)
        for (int f = 0; f < TL_LAB_MAX_FILES && tl_labs[i].files[f]; ++f)
            for (int w = 0; w < 2; ++w) {
                char p[1024];
                snprintf(p, sizeof p, "%s/%s/%s/%s", TL_SOURCE_ROOT, w ? "solutions" : "labs", tl_labs[i].dir,
                         tl_labs[i].files[f]);
                size_t len;
                char *t = tg_read_file(p, 1 << 20, &len);
                if (!t)
                    continue;
                tg_buf b = {0};
                cr_assert_eq(tg_policy_scan(tl_labs[i].files[f], t, len, &b), 0, "%s: %s", p, b.s);
                free(t);
            }
}

/* ------------------------------------------------------------ pristine copy */

Test(pristine, solutions_tests_builds_and_secrets_are_excluded, .timeout = 10)
{
    cr_assert(tg_path_excluded("solutions/01-cpu-baseline/gmm.c"));
    cr_assert(tg_path_excluded("tests/wrong/01/loop_bound.c"));
    cr_assert(tg_path_excluded("tests/hostile/01/fork_bomb.c"));
    cr_assert(tg_path_excluded("build/build.ninja"));
    cr_assert(tg_path_excluded("build-gpu/x"));
    cr_assert(tg_path_excluded("grader/secret.seed"));
    cr_assert(tg_path_excluded("grader/hidden/cases.txt"));
    cr_assert(tg_path_excluded("labs/x.secret"));
    cr_assert(tg_path_excluded(".git/config"));
    cr_assert_not(tg_path_excluded("labs/01-cpu-baseline/gmm.c"));
    cr_assert_not(tg_path_excluded("common/check.c"));
    cr_assert_not(tg_path_excluded("grader/tl-grade.c"));
    cr_assert_not(tg_path_excluded("meson.build"));
}

Test(pristine, the_copy_of_this_kit_has_no_solution_and_builds_nothing_extra, .timeout = 60)
{
    char dst[] = "/tmp/tl-pristine-XXXXXX";
    cr_assert(mkdtemp(dst));
    char err[512];
    int n = 0;
    int rc = tg_copy_pristine(TL_SOURCE_ROOT, dst, 0, &n, err, sizeof err);
    cr_assert_eq(rc, 0, "%s", err);
    char p[1024];
    snprintf(p, sizeof p, "%s/solutions", dst);
    cr_assert_not(tg_is_dir(p), "the pristine copy holds solutions/");
    snprintf(p, sizeof p, "%s/tests", dst);
    cr_assert_not(tg_is_dir(p), "the pristine copy holds tests/");
    snprintf(p, sizeof p, "%s/labs/01-cpu-baseline/gmm.c", dst);
    cr_assert(tg_is_file(p), "the pristine copy lacks the lab's skeleton");
    snprintf(p, sizeof p, "%s/build", dst);
    cr_assert_not(tg_is_dir(p), "the pristine copy holds a build folder");
    cr_assert(n > 10);
    tg_rmtree(dst);
}

/* ------------------------------------------------------------ isolation (run as root in CI) */

/* Host processes whose command line holds token (a process the sandbox left behind). */
static int host_processes_with(const char *token)
{
    DIR *d = opendir("/proc");
    cr_assert(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        char p[300], buf[4096];
        snprintf(p, sizeof p, "/proc/%s/cmdline", e->d_name);
        FILE *f = fopen(p, "rb");
        if (!f)
            continue;
        size_t r = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        for (size_t i = 0; i < r; ++i)
            if (!buf[i])
                buf[i] = ' ';
        buf[r] = '\0';
        n += strstr(buf, token) != NULL;
    }
    closedir(d);
    return n;
}

/* The sandbox the grader runs every student build and program in, proven from inside: a root
 * grader's child has no capabilities and is not root, cannot remount or write the read-only
 * binds, sees none of the instructor's paths, has a capped /tmp, and what it leaves (a
 * background process, files outside /build) is gone when the run ends. */
Test(sandbox, from_inside_no_capabilities_no_remount_no_instructor_paths_nothing_left, .timeout = 90)
{
    tg_iso iso;
    tg_iso_probe(&iso);
    if (!tg_iso_contained(&iso))
        cr_skip_test("no sandbox on this machine (bubblewrap missing or no namespaces): %s", iso.notes);
    cr_assert(strstr(iso.desc, "no capabilities") && strstr(iso.desc, "pid") && strstr(iso.desc, "net"),
              "the isolation line does not say what is on: %s", iso.desc);
    if (geteuid() == 0)
        cr_assert(strstr(iso.desc, "uid 65534"), "as root the isolation line names no unprivileged uid: %s", iso.desc);

    char top[] = "/tmp/tl-iso-XXXXXX";
    cr_assert(mkdtemp(top));
    chmod(top, 0711);   /* as an out dir's parent: searchable, so uid 65534's bubblewrap reaches the binds */
    char state[400], seed[440], kit[440], build[440], out[340], token[64], script[4096];
    snprintf(out, sizeof out, "%s/out", top);
    snprintf(state, sizeof state, "%s/.state", out);
    snprintf(seed, sizeof seed, "%s/seed", state);
    snprintf(kit, sizeof kit, "%s/pristine", state);
    snprintf(build, sizeof build, "%s/build", state);
    cr_assert_eq(tg_mkdirs(kit, 0755), 0);
    cr_assert_eq(tg_mkdirs(build, 0700), 0);
    chmod(state, 0700);
    cr_assert_eq(tg_write_atomic(seed, "12345\n", 6), 0);
    chmod(seed, 0600);
    char kf[500];
    snprintf(kf, sizeof kf, "%s/meson.build", kit);
    cr_assert_eq(tg_write_atomic(kf, "project('x')\n", 13), 0);
    chmod(kf, 0644);
    snprintf(iso.grant, sizeof iso.grant, "%s", state);
    snprintf(token, sizeof token, "tl-iso-left-%ld", (long)getpid());

    snprintf(script, sizeof script,
             "fail() { echo \"FAIL: $*\"; exit 1; }\n"
             "for k in CapEff CapPrm CapBnd CapAmb; do grep -Eq \"^$k:[[:space:]]+0+$\" /proc/self/status || fail \"$k not 0: $(grep $k /proc/self/status)\"; done\n"
             "grep -Eq '^NoNewPrivs:[[:space:]]+1$' /proc/self/status || fail no_new_privs off\n"
             "[ \"$(id -u)\" != 0 ] || fail 'uid 0 inside'\n"
             "mount -o remount,rw /kit 2>/dev/null && fail 'remounted /kit writable'\n"
             "mount -o remount,rw /usr 2>/dev/null && fail 'remounted /usr writable'\n"
             "mount -t tmpfs none /kit 2>/dev/null && fail 'mounted over /kit'\n"
             "touch /kit/x 2>/dev/null && fail 'wrote the kit'\n"
             "touch /usr/x 2>/dev/null && fail 'wrote /usr'\n"
             "[ -r /kit/meson.build ] || fail 'the kit bind is not readable'\n"
             "for p in '%s' '%s' '%s' '%s' '%s'; do [ -e \"$p\" ] && fail \"instructor path visible: $p\"; done\n"
             "dd if=/dev/zero of=/tmp/big bs=1024 count=4096 2>/dev/null && fail '/tmp is not capped'; rm -f /tmp/big\n"
             "echo x > /tmp/%s || fail 'no private /tmp'\n"
             "echo x > /build/made || fail '/build not writable'\n"
             "kill -9 -1 2>/dev/null\n"
             "sh -c 'sleep 300; :' %s </dev/null >/dev/null 2>&1 &\n"
             "echo INSIDE-OK\n",
             TL_SOURCE_ROOT, out, state, seed, top, token, token);
    const char *argv[] = {"/bin/sh", "-c", script, NULL};
    tg_spawn_opts o = {.argv = argv, .sandbox_cwd = "/tmp/case", .max_tasks = 64, .mem_bytes = 256LL << 20,
                       .fsize_bytes = 16LL << 20, .tmp_bytes = 1LL << 20};
    o.ro[0] = (tg_bind){kit, "/kit"};
    o.rw[0] = (tg_bind){build, "/build"};
    tg_child c;
    char err[400];
    cr_assert_eq(tg_spawn(&c, &iso, &o, err, sizeof err), 0, "%s", err);
    if (geteuid() == 0)
        cr_assert_eq(c.uid_mode, TG_UID_DROPPED, "the run was not dropped to uid 65534 (mode %d)", c.uid_mode);
    int w = tg_child_wait(&c, tl_now_ms() + 60000);
    tg_child_kill(&c);
    tg_buf_add(&c.cap, "", 1);
    cr_assert_eq(w, 0, "the sandboxed script timed out: %s", c.cap.s);
    cr_assert(strstr(c.cap.s, "INSIDE-OK") && !strstr(c.cap.s, "FAIL"), "inside the sandbox: %s", c.cap.s);
    cr_assert_eq(host_processes_with(token), 0, "a process left in the background outlived the run");
    char p[500];
    snprintf(p, sizeof p, "/tmp/%s", token);
    cr_assert_not(tg_is_file(p), "a file written to the sandbox's /tmp reached the host");
    snprintf(p, sizeof p, "%s/made", build);
    cr_assert(tg_is_file(p), "the writable /build bind did not receive the file (the test proves nothing)");
    struct stat sb;
    cr_assert_eq(stat(p, &sb), 0);
    if (geteuid() == 0)   /* what the host sees: the student's processes were never root */
        cr_assert_eq(sb.st_uid, TG_SANDBOX_UID, "a file the sandbox wrote is owned by uid %d on the host, not %d",
                     (int)sb.st_uid, TG_SANDBOX_UID);
    tg_child_free(&c);
    tg_rmtree(top);
}

/* ------------------------------------------------------------ reports: escaping, names */

Test(escaping, ansi_html_and_markdown_from_a_student_are_inert_in_summary_md, .timeout = 10)
{
    const char *evil = "\x1b[2J\x1b]0;owned\x07<script>alert(1)</script> | [x](javascript:1) \xe2\x80\xae" "abc";
    char *in = tg_md_inline(evil);
    cr_assert_not(strchr(in, 0x1b) || strchr(in, 0x07), "an escape byte survived: %s", in);
    cr_assert_not(strstr(in, "<script") || strstr(in, "\xe2\x80\xae"), "HTML or a bidi override survived: %s", in);
    cr_assert(strstr(in, "\\|") && strstr(in, "\\[x\\]"), "table and link syntax not escaped: %s", in);
    char *code = tg_md_code("```\n</pre><img src=x onerror=alert(1)>\n\x1b[31mred\xff\n");
    cr_assert_not(strstr(code, "```") || strchr(code, 0x1b), "the code block can be closed or colours pass: %s", code);
    cr_assert(strstr(code, "\xef\xbf\xbd"), "invalid UTF-8 was not replaced: %s", code);
    char *html = tg_html_text("<a href=\"x\">'&'</a>");
    cr_assert_str_eq(html, "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
    free(in);
    free(code);
    free(html);
}

static void names_of(const char *const *paths, int n, gstudent *st)
{
    memset(st, 0, sizeof *st * (size_t)n);
    for (int i = 0; i < n; ++i)
        snprintf(st[i].path, sizeof st[i].path, "%s", paths[i]);
    tg_student_names(st, n);
}

Test(names, folder_names_are_safe_unique_and_the_same_in_any_order, .timeout = 10)
{
    const char *paths[] = {"/in/gradebook.csv", "/in/summary.md", "/in/--public-only", "/in/\xc3\x9cml\xc3\xa4ut.zip",
                           "/in/\xe6\x97\xa5\xe6\x9c\xac", "/in/\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", "/a/alice",
                           "/b/alice", "/in/.state", "/in/bob", "/in/x\x1b[31m"};
    enum { N = sizeof paths / sizeof paths[0] };
    gstudent a[N], b[N];
    const char *rev[N];
    for (int i = 0; i < N; ++i)
        rev[i] = paths[N - 1 - i];
    names_of(paths, N, a);
    names_of(rev, N, b);
    for (int i = 0; i < N; ++i) {
        cr_assert(a[i].name[0] && a[i].name[0] != '-' && !strchr(a[i].name, '.') && !strchr(a[i].name, '/'),
                  "unsafe folder name '%s' for %s", a[i].name, paths[i]);
        cr_assert_str_eq(a[i].name, b[N - 1 - i].name, "%s: folder '%s' in one order, '%s' in the other", paths[i],
                         a[i].name, b[N - 1 - i].name);
        for (int j = 0; j < i; ++j)
            cr_assert_str_neq(a[i].name, a[j].name, "%s and %s share the folder %s", paths[i], paths[j], a[i].name);
    }
    cr_assert_str_eq(a[9].name, "bob", "a plain name changes: %s", a[9].name);
    cr_assert_str_eq(a[3].display, "\xc3\x9cml\xc3\xa4ut", "the original name is lost: %s", a[3].display);
    cr_assert_str_eq(a[0].display, "gradebook.csv");
}

/* ------------------------------------------------------------ policy from the object */

/* The digest tg_policy_objdump_script prints for obj (run here, not sandboxed: the test's own objects). */
static char *digest_of(const char *obj)
{
    char cmd[4096], script[64];
    snprintf(script, sizeof script, "/tmp/tl-policy-digest-%ld.sh", (long)getpid());
    FILE *sf = fopen(script, "w");
    cr_assert(sf);
    fputs(tg_policy_objdump_script(), sf);
    fclose(sf);
    snprintf(cmd, sizeof cmd, "sh '%s' '%s'", script, obj);
    FILE *p = popen(cmd, "r");
    cr_assert(p);
    tg_buf b = {0};
    char chunk[4096];
    size_t r;
    while ((r = fread(chunk, 1, sizeof chunk, p)) > 0)
        tg_buf_add(&b, chunk, r);
    pclose(p);
    unlink(script);
    tg_buf_add(&b, "", 1);
    return b.s;
}

Test(policy, the_kits_own_objects_link_only_allowed_symbols, .timeout = 60)
{
    const char *objs[] = {"labs/01-cpu-baseline/lab01.p/gmm.c.o", "solutions/01-cpu-baseline/lab01-ref.p/gmm.c.o",
                          "labs/05-occupancy-study/lab05.p/occupancy.c.o",
                          "solutions/05-occupancy-study/lab05-ref.p/occupancy.c.o",
                          "labs/03-tiled-kernel/liblab03-tiled16.a.p/tiled.cu.o",
                          "solutions/02-naive-kernel/lab02-ref.p/naive.cu.o",
                          "solutions/03-tiled-kernel/liblab03-ref-tiled32.a.p/tiled.cu.o",
                          "solutions/04-boundary-handling/liblab04-ref-boundary32.a.p/boundary.cu.o", NULL};
    int judged = 0;
    for (int i = 0; objs[i]; ++i) {
        char p[1024];
        snprintf(p, sizeof p, "%s/%s", TL_BUILD_ROOT, objs[i]);
        if (!tg_is_file(p)) {
            cr_assert(i > 0, "the lab 01 skeleton's object %s is not built", p);
            continue;
        }
        char *d = digest_of(p);
        tg_buf f = {0};
        int n = tg_policy_objects("x", d, 0, NULL, &f);
        cr_assert_eq(n, 0, "%s: %s", objs[i], f.s);
        ++judged;
        tg_buf_free(&f);
        free(d);
    }
    cr_assert_geq(judged, 1);
}

Test(policy, a_parenthesized_fopen_and_a_pasted_syscall_are_named_with_their_line, .timeout = 60)
{
    char dir[] = "/tmp/tl-policy-XXXXXX";
    cr_assert(mkdtemp(dir));
    char src[300], obj[300], cmd[1024];
    snprintf(src, sizeof src, "%s/gmm.c", dir);
    snprintf(obj, sizeof obj, "%s/gmm.c.o", dir);
    FILE *f = fopen(src, "w");
    cr_assert(f);
    fputs("#include <stdio.h>\n"
          "#define GLUE(a, b) a##b\n"
          "void a(void) { FILE *f = (fopen)(\"x\", \"r\"); if (f) fclose(f); }\n"
          "void b(void) { long r; GLUE(__as, m__) volatile(\"syscall\" : \"=a\"(r) : \"a\"(39L) : \"rcx\", \"r11\"); }\n",
          f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "cc -g -O1 -c '%s' -o '%s'", src, obj);
    cr_assert_eq(system(cmd), 0, "cc failed");
    char *d = digest_of(obj);
    tg_buf out = {0};
    int n = tg_policy_objects("gmm.c", d, 0, NULL, &out);
    cr_assert_geq(n, 2, "%s", out.s ? out.s : d);
    cr_assert(strstr(out.s, "gmm.c:3: links fopen"), "%s", out.s);
    cr_assert(strstr(out.s, "gmm.c:4: a system call instruction"), "%s", out.s);
    tg_buf_free(&out);
    free(d);
    tg_rmtree(dir);
}

Test(policy, the_emulators_controls_are_out_of_a_lab_files_reach, .timeout = 10)
{
    tg_buf out = {0};
    cr_assert_eq(tg_policy_objects("tiled.cu", "U tl_emu_set_checks\nU cudaDeviceReset\nU cudaMalloc\nU tl_check\nEND\n", 0, NULL,
                                   &out), 3, "%s", out.s);
    cr_assert(strstr(out.s, "links tl_check (a kit function this lab does not list"), "%s", out.s);
    /* A digest cut short (objdump missing or failed) gives no verdict at all, never a pass. */
    cr_assert_eq(tg_policy_objects("tiled.cu", "U cudaMalloc\n", 0, NULL, &out), -1);
    cr_assert_eq(tg_policy_objects("tiled.cu", "", 0, NULL, &out), -1);
    cr_assert(strstr(out.s, "tl_emu_set_checks") && strstr(out.s, "cudaDeviceReset"), "%s", out.s);
    tg_buf_free(&out);
}

/* The emulated build checks array indices (-fsanitize=bounds): its object calls the emulator's
 * handler, which an emulated object may link; a GPU object has no business with it. */
Test(policy, an_emulated_object_may_call_the_emulators_array_bounds_handler, .timeout = 10)
{
    tg_buf out = {0};
    const char *d = "U __ubsan_handle_out_of_bounds\nU __ubsan_handle_out_of_bounds_abort\nU cudaMalloc\nEND\n";
    cr_assert_eq(tg_policy_objects("regtile.cu", d, 1, NULL, &out), 0, "%s", out.s ? out.s : "");
    cr_assert_eq(tg_policy_objects("regtile.cu", d, 0, NULL, &out), 2, "%s", out.s ? out.s : "");
    tg_buf_free(&out);
}

/* Compiles src (C) into dir/gmm.c.o and returns its digest. */
static char *digest_of_c(const char *dir, const char *src)
{
    char path[300], obj[300], cmd[1024];
    snprintf(path, sizeof path, "%s/gmm.c", dir);
    snprintf(obj, sizeof obj, "%s/gmm.c.o", dir);
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs(src, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "cc -g -O1 -c '%s' -o '%s'", path, obj);
    cr_assert_eq(system(cmd), 0, "cc failed on %s", src);
    return digest_of(obj);
}

/* Issue 24 item 1: a student object that defines what the C library or the kit defines would run
 * its own in their place (the answer channel, the timer): each definition is named with its line;
 * the student's own helpers, whatever they are called, are not. */
Test(policy, a_definition_of_a_runtime_or_kit_name_is_refused_with_its_line_and_helpers_are_not, .timeout = 60)
{
    cr_assert_gt(tg_nreserved_syms, 1000, "the build-time list is too short: %d names", tg_nreserved_syms);
    cr_assert(tg_reserved_find("fprintf") && tg_reserved_find("write") && tg_reserved_find("tl_matfile_fwrite"),
              "fprintf, write or tl_matfile_fwrite is missing from the build-time list");
    cr_assert(tg_reserved_find("tl_matfile_fwrite")->kit && !tg_reserved_find("fprintf")->kit);
    char dir[] = "/tmp/tl-policy-XXXXXX";
    cr_assert(mkdtemp(dir));
    char *d = digest_of_c(dir,
        "#include <stdio.h>\n#include <stddef.h>\n"
        "float ld(const float *p, int i) { return p[i]; }\n"
        "void tile_load(float *t, const float *p, int n) { for (int i = 0; i < n; ++i) t[i] = ld(p, i); }\n"
        "int fprintf(FILE *f, const char *fmt, ...) { (void)f; (void)fmt; return 0; }\n"
        "long write(int fd, const void *p, size_t n) { (void)fd; (void)p; return (long)n; }\n"
        "__attribute__((weak)) int puts(const char *s) { (void)s; return 0; }\n"
        "int tl_matfile_fwrite(void *f, const void *m, const char *w, char *e, size_t l) { return 0; }\n"
        "void GMM_CPU(float *M, float *N, float *P, int W) { tile_load(P, M, W); (void)N; }\n");
    tg_buf out = {0};
    int n = tg_policy_objects("gmm.c", d, 0, NULL, &out);
    cr_assert_eq(n, 4, "%s", out.s ? out.s : d);
    cr_assert(strstr(out.s, "gmm.c:5: defines fprintf (a name the C or C++ runtime"), "%s", out.s);
    cr_assert(strstr(out.s, "gmm.c:6: defines write ("), "%s", out.s);
    cr_assert(strstr(out.s, "gmm.c:7: defines weak puts ("), "%s", out.s);
    cr_assert(strstr(out.s, "gmm.c:8: defines tl_matfile_fwrite (a name the kit defines"), "%s", out.s);
    cr_assert_null(strstr(out.s, " ld "), "%s", out.s);
    cr_assert_null(strstr(out.s, "tile_load"), "%s", out.s);
    cr_assert_null(strstr(out.s, "GMM_CPU"), "%s", out.s);
    tg_buf_free(&out);
    free(d);
    tg_rmtree(dir);
}

/* No prefix rule: a kit function is reachable only when the lab lists it. */
Test(policy, a_kit_function_is_linked_only_where_the_lab_lists_it, .timeout = 60)
{
    char dir[] = "/tmp/tl-policy-XXXXXX";
    cr_assert(mkdtemp(dir));
    char *d = digest_of_c(dir,
        "void tl_reference_gemm(const float *, const float *, float *, int, int, int);\n"
        "void GMM_CPU(float *M, float *N, float *P, int W) { tl_reference_gemm(M, N, P, W, W, W); }\n");
    tg_buf out = {0};
    cr_assert_eq(tg_policy_objects("gmm.c", d, 0, NULL, &out), 1, "%s", out.s ? out.s : d);
    cr_assert(strstr(out.s, "gmm.c:2: links tl_reference_gemm (a kit function this lab does not list"), "%s", out.s);
    tg_buf_free(&out);
    cr_assert_eq(tg_policy_objects("gmm.c", d, 0, "tl_occ_h100 tl_reference_gemm", &out), 0, "%s", out.s);
    cr_assert_eq(tg_policy_objects("gmm.c", d, 0, "tl_reference_gemm_gpu", &out), 1, "a longer listed name let a "
                 "shorter one through: %s", out.s);
    tg_buf_free(&out);
    /* lab 05 lists devices.c's data, never known.c's answers */
    const tl_lab_info *l5 = tl_lab_find("05");
    cr_assert(l5 && l5->kit_calls && strstr(l5->kit_calls, "tl_occ_h100"));
    cr_assert_null(strstr(l5->kit_calls, "known"));
    free(d);
    tg_rmtree(dir);
}

/* Host asm is refused wherever it stands (also through a macro); PTX in device code is not. */
Test(policy, host_inline_assembly_is_refused_and_device_ptx_is_not, .timeout = 10)
{
    tg_buf b = {0};
    const char *ok = "#define LDS(r, a) asm volatile(\"ld.shared.f32 %0, [%1];\" : \"=f\"(r) : \"r\"(a))\n"
                     "__device__ float get(unsigned a) { float r; LDS(r, a); return r; }\n"
                     "__global__ void K(float *p) {\n  asm volatile(\"wgmma.fence.sync.aligned;\");\n  p[0] = get(0);\n}\n"
                     "static __device__ __forceinline__ void f(void) { __asm__(\"bar.sync 0;\"); }\n"
                     "extern \"C\" int launch(float *p) { K<<<1, 1>>>(p); return 0; }\n";
    cr_assert_eq(tg_policy_host_asm("x.cu", ok, strlen(ok), &b), 0, "%s", b.s ? b.s : "");
    const char *bad = "#define NOP asm(\"nop\")\n"
                      "__global__ void K(float *p) { p[0] = 1; }\n"
                      "__host__ __device__ int both(void) { asm(\"nop\"); return 0; }\n"
                      "extern \"C\" int launch(float *p) {\n  long r;\n  __asm__ volatile(\"rdtsc\" : \"=a\"(r));\n"
                      "  NOP;\n  K<<<1, 1>>>(p);\n  return 0;\n}\n"
                      "asm(\".globl x\");\n";
    cr_assert_eq(tg_policy_host_asm("x.cu", bad, strlen(bad), &b), 4, "%s", b.s ? b.s : "");
    cr_assert(strstr(b.s, "x.cu:3: host inline assembly") && strstr(b.s, "x.cu:6: host inline assembly") &&
              strstr(b.s, "x.cu:7: host inline assembly ('NOP', a macro holding asm") &&
              strstr(b.s, "x.cu:11: host inline assembly"), "%s", b.s);
    tg_buf_free(&b);
}

/* What tells the GPU build from the emulated one that counts the work (issue 29): a test of it is
 * refused, directly, through defined(), through a macro of the file's, and a kit or emulator name
 * anywhere; __CUDA_ARCH__ only in a lab with GPU-only variants; honest conditionals pass. */
Test(policy, a_test_of_what_tells_the_gpu_build_from_the_emulated_one_is_refused, .timeout = 30)
{
    tg_buf b = {0};
    const char *ok = "#ifndef TILE_WIDTH\n#define TILE_WIDTH 16\n#endif\n#if TILE_WIDTH == 32 && defined(MINE)\n"
                     "#define LOG(x) printf(x)\n#endif\n#ifdef LOG\n#endif\n#if defined(__cplusplus)\n#endif\n"
                     "/* #ifdef TL_EMULATED in a comment */ static const char *s = \"__CUDA_ARCH__\";\n"
                     "__global__ void K(float *p) { printf(\"%f\", p[0]); __syncthreads(); }\n";
    cr_assert_eq(tg_policy_build_split("x.cu", ok, strlen(ok), 0, &b), 0, "%s", b.s ? b.s : "");
    const char *bad = "#ifdef TL_EMULATED\n#endif\n"                       /* 1 */
                      "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900\n#endif\n"   /* 3 */
                      "#define EMU defined(printf)\n"                        /* 5: a macro holding one... */
                      "#if EMU\n#endif\n"                                    /* 6: ...expanded in #if */
                      "#ifndef __syncthreads\n#endif\n"                      /* 8 */
                      "#if __has_include(\"tl_emu.h\")\n#endif\n"            /* 10 */
                      "#if CUDART_VERSION > 12000\n#endif\n"                 /* 12 */
                      "int v = __NVCC__ + \\\n  0;\n"                          /* 14 (continued) */
                      "#elifdef __SANITIZE_THREAD__\n";                       /* 16 */
    cr_assert_eq(tg_policy_build_split("x.cu", bad, strlen(bad), 0, &b), 8, "%s", b.s ? b.s : "");
    const char *lines[] = {"x.cu:1: tests TL_EMULATED", "x.cu:3: tests __CUDA_ARCH__", "x.cu:6: tests EMU",
                           "x.cu:8: tests __syncthreads", "x.cu:10: tests __has_include", "x.cu:12: tests CUDART_VERSION",
                           "x.cu:14: tests __NVCC__", "x.cu:16: tests __SANITIZE_THREAD__", NULL};
    for (int i = 0; lines[i]; ++i)
        cr_assert(strstr(b.s, lines[i]), "'%s' not in: %s", lines[i], b.s);
    tg_buf_free(&b);
    /* a lab with GPU-only variants may test __CUDA_ARCH__ (lab 08's wgmma needs it), nothing else */
    const char *arch = "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900\n#endif\n#ifdef TL_EMULATED\n#endif\n";
    cr_assert_eq(tg_policy_build_split("x.cu", arch, strlen(arch), 1, &b), 1, "%s", b.s ? b.s : "");
    cr_assert(strstr(b.s, "x.cu:3: tests TL_EMULATED"), "%s", b.s);
    tg_buf_free(&b);
    /* the kit's own files: every solution, skeleton, corpus, style and known-wrong file passes; the hostile
     * files that build otherwise for the emulator are caught */
    const char *pass_dirs[] = {"solutions", "labs", "tests/corpus", "tests/styles", "tests/wrong", NULL};
    int files = 0;
    for (int d = 0; pass_dirs[d]; ++d) {
        char cmd[1024];
        snprintf(cmd, sizeof cmd, "find '%s/%s' -name '*.cu' | sort", TL_SOURCE_ROOT, pass_dirs[d]);
        FILE *f = popen(cmd, "r");
        cr_assert(f);
        char path[1024];
        while (fgets(path, sizeof path, f)) {
            path[strcspn(path, "\n")] = '\0';
            if (d < 2) {               /* labs/NN-x/, solutions/NN-x/: the student files only (not the kit's) */
                char nn[3] = {0};
                const char *q = strstr(path, pass_dirs[d]) + strlen(pass_dirs[d]) + 1;
                memcpy(nn, q, 2);
                const tl_lab_info *lab = tl_lab_find(nn);
                int student = 0;
                for (int k = 0; lab && k < TL_LAB_MAX_FILES && lab->files[k]; ++k)
                    student |= strcmp(lab->files[k], strrchr(path, '/') + 1) == 0;
                if (!student)
                    continue;
            }
            size_t len = 0;
            char *text = tg_read_file(path, 4 << 20, &len);
            cr_assert(text, "%s", path);
            /* lab 07 and 08 have GPU-only variants (their files may test __CUDA_ARCH__) */
            int arch_ok = strstr(path, "/07") != NULL || strstr(path, "/08") != NULL;
            cr_assert_eq(tg_policy_build_split(strrchr(path, '/') + 1, text, len, arch_ok, &b), 0, "%s: %s", path,
                         b.s ? b.s : "");
            free(text);
            ++files;
        }
        pclose(f);
    }
    cr_assert_gt(files, 100, "only %d files read", files);
    const char *caught[] = {"gpu_emulated_twin_differs", "sabotage_emulated", "sabotage_count", "interpose_count_only",
                            NULL};
    for (int i = 0; caught[i]; ++i) {
        char path[1024];
        snprintf(path, sizeof path, "%s/tests/hostile/03/%s.cu", TL_SOURCE_ROOT, caught[i]);
        size_t len = 0;
        char *text = tg_read_file(path, 4 << 20, &len);
        cr_assert(text, "%s", path);
        cr_assert_geq(tg_policy_build_split("tiled.cu", text, len, 0, &b), 1, "%s passes", caught[i]);
        free(text);
    }
    tg_buf_free(&b);
}

/* The emulated objects of the skeletons and the solutions (the rewrite's output, with the
 * emulator's inline code in it) define no runtime or kit name and link nothing refused. */
Test(policy, the_emulated_objects_of_the_solutions_and_skeletons_pass, .timeout = 60)
{
    const char *objs[] = {"labs/emulated/liblab02-ref-emu-t.a.p/meson-generated_naive.emu.cpp.o",
                          "labs/emulated/liblab02-emu-t.a.p/meson-generated_naive.emu.cpp.o",
                          "labs/emulated/liblab03-ref-emu-t32.a.p/meson-generated_tiled.emu.cpp.o",
                          "labs/emulated/liblab04-ref-emu-t16.a.p/meson-generated_boundary.emu.cpp.o",
                          "labs/emulated/liblab06-ref-emu-t.a.p/meson-generated_regtile.emu.cpp.o",
                          "labs/emulated/liblab06-emu-t.a.p/meson-generated_regtile.emu.cpp.o", NULL};
    int judged = 0;
    for (int i = 0; objs[i]; ++i) {
        char p[1024];
        snprintf(p, sizeof p, "%s/%s", TL_BUILD_ROOT, objs[i]);
        if (!tg_is_file(p))
            continue;
        char *d = digest_of(p);
        tg_buf f = {0};
        cr_assert_eq(tg_policy_objects("x", d, 1, NULL, &f), 0, "%s: %s", objs[i], f.s);
        ++judged;
        tg_buf_free(&f);
        free(d);
    }
    cr_assert_geq(judged, 1, "no emulated object is built");
}

/* Issue 24 item 6: a build is stopped when its process tree uses no CPU (build.c's idle watch):
 * the tree's CPU time counts a grandchild, and stays put while the tree only waits. */
/* A tree that wants the CPU is not idle however little it gets (a loaded machine): a spinning child
 * is runnable (state R) at every look, and the idle watch counts it busy (build.c). */
Test(sandbox, a_spinning_tree_is_busy_and_a_waiting_one_is_not, .timeout = 60)
{
    pid_t p = fork();
    cr_assert_geq(p, 0);
    if (p == 0) {
        volatile unsigned long x = 0;
        for (;;)
            ++x;
    }
    int seen = 0;
    for (int i = 0; i < 20; ++i) {       /* runnable at nearly every look; one is enough */
        int busy = 0;
        tg_tree_cpu_busy(p, &busy);
        seen += busy > 0;
        usleep(10 * 1000);
    }
    kill(p, SIGKILL);
    waitpid(p, NULL, 0);
    cr_assert_gt(seen, 0, "a spinning process was never seen runnable");
}

Test(sandbox, a_process_trees_cpu_time_counts_its_grandchildren_and_stays_put_while_it_waits, .timeout = 120)
{
    pid_t p = fork();
    cr_assert_geq(p, 0);
    if (p == 0) {
        setpgid(0, 0);
        pid_t q = fork();
        if (q == 0) {
            volatile unsigned long x = 0;
            while (clock() < CLOCKS_PER_SEC / 2)   /* half a CPU second, however loaded the machine */
                ++x;
            for (;;)
                pause();
        }
        for (;;)
            pause();
    }
    double c = 0;
    for (int i = 0; i < 1000 && (c = tg_tree_cpu_s(p)) < 0.45; ++i)
        usleep(100 * 1000);
    cr_assert_geq(c, 0.45, "the grandchild's CPU time is not counted: %g s", c);
    sleep(1);
    int busy = -1;
    double c2 = tg_tree_cpu_busy(p, &busy);
    cr_assert_lt(c2 - c, 0.05, "a waiting tree gained %g CPU seconds", c2 - c);
    cr_assert_eq(busy, 0, "a tree that only waits has %d runnable processes", busy);
    kill(-p, SIGKILL);
    kill(p, SIGKILL);
    waitpid(p, NULL, 0);
    cr_assert_lt(tg_tree_cpu_s(p), 0.0, "a reaped root still has a CPU time");
}

/* Session 15: a speed test leaves out of its wall-clock estimate the time the timed program waited
 * for a core (speed.c). Two spinners on one core each wait about half the time, however loaded the
 * machine (more load only adds to it); a sleeping process waits for none. */
static pid_t spinner_on_first_cpu(void)
{
    cpu_set_t mine;                     /* the first CPU this process may use (a container's cpuset) */
    int first = 0;
    if (sched_getaffinity(0, sizeof mine, &mine) == 0)
        while (first < CPU_SETSIZE - 1 && !CPU_ISSET(first, &mine))
            ++first;
    pid_t p = fork();
    if (p == 0) {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(first, &one);
        if (sched_setaffinity(0, sizeof one, &one) != 0)
            _exit(1);
        volatile unsigned long x = 0;
        for (;;)
            ++x;
    }
    return p;
}

Test(sandbox, a_tree_that_waits_for_a_core_is_said_to_and_a_sleeping_one_is_not, .timeout = 60)
{
    if (access("/proc/self/schedstat", R_OK) != 0)
        cr_skip_test("no /proc/PID/schedstat on this kernel: the run delays cannot be read");
    pid_t a = spinner_on_first_cpu(), b = spinner_on_first_cpu(), s = fork();
    cr_assert(a > 0 && b > 0 && s >= 0);
    if (s == 0)
        for (;;)
            pause();
    tg_child ca = {.pid = a}, cs = {.pid = s};
    usleep(50 * 1000);                  /* (both pinned by now) */
    double wa0 = tg_child_waited_ms(&ca), ws0 = tg_child_waited_ms(&cs), t0 = tl_now_ms();
    usleep(600 * 1000);
    double wa = tg_child_waited_ms(&ca) - wa0, ws = tg_child_waited_ms(&cs) - ws0, wall = tl_now_ms() - t0;
    kill(a, SIGKILL);
    kill(b, SIGKILL);
    kill(s, SIGKILL);
    waitpid(a, NULL, 0);
    waitpid(b, NULL, 0);
    waitpid(s, NULL, 0);
    cr_assert_geq(wa0, 0, "the run delay of a live process was not read");
    cr_assert_gt(wa, 0.25 * wall, "a spinner sharing its one core with another waited %.1f ms of %.1f", wa, wall);
    cr_assert_lt(wa, wall + 5, "a process waited %.1f ms in %.1f ms of wall clock", wa, wall);
    cr_assert_lt(ws, 5, "a sleeping process waited %.1f ms for a core", ws);
    ca.reaped = 1;
    cr_assert_lt(tg_child_waited_ms(&ca), 0, "a reaped child still has a run delay");
}

/* ------------------------------------------------------------ tl-grade's table of options
 * The help, getopt's entries and every option error are made from grader/options.c's table
 * (issue 22: no program parses its own usage text), so each entry must say what an error needs. */
Test(options, every_option_of_tl_grades_table_names_its_value_and_says_in_one_line_what_it_is, .timeout = 30)
{
    tg_options_init();
    int n = 0, in_help = 0;
    for (const tl_cli_opt *o = tg_options; o->name; ++o, ++n) {
        cr_assert(o->name[0] && !strchr(o->name, '=') && !strchr(o->name, ' '), "a bad name '%s'", o->name);
        cr_assert(o->brief && o->brief[0] && !strchr(o->brief, '\n'), "--%s: no one-line brief", o->name);
        cr_assert_eq(o->has_arg != 0, o->arg != NULL, "--%s: takes a value %s but its syntax says %s", o->name,
                     o->has_arg ? "yes" : "no", o->arg ? o->arg : "(none)");
        cr_assert(!o->help || (o->help[0] && o->help[strlen(o->help) - 1] != '\n'), "--%s: a help paragraph "
                  "ending in a newline (the printer adds it)", o->name);
        for (const tl_cli_opt *p = tg_options; p < o; ++p) {
            cr_assert_neq(strcmp(p->name, o->name), 0, "--%s twice", o->name);
            cr_assert_neq(p->val, o->val, "--%s and --%s return the same code %d", p->name, o->name, o->val);
        }
        char line[400];
        tl_cli_describe(o, line, sizeof line);
        cr_assert_lt(strlen(line), 200, "--%s: its error line is too long: %s", o->name, line);
        in_help += o->help != NULL;
    }
    cr_assert_gt(n, 40, "only %d options in the table", n);
    cr_assert_gt(in_help, 35, "only %d options in the help", in_help);
    /* the one a user most often forgets, and the lab list filled from the lab table */
    char line[400];
    tl_cli_describe(tl_cli_by_val(tg_options, 'j'), line, sizeof line);
    cr_assert_str_eq(line, "--jobs N|auto (submissions built and graded at once)");
    tl_cli_describe(tl_cli_by_val(tg_options, 'l'), line, sizeof line);
    cr_assert(strstr(line, "--lab NN (the lab: 01, 02") != NULL, "%s", line);
}

/* The progress line's time left (progress.c): the students left times the time between completions
 * since the first, so that a class whose speed tests all come last (the timed phase on a GPU:
 * nothing graded for 90 s, then one every 0.3 s) is not told hours when seconds are left, nor a class
 * whose kit took 40 s to build told that each student took 40 s more. */
Test(progress, the_time_left_counts_from_the_first_student_graded, .timeout = 10)
{
    cr_assert_eq(tg_eta_s(5000, 0, 0, 0, 10, 4), -1, "a time left before anyone was graded");
    cr_assert_eq(tg_eta_s(5000, 0, 4000, 3, 0, 4), 0, "time left with no student left");
    /* one graded at 90 s, 99 left: from the start only (one completion: no interval yet) */
    cr_assert_float_eq(tg_eta_s(90000, 0, 90000, 1, 99, 16), 8910.0, 1e-6);
    /* the timed phase with --jobs 16: the first at 90 s, 21 graded by 96 s: 0.3 s each, 79 left:
     * 23.7 s, not 4.5 min */
    cr_assert_float_eq(tg_eta_s(96000, 0, 90000, 21, 79, 16), 23.7, 1e-6);
    /* steady work after a 40 s set-up, --jobs 2: the first at 50 s, then one every 10 s (5 by 90 s),
     * 5 left: 50 s, not 90 */
    cr_assert_float_eq(tg_eta_s(90000, 0, 50000, 5, 5, 2), 50.0, 1e-6);
    /* two workers that started together end together: before a round of --jobs after the first,
     * the time per student since the start (9.1 s each: 4.55 s for the third), not their gap's 0.1 s */
    cr_assert_float_eq(tg_eta_s(9100, 0, 9000, 2, 1, 2), 4.55, 1e-6);
}

/* The speed test's window asks for the inputs its program holds ("same": CONTRACTS.md section 2;
 * session.c). Only a timed session on the device, and only at the size and seed of the last "ok"
 * answer: every other request sends its inputs, so a correctness, sanitizer, emulated or counting
 * session never depends on what a program kept. */
Test(session, same_inputs_only_for_a_timed_session_on_the_device_at_the_size_it_was_sent, .timeout = 10)
{
    static gsess ss;
    static gsize a, b, c;
    memset(&ss, 0, sizeof ss);
    a.m = a.k = a.n = 2048, a.seed = 7;
    b = a, b.seed = 8;                     /* another run's inputs of the same dimensions */
    c = a, c.k = 1024;                     /* other dimensions */
    ss.timed = 1, ss.on_device = 1;
    cr_assert_eq(tg_sess_same_inputs(&ss, &a), 0, "a program that was sent nothing holds nothing");
    tg_sess_kept_inputs(&ss, &a);
    cr_assert_eq(tg_sess_same_inputs(&ss, &a), 1, "the window's request after the warm-up sends its inputs again");
    cr_assert_eq(tg_sess_same_inputs(&ss, &b), 0, "same for another seed's inputs");
    cr_assert_eq(tg_sess_same_inputs(&ss, &c), 0, "same for other dimensions");
    ss.timed = 0;
    cr_assert_eq(tg_sess_same_inputs(&ss, &a), 0, "same in an untimed session (correctness, sanitizers, counting)");
    ss.timed = 1, ss.on_device = 0;
    cr_assert_eq(tg_sess_same_inputs(&ss, &a), 0, "same to a program off the device (emulated: it keeps none)");
    ss.on_device = 1, ss.kept = 0;         /* (what a new process, a session's end and each request start with) */
    cr_assert_eq(tg_sess_same_inputs(&ss, &a), 0);
}
