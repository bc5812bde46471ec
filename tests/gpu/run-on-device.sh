#!/usr/bin/env bash
# run-on-device.sh: everything the GPU labs (02-05) must show on a real GPU, in one run.
#
# Run:  from the repository root on the GPU machine (nvcc 13, compute-sanitizer, cuBLAS, meson):
#           bash tests/gpu/run-on-device.sh
#       Logs and records go to $OUT when it is set, else ./gpu-out/. Takes about 4-8 minutes on
#       an H100 (most of it the build and the sanitizer runs).
# What:  1. configure and build build-gpu (-Dtests=false -Dgpu_archs=90, debugoptimized);
#        2. the reference solutions on their public sizes, timed, records into $OUT;
#        3. the skeletons and every known-wrong submission (tests/wrong/manifest.tsv): exit code,
#           the verdict, whether it names the expected bug class;
#        4. compute-sanitizer: racecheck on the barrier bugs, memcheck on the guard bugs, at
#           small sizes, plus the reference kernels as clean controls;
#        5. the Width-4096 speed comparison (naive, tiled16, tiled32, boundary32, cublas) in one
#           process, records into $OUT/speed-4096.csv, against the issue's floors;
#        6. a summary table, last.
# Exit:  0 when every expectation held, 1 otherwise (the summary says which), 2 build failure,
#        77 no usable CUDA device (the reference solutions skipped).
set -u
OUT="${OUT:-./gpu-out}"
mkdir -p "$OUT"
B=build-gpu
SUMMARY="$OUT/summary.txt"
: > "$SUMMARY"
problems=0
export PATH="/usr/local/cuda/bin:$PATH"

say() { printf '%s\n' "$*" | tee -a "$OUT/run.log"; }
row() { printf '%s\n' "$*" >> "$SUMMARY"; }

# ------------------------------------------------------------------ 1. build
say "== build ($(date -u +%FT%TZ))"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv > "$OUT/nvidia-smi.csv" 2>&1 || true
if [ -d "$B" ]; then
    meson setup --reconfigure "$B" -Dtests=false -Dgpu_archs=90 -Dgpu_programs=enabled -Dbuildtype=debugoptimized > "$OUT/build.log" 2>&1
else
    meson setup "$B" -Dtests=false -Dgpu_archs=90 -Dgpu_programs=enabled -Dbuildtype=debugoptimized > "$OUT/build.log" 2>&1
fi || { say "meson setup failed: see $OUT/build.log"; tail -30 "$OUT/build.log"; exit 2; }
if ! ninja -C "$B" >> "$OUT/build.log" 2>&1; then
    say "build failed: see $OUT/build.log"; tail -40 "$OUT/build.log"; exit 2
fi
grep -E "cuBLAS yardstick|CUDA \(nvcc\)" "$OUT/build.log" | tee -a "$OUT/run.log"

# Runs a program, saves its output; sets RC and VERDICT (the first failure reason, or PASS).
run_one() {   # tag binary args...
    local tag=$1 bin=$2; shift 2
    local log="$OUT/$tag.log"
    local t0=$SECONDS
    timeout "${LIMIT:-300}" "$bin" "$@" > "$log" 2>&1
    RC=$?
    VERDICT=$(grep -m1 -oE "FAIL[^|]*" "$log" | sed 's/  */ /g' | cut -c1-70)
    [ -n "$VERDICT" ] || VERDICT=$(grep -m1 -E "passed, [0-9]+ failed|PASS:|FAIL:" "$log" | cut -c1-70)
    say "   $tag: exit $RC in $((SECONDS - t0)) s: $VERDICT"
}

# ------------------------------------------------------------------ 2. reference solutions
say "== reference solutions (public sizes, timed)"
row "REFERENCE SOLUTIONS (public sizes, timed; expected exit 0)"
for lab in 02-naive-kernel 03-tiled-kernel 04-boundary-handling; do
    n=${lab%%-*}
    run_one "lab$n-ref" "$B/solutions/$lab/lab$n-ref" --records "$OUT/lab$n-ref.csv"
    ok=no; [ "$RC" = 0 ] && ok=yes || problems=$((problems + 1))
    row "$(printf '  %-34s exit %-3s ok=%-3s %s' "lab$n-ref" "$RC" "$ok" "$(grep -m1 -E '^[0-9]+ passed' "$OUT/lab$n-ref.log")")"
done
if [ "$RC" = 77 ]; then
    say "no usable CUDA device here (lab04-ref exited 77): this script needs the GPU machine"
    exit 77
fi
run_one lab05-ref "$B/solutions/05-occupancy-study/lab05-ref" --records "$OUT/lab05-sweep.csv"
ok=no; [ "$RC" = 0 ] && ok=yes || problems=$((problems + 1))
row "$(printf '  %-34s exit %-3s ok=%-3s %s' lab05-ref "$RC" "$ok" "$(grep -m1 -E 'configurations agree' "$OUT/lab05-ref.log")")"

