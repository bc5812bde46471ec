#!/usr/bin/env bash
# lab06-on-device.sh: everything lab 06 (register tiling) must show on a real GPU, in one run.
#
# Run:  from the repository root on the GPU machine (nvcc 13, compute-sanitizer, cuBLAS, meson):
#           bash tests/gpu/lab06-on-device.sh            # everything (200 s on an H100, 145 s on an H200)
#           bash tests/gpu/lab06-on-device.sh speed      # build, reference check, speed only
#       $OUT (default ./gpu-out) receives at most 8 files (the device tool's limit): summary.txt,
#       the speed records and logs.tgz (every log); the logs are written to $LAB06_LOGS (default /tmp/lab06-logs).
# What:  1. configure and build build-gpu (-Dtests=false -Dgpu_archs=90, debugoptimized): lab06,
#           lab06-ref, the known-wrong lab 06 programs; the registers and spills of each kernel;
#        2. the reference on its public sizes (must pass) and the skeleton (must fail);
#        3. every known-wrong submission of tests/wrong/06 (exit 1 and its bug class named);
#        4. compute-sanitizer: memcheck (--exact-alloc) and racecheck on the reference kernels at
#           small ragged sizes (must be clean), racecheck on the missing-barrier bug (must flag);
#        5. speed: coarse1d, regtile, warptile next to cuBLAS SGEMM in one process at 2048 and
#           4096 (twice, for the spread), the float4 fallback sizes, and the ablation builds
#           (regtile capped at 128 registers; warptile without the padding; warptile with BK 8),
#           against the issue's targets (warptile >= 80% of cuBLAS at 4096, >= 70% at 2048);
#        6. a summary table, last.
# Exit:  0 when every expectation held, 1 otherwise (the summary says which), 2 build failure,
#        77 no usable CUDA device.
set -u
MODE=${1:-all}
FINAL="${OUT:-./gpu-out}"
OUT="${LAB06_LOGS:-/tmp/lab06-logs}"    # every log; $FINAL gets the summary, records and logs.tgz
rm -rf "$OUT"
mkdir -p "$OUT" "$FINAL"
B=build-gpu
SUMMARY="$OUT/summary.txt"
: > "$SUMMARY"
problems=0
export PATH="/usr/local/cuda/bin:$PATH"
say() { printf '%s\n' "$*" | tee -a "$OUT/run.log"; }
row() { printf '%s\n' "$*" >> "$SUMMARY"; }

WRONG06=$(awk -F'\t' '$2 == "06" { f = $1; sub(/^06\//, "", f); sub(/\.cu$/, "", f); print f }' tests/wrong/manifest.tsv)

# ------------------------------------------------------------------ 1. build
say "== build ($(date -u +%FT%TZ))"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw \
    --format=csv > "$OUT/nvidia-smi.csv" 2>&1 || true
cat "$OUT/nvidia-smi.csv" | tee -a "$OUT/run.log"
if [ -d "$B" ]; then
    meson setup --reconfigure "$B" -Dtests=false -Dgpu_archs=90 -Dgpu_programs=enabled -Dbuildtype=debugoptimized > "$OUT/build.log" 2>&1
else
    meson setup "$B" -Dtests=false -Dgpu_archs=90 -Dgpu_programs=enabled -Dbuildtype=debugoptimized > "$OUT/build.log" 2>&1
fi || { say "meson setup failed: see $OUT/build.log"; tail -30 "$OUT/build.log"; exit 2; }
REF="$B/solutions/06-register-tiling/lab06-ref"
targets="labs/06-register-tiling/lab06 solutions/06-register-tiling/lab06-ref"
for w in $WRONG06; do
    [ -f "tests/wrong/06/$w.cu" ] && targets="$targets tests/wrong/lab06-wrong-$w"
done
# shellcheck disable=SC2086
if ! ninja -C "$B" $targets >> "$OUT/build.log" 2>&1; then
    say "build failed: see $OUT/build.log"; tail -40 "$OUT/build.log"; exit 2
