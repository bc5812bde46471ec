#!/bin/sh
# tests/load/grade-jobs8.sh: issue 25's load test. Eight copies of a lab's solution (lab 02's in the
# suite) graded at once with `./kit grade --lab NN --jobs 8` (on this 2-core machine: emulated, eight sessions on two
# cores, the load that once failed every copy at the wall-clock limit). Every copy must get full
# marks: the limits are CPU time, so the verdict does not depend on the load. The load average
# seen is printed (never judged: the test holds at any load).
#
# Run:  sh tests/load/grade-jobs8.sh SOURCE_ROOT BUILD_ROOT [LAB]   (meson test --suite load runs it
#       for lab 02; LAB 03, 04, 06 ... by hand: each GPU lab's solution, graded where this machine is)
# Exit: 0 all eight at full marks, 1 otherwise (the gradebook and the log named).
set -u
root=$1 build=$2 lab=${3:-02}
export TL_BUILD="$build"
out=$build/load-test-$lab
tl_lab=$build/common/tl-lab
dir=$("$tl_lab" dir "$lab") && "$tl_lab" files "$lab" > /dev/null ||
    { echo "grade-jobs8: no lab '$lab' in the lab table ($tl_lab dir $lab)" >&2; exit 2; }
rm -rf "$out"
mkdir -p "$out/class"
i=1
while [ $i -le 8 ]; do
    mkdir -p "$out/class/copy$i"
    for f in $("$tl_lab" files "$lab"); do   # every student file of the lab (lab 08 has three)
        cp "$root/solutions/$dir/$f" "$out/class/copy$i/$f"
    done
    i=$((i + 1))
done
s=$(date +%s)
"$root/kit" grade --lab "$lab" --jobs 8 --out "$out/grades" "$out"/class/copy* >"$out/grade.log" 2>&1
rc=$?
echo "./kit grade --lab $lab --jobs 8 (8 copies of the solution): exit $rc in $(( $(date +%s) - s )) s;" \
     "load average after: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores (log: $out/grade.log)"
fail=0
[ $rc = 0 ] || { echo "FAIL: ./kit grade exited $rc, expected 0"; tail -n 20 "$out/grade.log"; fail=1; }
book=$out/grades/gradebook.csv
if [ ! -f "$book" ]; then
    echo "FAIL: no $book"
    exit 1
fi
# gradebook.csv: student,score,max,..., not_graded_here, ... (a CSV with quoted fields that hold
# commas). Full marks: every point graded here (one total, issue 23: the parts not graded on this
# machine are named with their points, "NAME (POINTS); NAME (POINTS)", and count 0 of the max).
full=$(python3 - "$book" <<'PY'
import csv, re, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
n = 0
for r in rows:
    if not r['student'].startswith('copy'):
        continue
    ng = sum(float(x) for x in re.findall(r'\(([0-9.]+)\)(?:; |$)', r.get('not_graded_here') or ''))
    mx = float(r['max'] or 0)
    if mx > 0 and abs(float(r['score'] or 0) + ng - mx) < 0.005:
        n += 1
print(n)
PY
)
awk -F, 'NR > 1 && $1 ~ /^copy/ { print "  " $1 ": " $2 "/" $3 }' "$book"
if [ "$full" != 8 ]; then
    echo "FAIL: $full of 8 copies of the solution got full marks ($book); their reasons:"
    grep -h -E "limit|failed" "$out"/grades/copy*/summary.part.md 2>/dev/null | sort | uniq -c | head -n 20
    fail=1
fi
[ $fail = 0 ] && echo "PASS: all 8 copies of the solution at full marks under --jobs 8"
exit $fail