# ------------------------------------------------------------------ 3. skeletons, known-wrong
# The skeletons on their public sizes, then every known-wrong submission of a GPU lab from the one
# catalogue, tests/wrong/manifest.tsv (its arguments: races need several phases, many blocks, repeats).
# name | binary (under build-gpu) | args | expected classes (grep -E)
CASES="
skeleton 02|labs/02-naive-kernel/lab02|--no-time|unwritten elements
skeleton 03|labs/03-tiled-kernel/lab03|--no-time|unwritten elements|grid too small
skeleton 04|labs/04-boundary-handling/lab04|--no-time|unwritten elements|grid too small
skeleton 05|labs/05-occupancy-study/lab05|--quiet|FAIL
$(awk -F '\t' '!/^#/ && NF == 6 && $2 != "01" && $3 !~ /^kit check: / && $3 !~ /^work: / {
        f = $1; sub(/^.*\//, "", f); sub(/\.[^.]*$/, "", f)
        printf "%s %s|tests/wrong/lab%s-wrong-%s|%s|%s\n", $2, f, $2, f, $4, $3 }' tests/wrong/manifest.tsv)
"
say "== skeletons and known-wrong submissions (expected: exit 1, the bug class named)"
row ""
row "SKELETONS AND KNOWN-WRONG (expected exit 1 and the class named)"
row "$(printf '  %-20s %-4s %-7s %-40s %s' bug exit caught 'first failure (the checker'"'"'s words)' 'expected')"
while IFS='|' read -r name bin args expect; do
    [ -n "$name" ] || continue
    tag="case-$(echo "$name" | tr ' ' '-')"
    # shellcheck disable=SC2086
    LIMIT=120 run_one "$tag" "$B/$bin" $args   # a barrier bug may hang a kernel: 120 s at most
    caught=no
    if [ "$RC" = 1 ] && grep -qE "$expect" "$OUT/$tag.log"; then caught=yes
    elif [ "$RC" = 1 ]; then caught=other; problems=$((problems + 1))
    else problems=$((problems + 1)); fi
    # The checker's diagnosis for the first failing case, for the table.
    why=$(grep -m1 -E "^ +(FAIL: |[0-9x]+ +[a-z0-9]+ +FAIL)" "$OUT/$tag.log" | sed -E 's/^ +//; s/  +/ /g' | cut -c1-60)
    row "$(printf '  %-20s %-4s %-7s %-40s %s' "$name" "$RC" "$caught" "${why:-$VERDICT}" "$expect")"
    likely=$(grep -m1 "likely:" "$OUT/$tag.log" | sed -E 's/^ +//' | cut -c1-150)
    [ -n "$likely" ] && row "      $likely"
done <<< "$CASES"

# ------------------------------------------------------------------ 3b. lab 05 judged by the grader
# The grader asks the calculator through lab05 --serve: on a GPU also the API test, whose figures
# come from lab05 --api-table. The reference must get every point of both, the skeleton fail.
# (Needs tl-grade, i.e. libcjson, libarchive and libseccomp on this machine; else said and skipped.)
if [ -x "$B/grader/tl-grade" ]; then
    say "== lab 05 judged by the grader (tl-grade --check, known configurations and the CUDA API)"
    row ""
    row "LAB 05 BY THE GRADER (expected: reference exit 0 with both calculator tests passed, skeleton exit 1)"
    for who in solutions/05-occupancy-study/lab05-ref labs/05-occupancy-study/lab05; do
        tag="grade05-$(basename "$who")"
        mkdir -p "$OUT/$tag"
        timeout 300 "$B/grader/tl-grade" --check --kit . --lab 05 --out "$OUT/$tag" --prebuilt "$B/$who" \
            > "$OUT/$tag.log" 2>&1
        RC=$?
        want=1; [ "$who" = "${who%-ref}" ] || want=0
        ok=no; [ "$RC" = "$want" ] && ok=yes || problems=$((problems + 1))
        if [ "$want" = 0 ] && ! grep -q "PASS  occupancy calculator against the CUDA API" "$OUT/$tag.log"; then
            ok=no; problems=$((problems + 1))
        fi
        row "$(printf '  %-34s exit %-3s ok=%-3s %s' "$tag" "$RC" "$ok" "$(grep -m1 '^Score' "$OUT/$tag.log")")"
        say "   $tag: exit $RC: $(grep -m1 '^Score' "$OUT/$tag.log")"
    done
else
    say "== lab 05 by the grader: SKIPPED (no $B/grader/tl-grade: its libraries are missing here)"
    row ""
    row "LAB 05 BY THE GRADER: skipped (tl-grade not built on this machine)"
fi

