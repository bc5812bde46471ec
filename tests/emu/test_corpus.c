/* test_corpus.c: one file of the corpus (tests/emu/corpus/NAME.cu: a feature of the CUDA students write,
 * or a classic bug) gets its expected verdict under emulation. Built once per file by meson.build with
 * -DEXPECT_PASS (the kernels build, run and give the right answers, with no diagnostic) or with up to
 * three texts the report must hold (-DEXPECT1="..."), and -DEXPECT_OUT="..." for what the kernels print.
 * The corpus file defines corpus_run(): 0 when its results are right. */
#include "emu_test.h"

int corpus_run(void);

static int run_it(void *arg) {
    (void)arg;
    dup2(2, 1);                              /* kernel printf goes where the test reads */
    setvbuf(stdout, NULL, _IONBF, 0);
    int r = corpus_run();
    fflush(stdout);
    int n = tl_emu_last_diagnostic(NULL, 0);
    char esc[400];                           /* __shared__ arrays reached through plain pointers */
    if (tl_emu_shared_escapes(esc, sizeof esc) > 0)
        fprintf(stderr, "\nESCAPES %s\n", esc);
    fprintf(stderr, "\nVERDICT %s (results %s, diagnostic %s)\n", r == 0 && n == 0 ? "pass" : "fail",
            r == 0 ? "right" : "wrong or not computed", n ? "reported" : "none");
    return 0;
}

Test(corpus, gets_its_expected_verdict, .timeout = 120) {
    child_result r;
    run_child(run_it, NULL, &r);
    cr_assert(r.exited && r.code == 0, "the program did not finish (exit %d, signal %d):\n%s", r.code, r.sig, r.err);
#ifdef EXPECT_PASS
    assert_has(r.err, "VERDICT pass");
    assert_lacks(r.err, "tilelab-emu:");
#else
    assert_has(r.err, "VERDICT fail");
#endif
#ifdef EXPECT1
    assert_has(r.err, EXPECT1);
#endif
#ifdef EXPECT2
    assert_has(r.err, EXPECT2);
#endif
#ifdef EXPECT3
    assert_has(r.err, EXPECT3);
#endif
#ifdef EXPECT_NO_ESCAPES
    assert_lacks(r.err, "ESCAPES");          /* every access went through a checked view or pointer */
#endif
#ifdef EXPECT_ONCE
    const char *first = strstr(r.err, EXPECT_ONCE);
    cr_assert(first && !strstr(first + 1, EXPECT_ONCE), "expected exactly one\n  %s\nin\n%s", EXPECT_ONCE, r.err);
#endif
}
