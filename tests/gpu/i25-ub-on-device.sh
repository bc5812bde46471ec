#!/bin/sh
# i25-ub-on-device.sh: on the GPU machine, a definite bug that only the emulated run shows fails the
# test on the GPU too (issue 25, lead decision of 2026-11-26 19:14; grader/work.c tg_work_ub_class):
#   1. the corpus's uninitialised accumulators (04-wrong-acc-uninit-tail, 06-wrong-acc-uninit-branch)
#      through tl-grade --check as ./kit check runs them (run-corpus.sh, CORPUS_GPU=1): FAIL, and the
#      first line of a failing test says "reading a local before giving it a value";
#   2. the grader's class path (./kit grade, where ncu's counters judge the work and the emulated twin
#      runs one small ragged size only as this check): lab 04's solution (full marks) beside
#      04-wrong-acc-uninit-tail.cu (its boundary tests fail with that reason).
# Run:  from the repository root on the GPU machine: sh tests/gpu/i25-ub-on-device.sh
#       (sources tests/gpu/device-env.sh). Logs in $OUT (ub-*.log, the class's results in $OUT/g04).
# Exit: 0 when every expectation held, 1 otherwise (each named).
set -u
OUT=${OUT:-./gpu-out}
mkdir -p "$OUT"
. tests/gpu/device-env.sh
echo "device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1); $(date -u +%FT%TZ)"
problems=0
./kit setup > "$OUT/kit-setup.log" 2>&1 || echo "kit setup: exit $? (kit-setup.log)"
ninja -C build common/tl-lab grader/tl-grade common/tl-device common/tl-device-emu >> "$OUT/kit-setup.log" 2>&1 ||
    { echo "tl-lab / tl-grade not built (kit-setup.log)"; exit 1; }
t0=$(date +%s)
CORPUS_GPU=1 CORPUS_LOGS=$OUT CORPUS_KEEP=1 sh tests/corpus/run-corpus.sh build 'acc-uninit' > "$OUT/ub-corpus.log" 2>&1 ||
    { problems=$((problems + 1)); echo "corpus: a verdict differs"; }
cat "$OUT/ub-corpus.log"
for f in 04-wrong-acc-uninit-tail.cu 06-wrong-acc-uninit-branch.cu; do
    awk '/^FAIL  /{getline; print}' "$OUT/tl-corpus-$f.log" 2>/dev/null | grep -q "reading a local before giving it a value" ||
        { problems=$((problems + 1)); echo "$f: no failing test's first line names the uninitialised local"; }
    awk '/^(FAIL|PASS)  /{print "   " $0; getline; print "      " $0}' "$OUT/tl-corpus-$f.log" 2>/dev/null | cut -c1-240
done
echo "corpus part: $(( $(date +%s) - t0 )) s"
t0=$(date +%s)
rm -rf "$OUT/c04" "$OUT/g04"
mkdir -p "$OUT/c04/solution" "$OUT/c04/uninit"
cp solutions/04-boundary-handling/boundary.cu "$OUT/c04/solution/boundary.cu"
cp tests/corpus/04-wrong-acc-uninit-tail.cu "$OUT/c04/uninit/boundary.cu"
./kit grade --lab 04 --jobs 2 --out "$OUT/g04" "$OUT/c04/solution" "$OUT/c04/uninit" > "$OUT/ub-grade.log" 2>&1
rc=$?
echo "kit grade --lab 04 (solution, uninit): exit $rc in $(( $(date +%s) - t0 )) s"
cut -c1-160 "$OUT/g04/gradebook.csv" 2>/dev/null | head -4
grep -q "reading a local before giving it a value" "$OUT/g04/uninit/summary.part.md" 2>/dev/null ||
    { problems=$((problems + 1)); echo "grader: uninit's summary does not name the uninitialised local"; }
grep -E "^(FAIL|PASS)|reading a local|undefined behaviour|counters|built late" "$OUT/g04/uninit/summary.part.md" 2>/dev/null | cut -c1-240 | head -20
full=$(awk -F, '$1 == "solution" && $2 + 0 > 0 && $2 + 0 == $3 + 0 { print "yes" }' "$OUT/g04/gradebook.csv" 2>/dev/null)
[ "$full" = yes ] || { problems=$((problems + 1)); echo "grader: the solution did not get full marks"; }
tar czf "$OUT/ub-logs.tgz" -C "$OUT" g04 ub-corpus.log ub-grade.log 2>/dev/null
[ "$problems" = 0 ] && { echo "ALL EXPECTATIONS HELD"; exit 0; }
echo "$problems EXPECTATION(S) FAILED"; exit 1
