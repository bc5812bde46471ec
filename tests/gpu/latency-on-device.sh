#!/bin/sh
# latency-on-device.sh: warm `./kit check 03` on the GPU machine, where its time goes, and the
# grader's GPU reference against the CPU's, bit for bit (issue 10 item 5), in one run.
#
# Run:  from the repository root on the GPU machine, after `. tests/gpu/device-env.sh`:
#           sh tests/gpu/latency-on-device.sh [BEFORE]
#       BEFORE: another copy of the kit (e.g. the commit before the GPU reference) measured by the
#       same script, so before and after come from one run on one machine. Logs go to $OUT (default
#       ./gpu-out). About 4-6 minutes on an H100, most of it two builds.
# What, for BEFORE (when given) and then this kit:
#   1. meson setup BUILD -Dgpu_archs=90 -Dtests=false (only what the check needs is built; the GPU
#      machine lacks Criterion's dependencies);
#   2. tests/bench/latency.sh --kit KIT --only check03gpu --reps 3: warm ./kit check 03 with the
#      reference solution's tiled.cu in place (the script swaps it in and restores it);
#   3. the phases of one more warm check: the ninja step alone, tl-grade --check alone;
#   and for this kit:
#   4. common/tl-refbench (tests/bench/refbench.c) on ragged sizes, every dimension off the
#      kernel's 32-wide tiles and the degenerate shapes: GPU against CPU, bit for bit (the
#      Criterion test tests/test_reference_gpu.c does the same where Criterion is installed;
#      the GPU machine lacks its dependencies);
#   5. tl-refbench 2048 4096 (lab 03's large public sizes): each reference timed, bits compared.
# Exit: 0 every step ran and the bits were equal, 1 otherwise, 77 no usable CUDA device.
set -u
OUT=${OUT:-./gpu-out}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
here=$(pwd)
problems=0
say() { printf '%s\n' "$*" | tee -a "$OUT/summary.txt"; }
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/gpu.txt" 2>&1 ||
    { echo "no usable CUDA device (nvidia-smi failed)"; exit 77; }
say "latency-on-device: $(cat "$OUT/gpu.txt"), $(nproc) cores, $(date -u +%FT%TZ)"

# phases KIT LABEL: one more warm check of lab 03 (the solution's file in place), split in parts.
phases() {
    _k=$1 _l=$2
    _f=$_k/labs/03-tiled-kernel/tiled.cu
    cp "$_f" "$OUT/.keep.cu" && cp "$_k/solutions/03-tiled-kernel/tiled.cu" "$_f"
    (cd "$_k" && ./kit check 03) > "$OUT/$_l-check.log" 2>&1   # builds it (not timed)
    _t0=$(now); (cd "$_k" && ./kit check 03) > "$OUT/$_l-check.log" 2>&1; _rc=$?; _t1=$(now)
    _tg=$_k/build/grader/tl-grade
    _bin=$("$_k/build/common/tl-lab" get 03 binary)
    _t2=$(now); ninja -C "$_k/build" "$_bin" > /dev/null 2>&1; _t3=$(now)
    # its CPU time from the shell's `times` (children's user and system, after it was reaped)
    _t4=$(now)
    _cpu=$( ("$_tg" --check --quiet --kit "$_k" --lab 03 --out "$_k/build/latency-judge" --prebuilt "$_k/build/$_bin" \
        > "$OUT/$_l-judge.log" 2>&1; echo "rc $?"; times) | awk '/^rc /{ rc = $2 } NR == 3 {
            s = 0; for (i = 1; i <= 2; ++i) { split($i, p, "m"); sub("s", "", p[2]); s += p[1] * 60 + p[2] }
            printf "%.1f", s } END { printf " %s", rc }')
    _t5=$(now)
    _rj=${_cpu#* }
    cp "$OUT/.keep.cu" "$_f" && touch "$_f"
    say "phases $_l: ./kit check 03 $(secs "$_t0" "$_t1") s (exit $_rc) = ninja no-op $(secs "$_t2" "$_t3") s" \
        "+ tl-grade --check $(secs "$_t4" "$_t5") s wall, ${_cpu% *} s CPU (exit $_rj) + the kit's shell steps (the rest)"
    [ "$_rc" = 0 ] && [ "$_rj" = 0 ] || problems=$((problems + 1))
}

# measure_kit KIT LABEL TESTS: configure, measure, split.
measure_kit() {
    _k=$1 _l=$2
    (cd "$_k" && git init -q 2>/dev/null; git add -A >/dev/null 2>&1
     meson setup build -Dgpu_archs=90 -Dtests="$3" -Dbuildtype=debugoptimized) > "$OUT/$_l-setup.log" 2>&1 ||
        { say "$_l: meson setup failed (see $_l-setup.log)"; tail -20 "$OUT/$_l-setup.log"; problems=$((problems + 1)); return 1; }
    sh "$here/tests/bench/latency.sh" --kit "$_k" --only check03gpu --no-grade --reps 3 > "$OUT/$_l-latency.txt" 2>&1 ||
        problems=$((problems + 1))
    sed "s/^/$_l: /" "$OUT/$_l-latency.txt" | tee -a "$OUT/summary.txt"
    phases "$_k" "$_l"
}

if [ $# -ge 1 ]; then
    measure_kit "$(cd "$1" && pwd)" before false
fi
measure_kit "$here" after false || exit 1

ninja -C build common/tl-refbench > "$OUT/refbench-build.log" 2>&1 ||
    { say "tl-refbench did not build (refbench-build.log)"; tail -20 "$OUT/refbench-build.log"; exit 1; }
# exit 77 (no GPU reference) counts as a problem here: this script runs where there is a GPU
build/common/tl-refbench 1 1x300x7 7x300x1 33x1x65 31x33x97 257x129x300 1000x17x1 64 \
    65x1025x63 100x2049x95 1023x1000x1025 1601 > "$OUT/refbench-ragged.txt" 2>&1 || problems=$((problems + 1))
build/common/tl-refbench 2048 4096 > "$OUT/refbench.txt" 2>&1 || problems=$((problems + 1))
cat "$OUT/refbench-ragged.txt" "$OUT/refbench.txt" | tee -a "$OUT/summary.txt"

[ "$problems" = 0 ] && { say "ALL STEPS RAN, BITS EQUAL"; exit 0; }
say "$problems PROBLEM(S): see the logs in $OUT"; exit 1
