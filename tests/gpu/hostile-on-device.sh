#!/usr/bin/env bash
# hostile-on-device.sh: issue 11's closing check on the GPU machine: a lab 03 class holding the
# reference solution, the skeleton, every known-wrong lab 03 file (tests/wrong/03) and every lab 03
# attack (tests/hostile/03: its own and the ports of lab 01's), graded through `./kit grade` with
# the sandbox (bubblewrap carried as a Debian package, tests/gpu/device-env.sh), with every test
# the rubric has there (correctness, compute-sanitizer racecheck and memcheck, speed, policy).
#
# Run:  from the repository root on the GPU machine, after `. tests/gpu/device-env.sh` (the script
#       sources it itself when bwrap is not on PATH):
#           bash tests/gpu/hostile-on-device.sh        (everything in $OUT, default ./gpu-out)
# Prints: the isolation line, the gradebook, each submission's score against what
#       tests/hostile/expected.txt and the catalogue expect, and whether every expectation held:
#         solution    every graded point
#         'full' rows of expected.txt at this machine's place (an attack contained at no cost;
#                     with TL_GRADE_NCU=1 in the environment, place gpu: also one that breaks only a
#                     build a GPU whose counters ncu reads does not need; else the grader's default,
#                     place gpu-no-counters, the bare words): the solution's score
#                     (tests/hostile/expected.sh reads a grade per place)
#         the others  less than the solution, with a failed test
#       and that the gradebook is complete (one row per submission).
# Exit: 0 every expectation held, 1 one did not, 2 the grader could not run, 77 no GPU.
set -u
OUT=${OUT:-./gpu-out}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
ROOT=$(pwd)
export TL_BUILD=${TL_BUILD:-$ROOT/build-hostile}
H=$OUT/hostile.txt
: > "$H"
say() { printf '%s\n' "$*" | tee -a "$H"; }

if ! ls /dev/nvidia0 >/dev/null 2>&1; then say "skipped: no NVIDIA GPU here"; exit 77; fi
command -v bwrap >/dev/null 2>&1 || . tests/gpu/device-env.sh >> "$H"
export PATH="/usr/local/cuda/bin:$PATH"
say "== hostile-on-device: lab 03, $(date -u +%FT%TZ); $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1); $(nproc) cores; bwrap: $(command -v bwrap || echo none)"

# ------------------------------------------------------------------ the class
C=$OUT/class-03
rm -rf "$C" "$OUT/graded-03"
mkdir -p "$C/solution" "$C/skeleton"
cp solutions/03-tiled-kernel/tiled.cu "$C/solution/"
cp labs/03-tiled-kernel/tiled.cu "$C/skeleton/"
# HOSTILE_NO_WRONG=1: the attacks only (the known-wrong files are run-on-device.sh's too), for a
# device call too short for the whole class
wrong=tests/wrong/03/*.cu
[ "${HOSTILE_NO_WRONG:-0}" = 1 ] && wrong=
# HOSTILE_PAT=GLOB: only the attacks whose names match (e.g. 'gpu_*': the GPU-only classes, for a
# device call shorter still)
for f in $wrong tests/hostile/03/${HOSTILE_PAT:-*}.cu; do
    kind=$(basename "$(dirname "$(dirname "$f")")")
    d=$C/$kind-$(basename "$f" .cu)
    mkdir -p "$d" && cp "$f" "$d/tiled.cu"
done
n=$(ls "$C" | wc -l)
say "class: $n submissions in $C: solution, skeleton, $([ -n "$wrong" ] && ls tests/wrong/03/*.cu | wc -l || echo 0) known-wrong, $(ls tests/hostile/03/${HOSTILE_PAT:-*}.cu | wc -l) hostile"
od -An -tu8 -N8 /dev/urandom | tr -d ' ' > "$OUT/lab03.secret"
chmod 600 "$OUT/lab03.secret"

# ------------------------------------------------------------------ grade it, as an instructor does
t0=$(date +%s)
# include_own_pipe's build waits on itself: stopped after 10 s without CPU instead of 30 (an idle
# machine of 16 cores; the instructor's knob, grader/README.md), to spend less of the device's time
export TL_GRADE_BUILD_IDLE_S=${TL_GRADE_BUILD_IDLE_S:-10}
./kit grade --lab 03 --out "$OUT/graded-03" --secret "$OUT/lab03.secret" -- "$C"/* > "$OUT/grade.log" 2>&1
rc=$?
say "./kit grade --lab 03 --out ... --secret ... -- class-03/*: exit $rc in $(( $(date +%s) - t0 )) s"
if [ "$rc" != 0 ] && grep -q "refusing to grade without a sandbox" "$OUT/grade.log"; then
    say "THE SANDBOX IS NOT AVAILABLE HERE: $(grep -m1 'refusing' "$OUT/grade.log")"
    say "graded again with --unsafe-no-sandbox so the verdicts can still be read (every report says UNSAFE)"
    ./kit grade --lab 03 --out "$OUT/graded-03" --secret "$OUT/lab03.secret" --unsafe-no-sandbox -- "$C"/* \
        > "$OUT/grade.log" 2>&1
    rc=$?
    say "exit $rc"
fi
G=$OUT/graded-03
if [ ! -f "$G/gradebook.csv" ]; then
    say "no gradebook: the grader did not finish; its log ends:"; tail -30 "$OUT/grade.log" | tee -a "$H"; exit 2
fi
say ""
say "isolation: $(grep -m1 -o 'isolation: .*' "$OUT/grade.log" | sed 's/^isolation: //')"
say ""
say "== gradebook.csv"
tee -a "$H" < "$G/gradebook.csv"

# ------------------------------------------------------------------ the expectations
say ""
. tests/hostile/expected.sh
place=$(hostile_place "")
say "== expectations at place '$place' (tests/hostile/expected.txt, per place; the catalogue: wrong and hostile score less, with a failed test)"
bad=0
rows=$(($(wc -l < "$G/gradebook.csv") - 1))
if [ "$rows" -ge "$n" ]; then say "  ok    gradebook complete: $rows rows for $n submissions"
else say "  WRONG gradebook has $rows rows for $n submissions"; bad=1; fi
if [ -f "$G/solution/.done" ]; then read -r ssc smax _ < "$G/solution/.done"; else ssc=-1; smax=0; fi
if [ "$(awk -v a="$ssc" -v b="$smax" 'BEGIN { print (a == b && b > 0) }')" = 1 ]; then
    say "  ok    solution: $ssc/$smax (every graded point)"
else say "  WRONG solution: $ssc/$smax: the reference must get every graded point"; bad=1; fi
for d in "$G"/*/; do
    name=$(basename "$d")
    [ "$name" = solution ] && continue
    [ -f "$d/.done" ] || { say "  WRONG $name: not graded ($(head -c 200 "$d/results.json" 2>/dev/null))"; bad=1; continue; }
    read -r sc mx _ < "$d/.done"
    failed=$(grep -c '"status":[[:space:]]*"failed"' "$d/results.json")
    first=$(python3 -c 'import json,sys
j=json.load(open(sys.argv[1]))
f=[t for t in j.get("tests",[]) if t.get("status")=="failed"]
print((f[0]["name"]+": "+f[0]["output"].splitlines()[0]) if f and f[0].get("output") else "")' "$d/results.json" 2>/dev/null)
    want=less
    case $name in hostile-*) want=$(hostile_expected tests/hostile/expected.txt 03 "${name#hostile-}" "$place") ||
                                 want=less ;; esac
    if [ "$want" = full ]; then
        if [ "$(awk -v a="$sc" -v b="$ssc" 'BEGIN { print (a == b) }')" = 1 ]; then
            say "  ok    $name: $sc/$mx (expected.txt says full at $place)"
        else say "  WRONG $name: $sc/$mx: expected.txt says full marks ($ssc) at $place"; bad=1; fi
        continue
    fi
    if [ "$(awk -v a="$sc" -v b="$ssc" 'BEGIN { print (a < b) }')" = 1 ] && [ "$failed" -gt 0 ]; then
        say "  ok    $name: $sc/$mx; first failed test: ${first:0:170}"
    else say "  WRONG $name: $sc/$mx: must score less than the solution ($ssc), with a failed test"; bad=1; fi
