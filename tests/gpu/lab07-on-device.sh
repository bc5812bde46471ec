#!/usr/bin/env bash
# lab07-on-device.sh: everything lab 07 (asynchronous tile copies) must show on a real GPU, in one run.
#
# Run:  from the repository root on the GPU machine (sm_90: H100/H200; nvcc 13, ncu, compute-sanitizer,
#       cuBLAS, meson):
#           bash tests/gpu/lab07-on-device.sh            # everything
#           bash tests/gpu/lab07-on-device.sh speed      # build, reference check, sweep, ragged, ncu (no wrong files)
#           bash tests/gpu/lab07-on-device.sh sweep      # build, reference check, the sweep at 4096 only
#       $OUT (default ./gpu-out) receives at most 8 files (the device tool's limit): summary.txt,
#       speed.csv (every timed record of every configuration), ncu.csv and logs.tgz (every log).
# What:  1. configure and build build-gpu (-Dtests=false -Dgpu_archs=90: nvcc -gencode
#           arch=compute_90,code=sm_90, which TMA needs): lab07, lab07-ref, the known-wrong lab 07
#           programs; the sweep builds (the reference with one set of tunables changed, linked like
#           lab07-ref); registers, shared memory and spills of each kernel (ptxas -v);
#        2. the reference on its public sizes, every variant (must pass), the skeleton (must fail);
#        3. every known-wrong submission of tests/wrong/07 (exit 1 and its bug class named);
#        4. compute-sanitizer on the reference at small ragged sizes (memcheck, racecheck, synccheck);
#        5. speed: each sweep build's cpasync, tma, grouped next to cuBLAS SGEMM in one process
#           (fresh random inputs, checked before timing, medians of CUDA-event timings after warm-up),
#           at 4096 (twice, for the spread) and 2048; the reference on ragged sizes;
#        6. ncu: DRAM bytes read and written by tma (plain order) and grouped at 4096 and 8192;
#        7. a summary table, last. Targets: the best variant >= 0.90 of cuBLAS at 4096.
# Exit:  0 when every expectation held, 1 otherwise (the summary says which), 2 build failure,
#        77 no usable CUDA device.
set -u
MODE=${1:-all}
FINAL="${OUT:-./gpu-out}"
OUT="${LAB07_LOGS:-/tmp/lab07-logs}"
rm -rf "$OUT"
mkdir -p "$OUT" "$FINAL"
B=build-gpu
SUMMARY="$OUT/summary.txt"
: > "$SUMMARY"
problems=0
export PATH="/usr/local/cuda/bin:$PATH"
say() { printf '%s\n' "$*" | tee -a "$OUT/run.log"; }
row() { printf '%s\n' "$*" >> "$SUMMARY"; }


WRONG07=$(awk -F'\t' '$2 == "07" { f = $1; sub(/^07\//, "", f); sub(/\.cu$/, "", f); print f }' tests/wrong/manifest.tsv)

# ------------------------------------------------------------------ 1. build
say "== build ($(date -u +%FT%TZ))"; T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw \
    --format=csv > "$OUT/nvidia-smi.csv" 2>&1 || true
cat "$OUT/nvidia-smi.csv" | tee -a "$OUT/run.log"
row "DEVICE $(sed -n 2p "$OUT/nvidia-smi.csv")   DATE $(date -u +%F)"
if [ -d "$B" ]; then
    meson setup --reconfigure "$B" -Dtests=false -Dgpu_archs=90 -Dbuildtype=debugoptimized > "$OUT/build.log" 2>&1
else
    meson setup "$B" -Dtests=false -Dgpu_archs=90 -Dbuildtype=debugoptimized > "$OUT/build.log" 2>&1
fi || { say "meson setup failed: see $OUT/build.log"; tail -30 "$OUT/build.log"; exit 2; }
REF="$B/solutions/07-async-copies/lab07-ref"
targets="labs/07-async-copies/lab07 solutions/07-async-copies/lab07-ref"
for w in $WRONG07; do
    [ -f "tests/wrong/07/$w.cu" ] && targets="$targets tests/wrong/lab07-wrong-$w"
done
# shellcheck disable=SC2086
if ! ninja -C "$B" $targets >> "$OUT/build.log" 2>&1; then
    say "build failed: see $OUT/build.log"; tail -40 "$OUT/build.log"; exit 2
