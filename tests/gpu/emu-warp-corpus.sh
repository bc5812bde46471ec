#!/bin/sh
# tests/gpu/emu-warp-corpus.sh: the warp-level, block-reduction and cooperative-groups files of the
# emulator's corpus (tests/emu/corpus) built with nvcc and run on a real GPU, to compare with the
# verdicts the emulator gives them (tests/emu/meson.build): the correct kernels must give right results
# here too; for the bugs, what the GPU does (right by luck, wrong, or hung) and what compute-sanitizer's
# racecheck and synccheck say. Run from the repository root on the GPU machine:
#     sh tests/gpu/emu-warp-corpus.sh
# Each program prints corpus_run=0 when its results are right; "exit 124" is a hang killed by timeout.
# (In emu-warp-results/h100-2026-11-22b.txt the "exit" line after each synccheck run is tail's status,
# always 0: a synccheck run that prints nothing after its banner is a hang killed after 60 s.)
set -u
bin=${OUT:-/tmp}/emu-warp-bin
mkdir -p "$bin"
right="warp_reduce_dot shfl_broadcast_tiled ballot_count warp_macro_xor syncthreads_count_compact reduce_sync_warp
       match_any_histogram cg_tile_reduce cg_block_tiled"
wrong="missing_syncwarp partial_mask_shfl syncthreads_count_divergent cg_tile_shfl_divergent cg_tile_missing_sync"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo "(no nvidia-smi)"
nvcc --version | tail -2
# the builds in parallel (each nvcc call is single-threaded), their logs kept for the report
for f in $right $wrong; do
    nvcc -O2 -arch=sm_90 -lineinfo -I tests/emu/corpus -o "$bin/$f" "tests/emu/corpus/$f.cu" \
        tests/gpu/emu-corpus-main.c >"$bin/$f.log" 2>&1 &
done
wait
for f in $right $wrong; do
    echo "== $f"
    if [ ! -x "$bin/$f" ]; then
        echo "$f: BUILD FAILED"
        cat "$bin/$f.log"
        continue
    fi
    timeout 30 "$bin/$f"
    echo "exit $?"
done
for f in warp_reduce_dot shfl_broadcast_tiled syncthreads_count_compact match_any_histogram cg_tile_reduce \
         cg_block_tiled missing_syncwarp cg_tile_missing_sync; do
    [ -x "$bin/$f" ] || continue
    echo "== compute-sanitizer --tool racecheck $f"
    timeout 90 compute-sanitizer --tool racecheck "$bin/$f" 2>&1 | tail -8
done
for f in ballot_count reduce_sync_warp cg_tile_reduce partial_mask_shfl syncthreads_count_divergent \
         cg_tile_shfl_divergent; do
    [ -x "$bin/$f" ] || continue
    echo "== compute-sanitizer --tool synccheck $f"
    (timeout 60 compute-sanitizer --tool synccheck "$bin/$f" 2>&1; echo "exit $?") | tail -8
done
rm -rf "$bin"
