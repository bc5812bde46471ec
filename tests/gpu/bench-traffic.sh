#!/usr/bin/env bash
# bench-traffic.sh: on the GPU machine, build the kit and run ./kit bench's script with the ladder,
# the ceilings per level and the traffic from ncu; records, logs and cross-checks go to $OUT.
#
# Run:   from the repository root on the GPU machine:  bash tests/gpu/bench-traffic.sh [--traffic] [--check]
#        (arguments other than --check go to plots/kit-bench.sh). About 5 minutes on an H100.
# What:  1. configure and build build-gpu (-Dtests=false -Dgpu_archs=90, debugoptimized);
#        2. plots/kit-bench.sh (what ./kit bench runs) with --out $OUT/records.csv, its ladder table last;
#        3. lab 05 in full (its calculator against the CUDA occupancy API, the sweep with each point's
#           limit) into $OUT/lab05.log;
#        4. with --check: ncu's counters on the ceiling kernels themselves (the bytes each ceiling
#           kernel counts should match what the counters see) and the shared-memory metrics ncu
#           knows for this chip (to check the one tl-traffic reads).
# Exit:  the bench's exit code; 2 when the build fails.
set -u
OUT="${OUT:-./gpu-out}"
mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
B=build-gpu
check=0
args=()
for a in "$@"; do
    if [ "$a" = --check ]; then check=1; else args+=("$a"); fi
done
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem,power.limit \
    --format=csv > "$OUT/nvidia-smi.csv" 2>&1 || true
t0=$SECONDS
meson setup "$B" -Dtests=false -Dgpu_archs=90 -Dgpu_programs=enabled -Dbuildtype=debugoptimized > "$OUT/build.log" 2>&1 ||
    { tail -n 30 "$OUT/build.log"; exit 2; }
ninja -C "$B" >> "$OUT/build.log" 2>&1 || { grep -A12 -e 'error' "$OUT/build.log" | head -n 80; exit 2; }
echo "build: $((SECONDS - t0)) s"
TL_ROOT=$PWD TL_BUILD=$PWD/$B sh plots/kit-bench.sh "${args[@]}" --out "$OUT/records.csv" 2>&1 | tee "$OUT/bench.log"
rc=${PIPESTATUS[0]}
# Lab 05 in full: the calculator against cudaOccupancyMaxActiveBlocksPerMultiprocessor on every sweep
# kernel (the register-tiled ones included), then the sweep's table with the limit of each point.
lab05=$B/solutions/05-occupancy-study/lab05-ref
if [ -x "$lab05" ]; then
    "$lab05" --size 2048 --reps 5 > "$OUT/lab05.log" 2>&1
    echo "lab05-ref (calculator vs CUDA API, sweep with limits): exit $? ($(grep -c MISMATCH "$OUT/lab05.log") mismatches); $OUT/lab05.log"
    grep -e '^part A on the GPU' -e '^PASS' -e '^FAIL' "$OUT/lab05.log"
fi
if [ $check = 1 ]; then
    ncu --query-metrics --chip gh100 2>&1 | grep -i -e shared -e 'lts__t_bytes' -e 'l1tex__t_bytes' > "$OUT/metrics.txt"
    ncu --clock-control none --csv --print-units base --print-kernel-base function \
        --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,l1tex__t_bytes.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__sass_data_bytes_mem_shared.sum,gpu__time_duration.sum \
        "$B/plots/tl-ceilings" --reps 10 --warmup 1 > "$OUT/ncu-ceilings.csv" 2>&1
    ncu --clock-control none --csv --print-units base --print-kernel-base function \
        --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__sass_data_bytes_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,gpu__time_duration.sum \
        "$B/solutions/speed/speed-ref" --sizes 1024 --no-time --repeat 1 --quiet > "$OUT/ncu-shared.csv" 2>&1
fi
exit "$rc"
