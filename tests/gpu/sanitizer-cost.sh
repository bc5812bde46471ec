#!/usr/bin/env bash
# tests/gpu/sanitizer-cost.sh: what a compute-sanitizer session costs the host, by option (issue 29).
# A class's racecheck and memcheck sessions were 22% of its CPU (class-results 1221Z: 239 of 1101
# CPU-s) and mostly sys time (scale-diag, session 18: racecheck 1.5-2.2 s sys a session with 8-16 at
# once). Each variant runs tests/gpu/scale-probe.cu's 2 small launches under the tool, N at once
# (NS, default "1 8"), REPS times (default 3); prints the mean wall, user and sys per session.
# Run: bash tests/gpu/sanitizer-cost.sh ($OUT, else ./gpu-out: summary.txt). Exit 0, 2 build failed, 77 no GPU.
set -u
. tests/gpu/out.sh
export PATH="/usr/local/cuda/bin:$PATH"
export CUDA_DEVICE_MAX_CONNECTIONS=1
NS=${NS:-1 8}
REPS=${REPS:-3}
if ! ls /dev/nvidia0 >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
    say "skipped: no NVIDIA GPU here"; exit 77
fi
W=$(mktemp -d /tmp/tl-san.XXXXXX)
trap 'rm -rf "$W"' EXIT
say "== sanitizer-cost: $(date -u +%FT%TZ); $(compute-sanitizer --version | tail -1); cores $(nproc)"
nvcc -O2 -arch=sm_90 -lineinfo -o "$W/probe" tests/gpu/scale-probe.cu || { say "build failed"; exit 2; }
compute-sanitizer --help > "$OUT/help.txt" 2>&1
grep -E "^ +--[a-z-]+" "$OUT/help.txt" | awk '{print $1}' | tr "\n" " " | tee -a "$S"; say ""
one() {   # LABEL N ARGS...: N sessions at once, REPS rounds
    local label=$1 n=$2; shift 2
    local t0 t1 r i
    t0=$(date +%s.%N)
    for ((r = 0; r < REPS; r++)); do
        for ((i = 0; i < n; i++)); do
            /usr/bin/time -f "%e %U %S" -o "$W/t.$r.$i" compute-sanitizer "$@" "$W/probe" kernels 2 64 >/dev/null 2>>"$W/err" &
        done
        wait
    done
    t1=$(date +%s.%N)
    cat "$W"/t.* | awk -v l="$label" -v n="$n" -v t0="$t0" -v t1="$t1" '{c++; w+=$1; u+=$2; s+=$3}
        END {printf "%-58s N=%-2d %5.2f sessions/s; a session %.2f s wall, user %.2f, sys %.2f\n", l, n, c/(t1-t0), w/c, u/c, s/c}' | tee -a "$S"
    rm -f "$W"/t.*
}
for n in $NS; do
    one "racecheck (the grader's: 1 worker)" "$n" --tool racecheck --racecheck-num-workers 1 --print-limit 20 --error-exitcode 99
    one "racecheck, --racecheck-memcpy-async no" "$n" --tool racecheck --racecheck-num-workers 1 --racecheck-memcpy-async no --print-limit 20
    one "memcheck (the grader's)" "$n" --tool memcheck --print-limit 20 --error-exitcode 99
    one "memcheck --check-device-heap no" "$n" --tool memcheck --check-device-heap no --print-limit 20
    one "memcheck --check-device-heap no --leak-check no" "$n" --tool memcheck --check-device-heap no --leak-check no
done
say "errors (first 5 lines):"; sort "$W/err" | uniq -c | sort -rn | head -5 | tee -a "$S"
say "== done $(date -u +%FT%TZ)"
