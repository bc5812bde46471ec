#!/bin/sh
# tests/bench/latency.sh: how long a student and an instructor wait, as labelled figures (issue 10 item 5).
#
#   sh tests/bench/latency.sh [--kit DIR] [--no-grade] [--only LABELS] [--reps N] [--no-ccache]
#
# Prints, each on a line 'latency: LABEL = FIGURE (details)':
#   check01        warm `./kit check 01`                       target <= 3 s  (2-core build machine)
#   check03emu     warm `./kit check 03 --emulate`             target <= 10 s (2-core build machine)
#   check03gpu     warm `./kit check 03` on a GPU              target <= 5 s  (SKIP without a usable GPU)
#   submission     CPU seconds one more submission costs in a grading run (build + public cases):
#                  the CPU time of a two-student lab 01 grade minus that of a one-student one, both
#                  with --public-only --jobs 1, so the grading run's own set-up (the kit built once,
#                  the reference build) cancels out.  target <= 5 s of build CPU
# "Warm" = the second of two runs in a row, nothing edited between them (each check first runs once
# unmeasured). A figure is the median of --reps warm runs (default 1). Each check's exit code is
# shown next to it, and must be 0.
# Measured with the reference solution's files in place: the skeletons fail at their first size,
# so a check of them stops early and is meaninglessly fast. For each lab measured, its student
# files in DIR/labs/NN-*/ (labs/01-cpu-baseline/gmm.c, labs/03-tiled-kernel/tiled.cu) are copied
# aside, replaced by DIR/solutions/NN-*/'s, and put back, with a fresh time stamp so the next build
# recompiles them, on every way out (end, error, INT, TERM). The output names the files swapped.
# A kit without solutions/ (the student edition) is refused. Wall time from `date +%s.%N`; CPU
# time from a cgroup of the grade's own (or the shell's `times` where no cgroup can be made).
#
# --kit DIR   the kit to measure (default: the one holding this script); its build folder is
#             DIR/build (or $TL_BUILD). Works with any version of the kit that has ./kit check and
#             ./kit grade, so "before" and "after" figures come from the same script.
# --no-grade  leave out the grading figure (it builds the kit several times: minutes when cold).
# --only L    only the figures named, comma-separated (e.g. --only check01,submission).
# --no-ccache compile without ccache (CCACHE_DISABLE=1), as on a grading machine without it; by
#             default meson uses ccache when it is installed, and the header line says which.
# Exit: 0 every figure measured or skipped with its reason, 1 a command failed in a way that makes
# its figure meaningless (a check not passing on the reference solution, a crash), 2 bad usage.
set -u

here=$(cd "$(dirname "$0")" && pwd)
kit=$(cd "$here/../.." && pwd)
grade=1
reps=1
only=
die() { printf 'latency: %s\n' "$1" >&2; exit "${2:-2}"; }
while [ $# -gt 0 ]; do
    case $1 in
    -h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    --kit) [ $# -ge 2 ] || die "--kit needs a folder"; kit=$(cd "$2" 2>/dev/null && pwd) || die "--kit: no folder '$2'"; shift ;;
    --no-grade) grade=0 ;;
    --no-ccache) CCACHE_DISABLE=1; export CCACHE_DISABLE ;;
    --only) [ $# -ge 2 ] || die "--only needs labels"; only=$2; shift
            for l in $(echo "$only" | tr ',' ' '); do
                case $l in check01|check03emu|check03gpu|submission) ;; *) die "--only: no figure '$l' (check01, check03emu, check03gpu, submission)" ;; esac
            done ;;
    --reps) [ $# -ge 2 ] || die "--reps needs a number"; reps=$2; shift
            case $reps in ''|*[!0-9]*|0) die "--reps: '$reps' is not a number from 1 up" ;; esac ;;
    *) die "unknown argument '$1' (--help)" ;;
    esac
    shift
done
[ -x "$kit/kit" ] || die "'$kit' holds no ./kit: give the kit's top folder with --kit"
TL_BUILD=${TL_BUILD:-$kit/build}
export TL_BUILD
work=$(mktemp -d "${TMPDIR:-/tmp}/tl-latency.XXXXXX") || die "cannot make a temporary folder"
mkdir "$work/keep"
: >"$work/swapped"
# restore: every swapped student file back from $work/keep (lines 'N<TAB>path' in $work/swapped).
restore() {
    while IFS='	' read -r _n _f; do
        cp "$work/keep/$_n" "$_f" && touch "$_f" || echo "latency: could not restore $_f: its content is in $work/keep/$_n" >&2
    done <"$work/swapped"
}
trap 'restore; rm -rf "$work"' EXIT
trap 'exit 143' INT TERM
failed=0

