#!/bin/sh
# i25-ub-on-device.sh: on the GPU machine, a definite bug that only the emulated run shows fails the
# test on the GPU too (issue 25, lead decision of 2026-11-26 19:14; grader/work.c tg_work_ub_class):
#   1. the corpus's uninitialised accumulator (04-wrong-acc-uninit-tail) through tl-grade --check as
#      ./kit check runs it (run-corpus.sh, CORPUS_GPU=1): FAIL, and the first line of a failing test
#      says "reading a local before giving it a value"; six more rows' GPU headlines printed
#      (I25_UB_PAT picks the rows);
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
# the uninitialised accumulator, and the rows whose GPU headline was generic or misleading on i25-1 and
# lead-1 (printed, for the headline column: the phase patterns now tried at the GPU's sizes, the
# emulated diagnosis where the GPU's reason is generic)
pat=${I25_UB_PAT:-'04-wrong-acc-uninit-tail|03-wrong-sync-after-compute-only|06-wrong-dbuf-missing-barrier|03-wrong-tiles-not-shared|03-wrong-phases-minus-one|04-wrong-guard-no-else|03-wrong-double-buffer-prefetch-same-phase'}
CORPUS_GPU=1 CORPUS_LOGS=$OUT CORPUS_KEEP=1 sh tests/corpus/run-corpus.sh build "$pat" > "$OUT/ub-corpus.log" 2>&1 ||
    { problems=$((problems + 1)); echo "corpus: a verdict differs"; }
cat "$OUT/ub-corpus.log"
f=04-wrong-acc-uninit-tail.cu
{
    awk '/^FAIL  /{getline; print}' "$OUT/tl-corpus-$f.log" 2>/dev/null | grep -q "reading a local before giving it a value" ||
        { problems=$((problems + 1)); echo "$f: no failing test's first line names the uninitialised local"; }
    awk '/^(FAIL|PASS)  /{print "   " $0; getline; print "      " $0}' "$OUT/tl-corpus-$f.log" 2>/dev/null | cut -c1-240
}
echo "corpus part: $(( $(date +%s) - t0 )) s"
t0=$(date +%s)
rm -rf "$OUT/c04" "$OUT/g04"
mkdir -p "$OUT/c04/solution" "$OUT/c04/uninit"
cp solutions/04-boundary-handling/boundary.cu "$OUT/c04/solution/boundary.cu"
cp tests/corpus/04-wrong-acc-uninit-tail.cu "$OUT/c04/uninit/boundary.cu"
# (--public-only: the public sizes' tests, where the check runs, without the sanitizer and speed runs)
./kit grade --lab 04 --jobs 2 --public-only --out "$OUT/g04" "$OUT/c04/solution" "$OUT/c04/uninit" > "$OUT/ub-grade.log" 2>&1
rc=$?
echo "kit grade --lab 04 (solution, uninit): exit $rc in $(( $(date +%s) - t0 )) s"
cut -c1-160 "$OUT/g04/gradebook.csv" 2>/dev/null | head -4
grep -q "reading a local before giving it a value" "$OUT/g04/uninit/summary.part.md" 2>/dev/null ||
    { problems=$((problems + 1)); echo "grader: uninit's summary does not name the uninitialised local"; }
grep -E "^(FAIL|PASS)|reading a local|undefined behaviour|counters|built late" "$OUT/g04/uninit/summary.part.md" 2>/dev/null | cut -c1-240 | head -20
full=$(awk -F, '$1 == "solution" && $2 + 0 > 0 && $2 + 0 == $3 + 0 { print "yes" }' "$OUT/g04/gradebook.csv" 2>/dev/null)
[ "$full" = yes ] || { problems=$((problems + 1)); echo "grader: the solution did not get full marks"; }
(cd "$OUT" && tar czf ub-logs.tgz g04 ub-corpus.log ub-grade.log tl-corpus-*.log 2>/dev/null)
rm -f "$OUT"/tl-corpus-*.log
[ "$problems" = 0 ] && { echo "ALL EXPECTATIONS HELD"; exit 0; }
echo "$problems EXPECTATION(S) FAILED"; exit 1
