#!/bin/sh
# tests/demo/demo.sh: `./kit demo` as a new user runs it, twice: in this kit (every part must come
# out as expected: the references pass their checks, the known-wrong file is caught, the sample
# class is graded with the solution on top, the charts are drawn; labs/ is left as it was) and in
# a student edition of it (no solutions/, no tests/: the demo says what it leaves out and still
# draws the charts). Its output is the transcript under test: the section headers a reader follows.
#
# Run:  sh tests/demo/demo.sh SOURCE_ROOT BUILD_ROOT   (meson test --suite demo runs it)
# Exit: 0 every expectation held, 1 one did not (named).
set -u
root=$1 build=$2
export TL_BUILD="$build"
out=$build/demo-test
rm -rf "$out"
mkdir -p "$out"
fail=0
expect() {   # LOG TEXT...
    log=$1; shift
    for t in "$@"; do
        grep -qF -- "$t" "$log" || { echo "FAIL: '$t' is not in $log"; fail=1; }
    done
}
sums() { (cd "$1" && find labs -type f | LC_ALL=C sort | xargs cat | cksum); }

before=$(sums "$root")
s=$(date +%s)
"$root/kit" demo >"$out/demo.log" 2>&1
rc=$?
echo "./kit demo: exit $rc in $(( $(date +%s) - s )) s (log: $out/demo.log)"
[ $rc = 0 ] || { echo "FAIL: ./kit demo exited $rc, expected 0"; tail -n 30 "$out/demo.log"; fail=1; }
expect "$out/demo.log" "== set-up: a copy of the kit to work in (your files in labs/ are never touched)" \
    "== 1. each lab's reference solution through ./kit check" \
    "== 2. a known-wrong submission and its diagnosis" \
    "== 3. a sample class through ./kit grade" \
    "== 4. the charts: ./kit plots from the dataset shipped in plots/data/" \
    "caught: exit 1, the diagnosis names the swapped indices" \
    "as expected: the solution scores 100.00/100.00; the wrong and the hostile file score less" \
    "charts as PNG (and PDF, SVG)"
for nn in $("$build/common/tl-lab" list); do
    grep -qE "^-- \./kit check $nn \(.*\): all public checks passed" "$out/demo.log" ||
        { echo "FAIL: lab $nn's reference did not pass its ./kit check in the demo"; fail=1; }
done
grep -q UNEXPECTED "$out/demo.log" && { echo "FAIL: the demo printed UNEXPECTED"; fail=1; }
# The reason first, then the count, on kit check's unbounded path (every public size, up to 1024^3,
# where no TL_GRADE_EMU_MAX_SIZE is set): the demo's check of lab 02's swapped.cu is that path, and
# its headline names a size above 512^3, where the headline suite's checks stop
# (test_headline.c, the_count_follows_the_reason).
wlog=$build/demo/logs/check-02-wrong.log
awk '/^FAIL  MatrixMulKernel \(naive\)/ { f = NR } f && NR == f + 1 { head = $0 }
     f && NR > f + 1 && /of [0-9]+ public sizes correct/ && !count { count = NR }
     END { exit !(f && head ~ /swapped indices/ && head ~ /\(size 1024\)/ && count > f + 1) }' "$wlog" 2>/dev/null ||
    { echo "FAIL: $wlog: the failing test's first line is not the swapped-indices headline at size 1024, before the count"
      sed -n '/^FAIL/,/public sizes correct/p' "$wlog" 2>/dev/null | head -n 8; fail=1; }
# ./kit check shows the lecture kernel's reuse: the work counted on the solution's emulated twin, as
# global loads per multiply-add at each tile width (moved from test_grader_work.c, which graded the
# same file again for it). Where the demo's checks run emulated (no GPU here), as that test's did.
c3=$build/demo/logs/check-03.log
if [ ! -e /dev/nvidiactl ] && [ ! -e /dev/nvidia0 ]; then
    for w in "global loads per multiply-add: 0.125 = 2/16" \
        "global loads per multiply-add: 0.0625 = 2/32: each element loaded from global memory is used by 32 multiply-adds"; do
        grep -qF -- "$w" "$c3" 2>/dev/null || { echo "FAIL: $c3: ./kit check 03 of the solution does not show '$w'"; fail=1; }
    done
fi
[ "$(sums "$root")" = "$before" ] || { echo "FAIL: the demo changed files in labs/"; fail=1; }

# The student edition: the kit without solutions/ and tests/ (what ./kit release leaves out).
se=$out/student
mkdir -p "$se/kit"
if git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
    git -C "$root" ls-files -co --exclude-standard | grep -v -e '^solutions/' -e '^tests/' -e '^build' \
        >"$out/student-files.txt"
else
    (cd "$root" && find . -path ./solutions -prune -o -path ./tests -prune -o -path ./.git -prune \
        -o -path './build*' -prune -o -type f -print) >"$out/student-files.txt"
fi
(cd "$root" && tar -cf - -T "$out/student-files.txt") | (cd "$se/kit" && tar -xf -)
TL_BUILD=$se/build "$se/kit/kit" demo >"$out/student.log" 2>&1
rc=$?
echo "./kit demo in a student edition: exit $rc (log: $out/student.log)"
[ $rc = 0 ] || { echo "FAIL: the student edition's demo exited $rc"; tail -n 30 "$out/student.log"; fail=1; }
expect "$out/student.log" "== 1-3. left out: this is the student edition" \
    "This edition holds no reference solutions and no known-wrong files" "== 4. the charts" "charts as PNG"
grep -q "== 1. each lab" "$out/student.log" && { echo "FAIL: the student edition ran the references"; fail=1; }
rm -rf "$se"
[ $fail = 0 ] && echo "ALL EXPECTATIONS HELD"
exit $fail