# swap_in NN: lab NN's student files replaced by the reference solution's (restored on exit).
swap_in() {
    _ld=$(ls -d "$kit/labs/$1-"*/ 2>/dev/null | head -n 1)
    _sd=$(ls -d "$kit/solutions/$1-"*/ 2>/dev/null | head -n 1)
    [ -n "$_ld" ] || die "no labs/$1-*/ in $kit"
    [ -n "$_sd" ] || die "no solutions/$1-*/ in $kit: the checks are measured on the reference solution's files (an instructor's kit; the student edition has none)"
    _any=
    for _s in "$_sd"*; do
        _b=$(basename "$_s")
        [ "$_b" != meson.build ] && [ -f "$_s" ] && [ -f "$_ld$_b" ] || continue
        _n=$(wc -l <"$work/swapped" | tr -d ' ')
        cp -p "$_ld$_b" "$work/keep/$_n" || die "cannot keep a copy of $_ld$_b"
        printf '%s\t%s\n' "$_n" "$_ld$_b" >>"$work/swapped"
        cp "$_s" "$_ld$_b" && touch "$_ld$_b" || die "cannot put $_s in place"
        _any="$_any ${_ld#$kit/}$_b"
    done
    [ -n "$_any" ] || die "solutions/$1-*/ holds none of lab $1's student files"
    echo "latency: measured with the reference solution's files in place:$_any (from ${_sd#$kit/}; restored at the end)"
}

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else printf "%.1f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# run_kit LOG ARGS...: ./kit ARGS in the kit, output to LOG; sets rc and wall (seconds).
run_kit() {
    _log=$1; shift
    _t0=$(now)
    (cd "$kit" && ./kit "$@") >"$_log" 2>&1 </dev/null
    rc=$?
    wall=$(secs "$_t0" "$(now)")
}

# wanted LABEL: 0 when the figure is asked for.
wanted() { [ -z "$only" ] || case ",$only," in *",$1,"*) return 0 ;; *) return 1 ;; esac; }

# measure LABEL TARGET ARGS...: one unmeasured run, then REPS warm ones; prints the figure.
measure() {
    _label=$1 _target=$2; shift 2
    wanted "$_label" || return 0
    run_kit "$work/$_label.first.log" "$@"
    _first=$wall _rc1=$rc
    : >"$work/$_label.walls"
    _i=0
    while [ $_i -lt "$reps" ]; do
        run_kit "$work/$_label.log" "$@"
        echo "$wall" >>"$work/$_label.walls"
        _i=$((_i + 1))
    done
    _m=$(median <"$work/$_label.walls")
    echo "latency: $_label = $_m s wall (warm ./kit $*; exit $rc; first run $_first s, exit $_rc1; target $_target)"
    case $rc in
    0) ;;
    *) failed=1; echo "  ./kit $* exited $rc on the reference solution (expected 0), so the figure means nothing; its last lines:"
       tail -n 15 "$work/$_label.log" | sed 's/^/  | /' ;;
    esac
}

echo "latency: kit $kit ($(git -C "$kit" describe --always --dirty 2>/dev/null || echo 'not a git checkout'))"
ccache="not installed"
if command -v ccache >/dev/null 2>&1; then
    if [ "${CCACHE_DISABLE:-}" = 1 ]; then ccache="installed, disabled"; else ccache="in use"; fi
fi
echo "latency: host $(uname -n), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%Y-%m-%dT%H:%MZ), ccache $ccache"

if wanted check01; then swap_in 01; fi
if wanted check03emu || wanted check03gpu; then swap_in 03; fi

measure check01 "<= 3 s" check 01
measure check03emu "<= 10 s" check 03 --emulate

# A GPU: asked of the kit's own device query.
gpu_why=
ninja -C "$TL_BUILD" common/tl-device >/dev/null 2>&1
if [ -x "$TL_BUILD/common/tl-device" ]; then
    info=$("$TL_BUILD/common/tl-device" --brief 2>&1)
    if [ $? != 0 ]; then gpu_why=$(printf '%s\n' "$info" | sed -n 's/^why: //p'); fi
else
    gpu_why="no $TL_BUILD/common/tl-device (CUDA off in this build?)"
