#!/bin/sh
# supplement-check.sh: the shipped supplements of labs 07 and 08 (plots/data/extra/) are what
# plots/supplement.sh makes of the device runs they cite (no figure retyped), an edited source figure
# is caught, the script refuses what it cannot do honestly, and each shipped edition (H100, H200)
# holds the issues' bars: lab 07 at >= 90% of cuBLAS SGEMM and lab 08 at >= 80% of cuBLAS BF16 at 4096.
#   sh tests/plots/supplement-check.sh   (meson test -C build 'plots supplements'); env TL_ROOT, TL_PLOTPREP
set -u
: "${TL_ROOT:?set TL_ROOT}" "${TL_PLOTPREP:?set TL_PLOTPREP}"
kit=$TL_ROOT
fail() { echo "FAIL: $*"; exit 1; }
t=$(mktemp -d "${TMPDIR:-/tmp}/tl-supp.XXXXXX") || exit 1
trap 'rm -rf "$t"' EXIT

# 1. the shipped supplements match their sources
sh "$kit/plots/supplement.sh" --all --check || fail "a shipped supplement differs from what its source gives"

# 2. a source figure edited after the supplement was written is caught, naming the supplement
mkdir -p "$t/kit/plots/data/extra" "$t/kit/tests/gpu"
cp "$kit"/plots/data/extra/* "$t/kit/plots/data/extra/"
cp -r "$kit/tests/gpu/lab07-results" "$kit/tests/gpu/lab08-results" "$t/kit/tests/gpu/"
src=$t/kit/tests/gpu/lab07-results/h200-2026-11-26-speed.csv
sed 's/^\(base1,gemm,07,tma,4096,4096,4096,.*\),47579\.386,/\1,49999.000,/' "$src" > "$src.new" && mv "$src.new" "$src"
grep -q '^base1,gemm,07,tma,4096,.*,49999\.000,' "$src" || fail "the test could not plant its edit"
out=$(TL_ROOT=$t/kit sh "$kit/plots/supplement.sh" --all --check 2>&1)
rc=$?
[ $rc -eq 1 ] || fail "an edited source passed the check (exit $rc): $out"
case $out in *"nvidia-h200-2026-11-26-lab07.csv differs"*) ;; *) fail "the message does not name the supplement: $out" ;; esac

# 3. refusals (exit 2, with the fix): a tagged file read as a plain one, a variant the run lacks
in=$kit/tests/gpu/lab07-results/h200-2026-11-26-speed.csv
out=$(sh "$kit/plots/supplement.sh" --lab 07 "$in" "$t/x.csv" 2>&1)
[ $? -eq 2 ] && case $out in *"pass --tag TAG"*) ;; *) false ;; esac || fail "a tagged file without --tag: $out"
out=$(sh "$kit/plots/supplement.sh" --tag base1 --lab 07 --variants tma,nosuch "$in" "$t/x.csv" 2>&1)
[ $? -eq 2 ] && case $out in *'variant "nosuch"'*) ;; *) false ;; esac || fail "a missing variant: $out"
[ ! -e "$t/x.csv" ] && [ ! -e "$t/x.csv.tmp" ] || fail "a refused supplement left a file behind"
# one run only: its metadata block once, no row of another run (cp2blk is a sweep build)
sh "$kit/plots/supplement.sh" --tag base1 --lab 07 "$in" "$t/y.csv" > /dev/null || fail "extracting run base1"
[ "$(grep -c '^# tilelab_records:' "$t/y.csv")" = 1 ] || fail "more than one metadata block in $t/y.csv"
[ "$(grep -c '^gemm,07,' "$t/y.csv")" = 8 ] || fail "run base1 has 8 lab 07 rows; got $(grep -c '^gemm,07,' "$t/y.csv")"

# 4. each edition holds the issues' bars at 4096 (the ladder table: % of cuBLAS in the rung's units)
for dev in nvidia-h100-80gb-hbm3 nvidia-h200; do
    ds=$(ls "$kit"/plots/data/"$dev"-20*.csv | head -n 1)
    # shellcheck disable=SC2046
    "$TL_PLOTPREP" --table "$ds" $(ls "$kit"/plots/data/extra/"$dev"-*-lab0[78].csv) > "$t/table" ||
        fail "tl-plotprep --table on $dev"
    awk -v dev="$dev" '
        /^kernel ladder/ { at = ($0 ~ / n = 4096 /) }
        at && $1 ~ /^(cpasync|tma|grouped)$/ { sub(/%/, "", $5); if ($5 + 0 > l7) l7 = $5 + 0 }
        at && $1 == "wgmma_bf16" && $2 == "BF16" { sub(/%/, "", $5); l8 = $5 + 0 }
        END {
            printf "%s: lab 07 best %.1f%% of cuBLAS SGEMM, lab 08 wgmma %.1f%% of cuBLAS BF16 at 4096\n", dev, l7, l8
            exit !(l7 >= 90 && l8 >= 80)
        }' "$t/table" || fail "$dev's edition is below the bars (lab 07 >= 90%, lab 08 >= 80%)"
done
echo "ok: supplements match their sources, edits and bad calls are caught, both editions hold the bars"