fi
# The sweep: the reference asynccopy.cu with its tunables set, linked like lab07-ref, built in parallel.
# name|flags   (base = the reference as shipped: CP 4 stages BK 32, TMA 3 stages BK 32, groups of 8)
# (sweeps 1-3 on an H100 chose the shipped tunables: tests/gpu/lab07-results/h100-sweep*-summary.txt)
SWEEP="base|
cp2blk|-DCP_MIN_BLOCKS=2 -DCP_BK=16 -DCP_STAGES=4
tma16|-DTM_BK=16 -DTM_STAGES=4
s2|-DCP_STAGES=2 -DTM_STAGES=2"
sweep_build() {   # name flags
    local name=$1; shift
    nvcc -O2 -lineinfo -gencode arch=compute_90,code=sm_90 -DTL_HAVE_CUBLAS "$@" \
        -Ilabs/07-async-copies -Ilabs/02-naive-kernel -Icommon -o "$B/sweep-$name" \
        labs/07-async-copies/lab.c solutions/07-async-copies/asynccopy.cu labs/02-naive-kernel/yardstick.cu \
        "$B"/common/libtldevice.a.p/*.o "$B"/common/libtlcore.a.p/*.o "$B"/common/libtlverdict.a.p/*.o -lcublas -lpthread -lm > "$OUT/build-$name.log" 2>&1
    nvcc -O2 -gencode arch=compute_90,code=sm_90 -Xptxas -v "$@" -Ilabs/07-async-copies -Icommon \
        -c solutions/07-async-copies/asynccopy.cu -o /dev/null > "$OUT/ptxas-$name.log" 2>&1
}
while IFS='|' read -r name flags; do
    # shellcheck disable=SC2086
    sweep_build "$name" $flags &
done <<< "$SWEEP"
wait
row "KERNEL RESOURCES (ptxas -v, sm_90)"
while IFS='|' read -r name flags; do
    [ -x "$B/sweep-$name" ] || { row "  sweep $name: BUILD FAILED (build-$name.log)"; problems=$((problems + 1)); }
    awk -v n="$name" '/Compiling entry/ {split($0, a, "_Z"); k=a[2]} /bytes stack frame/ {sp=$0}
         /Used [0-9]+ registers/ {sub(/.*Used /, ""); printf "  %-7s %-34s %s |%s\n", n, substr(k,1,34), $0, sp}' \
        "$OUT/ptxas-$name.log" | sed "s/'//g; s/ for sm_90//" >> "$SUMMARY"
done <<< "$SWEEP"

run_one() {   # tag binary args...
    local tag=$1 bin=$2; shift 2
    local log="$OUT/$tag.log" t0=$SECONDS
    timeout "${LIMIT:-300}" "$bin" "$@" > "$log" 2>&1
    RC=$?
    say "   $tag: exit $RC in $((SECONDS - t0)) s"
}

# ------------------------------------------------------------------ 2. reference and skeleton
say "== reference (public sizes) and skeleton (built in $((SECONDS - T0)) s)"
row ""
row "REFERENCE AND SKELETON (public sizes, --repeat 3)"
run_one lab07-ref "$REF" --no-time --variants cpasync,tma,grouped
if [ "$RC" = 77 ]; then say "no usable CUDA device here: this script needs the GPU machine"; exit 77; fi
ok=no; [ "$RC" = 0 ] && ok=yes || problems=$((problems + 1))
row "$(printf '  %-22s exit %-3s ok=%-3s %s' lab07-ref "$RC" "$ok" "$(grep -m1 -E '^[0-9]+ passed' "$OUT/lab07-ref.log")")"
grep -E "FAIL" "$OUT/lab07-ref.log" | head -8 | sed 's/^/      /' >> "$SUMMARY"
for name in s2 tma16; do   # the sweep builds must be right too (fewer phases than stages, ragged k)
    run_one "public-$name" "$B/sweep-$name" --no-time --repeat 1 --variants cpasync,tma,grouped
    ok=no; [ "$RC" = 0 ] && ok=yes || problems=$((problems + 1))
    row "$(printf '  %-22s exit %-3s ok=%-3s %s' "sweep-$name" "$RC" "$ok" "$(grep -m1 -E '^[0-9]+ passed' "$OUT/public-$name.log")")"
done
run_one lab07-skeleton "$B/labs/07-async-copies/lab07" --no-time --repeat 1
ok=no; [ "$RC" = 1 ] && ok=yes
[ "$ok" = yes ] || problems=$((problems + 1))
row "$(printf '  %-22s exit %-3s ok=%-3s %s' skeleton "$RC" "$ok" "$(grep -m1 -E '^[0-9]+ passed' "$OUT/lab07-skeleton.log")")"

if [ "$MODE" = all ]; then
# ------------------------------------------------------------------ 3. known-wrong
say "== known-wrong submissions (expected: exit 1, the bug class named)"
row ""
row "KNOWN-WRONG (expected exit 1 and the class named; tests/wrong/README.md)"
CASES=$(awk -F'\t' '$2 == "07" { f = $1; sub(/^07\//, "", f); sub(/\.cu$/, "", f); print f "|" $3 }' tests/wrong/manifest.tsv)
while IFS='|' read -r name expect; do
    [ -n "$name" ] || continue
    bin="$B/tests/wrong/lab07-wrong-$name"
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
sanitize() {   # label tool expect(yes|no|any) binary args...
    local label=$1 tool=$2 expect=$3 bin=$4; shift 4
    local log="$OUT/sanitizer-$label.log" t0=$SECONDS
    timeout 240 "$CS" --tool "$tool" --error-exitcode 99 "$bin" "$@" > "$log" 2>&1
    local rc=$? flagged=no ok=yes
    { [ "$rc" = 99 ] || grep -qE "(ERROR|RACECHECK|SYNCCHECK) SUMMARY: [1-9]" "$log"; } && flagged=yes
    if [ "$rc" = 127 ] || [ "$rc" = 77 ] || [ "$rc" = 124 ] || [ ! -x "$bin" ]; then
        flagged="n/a"; ok=NO; problems=$((problems + 1))
    elif [ "$expect" != any ] && [ "$flagged" != "$expect" ]; then
        ok=NO; problems=$((problems + 1))
    fi
    say "   $label ($tool): exit $rc in $((SECONDS - t0)) s, flagged=$flagged"
    row "$(printf '  %-24s %-10s flagged=%-4s expected=%-4s ok=%-3s %s' "$label" "$tool" "$flagged" "$expect" "$ok" \
        "$(grep -m1 SUMMARY "$log" | sed -E 's/^=+ *//' | cut -c1-50)")"
}
SMALL="--no-time --repeat 1"
sanitize ref-memcheck  memcheck  no "$REF" $SMALL --variants cpasync,tma,grouped --exact-alloc \
    --sizes 129x130x131,1000x17x3,33x1025x65,132x36x260,65
