#!/bin/sh
# count-styles-on-device.sh: issue 24 items 3/6 on a GPU, through the grader's check path (`./kit check`'s
# tl-grade --check, no --emulate): the work of a GPU run is counted by the emulated counting twin, which
# now counts __shared__ accesses at their address (helpers, references, float4, pointer arithmetic).
#   1. issue 25's helper-tile files and corpus styles (tests/corpus/expected.tsv rows matching COUNT_PAT:
#      by default 03-right-helper-fills-tile, 03-right-stage-helper, 03-right-style-float4-tiles and
#      03-right-style-lambda-ldg-tiles; COUNT_PAT='style-|helper-fills|stage-helper' for all) through
#      run-corpus.sh with CORPUS_GPU=1: every one PASS, as emulated;
#   2. the staged decoy tests/hostile/03/decoy_copy_staged.cu as lab 03's file: exit 1, the output naming
#      'P not computed from the tiles'; the lab 03 solution: exit 0 with its work line (2 shared loads
#      per multiply-add).
# Run:   from the repository root on the GPU machine: sh tests/gpu/count-styles-on-device.sh
#        Logs in $OUT; the summary in $OUT/count-summary.txt. A few minutes on an H100.
# Exit:  0 when every expectation held, 1 otherwise (each named).
set -u
OUT=${OUT:-./gpu-out}
mkdir -p "$OUT"
if [ -z "${COUNT_TEED:-}" ]; then
    COUNT_TEED=1 sh "$0" "$@" 2>&1 | tee "$OUT/count-summary.txt"
    exit "$(tail -n 1 "$OUT/count-summary.txt" | grep -q '^ALL EXPECTATIONS HELD' && echo 0 || echo 1)"
fi
. tests/gpu/device-env.sh
echo "device: $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1), $(nproc) cores, commit $(git rev-parse --short HEAD 2>/dev/null)"
problems=0
t0=$(date +%s)
./kit setup > "$OUT/kit-setup.log" 2>&1 || echo "kit setup: exit $? (see kit-setup.log)"
# kit setup configures only: the grader and the lab tool that run-corpus.sh calls are built here
ninja -C build grader/tl-grade common/tl-lab > "$OUT/ninja.log" 2>&1 || echo "ninja tl-grade tl-lab: exit $? (ninja.log)"
echo "kit setup and tl-grade: $(( $(date +%s) - t0 )) s"
# COUNT_PAT: the corpus rows (default: issue 25's two helper-tile files and two styles, to fit 150 s)
pat=${COUNT_PAT:-'helper-fills-tile|stage-helper|style-float4-tiles|style-lambda-ldg'}
t0=$(date +%s)
CORPUS_GPU=1 CORPUS_LOGS="$OUT" sh tests/corpus/run-corpus.sh build "$pat" > "$OUT/corpus.log" 2>&1 ||
    { problems=$((problems + 1)); echo "corpus on the GPU: a verdict differs (corpus.log; failing logs tl-corpus-*.log)"; }
cat "$OUT/corpus.log"
echo "corpus: $(grep -c . "$OUT/corpus.log") rows in $(( $(date +%s) - t0 )) s"
check03() {   # NAME FILE: tl-grade --check on a folder holding FILE as lab 03's tiled.cu, on the GPU
    rm -rf "$OUT/sub-$1" "$OUT/out-$1"
    mkdir -p "$OUT/sub-$1"
    cp "$2" "$OUT/sub-$1/tiled.cu"
    build/grader/tl-grade --check --quiet --kit "$(pwd)" --lab 03 --out "$OUT/out-$1" "$OUT/sub-$1" > "$OUT/check-$1.log" 2>&1
}
check03 decoy tests/hostile/03/decoy_copy_staged.cu
rc=$?
ok=yes
[ $rc = 1 ] && grep -q 'P not computed from the tiles' "$OUT/check-decoy.log" || { ok=NO; problems=$((problems + 1)); }
echo "decoy_copy_staged on the GPU: exit $rc (expected 1, 'P not computed from the tiles') ok=$ok"
awk '/^FAIL  /{print "   " $0; getline; print "      " $0}' "$OUT/check-decoy.log" | head -n 6
check03 solution solutions/03-tiled-kernel/tiled.cu
rc=$?
ok=yes
[ $rc = 0 ] && grep -q 'shared loads per multiply-add: 2' "$OUT/check-solution.log" || { ok=NO; problems=$((problems + 1)); }
echo "lab 03 solution on the GPU: exit $rc (expected 0, its work line) ok=$ok"
grep -m2 -o 'work at size.*' "$OUT/check-solution.log" | cut -c1-240
[ "$problems" = 0 ] && { echo "ALL EXPECTATIONS HELD"; exit 0; }
echo "$problems EXPECTATION(S) FAILED"; exit 1
