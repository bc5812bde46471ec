#!/bin/sh
# tests/bench/clang-trial.sh: can Debian's clang 14 (what libclang-14 would parse with) read every
# .cu file in the tree as CUDA, so that the emulator's front end could locate kernels, __shared__
# declarations, launches and barriers from an AST instead of its own lexer (issue 22 item 3)?
# Run from the kit's top folder: sh tests/bench/clang-trial.sh   (prints one FAIL line per file
# clang rejects, then the counts). Two header sets, chosen by CLANG_TRIAL_HEADERS:
#   cuda (default)  CUDA 13's own headers: clang 14 knows CUDA up to 11.5 and not sm_90 (sm_80 used)
#   emu             the emulator's shim (common/emu/include), -nocudainc
# Results (2026-11-26, the 2-core build machine, 145 files): cuda 0 parsed (clang 14's texture
# wrappers do not compile against CUDA 13's headers); emu 1 parsed (the shim makes __shared__ an
# error outside the rewrite, by design). common/emu/README.md, "Why not libclang", says what follows.
set -u
[ -d common/emu ] || { echo "run from the kit's top folder" >&2; exit 2; }
command -v clang-14 >/dev/null || { echo "SKIP: no clang-14" >&2; exit 77; }
case ${CLANG_TRIAL_HEADERS:-cuda} in
cuda) hdr="--cuda-path=/usr/local/cuda --cuda-gpu-arch=sm_80" ;;
emu)  hdr="-nocudainc -nocudalib --cuda-host-only --cuda-gpu-arch=sm_80 -std=c++17 -Icommon/emu/include" ;;
*) echo "CLANG_TRIAL_HEADERS: cuda or emu" >&2; exit 2 ;;
esac
log=$(mktemp); trap 'rm -f "$log"' EXIT
ok=0; bad=0
for f in $(find labs solutions tests common -name '*.cu' ! -path 'tests/emu/golden/*' | sort); do
  d=$(dirname "$f"); lab=$(echo "$f" | sed -n 's|.*/\(0[0-9]\)/.*|\1|p')
  inc="-I$d -Icommon -Ilabs/02-naive-kernel"
  for l in labs/*/; do case $l in *"/$lab"-*) inc="$inc -I$l";; esac; done
  case $f in solutions/*|labs/*) inc="$inc -Ilabs/$(basename "$d")";; esac
  # shellcheck disable=SC2086
  if clang-14 -x cuda $hdr -Wno-unknown-cuda-version -fsyntax-only -w $inc -DTILE_WIDTH=16 "$f" >"$log" 2>&1; then
    ok=$((ok+1))
  else bad=$((bad+1)); echo "FAIL $f: $(grep -m1 'error' "$log")"; fi
done
echo "parsed $ok, failed $bad"