fi
if [ -z "$gpu_why" ]; then
    measure check03gpu "<= 5 s" check 03
elif wanted check03gpu; then
    echo "latency: check03gpu = SKIP (no usable CUDA device: ${gpu_why:-unknown})"
fi

# cpu_of LOG ARGS...: sets cpu, the CPU seconds (user + system) of ./kit ARGS and everything it
# started, and rc, its exit code. Counted by a cgroup of its own (cgroup v1 cpuacct, else v2
# cpu.stat) where this user may make one, since sandboxed processes are not all reaped by their
# parents; else by the shell's `times` (children reaped only), and cpu_how says which.
cg_new() {
    for _base in /sys/fs/cgroup/cpuacct /sys/fs/cgroup/unified /sys/fs/cgroup; do
        [ -w "$_base" ] || continue
        [ -f "$_base/cpuacct.usage" ] || [ -f "$_base/cgroup.controllers" ] || continue
        _cg=$_base/tl-latency.$$.$1
        mkdir "$_cg" 2>/dev/null || continue
        if [ -f "$_cg/cpuacct.usage" ] || [ -f "$_cg/cpu.stat" ]; then echo "$_cg"; return 0; fi
        rmdir "$_cg"
    done
    return 1
}
cg_usage_s() {
    if [ -f "$1/cpuacct.usage" ]; then
        awk '{ printf "%.1f", $1 / 1e9 }' "$1/cpuacct.usage"
    else
        awk '$1 == "usage_usec" { printf "%.1f", $2 / 1e6 }' "$1/cpu.stat"
    fi
}
cpu_of() {
    _log=$1; shift
    if _cg=$(cg_new "$(basename "$_log")"); then
        (cd "$kit" && sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$_cg" ./kit "$@") >"$_log" 2>&1 </dev/null
        rc=$?
        sleep 1   # the sandbox's last processes leave the group
        cpu=$(cg_usage_s "$_cg")
        rmdir "$_cg" 2>/dev/null
        cpu_how="cgroup CPU accounting"
        return
    fi
    # `times` prints the shell's then its children's user and system times, as 1m2.5s
    (cd "$kit" && ./kit "$@" >"$_log" 2>&1 </dev/null; echo "rc $?"; times) >"$_log.times"
    rc=$(sed -n 's/^rc //p' "$_log.times")
    cpu=$(sed -n '3p' "$_log.times" | awk '{
        s = 0
        for (i = 1; i <= 2; ++i) { split($i, p, "m"); sub("s", "", p[2]); s += p[1] * 60 + p[2] }
        printf "%.1f", s }')
    cpu_how="reaped children's CPU (shell times; misses processes not reaped by their parents)"
}

if [ $grade = 1 ] && wanted submission; then
    src=$kit/solutions/01-cpu-baseline/gmm.c
    what="the lab 01 reference solution"
    [ -f "$src" ] || { src=$kit/labs/01-cpu-baseline/gmm.c; what="the lab 01 skeleton"; }
    for s in alice bob; do mkdir -p "$work/subs/$s" && cp "$src" "$work/subs/$s/gmm.c"; done
    # the kit built once first, as a grading run expects (not counted; ./kit grade --help no longer
    # builds tl-grade, an older kit's did)
    (cd "$kit" && ./kit grade --help) >/dev/null 2>&1
    ninja -C "$TL_BUILD" grader/tl-grade >/dev/null 2>&1
    cpu_of "$work/grade1.log" grade --lab 01 --public-only --jobs 1 --out "$work/out1" "$work/subs/alice"
    rc1=$rc one=$cpu
    cpu_of "$work/grade2.log" grade --lab 01 --public-only --jobs 1 --out "$work/out2" "$work/subs/alice" "$work/subs/bob"
    rc2=$rc two=$cpu
    if [ "$rc1" = 0 ] && [ "$rc2" = 0 ]; then
        per=$(awk -v a="$one" -v b="$two" 'BEGIN { printf "%.1f", b - a }')
        echo "latency: submission = $per s CPU (one more lab 01 submission, $what, build + public cases: 2-student grade $two s - 1-student grade $one s, by $cpu_how; target <= 5 s of build)"
    else
        failed=1
        echo "latency: submission = FAILED (./kit grade exited $rc1 and $rc2; its last lines:)"
        tail -n 15 "$work/grade2.log" | sed 's/^/  | /'
    fi
fi
exit $failed
