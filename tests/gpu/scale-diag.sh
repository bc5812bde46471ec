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
# DEVS="0 1" spreads the N slots over those devices (slot i gets CUDA_VISIBLE_DEVICES of DEVS[i %
# count]; unset: each slot sees every device, as before), to tell a cost of the device from one of
# the host (session 18: two H100s finished a class's untimed work no sooner than one). PARTS picks
# the pieces: any of ctx ctx1 alloc case keep case4096 kernels racecheck memcheck (default: all).
# CONN1=1 runs every piece with CUDA_DEVICE_MAX_CONNECTIONS=1, as the grader's sessions run.
# RESIDENT=R keeps R more processes with a context each on the device(s) meanwhile, idle (STOPPED=1:
# SIGSTOPped, as a speed test's warmed program waiting for the timed phase): does a context the
# device holds, doing nothing, slow the others' starts? (session 18). TMO=S ends each piece after
# S seconds (default 120):
# the pieces that did not end are missing from the count (c < N x K).
# Run: bash tests/gpu/scale-diag.sh   ($OUT, else ./gpu-out: summary.txt). NS="1 4 16" (the N),
#      K=2 (pieces per process slot, one after another). Exit 0, 2 build failed, 77 no GPU.
set -u
. tests/gpu/out.sh
export PATH="/usr/local/cuda/bin:$PATH"
NS=${NS:-1 4 16}
K=${K:-2}
DEVS=${DEVS:-}
PARTS=${PARTS:-ctx ctx1 alloc case keep case4096 kernels racecheck memcheck}
read -r -a DEVA <<< "$DEVS"
[ "${CONN1:-0}" = 1 ] && export CUDA_DEVICE_MAX_CONNECTIONS=1
want() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }
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
    local spids=()
    for ((i = 0; i < n; i++)); do
        ( [ ${#DEVA[@]} -gt 0 ] && export CUDA_VISIBLE_DEVICES=${DEVA[$((i % ${#DEVA[@]}))]}
          for ((j = 0; j < K; j++)); do timeout "${TMO:-120}" "$@" 2>>"$W/err" | grep -E "^(ctx|alloc|case|keep|kernels) " | tail -1; done ) > "$W/slot.$i" &
        spids+=($!)
    done
    wait "${spids[@]}"   # (not the resident processes)
    t1=$(date +%s.%N); b1=$(busy)
    cat "$W"/slot.* > "$W/all"; rm -f "$W"/slot.*
    [ ${#DEVA[@]} -gt 0 ] && label="$label [devs ${DEVS// /,}]"
    [ "${CONN1:-0}" = 1 ] && label="$label [conn 1]"
    [ "$RESIDENT" -gt 0 ] && label="$label [+$RESIDENT resident]"
    awk -v l="$label" -v n="$n" -v k="$K" -v t0="$t0" -v t1="$t1" -v b0="$b0" -v b1="$b1" '
        { c++; w += $2; u += $3; s += $4 }
        END {
            split(b0, x, " "); split(b1, y, " ");
            wall = t1 - t0; cores = (y[2] > x[2]) ? (y[1] - x[1]) / (y[2] - x[2]) * ENVIRON["NCPU"] : 0;
            printf "%-28s N=%-3d %3d done in %6.2f s: %6.2f pieces/s; a piece %.3f s wall inside, user %.3f sys %.3f; busy cores %.1f\n",
                l, n, c, wall, c / wall, c ? w / c : 0, c ? u / c : 0, c ? s / c : 0, cores }' "$W/all" | tee -a "$S"
}
NCPU=$(nproc); export NCPU
RESIDENT=${RESIDENT:-0}
rpids=()
for ((r = 0; r < RESIDENT; r++)); do
    ( [ ${#DEVA[@]} -gt 0 ] && export CUDA_VISIBLE_DEVICES=${DEVA[$((r % ${#DEVA[@]}))]}
      exec "$P" hold 3600 ) >/dev/null 2>&1 &
    rpids+=($!)
done
if [ "$RESIDENT" -gt 0 ]; then
    sleep $((RESIDENT / 8 + 3))
    [ "${STOPPED:-0}" = 1 ] && kill -STOP "${rpids[@]}"
    say "resident: $RESIDENT idle processes with a context$([ "${STOPPED:-0}" = 1 ] && echo ', stopped'); $(nvidia-smi --query-gpu=memory.used --format=csv,noheader | tr '\n' ' ')"
    trap 'kill -KILL "${rpids[@]}" 2>/dev/null; rm -rf "$W"' EXIT
fi

want ctx && for n in $NS; do measure "ctx" "$n" "$P" ctx 1; done
want ctx1 && for n in $NS; do measure "ctx MAX_CONNECTIONS=1" "$n" env CUDA_DEVICE_MAX_CONNECTIONS=1 "$P" ctx 1; done
want alloc && for n in $NS; do measure "alloc 24 x 3 x 64 MiB" "$n" "$P" alloc 24 4096; measure "alloc 24 x 3 x 4 MiB" "$n" "$P" alloc 24 1024; done
want case && for n in $NS; do measure "case 8 x 1024 (alloc each)" "$n" "$P" case 8 1024; done
want keep && for n in $NS; do measure "keep 8 x 1024 (kept)" "$n" "$P" keep 8 1024; done
want case4096 && for n in $NS; do measure "case 2 x 4096" "$n" "$P" case 2 4096; done
want kernels && for n in $NS; do measure "kernels 200 x 64" "$n" "$P" kernels 200 64; done
K=1
SNS=${SNS:-1 4 8}
want racecheck && for n in $SNS; do measure "racecheck, kernels 2 x 64" "$n" compute-sanitizer --tool racecheck --print-limit 1 "$P" kernels 2 64; done
want memcheck && for n in $SNS; do measure "memcheck, kernels 2 x 64" "$n" compute-sanitizer --tool memcheck --print-limit 1 "$P" kernels 2 64; done
say "errors (first 5 lines):"; head -5 "$W/err" | tee -a "$S"
say "== done $(date -u +%FT%TZ)"
