#!/bin/sh
# i25-verdicts-on-device.sh: issue 25's verdicts on a GPU, through `./kit check` as a student runs it.
#   1. each known-wrong file issue 25 added (tests/wrong/, the rows named below) laid over its lab's
#      student file in turn: ./kit check NN must exit 1, and its output must hold the manifest row's
#      'expect' alternatives (the GPU program's words; headlines are printed, not compared);
#   2. the corpus kernels issue 25 added (tests/corpus/expected.tsv rows whose file starts with a
#      name below) through tests/corpus/run-corpus.sh with CORPUS_GPU=1: the same verdicts as emulated;
#   3. eight copies of lab 02's solution graded with ./kit grade --jobs 8: all at full marks
#      (CPU-time limits: the verdict does not depend on the load; tests/load/grade-jobs8.sh);
#   4. a warm ./kit check 03 timed twice: with carried libraries it no longer asks apt every time.
# Parts: I25_WRONG=0 skips 1; I25_CORPUS=PATTERN (a grep -E on corpus file names) picks 2's files
#        (default: the first wave's); I25_GRADE_LABS="" skips 3 (default 02); I25_WARM=0 skips 4.
#        Session 9's request: I25_WRONG=0 I25_GRADE_LABS= I25_WARM=0 I25_CORPUS='-s9-' (its new files).
# Run:   from the repository root on the GPU machine: sh tests/gpu/i25-verdicts-on-device.sh
#        (it sources tests/gpu/device-env.sh for the carried grader libraries; TL_CARRY_DEBS names
#        their folder). Logs in $OUT; the summary (device, date, one line per expectation) in
#        $OUT/i25-summary.txt. Expected a few minutes on an H100 (one cold build, then warm checks).
# Exit:  0 when every expectation held, 1 otherwise (each named).
set -u
OUT=${OUT:-./gpu-out}
mkdir -p "$OUT"
if [ -z "${I25_TEED:-}" ]; then   # the whole run's lines also in $OUT/i25-summary.txt
    I25_TEED=1 sh "$0" "$@" 2>&1 | tee "$OUT/i25-summary.txt"
    exit "$(tail -n 1 "$OUT/i25-summary.txt" | grep -q '^ALL EXPECTATIONS HELD' && echo 0 || echo 1)"