fi
# The ablations: the reference regtile.cu with one tunable changed, linked like lab06-ref.
abl() {   # name nvcc-flags...
    local name=$1; shift
    nvcc -O2 -lineinfo -gencode arch=compute_90,code=sm_90 -DTL_HAVE_CUBLAS "$@" \
        -Ilabs/06-register-tiling -Ilabs/02-naive-kernel -Icommon -o "$B/abl-$name" \
        labs/06-register-tiling/lab.c solutions/06-register-tiling/regtile.cu labs/02-naive-kernel/yardstick.cu \
        "$B"/common/libtldevice.a.p/*.o "$B"/common/libtlcore.a.p/*.o -lcublas -lpthread -lm >> "$OUT/build.log" 2>&1 \
        || { say "ablation $name failed to build: see $OUT/build.log"; problems=$((problems + 1)); }
}
abl r2cap128 -DR2_MIN_BLOCKS=2
abl nopad -DWT_PAD=0
abl bk8 -DWT_BK=8
# Registers, shared memory and spills of each kernel (ptxas, the same flags as the build).
nvcc -O2 -gencode arch=compute_90,code=sm_90 -Xptxas -v -Ilabs/06-register-tiling -Icommon \
    -c solutions/06-register-tiling/regtile.cu -o /dev/null > "$OUT/ptxas.log" 2>&1
nvcc -O2 -gencode arch=compute_90,code=sm_90 -Xptxas -v -DR2_MIN_BLOCKS=2 -DWT_BK=8 -Ilabs/06-register-tiling \
    -Icommon -c solutions/06-register-tiling/regtile.cu -o /dev/null > "$OUT/ptxas-ablations.log" 2>&1
row "KERNEL RESOURCES (ptxas -v, sm_90; the reference, then the ablations)"
for f in "$OUT/ptxas.log" "$OUT/ptxas-ablations.log"; do
    awk '/Compiling entry/ {split($0, a, "_Z"); name=a[2]} /bytes stack frame/ {sp=$0}
         /Used [0-9]+ registers/ {sub(/.*Used /, ""); printf "  %-30s %s |%s\n", name, $0, sp}' "$f" \
        | sed "s/'//g; s/ for sm_90//" >> "$SUMMARY"
done

# Runs a program, saves its output; sets RC.
run_one() {   # tag binary args...
    local tag=$1 bin=$2; shift 2
    local log="$OUT/$tag.log" t0=$SECONDS
    timeout "${LIMIT:-300}" "$bin" "$@" > "$log" 2>&1
    RC=$?
    say "   $tag: exit $RC in $((SECONDS - t0)) s"
}

# ------------------------------------------------------------------ 2. reference and skeleton
say "== reference (public sizes) and skeleton"
row ""
row "REFERENCE AND SKELETON (public sizes, --repeat 3)"
run_one lab06-ref "$B/solutions/06-register-tiling/lab06-ref" --no-time
if [ "$RC" = 77 ]; then say "no usable CUDA device here: this script needs the GPU machine"; exit 77; fi
ok=no; [ "$RC" = 0 ] && ok=yes || problems=$((problems + 1))
row "$(printf '  %-22s exit %-3s ok=%-3s %s' lab06-ref "$RC" "$ok" "$(grep -m1 -E '^[0-9]+ passed' "$OUT/lab06-ref.log")")"
grep -E "FAIL" "$OUT/lab06-ref.log" | head -5 | sed 's/^/      /' >> "$SUMMARY"
run_one lab06-skeleton "$B/labs/06-register-tiling/lab06" --no-time --repeat 1
ok=no; [ "$RC" = 1 ] && grep -qE "unwritten elements|grid too small" "$OUT/lab06-skeleton.log" && ok=yes
[ "$ok" = yes ] || problems=$((problems + 1))
row "$(printf '  %-22s exit %-3s ok=%-3s %s' skeleton "$RC" "$ok" "$(grep -m1 -E '^[0-9]+ passed' "$OUT/lab06-skeleton.log")")"

if [ "$MODE" != speed ]; then
# ------------------------------------------------------------------ 3. known-wrong
say "== known-wrong submissions (expected: exit 1, the bug class named)"
row ""
row "KNOWN-WRONG (expected exit 1 and the class named; tests/wrong/README.md)"
# name | expected classes (grep -E): lab 06's rows of the one catalogue, tests/wrong/manifest.tsv
CASES=$(awk -F'\t' '$2 == "06" { f = $1; sub(/^06\//, "", f); sub(/\.cu$/, "", f); print f "|" $3 }' tests/wrong/manifest.tsv)
while IFS='|' read -r name expect; do
    [ -n "$name" ] || continue
    bin="$B/tests/wrong/lab06-wrong-$name"
    if [ ! -x "$bin" ]; then
        row "$(printf '  %-20s NOT BUILT' "$name")"; problems=$((problems + 1)); continue
    fi
    LIMIT=120 run_one "wrong-$name" "$bin" --no-time --repeat 5
    caught=no
    if [ "$RC" = 1 ] && grep -qE "$expect" "$OUT/wrong-$name.log"; then caught=yes
    elif [ "$RC" = 1 ]; then caught=other; problems=$((problems + 1))
    else problems=$((problems + 1)); fi
    why=$(grep -m1 -E "FAIL" "$OUT/wrong-$name.log" | sed -E 's/^ +//; s/  +/ /g' | cut -c1-80)
    row "$(printf '  %-20s exit %-3s caught=%-5s %s' "$name" "$RC" "$caught" "$why")"
done <<< "$CASES"

# ------------------------------------------------------------------ 4. compute-sanitizer
say "== compute-sanitizer (small ragged sizes)"
row ""
row "COMPUTE-SANITIZER (flagged = the tool reported errors)"
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
sanitize() {   # label tool expect(yes|no) binary args...
    local label=$1 tool=$2 expect=$3 bin=$4; shift 4
    local log="$OUT/sanitizer-$label.log" t0=$SECONDS
    timeout 240 "$CS" --tool "$tool" --error-exitcode 99 "$bin" "$@" > "$log" 2>&1
    local rc=$? flagged=no ok=yes
    { [ "$rc" = 99 ] || grep -qE "(ERROR|RACECHECK|SYNCCHECK) SUMMARY: [1-9]" "$log"; } && flagged=yes
    if [ "$rc" = 127 ] || [ "$rc" = 77 ] || [ "$rc" = 124 ] || [ ! -x "$bin" ]; then
        flagged="n/a"; ok=NO; problems=$((problems + 1))
    elif [ "$flagged" != "$expect" ]; then
        ok=NO; problems=$((problems + 1))
    fi
    say "   $label ($tool): exit $rc in $((SECONDS - t0)) s, flagged=$flagged"
    row "$(printf '  %-24s %-10s flagged=%-4s expected=%-4s ok=%-3s %s' "$label" "$tool" "$flagged" "$expect" "$ok" \
        "$(grep -m1 SUMMARY "$log" | sed -E 's/^=+ *//' | cut -c1-50)")"
}

