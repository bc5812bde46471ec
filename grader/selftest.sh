#!/bin/sh
# grader/selftest.sh NN OUT: grades the kit's own class for lab NN and writes OUT/graded-NN/summary.md.
#
# The class: the reference solution, every known-wrong submission (tests/wrong/NN/*) and every hostile
# one (tests/hostile/NN/*), each laid over a copy of the solution's files under the lab's student file
# name with the same extension. This is the GPU machine's stand-in for the Criterion class test (that
# machine has no Criterion): one command, no GPU-specific flags.
#
#   meson setup build-gpu -Dtests=false && ninja -C build-gpu && \
#     TL_BUILD=build-gpu sh grader/selftest.sh 03 /tmp/selftest && cat /tmp/selftest/graded-03/summary.md
#
# Exit: tl-grade's (0 graded; 2 usage; 3 a grader-side problem). Read the summary for the verdicts.
set -eu

if [ $# -ne 2 ]; then
    echo "usage: sh grader/selftest.sh NN OUT   (TL_BUILD: the build folder, default ./build)" >&2
    exit 2
fi
lab=$1
out=$2
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TL_BUILD:-$root/build}
tg=$build/grader/tl-grade
if [ ! -x "$tg" ]; then
    echo "selftest: no $tg; build it first: ninja -C $build grader/tl-grade" >&2
    exit 2
fi
dir=$("$tg" --print-dir "$lab") || exit 2
files=$("$tg" --print-files "$lab")
if [ ! -d "$root/solutions/$dir" ]; then
    echo "selftest: no solutions/$dir: lab $lab is not in this kit yet" >&2
    exit 2
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
cls=$out/class-$lab
rm -rf "$cls" "$out/graded-$lab"
mkdir -p "$cls/solution"
for sf in $files; do cp "$root/solutions/$dir/$sf" "$cls/solution/"; done
n=1
for f in "$root"/tests/wrong/"$lab"/* "$root"/tests/hostile/"$lab"/*; do
    [ -f "$f" ] || continue
    kind=$(basename "$(dirname "$(dirname "$f")")")
    name=$(basename "$f")
    name=${name%.*}
    sub=$cls/$kind-$name
    mkdir -p "$sub"
    for sf in $files; do cp "$root/solutions/$dir/$sf" "$sub/"; done
    ext=${f##*.}
    for sf in $files; do
        case $sf in *."$ext") cp "$f" "$sub/$sf" ;; esac
    done
    n=$((n + 1))
done
echo "selftest: lab $lab, $n submissions in $cls"
exec "$tg" --kit "$root" --lab "$lab" --out "$out/graded-$lab" --jobs "${JOBS:-2}" "$cls"/*
