#!/bin/sh
# tests/gpu/emu-warp-corpus.sh: the warp-level files of the emulator's corpus (tests/emu/corpus) built
# with nvcc and run on a real GPU, to compare with the verdicts the emulator gives them
# (tests/emu/meson.build): the correct kernels must give right results here too; for the two bugs,
# what the GPU does (right by luck, wrong, or hung) and what compute-sanitizer's racecheck and
# synccheck say. Run from the repository root on the GPU machine:  sh tests/gpu/emu-warp-corpus.sh
set -u
bin=${OUT:-/tmp}/emu-warp-bin
mkdir -p "$bin"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo "(no nvidia-smi)"
nvcc --version | tail -2
for f in warp_reduce_dot shfl_broadcast_tiled ballot_count missing_syncwarp partial_mask_shfl; do
    echo "== $f"
    if ! nvcc -O2 -arch=sm_90 -I tests/emu/corpus -o "$bin/$f" "tests/emu/corpus/$f.cu" tests/gpu/emu-corpus-main.c; then
        echo "$f: BUILD FAILED"
        continue
    fi
    timeout 30 "$bin/$f"
    echo "exit $?"
done
for f in warp_reduce_dot shfl_broadcast_tiled missing_syncwarp; do
    echo "== compute-sanitizer --tool racecheck $f"
    timeout 90 compute-sanitizer --tool racecheck "$bin/$f" 2>&1 | tail -12
done
for f in ballot_count partial_mask_shfl; do
    echo "== compute-sanitizer --tool synccheck $f"
    timeout 60 compute-sanitizer --tool synccheck "$bin/$f" 2>&1 | tail -12
done
rm -rf "$bin"
