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
# The command line is checked first by name, from tl-grade's table of options, by a program that links
# only that table (tl-grade-args): a misspelt option or a missing value is answered in seconds, never
# after tl-grade's own build (the whole kit: about a minute on a fresh clone).
tl_build grader/tl-grade-args || exit 1
"$TL_BUILD/grader/tl-grade-args" "$@" || exit $?
tl_build_grader "kit grade"
exec "$TL_BUILD/grader/tl-grade" --kit "$TL_ROOT" "$@"
