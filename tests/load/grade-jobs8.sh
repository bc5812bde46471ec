#!/bin/sh
# tests/load/grade-jobs8.sh: issue 25's load test. Eight copies of lab 02's solution graded at once
# with `./kit grade --lab 02 --jobs 8` (on this 2-core machine: emulated, eight sessions on two
# cores, the load that once failed every copy at the wall-clock limit). Every copy must get full
# marks: the limits are CPU time, so the verdict does not depend on the load. The load average
# seen is printed (never judged: the test holds at any load).
#
# Run:  sh tests/load/grade-jobs8.sh SOURCE_ROOT BUILD_ROOT   (meson test --suite load runs it)
# Exit: 0 all eight at full marks, 1 otherwise (the gradebook and the log named).
set -u
root=$1 build=$2
export TL_BUILD="$build"
out=$build/load-test
rm -rf "$out"
mkdir -p "$out/class"
i=1
while [ $i -le 8 ]; do
    mkdir -p "$out/class/copy$i"
    cp "$root/solutions/02-naive-kernel/naive.cu" "$out/class/copy$i/naive.cu"
    i=$((i + 1))
done
s=$(date +%s)
"$root/kit" grade --lab 02 --jobs 8 --out "$out/grades" "$out"/class/copy* >"$out/grade.log" 2>&1
rc=$?
echo "./kit grade --lab 02 --jobs 8 (8 copies of the solution): exit $rc in $(( $(date +%s) - s )) s;" \
     "load average after: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores (log: $out/grade.log)"
fail=0
[ $rc = 0 ] || { echo "FAIL: ./kit grade exited $rc, expected 0"; tail -n 20 "$out/grade.log"; fail=1; }
book=$out/grades/gradebook.csv
if [ ! -f "$book" ]; then
    echo "FAIL: no $book"
    exit 1
fi
# gradebook.csv: student,score,max,...
# full marks: every point graded here (one total, issue 23: the parts not graded on this machine,
# named with their points in the not_graded_here column, fourth from the end, count 0 of the max)
full=$(awk -F, 'NR > 1 && $1 ~ /^copy/ {
        ng = 0; s = $(NF - 3)
        while (match(s, /\(([0-9.]+)\)(, |$)/)) { t = substr(s, RSTART + 1); ng += t + 0; s = substr(s, RSTART + RLENGTH) }
        if ($3 + 0 > 0 && $2 + ng == $3 + 0) n++
    } END { print n + 0 }' "$book")
awk -F, 'NR > 1 && $1 ~ /^copy/ { print "  " $1 ": " $2 "/" $3 }' "$book"
if [ "$full" != 8 ]; then
    echo "FAIL: $full of 8 copies of the solution got full marks ($book); their reasons:"
    grep -h -E "limit|failed" "$out"/grades/copy*/summary.part.md 2>/dev/null | sort | uniq -c | head -n 20
    fail=1
fi
[ $fail = 0 ] && echo "PASS: all 8 copies of the solution at full marks under --jobs 8"
exit $fail
