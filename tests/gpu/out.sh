# shellcheck shell=bash
# tests/gpu/out.sh: sourced by a device script for its output: OUT (else ./gpu-out) made and made
# absolute, S its summary.txt (emptied), and say() printing a line to the screen and into S.
OUT="${OUT:-./gpu-out}"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
S=$OUT/summary.txt
: > "$S"
say() { printf '%s\n' "$*" | tee -a "$S"; }
