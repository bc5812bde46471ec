#!/usr/bin/env bash
# tests/gpu/scale-diag.sh: do a graded submission's GPU pieces scale with concurrent processes? (issue 29)
#
# In 0355Z (class-results) the class's GPU phase ran 10-13 requests at once on 5.5-6.8 busy cores,
# with the GPU executing a kernel only 25-56% of the time, and graded 0.32 submissions a second,
# each submission's GPU sessions taking ~6 s of wall alone (cpu-1) but ~35 s in the class. This
# measures, with tests/gpu/scale-probe.cu, how pieces of that work scale when N processes do them
# at once: the rate of N x K pieces against N = 1, and each piece's user and sys CPU.
#   ctx: a CUDA context started and ended; also with CUDA_DEVICE_MAX_CONNECTIONS=1
#   alloc: 24 x three cudaMalloc + cudaFree of 64 MiB (a session's cases' buffers)
#   case: 8 cases at 1024 (buffers allocated per case, as common/device.cu does), and the same
#         with the buffers kept for the 8 (keep)
#   case4096: 2 cases at 4096 (3 x 64 MiB, pageable copies)
#   kernels: 200 launches of a 64^2 kernel, each waited for
#   sanitizers: racecheck and memcheck (the grader's tool names) on 2 small launches
# Run: bash tests/gpu/scale-diag.sh   ($OUT, else ./gpu-out: summary.txt). NS="1 4 16" (the N),
#      K=2 (pieces per process slot, one after another). Exit 0, 2 build failed, 77 no GPU.
set -u
. tests/gpu/out.sh
export PATH="/usr/local/cuda/bin:$PATH"
NS=${NS:-1 4 16}
K=${K:-2}
if ! ls /dev/nvidia0 >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
    say "skipped: no NVIDIA GPU here"; exit 77
fi
W=$(mktemp -d /tmp/tl-scale.XXXXXX)
trap 'rm -rf "$W"' EXIT
say "== scale-diag: $(date -u +%FT%TZ) at $(git rev-parse --short HEAD 2>/dev/null)"
say "GPU: $(nvidia-smi --query-gpu=name,driver_version,persistence_mode,compute_mode --format=csv,noheader | head -1); cores $(nproc)"
nvcc -O2 -arch=sm_90 -o "$W/probe" tests/gpu/scale-probe.cu || { say "build failed"; exit 2; }
P=$W/probe

busy() { awk '/^cpu /{print $2+$3+$4+$7+$8, $2+$3+$4+$5+$6+$7+$8}' /proc/stat; }

# measure LABEL N CMD...: N slots at once, each running CMD K times one after another
measure() {
    local label=$1 n=$2; shift 2
    local b0 b1 t0 t1 i
    b0=$(busy); t0=$(date +%s.%N)
    for ((i = 0; i < n; i++)); do
        ( for ((j = 0; j < K; j++)); do "$@" 2>>"$W/err" | grep -E "^(ctx|alloc|case|keep|kernels) " | tail -1; done ) > "$W/slot.$i" &
    done
    wait
    t1=$(date +%s.%N); b1=$(busy)
    cat "$W"/slot.* > "$W/all"; rm -f "$W"/slot.*
    awk -v l="$label" -v n="$n" -v k="$K" -v t0="$t0" -v t1="$t1" -v b0="$b0" -v b1="$b1" '
        { c++; w += $2; u += $3; s += $4 }
        END {
            split(b0, x, " "); split(b1, y, " ");
            wall = t1 - t0; cores = (y[2] > x[2]) ? (y[1] - x[1]) / (y[2] - x[2]) * ENVIRON["NCPU"] : 0;
            printf "%-28s N=%-3d %3d done in %6.2f s: %6.2f pieces/s; a piece %.3f s wall inside, user %.3f sys %.3f; busy cores %.1f\n",
                l, n, c, wall, c / wall, c ? w / c : 0, c ? u / c : 0, c ? s / c : 0, cores }' "$W/all" | tee -a "$S"
}
NCPU=$(nproc); export NCPU

for n in $NS; do measure "ctx" "$n" "$P" ctx 1; done
for n in $NS; do measure "ctx MAX_CONNECTIONS=1" "$n" env CUDA_DEVICE_MAX_CONNECTIONS=1 "$P" ctx 1; done
for n in $NS; do measure "alloc 24 x 3 x 64 MiB" "$n" "$P" alloc 24 4096; done
for n in $NS; do measure "case 8 x 1024 (alloc each)" "$n" "$P" case 8 1024; done
for n in $NS; do measure "keep 8 x 1024 (kept)" "$n" "$P" keep 8 1024; done
for n in $NS; do measure "case 2 x 4096" "$n" "$P" case 2 4096; done
for n in $NS; do measure "kernels 200 x 64" "$n" "$P" kernels 200 64; done
K=1
for n in 1 4 8; do measure "racecheck, kernels 2 x 64" "$n" compute-sanitizer --tool racecheck --print-limit 1 "$P" kernels 2 64; done
for n in 1 4 8; do measure "memcheck, kernels 2 x 64" "$n" compute-sanitizer --tool memcheck --print-limit 1 "$P" kernels 2 64; done
say "errors (first 5 lines):"; head -5 "$W/err" | tee -a "$S"
say "== done $(date -u +%FT%TZ)"
