#!/usr/bin/env bash
# lab02-devquery-on-device.sh: lab 02's device query judged on a real GPU (issue 16 item 5), in one run:
#   1. `./kit check 02` as a student runs it, with the reference solution's naive.cu (must pass,
#      device query 10/10), the skeleton and each known-wrong device query of
#      tests/wrong/manifest.tsv (02/devq-*), each copied into labs/02-naive-kernel/ in turn
#      (restored at the end): exit 1, the device-query test FAILed with the row's reason named;
#   2. the kit's own query (`build/common/tl-device --facts`) next to nvidia-smi's name;
#   3. the known-wrong programs themselves (build/tests/wrong/lab02-wrong-devq-*, the manifest's
#      arguments): exit 1 naming the row's reason;
#   4. the grader's verdict: `./kit grade --lab 02` on the solution, the skeleton and two wrong
#      device queries (device query, memcheck and speed on this GPU).
# Run:  from the repository root on the GPU machine: bash tests/gpu/lab02-devquery-on-device.sh
#       At most 8 files go to $OUT (default ./gpu-out): summary.txt (every expectation, one line
#       each), kit-check.log, programs.log, grade.log, gradebook.csv, tl-device-facts.txt.
# Exit: 0 when every expectation held, 1 otherwise, 77 no GPU.
set -u
OUT=${OUT:-./gpu-out}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
export PATH=/usr/local/cuda/bin:$PATH
S=$OUT/summary.txt
: > "$S"
say() { printf '%s\n' "$*" | tee -a "$S"; }
problems=0
expect() {   # label ok(yes/no) detail
    [ "$2" = yes ] || problems=$((problems + 1))
    say "$(printf '%-44s ok=%-3s %s' "$1" "$2" "$3")"
}
if ! ls /dev/nvidia0 >/dev/null 2>&1; then
    say "skipped: no NVIDIA GPU here (no /dev/nvidia0)"; exit 77
fi
say "== lab 02 device query on $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1), $(date -u +%FT%TZ)"
W=$(mktemp -d /tmp/tl-devq.XXXXXX)
F=labs/02-naive-kernel/naive.cu
cp "$F" "$W/skeleton.cu"
trap 'cp "$W/skeleton.cu" "$F"; rm -rf "$W"' EXIT
t0=$(date +%s)
./kit setup > "$W/kit-setup.log" 2>&1 || say "kit setup: exit $? (tail below)"
tail -3 "$W/kit-setup.log" | tee -a "$S"

# The known-wrong device queries: file and expected reason ('|' between alternatives), from the manifest.
rows=()
while IFS=$'\t' read -r file lab expect_ args _; do
    case $file in 02/devq-*) rows+=("$file"$'\t'"$expect_"$'\t'"$args") ;; esac
done < tests/wrong/manifest.tsv
say "known-wrong device queries in the manifest: ${#rows[@]}"

# ------------------------------------------------------------------ 1. ./kit check 02
: > "$OUT/kit-check.log"
check() {   # label source expected-exit expected-device-query-text ('|' alternatives)
    cp "$2" "$F"
    local t=$(date +%s) log=$W/check.log
    timeout 300 ./kit check 02 > "$log" 2>&1
    local rc=$? ok=yes
    { echo "===== ./kit check 02 with $1: exit $rc in $(( $(date +%s) - t )) s"; cat "$log"; } >> "$OUT/kit-check.log"
    [ "$rc" = "$3" ] || ok=no
    # the device query test's line and the first line under it (the headline)
    local block
    block=$(grep -A1 -E "^(PASS|FAIL|SKIP)  device query" "$log" | head -2 | tr '\n' ' ' | sed 's/  */ /g')
    printf '%s\n' "$block" | grep -qE -- "$4" || ok=no
    expect "kit check 02, $1" "$ok" "exit $rc (want $3): $(printf '%s' "$block" | cut -c1-150)"
}
check solution solutions/02-naive-kernel/naive.cu 0 "PASS device query \(print_device_facts\) \(10/10\)"
check skeleton "$W/skeleton.cu" 1 "FAIL device query.*\(0/10\).*none printed in the format"
for r in "${rows[@]}"; do
    IFS=$'\t' read -r file exp _ <<< "$r"
    check "${file#02/}" "tests/wrong/$file" 1 "FAIL device query.*($exp)"
done
cp "$W/skeleton.cu" "$F"
say "kit checks done at $(( $(date +%s) - t0 )) s"

# ------------------------------------------------------------------ 2. the kit's own query
B=build
{ echo "# build/common/tl-device --facts on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
  "$B/common/tl-device" --facts; echo "# exit $?"
  echo "# nvidia-smi clocks (max sm, max mem) MHz:"; nvidia-smi --query-gpu=clocks.max.sm,clocks.max.mem --format=csv,noheader
} > "$OUT/tl-device-facts.txt" 2>&1
n=$(grep -cE "^(device|sms|peak bandwidth):" "$OUT/tl-device-facts.txt")
expect "tl-device --facts" "$([ "$n" = 3 ] && echo yes || echo no)" "$(grep -E '^(device|peak bandwidth):' "$OUT/tl-device-facts.txt" | tr '\n' ' ')"

