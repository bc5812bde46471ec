#!/usr/bin/env python3
"""acct-report.py FILE PID [N]: the CPU (user + system seconds) of PID's process tree in a process
accounting FILE (acct v3, read with dump-acct), by test and by program name (tests/bench/acct-of.sh).

A test is a process that `meson test` (a process named meson) started; what ran outside any test
(the configure, the build) is '(outside tests)'. Each record's parent is the first record after it
with the parent's pid: a parent exits after its children, and while it lives its pid is not reused.
The kernel samples the CPU at clock ticks: the figures run below a cgroup's (cpu-of.sh), which also
counts time a virtual machine's CPU was taken by its host; compare like with like.
"""
import bisect
import collections
import subprocess
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit('usage: acct-report.py FILE PID [N: programs shown per test, default 8]')
    path, root, shown = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 8
    out = subprocess.run(['dump-acct', path], capture_output=True, text=True, errors='replace', check=True).stdout
    recs = []
    for line in out.splitlines():
        f = [x.strip() for x in line.split('|')]
        if len(f) < 11 or f[1] != 'v3':
            continue
        recs.append((f[0], (float(f[2]) + float(f[3])) / 100.0, int(f[9]), int(f[10])))
    by_pid = collections.defaultdict(list)
    for i, r in enumerate(recs):
        by_pid[r[2]].append(i)
    parent = []
    for i, r in enumerate(recs):
        later = by_pid.get(r[3], [])
        j = bisect.bisect_right(later, i)
        parent.append(later[j] if j < len(later) else None)
    test_of = {}

    def place(i):
        """(in the tree, the test's record index or None) for record i."""
        path, j, found = [], i, (False, None)
        while j is not None:
            if j in test_of:
                found = test_of[j]
                break
            path.append(j)
            if recs[j][2] == root:
                found = (True, None)
                break
            j = parent[j]
        inside, test = found
        for k in reversed(path):      # from the top down: a child of meson starts a test
            p = parent[k]
            if inside and test is None and p is not None and recs[p][0] == 'meson' and recs[k][2] != root:
                test = k
            test_of[k] = (inside, test)
        return test_of[i]

    per_test = collections.defaultdict(lambda: collections.defaultdict(float))
    for i, r in enumerate(recs):
        inside, test = place(i)
        if inside:
            key = '(outside tests)' if test is None else '%s[%d]' % (recs[test][0], recs[test][2])
            per_test[key][r[0]] += r[1]
    total = sum(sum(d.values()) for d in per_test.values())
    print('acct-report: %.1f CPU-s in the tree of pid %d (%s)' % (total, root, path))
    for key, progs in sorted(per_test.items(), key=lambda kv: -sum(kv[1].values())):
        top = sorted(progs.items(), key=lambda kv: -kv[1])[:shown]
        print('%8.1f %s: %s' % (sum(progs.values()), key, ', '.join('%s %.1f' % p for p in top)))


if __name__ == '__main__':
    main()
