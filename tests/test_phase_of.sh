#!/bin/sh
# tests/gpu/phase-of.py (what a class run's timed phase was made of) on the stored progress snapshots
# of a real class run: class-results/h100-x1-2026-11-27-1946Z-s20-parks-window, configuration main,
# whose phase session 20 read by hand (30 s, from the untimed work's end at 81 s to the last graded
# at 111 s; its windows' alone time was 15.0 s). Then its usage errors: exit 2 with the reason.
# Usage: test_phase_of.sh ROOT
set -eu
root=${1:?usage: test_phase_of.sh ROOT}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
tool="$root/tests/gpu/phase-of.py"
tar -xzf "$root/tests/gpu/class-results/h100-x1-2026-11-27-1946Z-s20-parks-window/logs.tgz" -C "$tmp" main/progress.txt
got=$(python3 "$tool" "$tmp/main/progress.txt" 15.0 1)
want="timed phase (progress snapshots, 2 s apart): from the untimed work's end at 81 s of grading to 111 s: 30 s; the windows alone 15.0 s; the rest, 15 s, what the windows waited for (the speed tests' programs starting, warming up and ending; profiles on demand)"
[ "$got" = "$want" ] || { printf 'one H100:\n got: %s\nwant: %s\n' "$got" "$want"; exit 1; }
got=$(python3 "$tool" "$tmp/main/progress.txt" 16.0 2)
case $got in
*"the windows alone 8.0 s a device (16.0 s over 2); the rest, 22 s"*) ;;
*) printf 'two devices: %s\n' "$got"; exit 1 ;;
esac
rc=0; python3 "$tool" 2>"$tmp/err" || rc=$?
[ $rc = 2 ] && grep -q 'usage: phase-of.py' "$tmp/err" || { echo "no arguments: exit $rc"; cat "$tmp/err"; exit 1; }
rc=0; python3 "$tool" "$tmp/none.txt" 1 1 2>"$tmp/err" || rc=$?
[ $rc = 2 ] && grep -q "cannot read $tmp/none.txt" "$tmp/err" || { echo "a missing file: exit $rc"; cat "$tmp/err"; exit 1; }
: > "$tmp/empty.txt"
python3 "$tool" "$tmp/empty.txt" 1 1 | grep -q 'not found in the progress snapshots' || { echo "an empty file"; exit 1; }
echo "phase-of.py: one device, two devices, its usage errors: as expected"