# ------------------------------------------------------------------ 3. the known-wrong programs
: > "$OUT/programs.log"
progs=()
for r in "${rows[@]}"; do IFS=$'\t' read -r file _ <<< "$r"; n=${file#02/}; progs+=("tests/wrong/lab02-wrong-${n%.cu}"); done
if ninja -C "$B" solutions/02-naive-kernel/lab02-ref "${progs[@]}" > "$W/ninja.log" 2>&1; then
    timeout 120 "$B/solutions/02-naive-kernel/lab02-ref" --sizes 17 --no-time > "$W/p.log" 2>&1
    rc=$?
    { echo "===== lab02-ref --sizes 17 --no-time: exit $rc"; cat "$W/p.log"; } >> "$OUT/programs.log"
    expect "lab02-ref (its own facts check)" "$([ $rc = 0 ] && grep -q 'device facts: PASS' "$W/p.log" && echo yes || echo no)" "exit $rc: $(grep -m1 'device facts' "$W/p.log")"
    for r in "${rows[@]}"; do
        IFS=$'\t' read -r file exp args <<< "$r"
        n=${file#02/}; p=$B/tests/wrong/lab02-wrong-${n%.cu}
        # shellcheck disable=SC2086
        timeout 120 "$p" $args > "$W/p.log" 2>&1
        rc=$?
        { echo "===== $p $args: exit $rc"; cat "$W/p.log"; } >> "$OUT/programs.log"
        ok=no; [ $rc = 1 ] && grep -qE -- "$exp" "$W/p.log" && ok=yes
        expect "program lab02-wrong-${n%.cu}" "$ok" "exit $rc: $(grep -m1 -A1 'device facts: FAIL' "$W/p.log" | tail -1 | sed 's/^ *//' | cut -c1-120)"
    done
else
    expect "build of the known-wrong programs" no "$(tail -5 "$W/ninja.log" | tr '\n' ' ')"
fi
say "programs done at $(( $(date +%s) - t0 )) s"

# ------------------------------------------------------------------ 4. the grader's verdict
mkdir -p "$W/in/solution" "$W/in/skeleton" "$W/in/devq-no-ddr" "$W/in/devq-stdout"
cp solutions/02-naive-kernel/naive.cu "$W/in/solution/"
cp "$W/skeleton.cu" "$W/in/skeleton/naive.cu"
cp tests/wrong/02/devq-no-ddr.cu "$W/in/devq-no-ddr/naive.cu"
cp tests/wrong/02/devq-stdout.cu "$W/in/devq-stdout/naive.cu"
t=$(date +%s)
timeout 420 ./kit grade --lab 02 --out "$W/out" --jobs auto "$W"/in/* > "$OUT/grade.log" 2>&1
rc=$?
say "kit grade --lab 02 (4 submissions): exit $rc in $(( $(date +%s) - t )) s"
cp "$W/out/gradebook.csv" "$OUT/gradebook.csv" 2>/dev/null
for s in solution skeleton devq-no-ddr devq-stdout; do
    # the device query test of this student's results.json, as the summary reports it
    d=$(ls -d "$W/out/$s"* 2>/dev/null | head -1)
    line=$(python3 - "$d/results.json" <<'PY' 2>&1
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception as e:
    print("no results.json: %s" % e); sys.exit(0)
for t in d.get("tests", []) + d.get("tilelab", {}).get("not_graded", []):
    if t["name"].startswith("device query"):
        out = (t.get("output") or t.get("why") or "").split("\n")
        print('"score": %s of %s | %s | %s' % (t.get("score", "not graded"), t["max_score"], out[0], out[1] if len(out) > 1 else ""))
PY
)
    echo "===== $s: $line" >> "$OUT/grade.log"
    case $s in
    solution) want='"score": 10(\.0)? of 10 \| 14 of 14 device facts right' ;;
    skeleton|devq-stdout) want='"score": 0(\.0)? of 10 \| 0 of 14 device facts right: none printed in the format' ;;
    devq-no-ddr) want='the factor 2 for double data rate' ;;
    esac
    ok=no; printf '%s' "$line" | grep -qE -- "$want" && ok=yes
    expect "kit grade: $s, device query" "$ok" "$(printf '%s' "$line" | cut -c1-160); gradebook: $(grep "^$s" "$OUT/gradebook.csv" 2>/dev/null | cut -c1-60)"
done
say "total $(( $(date +%s) - t0 )) s"
[ "$problems" = 0 ] && { say "ALL EXPECTATIONS HELD"; exit 0; }
say "$problems EXPECTATION(S) FAILED"; exit 1
