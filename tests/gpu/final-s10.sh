#!/usr/bin/env bash
# final-s10.sh: session 10's closing check on the GPU machine, in one call, most important first:
#   1. a small lab 03 class through ./kit grade (ncu reads the counters): the solution, the skeleton and
#      the honest corpus styles the class runs judged wrong or never saw on a GPU (P stored by
#      atomicExch, a recursive helper, float4 stores, a helper filling the tiles), one known-wrong file;
#   2. tests/gpu/i25-ub-on-device.sh (the undefined-behaviour check and the GPU headlines) on FINAL_UB_PAT;
#   3. run-on-device.sh (labs 02-06, known-wrong, sanitizers, speed at 4096).
# Run: from the repository root on the GPU machine: bash tests/gpu/final-s10.sh. $OUT: final.txt + logs.tgz.
set -u
OUT=${OUT:-./gpu-out}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
S=$OUT/final.txt
say() { printf '%s\n' "$*" | tee -a "$S"; }
. tests/gpu/device-env.sh > "$OUT/env.log" 2>&1
export PATH="/usr/local/cuda/bin:$PATH"
say "== final-s10: $(date -u +%FT%TZ); $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1); commit $(git rev-parse --short HEAD 2>/dev/null)"
L=/tmp/final-s10
rm -rf "$L" && mkdir -p "$L/class"
t0=$SECONDS
./kit setup > "$L/kit-setup.log" 2>&1 && ninja -C build > "$L/build.log" 2>&1 || { say "kit setup or build failed"; tail -20 "$L/build.log" >> "$S"; }
say "kit built in $((SECONDS - t0)) s"

# 1. the small class
for f in solutions/03-*/tiled.cu; do mkdir -p "$L/class/solution" && cp "$f" "$L/class/solution/tiled.cu"; done
for f in labs/03-*/tiled.cu; do mkdir -p "$L/class/skeleton" && cp "$f" "$L/class/skeleton/tiled.cu"; done
for c in 03-right-style-lambda-ldg-tiles 03-right-style-recursive-helper 03-right-float4-store 03-right-helper-fills-tile \
         03-right-style-float4-tiles 03-wrong-tiles-not-shared; do
    mkdir -p "$L/class/$c" && cp "tests/corpus/$c.cu" "$L/class/$c/tiled.cu"
done
head -c 8 /dev/urandom | od -An -tu8 | tr -d ' ' > "$L/secret"
t0=$SECONDS
./kit grade --lab 03 --out "$L/graded" --secret "$L/secret" -- "$L"/class/* > "$L/grade.log" 2>&1
say "1. ./kit grade --lab 03 (8 submissions): exit $? in $((SECONDS - t0)) s"
grep -m3 -E 'counters|isolation' "$L/grade.log" | cut -c1-400 | tee -a "$S"
[ -f "$L/graded/gradebook.csv" ] && tee -a "$S" < "$L/graded/gradebook.csv"
python3 - "$L/graded" >> "$S" 2>&1 <<'PY'
import glob, json, os, sys
for f in sorted(glob.glob(sys.argv[1] + "/*/results.json")):
    r = json.load(open(f))
    print("-- %s: %s" % (os.path.basename(os.path.dirname(f)), r.get("score")))
    for t in r.get("tests", []):
        if t.get("score", 0) < t.get("max_score", 0):
            out = (t.get("output") or "").strip().splitlines()
            print("   %s %s/%s: %s" % (t.get("name"), t.get("score"), t.get("max_score"), (out[0] if out else "")[:300]))
PY

# 2. the undefined-behaviour check and the headlines
t0=$SECONDS
I25_UB_PAT=${FINAL_UB_PAT:-'04-wrong-acc-uninit-tail|03-wrong-phases-minus-one|04-wrong-clamped-loads|03-wrong-tiles-not-shared'} \
    OUT=$L/ub sh tests/gpu/i25-ub-on-device.sh > "$L/ub.log" 2>&1
say "2. i25-ub-on-device.sh: exit $? in $((SECONDS - t0)) s"
tail -n 25 "$L/ub.log" >> "$S"

# 3. the labs
t0=$SECONDS
OUT=$L/labs bash tests/gpu/run-on-device.sh > "$L/labs.log" 2>&1
say "3. run-on-device.sh: exit $? in $((SECONDS - t0)) s"
[ -f "$L/labs/summary.txt" ] && tail -n 45 "$L/labs/summary.txt" >> "$S" || tail -n 20 "$L/labs.log" >> "$S"
tar -czf "$OUT/logs.tgz" -C "$L" --exclude='*/build' --exclude='*.o' . 2>/dev/null
cat "$S"
