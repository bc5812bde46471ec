#!/bin/sh
# tests/bench/emulated-class.sh: how long an emulated lab 03 class takes here (issue 29 item 4).
#
#   sh tests/bench/emulated-class.sh [--kit DIR] [--n N] [--jobs J] [--keep DIR] [--lab-args '...']
#
# Makes N distinct lab 03 submissions (default 10; no two files byte-equal): the solution, the
# known-wrong files of tests/wrong/03, then generated variants of the solution that differ in bytes
# but not in meaning (a comment naming the variant, blank lines, a renamed local); grades them
# with `./kit grade --lab 03 --emulate` of the kit DIR (default: this checkout, built in build/)
# from a fresh out dir, so the kit's own build for the run is included; and prints:
#   - the run's wall time and CPU time (the grader and every process it waited for),
#   - the grader's profile (progress.json's "profile": wall and CPU seconds per stage, summed),
#   - each submission's score and the tests it failed (the verdicts, to compare before and after:
#     the secret is fixed, so every run draws the same hidden sizes; --keep DIR keeps results.json),
#   - the machine's load (uptime) before and after: figures from a loaded machine say so.
# A figure, not a test: nothing here fails because the machine is slow.
set -eu

here=$(cd "$(dirname "$0")/../.." && pwd)
kit=$here
n=10
jobs=2
keep=
while [ $# -gt 0 ]; do
    case $1 in
    --kit) kit=$(cd "$2" && pwd); shift 2 ;;
    --n) n=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    -h|--help) awk 'NR > 1 && /^#/ {sub(/^# ?/, ""); print; next} NR > 1 {exit}' "$0"; exit 0 ;;
    *) echo "emulated-class.sh: unknown option '$1' (--kit DIR, --n N, --jobs J, --keep DIR)" >&2; exit 2 ;;
    esac
done
case $n in ''|*[!0-9]*) echo "emulated-class.sh: --n wants a number, got '$n'" >&2; exit 2 ;; esac
[ -x "$kit/kit" ] || { echo "emulated-class.sh: no ./kit in '$kit' (--kit DIR: a checkout of tilelab)" >&2; exit 2; }
[ -x "$kit/build/grader/tl-grade" ] || {
    echo "emulated-class.sh: '$kit/build/grader/tl-grade' is missing: build the kit first (ninja -C '$kit/build')" >&2
    exit 2
}

work=$(mktemp -d "${TMPDIR:-/tmp}/emu-class.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
subs=$work/subs
out=$work/out
mkdir -p "$subs"

# The class: sh tests/gpu/class-submissions.sh writes the same distinct set the device script uses.
sh "$here/tests/gpu/class-submissions.sh" --n "$n" --wrong 3 --corpus 0 --kit "$kit" "$subs" >"$work/subs.txt"
sed 's/^/# /' "$work/subs.txt"

echo "# commit: $(git -C "$kit" rev-parse --short HEAD 2>/dev/null || echo unknown)  host: $(hostname)  cores: $(nproc)"
echo "# load before: $(uptime)"
# CPU of the run: this shell's children's times (the grader and everything it waited for).
t0=$(date +%s.%N)
set +e
# A fixed secret: the same hidden sizes in every run, so two runs' verdicts can be compared.
echo 29290029 >"$work/secret"
( cd "$kit" && ./kit grade --lab 03 --emulate --jobs "$jobs" --secret "$work/secret" --out "$out" "$subs"/* ) >"$work/grade.log" 2>&1
rc=$?
set -e
t1=$(date +%s.%N)
times >"$work/times"            # (not in $(...): a subshell has no children of its own)
cpu=$(sed -n 2p "$work/times")
echo "# load after:  $(uptime)"
wall=$(echo "$t1 $t0" | awk '{printf "%.1f", $1 - $2}')
cpus=$(echo "$cpu" | awk '{u=$1; s=$2; gsub(/m/," ",u); gsub(/s/,"",u); gsub(/m/," ",s); gsub(/s/,"",s);
        split(u,a," "); split(s,b," "); printf "%.1f", a[1]*60+a[2]+b[1]*60+b[2]}')
echo "run: exit $rc, $n submissions, --jobs $jobs, wall $wall s, CPU $cpus s (user+sys of the grader and the children it waited for: bubblewrap's sandboxed processes are missing; the profile's CPU counts them)"
if [ "$rc" -ne 0 ]; then
    tail -20 "$work/grade.log"
fi
if [ -f "$out/progress.json" ] && command -v python3 >/dev/null; then
    python3 - "$out/progress.json" <<'EOF'
import json, sys
p = json.load(open(sys.argv[1])).get("profile")
if not p:
    print("profile: none in progress.json (a kit from before issue 29's profile)")
    sys.exit(0)
print("profile: run %.1f s wall, %d job(s), %d submission(s); per stage, summed over the class:" %
      (p["run_wall_s"], p["jobs"], p["students"]))
print("  %-14s %9s %9s" % ("stage", "wall s", "CPU s"))
for s in p["stages"]:
    print("  %-14s %9.1f %9.1f" % (s["stage"], s["wall_s"], s["cpu_s"]))
print("  %-14s %9.1f %9.1f" % ("all stages", p["stages_wall_s"], p["stages_cpu_s"]))
print("  %-14s %9.1f" % ("queued", p["queued_wall_s"]))
EOF
fi
echo "verdicts (student, score, tests failed):"
if [ -f "$out/gradebook.csv" ]; then
    sed -n '/^| student | score/,/^$/p' "$out/summary.md" | sed -n '3,$p' | awk -F'|' 'NF > 3 {print " ", $2 "|" $3 "|" $5}'
fi
if [ -n "$keep" ]; then
    rm -rf "$keep"
    mkdir -p "$keep"
    (cd "$out" && tar cf - --exclude=.state .) | (cd "$keep" && tar xf -)
    cp "$work/grade.log" "$keep/grade.log"
    echo "kept: $keep"
fi
exit "$rc"
