#!/bin/sh
# kit-check-headline.sh: on the GPU machine, `./kit check NN` as a student runs it on the known-wrong
# files added for issue 12 item 4 (the reason first) and on the wrong kernels of tests/corpus/:
# the first line of every failing test must name what happened (a wrong operand, P read before it is
# written, phases counted from the wrong dimension, an out-of-bounds read of M from the memcheck
# pass, a build failure's first error at its file and line). Each file is copied over the lab's
# student file in turn; the skeletons are put back at the end.
#
# Run:  from the repository root on the GPU machine: sh tests/gpu/kit-check-headline.sh
#       Logs go to $OUT (default ./gpu-out). Exit: 0 when every expectation held, 1 otherwise.
set -u
OUT=${OUT:-./gpu-out}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
problems=0
t0=$(date +%s)
./kit setup > "$OUT/kit-setup.log" 2>&1 || echo "kit setup: exit $? (see kit-setup.log)"
echo "kit setup: $(( $(date +%s) - t0 )) s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | sed 's/^/GPU: /'

# check NN SOURCE EXPECTED-EXIT HEADLINE (an ERE that the first line of every failing test must match)
check() {
    nn=$1 src=$2 want=$3 head=$4
    dir=$(ls -d labs/"$nn"-*/ | head -n 1)
    file=$dir$(basename "$(ls "$dir"/*.cu | head -n 1)")
    [ -f "$OUT/skeleton-$nn.keep" ] || cp "$file" "$OUT/skeleton-$nn.keep"
    cp "$src" "$file"
    label=$(basename "$src" .cu)
    s=$(date +%s.%N)
    ./kit check "$nn" > "$OUT/kit-check-$nn-$label.log" 2>&1
    rc=$?
    secs=$(echo "$(date +%s.%N) $s" | awk '{printf "%.1f", $1 - $2}')
    awk '/^FAIL  /{getline; sub(/^ +/, ""); print} /^BUILD FAILED/{print}' "$OUT/kit-check-$nn-$label.log" > "$OUT/heads"
    ok=yes
    [ "$rc" = "$want" ] || ok=NO
    [ -s "$OUT/heads" ] || ok=NO
    while read -r h; do printf '%s\n' "$h" | grep -qE "$head" || ok=NO; done < "$OUT/heads"
    [ $ok = yes ] || problems=$((problems + 1))
    echo "kit check $nn with $src: exit $rc (expected $want) ok=$ok in $secs s"
    sort -u "$OUT/heads" | cut -c1-300 | sed 's/^/    first line: /'
}

check 02 tests/wrong/02/m-times-m.cu 1 'wrong operand: P equals M \* M|device facts'
check 02 tests/wrong/02/mt-times-n.cu 1 'swapped indices: P equals transpose\(M\) \* N|device facts'
check 03 tests/wrong/03/p-accumulate.cu 1 'reading P before writing it'
check 04 tests/wrong/04/beta-c.cu 1 'reading P before writing it'
check 04 tests/wrong/04/phases-from-n.cu 1 'phases counted from the wrong dimension'
check 04 tests/wrong/04/read-then-guard.cu 1 'out-of-bounds read of M at row'
check 02 tests/corpus/02-wrong-le-bound.cu 1 'out-of-bounds|device facts'
check 03 tests/corpus/03-wrong-phases-width.cu 1 'out-of-bounds|illegal'
check 04 tests/corpus/04-wrong-guard-m-row-only.cu 1 'out-of-bounds read of M'
check 04 tests/corpus/04-wrong-phases-from-m.cu 1 'phases counted from the wrong dimension|out-of-bounds'
check 04 tests/corpus/04-wrong-early-return.cu 1 '.'
check 03 tests/wrong/build/undeclared.cu 1 'BUILD FAILED: tiled.cu\([0-9]+\): error: identifier "Tile_Width" is undefined'
for nn in 02 03 04; do
    dir=$(ls -d labs/"$nn"-*/ | head -n 1)
    [ -f "$OUT/skeleton-$nn.keep" ] && cp "$OUT/skeleton-$nn.keep" "$dir$(basename "$(ls "$dir"/*.cu | head -n 1)")"
done
[ "$problems" = 0 ] && { echo "ALL EXPECTATIONS HELD"; exit 0; }
echo "$problems EXPECTATION(S) FAILED"; exit 1