sanitize ref-racecheck racecheck no "$REF" $SMALL --variants cpasync --sizes 129x130x131,132x36x260
sanitize ref-synccheck synccheck no "$REF" $SMALL --variants cpasync,tma --sizes 132x36x260
for w in $WRONG07; do
    case "$w" in missing-wait)
        # any: recorded, not required (whether racecheck follows cp.async copies is what this asks)
        sanitize "$w-racecheck" racecheck any "$B/tests/wrong/lab07-wrong-$w" $SMALL --variants cpasync \
            --sizes 129x130x131 ;;
    esac
done
fi

# ------------------------------------------------------------------ 5. speed
say "== speed (one process each; medians of 20 CUDA-event timings after 3 warm-ups)"
row ""
row "SPEED (GFLOP/s; ratio = variant / cuBLAS SGEMM in the same process)"
SPEEDARGS="--reps 20 --warmup 3 --repeat 1"
ratio_rows() {   # csv label
    awk -F, -v label="$2" '
        $1 == "gemm" && $12 == "PASS" { key = $4 "x" $5 "x" $6; g[key, $3] = $17; sizes[key] = 1; vars[$3] = 1 }
        END {
            for (s in sizes) {
                cb = g[s, "cublas"];
                for (v in vars) {
                    if (v == "cublas" || g[s, v] == "") continue;
                    printf "  %-8s %-15s %-8s %8.0f GFLOP/s  cuBLAS %8.0f  ratio %.3f\n", label, s, v, g[s, v], cb, (cb > 0 ? g[s, v] / cb : 0);
                }
            }
        }' "$1" | sort
}
: > "$OUT/speed.csv"
speed() {   # tag binary sizes variants
    run_one "speed-$1" "$2" $SPEEDARGS --sizes "$3" --variants "$4" --records "$OUT/speed-$1.csv"
    [ "$RC" = 0 ] || { problems=$((problems + 1)); row "  speed-$1: exit $RC (see speed-$1.log)"; }
    sed "s/^/$1,/" "$OUT/speed-$1.csv" >> "$OUT/speed.csv" 2>/dev/null
    ratio_rows "$OUT/speed-$1.csv" "$1" >> "$SUMMARY"
}
speed base1 "$B/sweep-base" 4096,2048 cpasync,tma,grouped,cublas
speed base2 "$B/sweep-base" 4096 cpasync,tma,grouped,cublas
while IFS='|' read -r name flags; do
    [ "$name" = base ] && continue
    case "$name" in g*) vars=grouped,cublas ;; *) vars=cpasync,tma,grouped,cublas ;; esac
    speed "$name" "$B/sweep-$name" 4096 "$vars"