done
# Issue 24 item 4: the launchers that skip or replay timed repetitions get no speed credit, and
# the timer's own verdict (timed-run-skipped-work, common/repcheck.h) says why.
say ""
say "== timed repetitions (issue 24 item 4): every timed repetition must do the whole work"
for name in gpu_skip_repeated_launch gpu_already_computed gpu_every_other_launch gpu_replay_answer; do
    d=$G/hostile-$name
    [ -f "$d/results.json" ] || { say "  WRONG $name: no results.json"; bad=1; continue; }
    speed=$(python3 -c 'import json,sys
j=json.load(open(sys.argv[1]))
s=[t for t in j.get("tests",[]) if t.get("name","").startswith("speed")]
print("; ".join("%s %s %s/%s: %s" % (t["name"], t.get("status"), t.get("score"), t.get("max_score"),
      (t.get("output") or "").splitlines()[0][:220] if t.get("output") else "") for t in s) or "no speed test")' \
        "$d/results.json" 2>/dev/null)
    seen=$(grep -c 'timed-run-skipped-work' "$d/results.json")
    say "  $name: $speed"
    say "        verdicts with pattern timed-run-skipped-work in results.json: $seen"
    if printf '%s' "$speed" | grep -q ' passed '; then
        say "  WRONG $name: its speed test passed: a timed repetition that skipped work was not refused"; bad=1
    elif [ "$seen" -gt 0 ]; then say "  ok    $name: no speed credit, refused by the timer's check"
    else say "  ok    $name: no speed credit (failed before timing: see its first failed test above)"; fi
done
if [ "$(grep -c 'timed-run-skipped-work' "$G/solution/results.json" 2>/dev/null)" != 0 ]; then
    say "  WRONG solution: the timer refused an honest kernel's repetitions"; bad=1
else say "  ok    solution: every timed repetition checked and accepted"; fi
# Nothing written outside the sandbox by write_outside.
for f in /root/tl-hostile-was-here /tl-hostile-was-here /usr/tl-hostile-was-here; do
    [ -e "$f" ] && { say "  WRONG write_outside left $f on the machine"; bad=1; rm -f "$f"; }
done
cp "$G/summary.md" "$OUT/summary.md" 2>/dev/null
say ""
[ "$bad" = 0 ] && { say "EVERY EXPECTATION HELD"; exit 0; }
say "SOME EXPECTATIONS DID NOT HOLD (details: $G/summary.md, $OUT/grade.log)"; exit 1
