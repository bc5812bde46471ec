#!/usr/bin/env bash
# class-diag.sh: where a lab 03 submission's GPU-exclusive time and CPU go on a GPU machine (issue 29
# items 1 and 3): a diagnostic for the grader's scheduling, not a test of a verdict.
#
# Run:  from the repository root on the GPU machine (nvcc, ncu, compute-sanitizer, meson, ninja):
#           bash tests/gpu/class-diag.sh [N]        (N submissions for part 2, default 16)
#       Everything goes to $OUT (else ./gpu-out/): diag.txt (the figures), ncu-bench.txt, and part 2's
#       files (class-on-device.sh's summary.txt, progress.json, ncu-times.txt) in class/ as one .tgz.
# Part 1, Nsight Compute's cost on one case of the reference solution (lab03-ref, outside the
#       grader, as root; every line is the wall and CPU seconds of one command, best of 2): the
#       program alone; `ncu --version` (the front end's start); ncu with the grader's options and
#       metrics (counters.c); the same with --cache-control none; with the time metric alone; with
#       the SASS-counted metrics alone; the grader's set on both lab 03 variants in one process (what
#       a second variant costs there); the same at size 2048. At 512 the program's own CPU check of
#       the answer is small (a double-precision product of 512^3).
# Part 2: class-on-device.sh with N distinct submissions and no serial run: the run's profile per
#       stage (CPU and wall), the profiled runs' cost split into "to the answer" and "to ncu's end".
set -u
N=${1:-16}
OUT="${OUT:-./gpu-out}"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
B=${TL_BUILD:-build-gpu}
D=$OUT/diag.txt
: > "$D"
say() { printf '%s\n' "$*" | tee -a "$D"; }
[ -f tests/gpu/device-env.sh ] && . tests/gpu/device-env.sh
export PATH="/usr/local/cuda/bin:$PATH"
say "== class-diag, $(date -u +%FT%TZ), commit $(git rev-parse --short HEAD 2>/dev/null)"
say "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1); cores $(nproc)"

t0=$(date +%s)
if [ ! -f "$B/build.ninja" ]; then
    meson setup "$B" -Dtests=false -Dgpu_archs=90 -Dgpu_programs=enabled -Dbuildtype=debugoptimized > "$OUT/build.log" 2>&1 ||
        { say "meson setup failed"; tail -20 "$OUT/build.log" | tee -a "$D"; exit 2; }
fi
ninja -C "$B" -j 16 grader/tl-grade common/tl-lab solutions/03-tiled-kernel/lab03-ref >> "$OUT/build.log" 2>&1 ||
    { say "build failed"; tail -20 "$OUT/build.log" | tee -a "$D"; exit 2; }
say "built in $(( $(date +%s) - t0 )) s"

