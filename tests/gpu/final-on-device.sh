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
#             (hostile-on-device.sh: the lab 03 class with every GPU attack); default all four.
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
for p in $parts; do
    case $p in
    labs) script=tests/gpu/run-on-device.sh; args= ;;
    lab07) script=tests/gpu/lab07-on-device.sh; args= ;;
    lab08) script=tests/gpu/lab08-on-device.sh; args=all ;;
    hostile) script=tests/gpu/hostile-on-device.sh; args= ;;
    *) echo "final-on-device: unknown part '$p' (labs, lab07, lab08, hostile)" >&2; exit 2 ;;
    esac
    d=/tmp/final-$p
    rm -rf "$d" && mkdir -p "$d"
    t0=$SECONDS
    OUT=$d bash "$script" $args > "$d/stdout.log" 2>&1
    rc=$?
    printf '\n== %s: %s exit %d in %d s\n' "$p" "$script" "$rc" $((SECONDS - t0)) >> "$S"
    for f in "$d"/summary.txt "$d"/hostile.txt; do
        [ -f "$f" ] && tail -n 60 "$f" >> "$S"
    done
    [ -f "$d/summary.txt" ] || [ -f "$d/hostile.txt" ] || tail -n 30 "$d/stdout.log" >> "$S"
    [ "$rc" = 0 ] || bad=1
    tar -czf "$OUT/$p.tgz" -C "$d" . 2>/dev/null
done
echo "final-on-device: $([ $bad = 0 ] && echo 'every part held' || echo 'a part did not hold: see above')" >> "$S"
cat "$S"
exit $bad