done <<< "$SWEEP"
[ "$MODE" = sweep ] || speed ragged "$REF" 4095,4096x4096x4092,8192 cpasync,tma,grouped,cublas
best=$(awk -F, '$1 ~ /^base/ && $2 == "gemm" && $13 == "PASS" && $5 == 4096 && $6 == 4096 && $7 == 4096 { g[$1, $4] = $18; t[$1] = 1 }
    END { b = 0; for (r in t) { cb = g[r, "cublas"]; if (cb <= 0) continue;
          for (v in g) { split(v, p, SUBSEP); if (p[1] == r && p[2] != "cublas" && g[v] / cb > b) { b = g[v] / cb; bv = p[2] } } }
          printf "%.3f %s", b, bv }' "$OUT/speed.csv")
if awk -v r="${best%% *}" 'BEGIN { exit !(r >= 0.90) }'; then
    row "  best reference variant / cuBLAS at 4096: $best (target 0.90): ok"
else
    row "  best reference variant / cuBLAS at 4096: $best (target 0.90): BELOW"; problems=$((problems + 1))
fi

# ------------------------------------------------------------------ 6. ncu: DRAM traffic by block order
if [ "$MODE" = sweep ]; then   # where the issue slots go: warp stall reasons of each variant at 4096
    for v in cpasync tma; do
        timeout 120 "$(command -v ncu || echo /usr/local/cuda/bin/ncu)" --section WarpStateStats --section SchedulerStats \
            --section SpeedOfLight -k regex:MatrixMul -c 1 "$B/sweep-base" --no-time --repeat 1 --variants "$v" \
            --sizes 4096 > "$OUT/ncu-stalls-$v.log" 2>&1
        row ""; row "NCU STALLS $v (4096, sweep-base)"
        grep -E "Stall|Warp Cycles|Issued Warp|No Eligible|Compute \(SM\) Throughput|Memory Throughput|Duration" \
            "$OUT/ncu-stalls-$v.log" | head -24 | sed 's/^ */  /' >> "$SUMMARY"
    done
fi
if [ "$MODE" != sweep ]; then
say "== ncu: DRAM bytes, plain vs grouped block order ($((SECONDS - T0)) s so far)"
row ""
row "DRAM TRAFFIC (ncu dram__bytes_read.sum / dram__bytes_write.sum, one launch each, caches flushed)"
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
echo "variant,size,metric,unit,value" > "$OUT/ncu.csv"
for size in 4096 8192; do
    for v in tma grouped; do
        log="$OUT/ncu-$v-$size.log"
        kfilter="regex:MatrixMul"; [ "$v" = cublas ] && kfilter="regex:gemm"
        timeout 180 "$NCU" --metrics dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum \
            -k "$kfilter" -c 1 --csv "$B/sweep-base" --no-time --repeat 1 --variants "$v" --sizes "$size" \
            > "$log" 2>&1
        python3 - "$log" "$v" "$size" >> "$OUT/ncu.csv" <<'PY'
import csv, sys
log, v, size = sys.argv[1:4]
rows = [r for r in csv.reader(open(log, errors="replace")) if len(r) > 3 and r[-3] in
        ("dram__bytes_read.sum", "dram__bytes_write.sum", "gpu__time_duration.sum")]
for r in rows:
    print(f"{v},{size},{r[-3]},{r[-2]},{r[-1].replace(',', '')}")
PY
    done
done
awk -F, 'NR > 1 { printf "  %-8s %5s %-28s %8s %s\n", $1, $2, $3, $5, $4 }' "$OUT/ncu.csv" >> "$SUMMARY"
fi

# ------------------------------------------------------------------ 7. summary
tar czf "$FINAL/logs.tgz" -C "$OUT" . 2>/dev/null
cp "$SUMMARY" "$OUT/speed.csv" "$OUT/ncu.csv" "$FINAL/" 2>/dev/null
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
