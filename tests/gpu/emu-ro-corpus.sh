#!/bin/sh
# tests/gpu/emu-ro-corpus.sh: the emulator's read-only-region corpus files (tests/emu/corpus/ro_*.cu:
# a store between a tiled kernel's two barriers that the rewrite cannot see, hidden in a device
# function, a float & parameter or a macro) and a correct tiled kernel (cublas_include), built with
# nvcc and run on a real GPU, then under compute-sanitizer racecheck. The emulator reports each ro_*
# file as a race (tests/emu/meson.build); here racecheck must find hazards in each of them and none in
# the correct kernel, whose results must be right. Also local_array_oob (an index one past a thread's
# float acc[4], which the emulator reports as array-out-of-bounds): its results must be wrong here too,
# and what memcheck says of it is recorded. Run from the repository root on the GPU machine:
#     sh tests/gpu/emu-ro-corpus.sh
set -u
bin=${OUT:-/tmp}/emu-ro-bin
mkdir -p "$bin"
right="cublas_include"
wrong="ro_device_fn_store ro_reference_store ro_macro_store"
oob="local_array_oob"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo "(no nvidia-smi)"
nvcc --version | tail -2
date -u +%Y-%m-%dT%H:%MZ
for f in $right $wrong $oob; do
    nvcc -O2 -arch=sm_90 -lineinfo -I tests/emu/corpus -o "$bin/$f" "tests/emu/corpus/$f.cu" \
        tests/gpu/emu-corpus-main.c >"$bin/$f.log" 2>&1 &
done
wait
bad=0
for f in $right $wrong; do
    echo "== $f"
    if [ ! -x "$bin/$f" ]; then
        echo "$f: BUILD FAILED"; cat "$bin/$f.log"; bad=1; continue
    fi
    timeout 30 "$bin/$f"; rc=$?
    echo "exit $rc"
    timeout 120 compute-sanitizer --tool racecheck "$bin/$f" >"$bin/$f.rc" 2>&1
    grep -m3 "Race reported\|hazard" "$bin/$f.rc" | head -3
    n=$(sed -n 's/.*RACECHECK SUMMARY: \([0-9]*\) hazard.*/\1/p' "$bin/$f.rc" | tail -1)
    echo "racecheck: ${n:-?} hazards"
    case " $right " in
    *" $f "*) if [ "$rc" != 0 ] || [ "${n:-x}" != 0 ]; then echo "UNEXPECTED: $f should be right and race-free"; bad=1; fi ;;
    *) if [ -z "$n" ] || [ "$n" = 0 ]; then echo "UNEXPECTED: racecheck found no hazard in $f"; bad=1; fi ;;
    esac
done
for f in $oob; do
    echo "== $f"
    if [ ! -x "$bin/$f" ]; then echo "$f: BUILD FAILED"; cat "$bin/$f.log"; bad=1; continue; fi
    timeout 30 "$bin/$f"; rc=$?
    echo "exit $rc"
    [ "$rc" = 1 ] || { echo "UNEXPECTED: $f should give wrong results on the GPU too"; bad=1; }
    timeout 120 compute-sanitizer --tool memcheck "$bin/$f" 2>&1 | grep -m4 "Invalid\|ERROR SUMMARY"
done
rm -rf "$bin"
if [ $bad = 0 ]; then echo "ALL EXPECTATIONS HELD"; else echo "SOME EXPECTATIONS FAILED"; exit 1; fi
