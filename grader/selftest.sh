#!/bin/sh
# grader/selftest.sh NN OUT: grades the kit's own class for lab NN and writes OUT/graded-NN/summary.md.
#
# The class: the reference solution, the skeleton (labs/NN-*/ as handed out), every known-wrong
# submission (tests/wrong/NN/*) and every hostile one (tests/hostile/NN/*), each laid over a copy of the
# solution's files under the lab's student file name with the same extension. This is the GPU
# machine's stand-in for the Criterion class test (that machine has no Criterion): one command, no
# GPU-specific flags. Extra tl-grade options go in TL_GRADE_ARGS (e.g. --emulate).
#
#   meson setup build-gpu -Dtests=false && ninja -C build-gpu && \
#     TL_BUILD=build-gpu sh grader/selftest.sh 03 /tmp/selftest && cat /tmp/selftest/graded-03/summary.md
#
# Then it checks the verdicts: the solution scores its whole maximum; the skeleton and every wrong
# and hostile submission score less than the solution, each with a failed test that says why.
# Exit: 0 graded and every verdict as expected; 1 a verdict is not; else tl-grade's (2 usage,
# 3 a grader-side problem).
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
tl_lab=$build/common/tl-lab
[ -x "$tl_lab" ] || { echo "selftest: no $tl_lab; build it first: ninja -C $build common/tl-lab" >&2; exit 2; }
dir=$("$tl_lab" dir "$lab") || exit 2
files=$("$tl_lab" files "$lab")
if [ ! -d "$root/solutions/$dir" ]; then
    echo "selftest: no solutions/$dir: lab $lab is not in this kit yet" >&2
    exit 2
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
cls=$out/class-$lab
rm -rf "$cls" "$out/graded-$lab"
mkdir -p "$cls/solution" "$cls/skeleton"
for sf in $files; do
    cp "$root/solutions/$dir/$sf" "$cls/solution/"
    cp "$root/labs/$dir/$sf" "$cls/skeleton/"
done
n=2
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
rc=0
# The kit's own class: where bubblewrap is missing (the GPU machine) it is graded anyway, and the
# reports say UNSAFE; a real class is refused there unless the instructor passes the option.
unsafe=
command -v bwrap >/dev/null 2>&1 || { unsafe=--unsafe-no-sandbox; echo "selftest: no bubblewrap here: graded with $unsafe"; }
# shellcheck disable=SC2086
"$tg" --kit "$root" --lab "$lab" --out "$out/graded-$lab" --jobs "${JOBS:-2}" $unsafe ${TL_GRADE_ARGS:-} -- "$cls"/* || rc=$?
[ "$rc" -eq 0 ] || exit "$rc"

# The verdicts, from each .done marker (score max seconds). The maximum is every test's points; a
# test not gradable here (speed, emulated) counts 0 for everyone: the solution must get every point
# of the tests graded here (results.json tilelab.graded_score and graded_max).
g=$out/graded-$lab
read -r ssc smax _ < "$g/solution/.done"
jnum() { sed -n "s/.*\"$1\":[[:space:]]*\([0-9.]*\).*/\1/p" "$2" | head -1; }
gsc=$(jnum graded_score "$g/solution/results.json"); gmax=$(jnum graded_max "$g/solution/results.json")
bad=0
. "$root/tests/hostile/expected.sh"
place=$(hostile_place "${TL_GRADE_ARGS:-}")
printf '\nselftest verdicts (lab %s, graded at: %s):\n' "$lab" "$place"
if [ -n "$gsc" ] && [ "$(echo "$gsc $gmax" | awk '{print ($1 == $2)}')" = 1 ]; then
    echo "  ok    solution: $ssc/$smax (every point of the tests graded here: $gsc/$gmax)"
else
    echo "  WRONG solution: $ssc/$smax ($gsc/$gmax graded here): the reference solution must get every graded point"; bad=1
fi
for d in "$g"/*/; do
    name=$(basename "$d")
    [ "$name" = solution ] && continue
    [ -f "$d/.done" ] || { echo "  WRONG $name: not graded (see $d)"; bad=1; continue; }
    read -r sc mx _ < "$d/.done"
    why=$(grep -o '"status":[[:space:]]*"failed"' "$d/results.json" | head -1)
    # tests/hostile/expected.txt: hostiles whose attack is contained at no cost get every point,
    # some only at one place (a grade such as less,gpu:full: tests/hostile/expected.sh)
    case $name in hostile-*) want=$(hostile_expected "$root/tests/hostile/expected.txt" "$lab" "${name#hostile-}" \
                                      "$place") || want=less ;; *) want=less ;; esac
    if [ "$want" = full ]; then
        if [ "$(echo "$sc $ssc" | awk '{print ($1 == $2)}')" = 1 ]; then
            echo "  ok    $name: $sc/$mx (contained; tests/hostile/expected.txt: full, $place)"
        else
            echo "  WRONG $name: $sc/$mx: tests/hostile/expected.txt says full marks ($ssc) at $place"; bad=1
        fi
        continue
    fi
    if [ "$(echo "$sc $ssc" | awk '{print ($1 < $2)}')" = 1 ] && [ -n "$why" ]; then
        echo "  ok    $name: $sc/$mx"
    else
        echo "  WRONG $name: $sc/$mx: must score less than the solution ($ssc), with a failed test"; bad=1
    fi
done
[ "$bad" -eq 0 ] && echo "selftest: every verdict as expected; details in $g/summary.md" || \
    echo "selftest: some verdicts are not as expected; details in $g/summary.md"
exit "$bad"