# ------------------------------------------------------------------ 4. compute-sanitizer
say "== compute-sanitizer (small sizes)"
row ""
row "COMPUTE-SANITIZER (small sizes; flagged = the tool reported errors)"
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
sanitize() {   # label tool expect(yes|no) binary args...
    local label=$1 tool=$2 expect=$3 bin=$4; shift 4
    local log="$OUT/sanitizer-$label.log" t0=$SECONDS
    timeout 180 "$CS" --tool "$tool" --error-exitcode 99 "$B/$bin" "$@" > "$log" 2>&1
    local rc=$? flagged=no ok=yes
    { [ "$rc" = 99 ] || grep -qE "(ERROR|RACECHECK|SYNCCHECK) SUMMARY: [1-9]" "$log"; } && flagged=yes
    if [ "$rc" = 127 ] || [ "$rc" = 77 ] || [ "$rc" = 124 ]; then
        flagged="n/a"; ok=NO; problems=$((problems + 1))   # no sanitizer, no GPU or timed out: unverified
    elif [ "$expect" = any ]; then
        ok="-"                                             # informative: no claim either way
    elif [ "$flagged" != "$expect" ]; then
        ok=NO; problems=$((problems + 1))
    fi
    local what
    what=$(grep -m1 -E "SUMMARY" "$log" | sed -E 's/^=+ *//' | cut -c1-60)
    say "   $label ($tool): exit $rc in $((SECONDS - t0)) s, flagged=$flagged"
    row "$(printf '  %-26s %-10s flagged=%-4s expected=%-4s ok=%-3s %s' "$label" "$tool" "$flagged" "$expect" "$ok" "$what")"
}
SMALL="--no-time --repeat 1"
sanitize ref03-clean        racecheck no  solutions/03-tiled-kernel/lab03-ref $SMALL --variants tiled16 --sizes 64
sanitize lab03-nosync1      racecheck yes tests/wrong/lab03-wrong-nosync1 $SMALL --variants tiled16 --sizes 64
sanitize lab03-nosync2      racecheck yes tests/wrong/lab03-wrong-nosync2 $SMALL --variants tiled16 --sizes 64
sanitize ref04-clean        racecheck no  solutions/04-boundary-handling/lab04-ref $SMALL --variants boundary16 --sizes 40
# A barrier skipped by the threads outside P: they never write their tile entries, so the others
# read stale values that nobody races on, and synccheck missed a similar early return before a
# barrier (measured on an H200, 2026-11). What the tools say is recorded, not required; the checker must catch it.
sanitize lab04-sync-branch  racecheck any tests/wrong/lab04-wrong-sync-in-branch $SMALL --variants boundary16 --sizes 40
sanitize lab04-sync-branch  synccheck any tests/wrong/lab04-wrong-sync-in-branch $SMALL --variants boundary16 --sizes 40
sanitize ref04-mem-clean    memcheck  no  solutions/04-boundary-handling/lab04-ref $SMALL --exact-alloc --variants boundary16,boundary32,rect16 --sizes 17,100,33x65x17
sanitize lab04-noguard-m    memcheck  yes tests/wrong/lab04-wrong-noguard-m $SMALL --exact-alloc --variants boundary16 --sizes 17
sanitize lab04-noguard-n    memcheck  yes tests/wrong/lab04-wrong-noguard-n $SMALL --exact-alloc --variants boundary16 --sizes 17
sanitize lab04-noguard-store memcheck yes tests/wrong/lab04-wrong-noguard-store $SMALL --exact-alloc --variants boundary16 --sizes 17

# ------------------------------------------------------------------ 5. speed at 4096
say "== speed: Width 4096, one process"
row ""
row "SPEED AT WIDTH 4096 (one process, same inputs; floors from the issue on H100/H200)"
run_one speed-4096 "$B/solutions/speed/speed-ref" --sizes 4096 --variants naive,tiled16,tiled32,boundary32,cublas \
    --records "$OUT/speed-4096.csv"
[ "$RC" = 0 ] || problems=$((problems + 1))
for v in naive tiled16 tiled32 boundary32 cublas; do
    g=$(awk -F, -v v="$v" '$1=="gemm" && $3==v {print $17}' "$OUT/speed-4096.csv" 2>/dev/null)
    floor=""
    case $v in naive) floor=5000 ;; tiled32) floor=8500 ;; esac
    verdict=""
    if [ -n "$floor" ]; then
        if [ -n "$g" ] && awk -v g="$g" -v f="$floor" 'BEGIN { exit !(g >= f) }'; then verdict="ok (>= $floor)"
        else verdict="BELOW $floor"; problems=$((problems + 1)); fi
    fi
    row "$(printf '  %-12s %10s GFLOP/s  %s' "$v" "${g:-n/a}" "$verdict")"
done
grep -m1 "^device" "$OUT/speed-4096.log" | sed 's/^/  /' >> "$SUMMARY"

# ------------------------------------------------------------------ 6. summary
echo
echo "================================================================ summary ($(date -u +%FT%TZ))"
cat "$SUMMARY"
echo
if [ "$problems" = 0 ]; then
    echo "ALL EXPECTATIONS HELD. Logs and records: $OUT"
    exit 0
fi
echo "$problems EXPECTATION(S) FAILED (rows above with caught=no/other, ok=NO, BELOW, or a reference exit != 0). Logs: $OUT"
exit 1