fi
. tests/gpu/device-env.sh
{ echo "date: $(date -u +%FT%TZ)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1; nproc; } > "$OUT/i25-device.txt"
echo "device: $(tr '\n' ' ' < "$OUT/i25-device.txt")"
problems=0
./kit setup > "$OUT/kit-setup.log" 2>&1 || echo "kit setup: exit $? (see kit-setup.log)"
# kit setup configures build/ but builds nothing; the table's program is needed before the first check
[ -x build/common/tl-lab ] || ninja -C build common/tl-lab >> "$OUT/kit-setup.log" 2>&1 ||
    ./kit check 01 >> "$OUT/kit-setup.log" 2>&1   # configures and builds through the kit when setup could not
[ -x build/common/tl-lab ] || { echo "build/common/tl-lab was not built (kit-setup.log)"; exit 1; }
# the corpus part runs tl-grade itself (run-corpus.sh), not through ./kit check
[ -x build/grader/tl-grade ] || ninja -C build grader/tl-grade >> "$OUT/kit-setup.log" 2>&1 ||
    echo "build/grader/tl-grade was not built (kit-setup.log)"
tab=$(printf '\t')
WRONG=
[ "${I25_WRONG:-1}" = 0 ] || WRONG="05/reserve_in_block_limit.c 06/multiples-only.cu 04/phase-short.cu 04/reset-per-phase.cu 04/clamped-tile.cu 04/stale-tile.cu 06/misaligned-vec.cu 03/no-shared.cu 03/prefetch-wrong-phase.cu"
for w in $WRONG; do
    row=$(grep "^$w$tab" tests/wrong/manifest.tsv)
    lab=$(printf '%s' "$row" | cut -f2)
    expect=$(printf '%s' "$row" | cut -f3)
    dir=$(build/common/tl-lab dir "$lab")
    f=$(build/common/tl-lab files "$lab" | head -1)
    cp "labs/$dir/$f" "$OUT/keep-$lab"
    cp "tests/wrong/$w" "labs/$dir/$f"
    log="$OUT/check-$(echo "$w" | tr / -).log"
    t0=$(date +%s)
    ./kit check "$lab" > "$log" 2>&1
    rc=$?
    cp "$OUT/keep-$lab" "labs/$dir/$f"
    ok=yes
    [ $rc = 1 ] || ok=NO
    grep -qE "$(printf '%s' "$expect" | sed 's/[][()*.^$]/\\&/g')" "$log" || ok=NO
    [ $ok = yes ] || problems=$((problems + 1))
    echo "kit check $lab with $w: exit $rc (expected 1, output holding '$expect') ok=$ok in $(( $(date +%s) - t0 )) s"
    awk '/^FAIL  /{print "   " $0; getline; print "      " $0}' "$log" | head -n 8
done
if [ "${I25_OWN:-0}" = 1 ]; then   # labs 03/04's per-copy names (labs/own-symbols.sh) outside the sandbox
    { command -v nm objcopy ar readelf; ar --version | head -1; readelf --version | head -1; } > "$OUT/own-symbols.log" 2>&1
    ninja -C build labs/03-tiled-kernel/lab03 labs/04-boundary-handling/lab04 >> "$OUT/own-symbols.log" 2>&1
    echo "labs 03/04 GPU programs built with own-symbols.sh: exit $? (own-symbols.log)"
    grep -E 'own-symbols|FAILED|rror' "$OUT/own-symbols.log" | head -n 20
fi
pat=${I25_CORPUS:-'float4-store|template-helper-sync|reset-per-phase|macro-launch|helper-fills-tile|stage-helper|namespace-helper-oob'}
if grep -qE "$pat" tests/corpus/expected.tsv; then
    t0=$(date +%s)
    CORPUS_GPU=1 CORPUS_LOGS=$OUT sh tests/corpus/run-corpus.sh build "$pat" > "$OUT/corpus.log" 2>&1 ||
        { problems=$((problems + 1)); echo "corpus on the GPU: a verdict differs (corpus.log)"; }
    cat "$OUT/corpus.log"
    echo "corpus ('$pat') on the GPU: $(( $(date +%s) - t0 )) s"
fi
for nn in ${I25_GRADE_LABS-02}; do   # I25_GRADE_LABS="02 06" grades lab 06 too (slower)
    rm -rf "$OUT/class$nn"
    mkdir -p "$OUT/class$nn"
    dir=$(build/common/tl-lab dir "$nn")
    f=$(build/common/tl-lab files "$nn" | head -1)
    i=1
    while [ $i -le 8 ]; do
        mkdir -p "$OUT/class$nn/copy$i"
        cp "solutions/$dir/$f" "$OUT/class$nn/copy$i/$f"
        i=$((i + 1))
    done
    t0=$(date +%s)
    ./kit grade --lab "$nn" --jobs 8 --out "$OUT/grades$nn" "$OUT/class$nn"/copy* > "$OUT/grade$nn.log" 2>&1
    rc=$?
    full=$(awk -F, 'NR > 1 && $1 ~ /^copy/ && $2 + 0 == $3 + 0 && $3 + 0 > 0 { n++ } END { print n + 0 }' \
        "$OUT/grades$nn/gradebook.csv" 2>/dev/null)
    ok=yes
    [ "$rc" = 0 ] && [ "$full" = 8 ] || { ok=NO; problems=$((problems + 1)); }
    echo "kit grade --lab $nn --jobs 8, 8 copies of the solution: exit $rc, $full of 8 at full marks ok=$ok," \
         "$(( $(date +%s) - t0 )) s; load after: $(cut -d' ' -f1-3 /proc/loadavg)"
done
warm="1 2"
[ "${I25_WARM:-1}" = 0 ] && warm=
for i in $warm; do
    t0=$(date +%s%N)
    ./kit check 03 > "$OUT/check03-warm$i.log" 2>&1
    rc=$?
    ms=$(( ($(date +%s%N) - t0) / 1000000 ))   # no bc on the device
    echo "warm ./kit check 03 ($i, the skeleton: exit 1 expected): exit $rc in $((ms / 1000)).$(printf %03d $((ms % 1000))) s; apt asked: $(grep -c 'installing from Debian' "$OUT/check03-warm$i.log")"
done
[ "$problems" = 0 ] && { echo "ALL EXPECTATIONS HELD"; exit 0; }
echo "$problems EXPECTATION(S) FAILED"; exit 1
