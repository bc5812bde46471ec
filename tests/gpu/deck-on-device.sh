#!/usr/bin/env bash
# deck-on-device.sh: the deck's measurements that the shipped datasets lack, in one run on the GPU
# machine (issue 28): the 1-D tiled n-body kernel (plots/nbody.cu) and lab 01's CPU baseline past the
# caches from a vectorising build.
#
# Run:  from the repository root on the GPU machine (nvcc 13, a pip meson, ninja):
#           bash tests/gpu/deck-on-device.sh
#       $OUT (default ./gpu-out) receives DEVICE-DATE-deck.csv (records, CONTRACTS.md section 4, with
#       the device, the UTC date and the CPU build in its metadata) and deck-run.log.
#       Copy the records into plots/data/extra/: ./kit plots and ./kit slides add them to the shipped
#       dataset of the same device.
# What: 1. tl-nbody built with nvcc -O2 for sm_90; every variant checked against a double-precision
#          host reference at every size, then timed (CUDA events, median of 20 after 3 warm-ups);
#       2. lab 01's reference solution built as a release build (-O3) with -march=native (GCC
#          vectorises the i-k-j and blocked inner loops), run on one thread at 256..2048 (cpu_ijk to
#          1024: the lab's limit; at 2048 it would take minutes); every run checked before it is timed;
#       3. one records file from both, the device's metadata first.
# Exit: 0 ok, 1 a check failed, 2 a build failed, 77 no usable CUDA device.
set -u
FINAL="${OUT:-./gpu-out}"
mkdir -p "$FINAL"
LOG="$FINAL/deck-run.log"
: > "$LOG"
export PATH="/usr/local/cuda/bin:$PATH"
say() { printf '%s\n' "$*" | tee -a "$LOG"; }
W=$(mktemp -d /tmp/deck.XXXXXX)
start=$(date +%s)

say "== deck-on-device $(date -u +%FT%TZ) on $(hostname)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw \
    --format=csv,noheader 2>&1 | tee -a "$LOG"
before=$(nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv,noheader 2>/dev/null | head -n 1)

# ---------------------------------------------------------------- 1. the n-body kernel
say "== tl-nbody: build"
nvcc -O2 -lineinfo -gencode arch=compute_90,code=sm_90 -Icommon plots/nbody.cu -o "$W/tl-nbody" \
    -Xptxas -v >> "$LOG" 2>&1 || { say "nvcc failed (log above)"; exit 2; }
say "== tl-nbody: check, then time"
TL_BUILD_TYPE=debugoptimized TL_HOST=$(hostname) "$W/tl-nbody" --records "$W/nbody.csv" \
    --sizes 1000,16384,65536,131072 --reps 20 2>&1 | tee -a "$LOG"
rc=${PIPESTATUS[0]}
[ "$rc" -eq 0 ] || { say "tl-nbody failed (exit $rc)"; exit "$rc"; }
cp "$W/nbody.csv" "$FINAL/nbody-only.csv"   # comes back even if the CPU part runs out of time

# ---------------------------------------------------------------- 2. lab 01 past the caches
say "== lab 01: release build, -march=native"
B=build-deck
if ! { meson setup "$B" -Dtests=false -Dgpu_archs=90 -Dbuildtype=release -Dc_args=-march=native >> "$LOG" 2>&1 &&
        ninja -C "$B" solutions/01-cpu-baseline/lab01-ref >> "$LOG" 2>&1; }; then
    say "build failed"; tail -30 "$LOG"; exit 2
fi
CC_LINE=$(cc --version | head -n 1)
L01="$B/solutions/01-cpu-baseline/lab01-ref"
say "== lab 01: cpu_ikj, cpu_blocked, cpu_blocked64 at 256..2048; cpu_ijk at 256..1024"
"$L01" --variants cpu_ikj,cpu_blocked,cpu_blocked64 --sizes 256,512,1024,2048 --records "$W/cpu1.csv" \
    2>&1 | tee -a "$LOG"
rc=${PIPESTATUS[0]}; [ "$rc" -eq 0 ] || { say "lab01-ref failed (exit $rc)"; exit 1; }
"$L01" --variants cpu_ijk --sizes 256,512,1024 --records "$W/cpu2.csv" 2>&1 | tee -a "$LOG"
rc=${PIPESTATUS[0]}; [ "$rc" -eq 0 ] || { say "lab01-ref failed (exit $rc)"; exit 1; }
after=$(nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv,noheader 2>/dev/null | head -n 1)
end=$(date +%s)

# ---------------------------------------------------------------- 3. one records file
dev=$(sed -n 's/^# device: //p' "$W/nbody.csv" | tr '[:upper:]' '[:lower:]' | tr -c 'a-z0-9\n' '-' | tr -s '-' | sed 's/-$//')
out="$FINAL/$dev-$(date -u +%Y-%m-%d)-deck.csv"
{
    grep '^# ' "$W/nbody.csv"
    echo "# timing: cuda-events (GPU kernels, median of 20 after 3 warm-ups, warm L2) / host monotonic clock (CPU, median of the runs that fit in 0.5 s); every run checked correct first"
    echo "# command: bash tests/gpu/deck-on-device.sh"
    echo "# cpu: $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1 | tr -d ','), one thread of $(nproc)"
    echo "# cpu_build: $CC_LINE; meson release (-O3) -march=native; lab 01 reference solution"
    echo "# driver_version: $(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -n 1)"
    echo "# clocks_before: $before"
    echo "# clocks_after: $after"
    echo "# duration_s: $((end - start))"
    sed -n '/^kind,/{p;q;}' "$W/nbody.csv"
    sed -e '/^#/d' -e '/^kind,/d' "$W/nbody.csv" "$W/cpu1.csv" "$W/cpu2.csv"
} > "$out.tmp" && mv "$out.tmp" "$out"
say "== records: $out ($(grep -vc '^#' "$out") lines), $((end - start)) s"
cat "$out" >> "$LOG"
exit 0
