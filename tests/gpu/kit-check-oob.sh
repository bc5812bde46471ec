#!/bin/sh
# kit-check-oob.sh: on the GPU machine, `./kit check NN` as a student runs it, proving its memcheck
# pass (grader/oob.c): every known-wrong file whose manifest class starts with "kit check: " (P is
# right, the program alone passes; only a sanitizer sees its out-of-bounds reads) must fail with
# that headline, and the lab's reference solution must still pass; then what the pass adds to a
# warm `./kit check 03` (the same check timed with TL_CHECK_MEMCHECK=0, which leaves it out).
# Each file is copied over the student's file in labs/ in turn and the skeleton put back at the end.
#
# Run:  from the repository root on the GPU machine: sh tests/gpu/kit-check-oob.sh
#       Logs go to $OUT (default ./gpu-out), with one raw memcheck transcript per known-wrong file.
# Exit: 0 when every expectation held, 1 otherwise.
set -u
OUT=${OUT:-./gpu-out}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
problems=0
t0=$(date +%s)
./kit setup > "$OUT/kit-setup.log" 2>&1 || echo "kit setup: exit $? (see kit-setup.log)"
echo "kit setup: $(( $(date +%s) - t0 )) s"

# check NN LABEL SOURCE EXPECTED-EXIT [HEADLINES, '|' between]: SOURCE over the lab's student file.
check() {
    nn=$1 label=$2 src=$3 want=$4 heads=${5:-}
    dir=$(ls -d labs/"$nn"-*/ | head -n 1)
    file=$dir$(basename "$(ls "$dir"/*.cu | head -n 1)")
    [ -f "$OUT/skeleton-$nn.keep" ] || cp "$file" "$OUT/skeleton-$nn.keep"
    cp "$src" "$file"
    s=$(date +%s.%N)
    ./kit check "$nn" > "$OUT/kit-check-$nn-$label.log" 2>&1
    rc=$?
    secs=$(echo "$(date +%s.%N) $s" | awk '{printf "%.1f", $1 - $2}')
    ok=yes
    [ "$rc" = "$want" ] || ok=NO
    if [ -n "$heads" ] && ! grep -qE "$heads" "$OUT/kit-check-$nn-$label.log"; then ok=NO; fi
    [ $ok = yes ] || problems=$((problems + 1))
    echo "kit check $nn with $label: exit $rc (expected $want) ok=$ok in $secs s: $(grep -m1 '^Score' "$OUT/kit-check-$nn-$label.log")"
    grep -m1 -A2 "out-of-bounds" "$OUT/kit-check-$nn-$label.log" | sed 's/^/    /'
}

for nn in 03 04; do
    check $nn solution "$(ls solutions/"$nn"-*/*.cu | grep -v -e lab.cu | head -n 1)" 0
done
awk -F '\t' '!/^#/ && NF == 7 && $3 ~ /^kit check: / { sub(/^kit check: /, "", $3); print $1 "\t" $2 "\t" $3 }' \
    tests/wrong/manifest.tsv > "$OUT/rows.tsv"
while IFS="$(printf '\t')" read -r f nn heads; do
    name=$(basename "$f" .cu)
    check "$nn" "wrong-$name" "tests/wrong/$f" 1 "$heads"
    # the raw report, for the parser's tests (tests/test_oob.c)
    prog=$(ls build/labs/"$nn"-*/lab"$nn" | head -n 1)
    v=$(awk -F '\t' -v f="$f" '$1 == f { print $4 }' tests/wrong/manifest.tsv | sed -n 's/.*--variants \([a-z0-9]*\).*/\1/p')
    compute-sanitizer --tool memcheck --padding 65536 --print-limit 3 "$prog" ${v:+--variants $v} --sizes "$( [ "$nn" = 03 ] && echo 16 || echo 15)" \
        --no-time --exact-alloc > "$OUT/raw-memcheck-$nn-$name.txt" 2>&1
    echo "    raw memcheck of $f: exit $?, $(grep -c 'Invalid __' "$OUT/raw-memcheck-$nn-$name.txt") errors shown"
done < "$OUT/rows.tsv"

# What the pass costs a warm ./kit check 03 (the solution; built already): 2 runs each way.
cp "$(ls solutions/03-*/tiled.cu)" labs/03-tiled-kernel/tiled.cu
./kit check 03 > /dev/null 2>&1
for mode in on off; do
    for i in 1 2; do
        s=$(date +%s.%N)
        if [ $mode = on ]; then ./kit check 03 > "$OUT/warm-03-$mode-$i.log" 2>&1
        else TL_CHECK_MEMCHECK=0 ./kit check 03 > "$OUT/warm-03-$mode-$i.log" 2>&1; fi
        rc=$?
        echo "warm kit check 03, memcheck $mode, run $i: exit $rc, $(echo "$(date +%s.%N) $s" | awk '{printf "%.2f", $1 - $2}') s"
    done
done
for nn in 03 04; do
    dir=$(ls -d labs/"$nn"-*/ | head -n 1)
    cp "$OUT/skeleton-$nn.keep" "$dir$(basename "$(ls "$dir"/*.cu | head -n 1)")"
done
[ "$problems" = 0 ] && { echo "ALL EXPECTATIONS HELD"; exit 0; }
echo "$problems EXPECTATION(S) FAILED"; exit 1
