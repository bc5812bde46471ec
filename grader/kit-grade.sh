#!/bin/sh
# grader/kit-grade.sh: `./kit grade --lab NN --out DIR [--secret FILE] [--public-only] [--jobs N] SUBMISSION...`
# Called by the kit's front door as `sh grader/kit-grade.sh ARGS` with TL_ROOT (the kit's top folder)
# and TL_BUILD (its configured build folder) exported. Builds tl-grade if needed, then runs it.
# Everything else (options, exit codes) is tl-grade's: `./kit grade --help`.
set -eu

: "${TL_ROOT:?kit grade: TL_ROOT is not set (run it as ./kit grade ...)}"
: "${TL_BUILD:?kit grade: TL_BUILD is not set (run it as ./kit grade ...)}"

. "$TL_ROOT/grader/kit-lib.sh"
TL_WHO="kit grade"
# tl-grade names this in its one-line usage errors ("... (./kit grade --help lists every option)")
TL_GRADE_HELP="./kit grade --help"
export TL_GRADE_HELP
tl_need_grader_libs
# The command line is checked first, by tl-grade's own reading of it (grader/cmdline.c) in a program
# that links only that (tl-grade-args, ~25 build steps): a misspelt option, a missing or bad value,
# an unknown lab is answered in seconds, never after tl-grade's own build (the whole kit, 106 steps:
# about a minute on a fresh clone).
tl_build grader/tl-grade-args || exit 1
# Asked for help (./kit's rule: an -h or --help anywhere): tl-grade's usage, which tl-grade-args
# prints too, so that help never waits for tl-grade's own build.
for _a in "$@"; do
    case $_a in -h|--help) exec "$TL_BUILD/grader/tl-grade-args" --help ;; esac
done
"$TL_BUILD/grader/tl-grade-args" --kit "$TL_ROOT" "$@" || exit $?
tl_build_grader "kit grade"
exec "$TL_BUILD/grader/tl-grade" --kit "$TL_ROOT" "$@"
