#!/bin/sh
# grader/kit-check.sh: `./kit check NN [--emulate]`: the grader's own path on this working tree.
# The lab's student files in labs/NN-*/ are graded as a submission would be (pristine copy of the kit,
# clean build in the sandbox, the public cases through the --serve channel, the checker's teaching
# output), so what passes here passes the same way in the grader. Hidden cases, safety and speed are
# the grader's alone. Exit: 0 every correctness test passes, 1 one failed (or the build failed),
# 2 usage, 3 a tool is missing, 77 nothing could be run here (a GPU lab without GPU or emulation).
set -eu

: "${TL_ROOT:?kit check: TL_ROOT is not set (run it as ./kit check NN)}"
: "${TL_BUILD:?kit check: TL_BUILD is not set (run it as ./kit check NN)}"

usage() {
    echo "usage: ./kit check NN [--emulate]   (NN: the lab, e.g. 01)" >&2
    exit 2
}
[ $# -ge 1 ] || usage
lab=$1
shift
emulate=
for a in "$@"; do
    case $a in
    --emulate) emulate=--emulate ;;
    *) echo "kit check: unknown option '$a'" >&2; usage ;;
    esac
done

. "$TL_ROOT/grader/kit-lib.sh"
tl_build_grader "kit check"
tg="$TL_BUILD/grader/tl-grade"
dir=$("$tg" --print-dir "$lab") || exit 2
if [ ! -d "$TL_ROOT/labs/$dir" ]; then
    echo "kit check: lab $lab is not in this kit yet (no labs/$dir)" >&2
    exit 2
fi
echo "kit check $lab: labs/$dir/$("$tg" --print-files "$lab" | tr '\n' ' ')on the public cases"
exec "$tg" --check --quiet --kit "$TL_ROOT" --lab "$lab" --out "$TL_BUILD/check/$dir" $emulate "$TL_ROOT/labs/$dir"
