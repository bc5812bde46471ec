#!/usr/bin/env bash
# final-on-device.sh: the lead's closing check of a wave on the GPU machine, in one call: the device
# scripts of every lab and of the grader's GPU classes, one after the other, each in its own folder
# of logs, and one summary that says which held.
#
# Run:  from the repository root on the GPU machine, with the grader's Debian packages carried in
#       .carry/debs (tests/gpu/device-env.sh):
#           bash tests/gpu/final-on-device.sh [PART...]
#       PART: labs (run-on-device.sh: labs 02-06, known-wrong, sanitizers, speed at 4096),
#             lab07 (lab07-on-device.sh), lab08 (lab08-on-device.sh all), hostile
#             (hostile-on-device.sh: the lab 03 class with every GPU attack); default these four.
#             Also (session 10's final-s10.sh, folded in): styles (a small lab 03 class through
#             ./kit grade with ncu reading the counters (TL_GRADE_NCU=1): the solution, the skeleton, the honest corpus
#             styles a class run once judged wrong or never saw on a GPU (P stored by atomicExch, a
#             recursive helper, float4 stores, a helper filling the tiles, float4 tiles) and one
#             known-wrong file; each student's score and the first line of each test below full
#             marks), ub (i25-ub-on-device.sh: the undefined-behaviour check and the GPU headlines, on
#             FINAL_UB_PAT's corpus rows).
#       $OUT receives final-summary.txt and one PART.tgz per part (the device tool brings back 8
#       files at most).
# Exit: 0 every part's script exited 0, 1 otherwise (final-summary.txt says which).
set -u
OUT=${OUT:-./gpu-out}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
S=$OUT/final-summary.txt
: > "$S"
. tests/gpu/device-env.sh >> "$S" 2>&1
export PATH="/usr/local/cuda/bin:$PATH"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> "$S" 2>&1
echo "date: $(date -u +%FT%TZ)" >> "$S"
parts=${*:-labs lab07 lab08 hostile}
bad=0

# styles: the small lab 03 class (in $OUT, the part's folder); summary.txt: the gradebook, each
# student's score and the first line of every test below its full marks. Returns ./kit grade's exit.
part_styles() {
    local L=$OUT _rc
    mkdir -p "$L/class/solution" "$L/class/skeleton"
    cp solutions/03-*/tiled.cu "$L/class/solution/tiled.cu"
    cp labs/03-*/tiled.cu "$L/class/skeleton/tiled.cu"
    for c in 03-right-style-lambda-ldg-tiles 03-right-style-recursive-helper 03-right-float4-store \
             03-right-helper-fills-tile 03-right-style-float4-tiles 03-wrong-tiles-not-shared; do
        mkdir -p "$L/class/$c" && cp "tests/corpus/$c.cu" "$L/class/$c/tiled.cu"
    done
    head -c 8 /dev/urandom | od -An -tu8 | tr -d ' ' > "$L/secret"
    # with ncu reading every submission's counters (TL_GRADE_NCU=1: the default counts with the twin)
    TL_GRADE_NCU=1 ./kit grade --lab 03 --out "$L/graded" --secret "$L/secret" -- "$L"/class/* > "$L/grade.log" 2>&1
    _rc=$?
    {
        echo "./kit grade --lab 03 (8 submissions): exit $_rc"
        grep -m3 -E 'counters|isolation' "$L/grade.log" | cut -c1-400
        [ -f "$L/graded/gradebook.csv" ] && cat "$L/graded/gradebook.csv"
        python3 - "$L/graded" 2>&1 <<'PY'
import glob, json, os, sys
for f in sorted(glob.glob(sys.argv[1] + "/*/results.json")):
    r = json.load(open(f))
    print("-- %s: %s" % (os.path.basename(os.path.dirname(f)), r.get("score")))
    for t in r.get("tests", []):
        if t.get("score", 0) < t.get("max_score", 0):
            out = (t.get("output") or "").strip().splitlines()
            print("   %s %s/%s: %s" % (t.get("name"), t.get("score"), t.get("max_score"), (out[0] if out else "")[:300]))
PY
    } > "$L/summary.txt"
    return $_rc
}

for p in $parts; do
    case $p in
    labs) script=tests/gpu/run-on-device.sh; args= ;;
    lab07) script=tests/gpu/lab07-on-device.sh; args= ;;
    lab08) script=tests/gpu/lab08-on-device.sh; args=all ;;
    hostile) script=tests/gpu/hostile-on-device.sh; args= ;;
    styles) script=part_styles; args= ;;
    ub) script=tests/gpu/i25-ub-on-device.sh; args= ;;
    *) echo "final-on-device: unknown part '$p' (labs, lab07, lab08, hostile, styles, ub)" >&2; exit 2 ;;
    esac
    d=/tmp/final-$p
    rm -rf "$d" && mkdir -p "$d"
    t0=$SECONDS
    if [ "$script" = part_styles ]; then
        OUT=$d part_styles > "$d/stdout.log" 2>&1
    elif [ "$p" = ub ]; then
        I25_UB_PAT=${FINAL_UB_PAT:-'04-wrong-acc-uninit-tail|03-wrong-phases-minus-one|04-wrong-clamped-loads|03-wrong-tiles-not-shared'} \
            OUT=$d bash "$script" $args > "$d/stdout.log" 2>&1
    else
        OUT=$d bash "$script" $args > "$d/stdout.log" 2>&1
    fi
    rc=$?
    printf '\n== %s: %s exit %d in %d s\n' "$p" "$script" "$rc" $((SECONDS - t0)) >> "$S"
    for f in "$d"/summary.txt "$d"/hostile.txt; do
        [ -f "$f" ] && tail -n 100 "$f" >> "$S"
    done
    [ -f "$d/summary.txt" ] || [ -f "$d/hostile.txt" ] || tail -n 30 "$d/stdout.log" >> "$S"
    [ "$rc" = 0 ] || bad=1
    tar -czf "$OUT/$p.tgz" -C "$d" --exclude='*/build' --exclude='*.o' . 2>/dev/null
done
echo "final-on-device: $([ $bad = 0 ] && echo 'every part held' || echo 'a part did not hold: see above')" >> "$S"
cat "$S"
exit $bad
