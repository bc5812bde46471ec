#!/bin/sh
# cpu-of.sh COMMAND [ARG...]: runs COMMAND and prints, on stderr, one line with its wall time, the CPU
# time (user + system) of it and every process under it, and the load average at start and end:
#   cpu-of: 412.3 s wall, 655.1 s CPU (1.59 cores), load 3.10 -> 5.22: COMMAND...
# The CPU is counted by a cgroup of its own (cgroup v1 cpuacct, else v2 cpu.stat): the grader's
# sandboxed processes live in pid namespaces whose time never reaches their parent's rusage, so
# `time` misses most of a test suite's CPU. On a shared machine the wall time follows the load, the
# CPU time much less: compare CPU figures. Needs root (or a writable cgroup); else it says so and
# reports the shell's `times` (reaped children only). Exit status: COMMAND's.
set -u
[ $# -ge 1 ] || { echo "usage: sh tests/bench/cpu-of.sh COMMAND [ARG...]" >&2; exit 2; }
cg=
for base in /sys/fs/cgroup/cpuacct /sys/fs/cgroup/unified /sys/fs/cgroup; do
    [ -w "$base" ] || continue
    [ -f "$base/cpuacct.usage" ] || [ -f "$base/cgroup.controllers" ] || continue
    cg=$base/tl-cpu-of.$$
    mkdir "$cg" 2>/dev/null || { cg=; continue; }
    if [ -f "$cg/cpuacct.usage" ] || [ -f "$cg/cpu.stat" ]; then break; fi
    rmdir "$cg"; cg=
done
usage_s() {
    if [ -f "$cg/cpuacct.usage" ]; then awk '{ printf "%.1f", $1 / 1e9 }' "$cg/cpuacct.usage"
    else awk '$1 == "usage_usec" { printf "%.1f", $2 / 1e6 }' "$cg/cpu.stat"; fi
}
load() { cut -d' ' -f1 /proc/loadavg; }
l0=$(load)
t0=$(date +%s.%N)
if [ -n "$cg" ]; then
    sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$cg" "$@"
    rc=$?
    sleep 1   # the sandboxes' last processes leave
    cpu=$(usage_s)
    how=cgroup
else
    "$@"
    rc=$?
    cpu=$(times | awk 'NR == 2 { gsub(/[ms]/, " "); print $1 * 60 + $2 + $3 * 60 + $4 }')
    how="times, reaped children only: no writable cgroup"
fi
t1=$(date +%s.%N)
l1=$(load)
awk -v a="$t0" -v b="$t1" -v c="$cpu" -v l0="$l0" -v l1="$l1" -v how="$how" -v cmd="$*" 'BEGIN {
    w = b - a; printf "cpu-of: %.1f s wall, %.1f s CPU (%.2f cores; %s), load %s -> %s: %s\n", w, c, c / w, how, l0, l1, cmd
}' >&2
if [ -n "$cg" ]; then
    # processes still in the group (a daemon a test left): moved out, so the group can go
    while read -r p; do echo "$p" >"$(dirname "$cg")/cgroup.procs" 2>/dev/null; done <"$cg/cgroup.procs"
    rmdir "$cg" 2>/dev/null
fi
exit $rc
