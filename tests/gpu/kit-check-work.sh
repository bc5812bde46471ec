#!/bin/sh
# kit-check-work.sh: on the GPU machine, `./kit check NN` as a student runs it judges the work the
# kernels did (issue 11 item 4): the GPU program cannot count it, so kit check also builds the same
# file for the emulator (grader/kit-check.sh) and counts one small passing case there
# (grader/work.c). Every known-wrong file whose manifest class starts with "work: " (P right,
# computed the wrong way) must fail with the rule's reason in its output, and the reference
# solutions of labs 02-04 must pass showing their loads per multiply-add.
# Each file is copied over the student's file in labs/ in turn and the skeleton put back at the end.
#
# Run:  from the repository root on the GPU machine: sh tests/gpu/kit-check-work.sh
#       Logs go to $OUT (default ./gpu-out). Exit: 0 every expectation held, 1 otherwise.
set -u
OUT=${OUT:-./gpu-out}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
problems=0
./kit setup > "$OUT/kit-setup.log" 2>&1 || echo "kit setup: exit $? (see kit-setup.log)"

# check NN LABEL SOURCE EXPECTED-EXIT TEXT: SOURCE over the lab's student file; TEXT must appear.
check() {
    nn=$1 label=$2 src=$3 want=$4 text=$5
    dir=$(ls -d labs/"$nn"-*/ | head -n 1)
    file=$dir$(basename "$(ls "$dir"/*.cu | head -n 1)")
    [ -f "$OUT/skeleton-$nn.keep" ] || cp "$file" "$OUT/skeleton-$nn.keep"
    cp "$src" "$file"
    ./kit check "$nn" > "$OUT/work-$nn-$label.log" 2>&1
    rc=$?
    ok=yes
    [ "$rc" -eq "$want" ] || ok=no
    grep -qF -- "$text" "$OUT/work-$nn-$label.log" || ok=no
    [ $ok = yes ] || problems=$((problems + 1))
    echo "kit check $nn with $label: exit $rc (expected $want), '$text' shown: ok=$ok"
    grep -E "work|loads per multiply-add|no credit|not checked" "$OUT/work-$nn-$label.log" | head -n 3 | sed 's/^/    /'
}
check 02 solution solutions/02-naive-kernel/naive.cu 0 "global loads per multiply-add"
check 03 solution solutions/03-tiled-kernel/tiled.cu 0 "global loads per multiply-add"
check 04 solution solutions/04-boundary-handling/boundary.cu 0 "global loads per multiply-add"
grep -v '^#' tests/wrong/manifest.tsv | awk -F'\t' '$3 ~ /^work: / { print $1 "\t" $2 "\t" substr($3, 7) }' |
while IFS="$(printf '\t')" read -r f nn class; do
    check "$nn" "wrong-$(basename "$f" .cu)" "tests/wrong/$f" 1 "$class"
done > "$OUT/wrong.txt"
cat "$OUT/wrong.txt"
problems=$((problems + $(grep -c 'ok=no' "$OUT/wrong.txt")))
for k in "$OUT"/skeleton-*.keep; do
    [ -f "$k" ] || continue
    nn=$(basename "$k" .keep | sed 's/skeleton-//')
    dir=$(ls -d labs/"$nn"-*/ | head -n 1)
    cp "$k" "$dir$(basename "$(ls "$dir"/*.cu | head -n 1)")"
done
if [ "$problems" -eq 0 ]; then echo "ALL EXPECTATIONS HELD"; exit 0; fi
echo "$problems EXPECTATION(S) FAILED"; exit 1