# ------------------------------------------------------------------ part 1: ncu's cost
NCU=$(ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/nsight-compute*/ncu 2>/dev/null | tail -1)
REF=$B/solutions/03-tiled-kernel/lab03-ref
M="gpu__time_duration.sum,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,smsp__sass_thread_inst_executed_op_dfma_pred_on.sum,smsp__sass_thread_inst_executed_op_fmul_pred_on.sum,smsp__sass_thread_inst_executed_op_fadd_pred_on.sum,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_inst_executed_op_ldgsts.sum,l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum"
MSASS=${M#gpu__time_duration.sum,}
MSASS=${MSASS%,l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum}
B1=$OUT/ncu-bench.txt
: > "$B1"
# best of 2: "LABEL wall W s, cpu C s" (CPU: user + sys of the command and its children)
bench() {
    local label=$1; shift
    local best="" line
    for _ in 1 2; do
        local s e
        s=$(date +%s.%N)
        ( "$@" ) > "$OUT/bench-last.log" 2>&1
        local rc=$?
        e=$(date +%s.%N)
        line=$(awk -v s="$s" -v e="$e" -v rc="$rc" 'BEGIN {printf "%.2f %d", e - s, rc}')
        if [ -z "$best" ] || awk -v a="${line% *}" -v b="${best% *}" 'BEGIN {exit !(a < b)}'; then best=$line; fi
    done
    local kern
    kern=$(grep -c '^"[0-9]' "$OUT/bench-last.log")
    printf '%-44s wall %6s s (exit %s; %s kernel rows in the last csv)\n' "$label" "${best% *}" "${best#* }" "$kern" | tee -a "$B1" "$D"
    { echo "--- $label"; grep -E '==(PROF|ERROR|WARNING)==' "$OUT/bench-last.log" | head -5; } >> "$OUT/bench-logs.txt"
}
if [ -n "$NCU" ] && [ -x "$REF" ]; then
    say "ncu: $NCU ($("$NCU" --version 2>&1 | tail -1))"
    P="--sizes 512 --no-time --quiet"
    bench "program alone, tiled16 512" "$REF" --variants tiled16 $P
    bench "program alone, tiled16+tiled32 512" "$REF" --variants tiled16,tiled32 $P
    bench "ncu --version" "$NCU" --version
    bench "ncu grader's set, tiled16 512" "$NCU" --csv --page raw --clock-control none --metrics "$M" "$REF" --variants tiled16 $P
    bench "ncu + --cache-control none" "$NCU" --csv --page raw --clock-control none --cache-control none --metrics "$M" "$REF" --variants tiled16 $P
    bench "ncu time metric only" "$NCU" --csv --page raw --clock-control none --metrics gpu__time_duration.sum "$REF" --variants tiled16 $P
    bench "ncu SASS metrics only" "$NCU" --csv --page raw --clock-control none --metrics "$MSASS" "$REF" --variants tiled16 $P
    bench "ncu grader's set, 2 programs under 1 ncu (sh)" "$NCU" --csv --page raw --clock-control none --metrics "$M" /bin/sh -c "'$REF' --variants tiled16 $P; '$REF' --variants tiled32 $P"
    bench "ncu grader's set, tiled32 512" "$NCU" --csv --page raw --clock-control none --metrics "$M" "$REF" --variants tiled32 $P
    bench "ncu grader's set, both variants 1 process" "$NCU" --csv --page raw --clock-control none --metrics "$M" "$REF" --variants tiled16,tiled32 $P
    bench "ncu grader's set, tiled16 1024" "$NCU" --csv --page raw --clock-control none --metrics "$M" "$REF" --variants tiled16 --sizes 1024 --no-time --quiet
    bench "program alone, tiled16 1024" "$REF" --variants tiled16 --sizes 1024 --no-time --quiet
    bench "ncu app-only target, tiled16 512" "$NCU" --csv --page raw --clock-control none --target-processes application-only --metrics "$M" "$REF" --variants tiled16 $P
else
    say "part 1 skipped: no ncu ($NCU) or no $REF"
fi

# ------------------------------------------------------------------ part 2: a small class, profiled
say ""
say "== part 2: class-on-device.sh $N (SERIAL=0)"
mkdir -p "$OUT/class"
OUT=$OUT/class SERIAL=0 CLASS_TIMEOUT=${CLASS_TIMEOUT:-200} bash tests/gpu/class-on-device.sh "$N" > "$OUT/class-console.log" 2>&1
say "class-on-device exit $?"
grep -E "^(wall time|grader|GPU busy|ncu:|profile|  |every verdict|verdict|some verdicts|score)" "$OUT/class/summary.txt" | tee -a "$D"
grep -E "^tl-grade: the GPU's counters" "$OUT/class/run.log" | cut -c1-400 | tee -a "$D"
tar czf "$OUT/class.tgz" -C "$OUT" class class-console.log bench-logs.txt build.log 2>/dev/null && rm -rf "$OUT/class" "$OUT/class-console.log" "$OUT/bench-last.log"
exit 0