SMALL="--no-time --repeat 1 --variants coarse1d,regtile,warptile"
sanitize ref-memcheck  memcheck  no  "$REF" $SMALL --exact-alloc --sizes 129x130x131,1000x17x3,33x1025x65,130x7x129,65
sanitize ref-racecheck racecheck no  "$REF" $SMALL --sizes 129x130x131,130x7x129
sanitize ref-synccheck synccheck no  "$REF" $SMALL --sizes 129x130x131
sanitize nosync-racecheck racecheck yes "$B/tests/wrong/lab06-wrong-nosync-stage" --no-time --repeat 1 \
    --variants warptile --sizes 129x130x131
sanitize misaligned-memcheck memcheck yes "$B/tests/wrong/lab06-wrong-misaligned-vec" --no-time --repeat 1 \
    --exact-alloc --variants warptile --sizes 129x130x131
fi

# ------------------------------------------------------------------ 5. speed
say "== speed (one process each; medians of 20 CUDA-event timings after 3 warm-ups, L2 flushed)"
row ""
row "SPEED (GFLOP/s; ratio = variant / cuBLAS in the same process; targets for warptile: >= 0.80 at 4096, >= 0.70 at 2048)"
SPEEDARGS="--reps 20 --warmup 3 --repeat 1"
ratio_rows() {   # csv label
    local csv=$1 label=$2
    awk -F, -v label="$label" '
        $1 == "gemm" && $12 == "PASS" { key = $4 "x" $5 "x" $6; g[key, $3] = $17; sizes[key] = 1; vars[$3] = 1 }
        END {
            for (s in sizes) {
                cb = g[s, "cublas"];
                for (v in vars) {
                    if (v == "cublas" || g[s, v] == "") continue;
                    printf "  %-10s %-16s %-9s %9.0f GFLOP/s  cuBLAS %9.0f  ratio %.3f\n", label, s, v, g[s, v], cb, (cb > 0 ? g[s, v] / cb : 0);
                }
            }
        }' "$csv" | sort
}
target_check() {   # csv size target
    local r
    r=$(awk -F, -v s="$2" '$1 == "gemm" && $12 == "PASS" && $4 == s && $5 == s && $6 == s { g[$3] = $17 }
        END { if (g["cublas"] > 0 && g["warptile"] > 0) printf "%.3f", g["warptile"] / g["cublas"] }' "$1")
    if [ -n "$r" ] && awk -v r="$r" -v t="$3" 'BEGIN { exit !(r >= t) }'; then
        row "  warptile/cuBLAS at $2: $r (target $3): ok"
    else
        row "  warptile/cuBLAS at $2: ${r:-n/a} (target $3): BELOW"; problems=$((problems + 1))
    fi
}
for pass in 1 2; do
    run_one "speed-$pass" "$REF" $SPEEDARGS --sizes 2048,4096 --variants coarse1d,regtile,warptile,cublas \
        --records "$OUT/speed-$pass.csv"
    [ "$RC" = 0 ] || problems=$((problems + 1))
    ratio_rows "$OUT/speed-$pass.csv" "run$pass" >> "$SUMMARY"
    target_check "$OUT/speed-$pass.csv" 2048 0.70
    target_check "$OUT/speed-$pass.csv" 4096 0.80
done
run_one speed-ragged "$REF" $SPEEDARGS --sizes 4095,4096x4095x4096,4097,1024,4096x4096x512,8192x512x8192 \
    --variants warptile,cublas --records "$OUT/speed-ragged.csv"
ratio_rows "$OUT/speed-ragged.csv" ragged >> "$SUMMARY"
run_one speed-r2cap "$B/abl-r2cap128" $SPEEDARGS --sizes 2048,4096 --variants regtile,cublas --records "$OUT/speed-r2cap.csv"
ratio_rows "$OUT/speed-r2cap.csv" r2cap128 >> "$SUMMARY"
run_one speed-nopad "$B/abl-nopad" $SPEEDARGS --sizes 2048,4096 --variants warptile,cublas --records "$OUT/speed-nopad.csv"
ratio_rows "$OUT/speed-nopad.csv" nopad >> "$SUMMARY"
run_one speed-bk8 "$B/abl-bk8" $SPEEDARGS --sizes 2048,4096,4095 --variants warptile,cublas --records "$OUT/speed-bk8.csv"
ratio_rows "$OUT/speed-bk8.csv" bk8 >> "$SUMMARY"
run_one speed-bk8-public "$B/abl-bk8" --no-time --variants warptile   # the BK=8 build checked on the public sizes
row "  bk8 public sizes: exit $RC $(grep -m1 -E '^[0-9]+ passed' "$OUT/speed-bk8-public.log")"
[ "$RC" = 0 ] || problems=$((problems + 1))
grep -m1 -E "^device|^ *device" "$OUT/speed-1.log" | sed 's/^/  /' >> "$SUMMARY"

# ------------------------------------------------------------------ 6. summary
tar czf "$FINAL/logs.tgz" -C "$OUT" . 2>/dev/null
cp "$SUMMARY" "$OUT"/speed-*.csv "$FINAL/" 2>/dev/null
echo
echo "================================================================ summary ($(date -u +%FT%TZ))"
cat "$SUMMARY"
echo
if [ "$problems" = 0 ]; then
    echo "ALL EXPECTATIONS HELD. Logs and records: $FINAL"
    exit 0
fi
echo "$problems EXPECTATION(S) FAILED (rows above with caught=no/other, ok=NO, BELOW, NOT BUILT). Logs: $FINAL"
exit 1
