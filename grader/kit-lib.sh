# grader/kit-lib.sh: the grader's kit-*.sh scripts' helper over the kit's shell library (POSIX sh;
# sourced, not run). Messages, refusals and builds are common/kit-lib.sh's (tl_say, tl_err, tl_die,
# tl_build); this file keeps only what is the grader's.
. "$TL_ROOT/common/kit-lib.sh"

# tl_build_grader WHO: makes sure $TL_BUILD/grader/tl-grade exists and is up to date; exit 2 when
# $TL_BUILD is not configured or ninja is missing, 1 when the build fails (its errors shown).
tl_build_grader() {
    TL_WHO=$1
    tl_build grader/tl-grade || exit 1
}
