#!/usr/bin/env python3
"""phase-of.py: what a class run's timed phase was made of, from class-on-device.sh's progress.txt
(the grader's progress.json every 2 s) and the windows' alone time summed from the results.

Usage: phase-of.py PROGRESS_TXT ALONE_TOTAL_S NDEV

The phase here is from the last snapshot where a worker was still at untimed work (a build, a
correctness, sanitizer or work-count test) to the first where every submission was graded (or the
last snapshot). Each device runs its windows one after the other, so the phase cannot be shorter
than the windows' alone time over the devices; the rest is what the windows waited for: the speed
tests' programs starting (and their warm-ups) and ending, which no window overlaps (class-results,
session 20). Snapshots are 2 s apart: so are these figures."""
import json
import re
import sys

UNTIMED = ("build", "public", "hidden", "racecheck", "memcheck", "work count", "intake")


def snapshots(path):
    try:
        text = open(path, errors="replace").read()
    except OSError as e:
        sys.stderr.write("phase-of.py: cannot read %s (%s): give the progress.txt of a class-on-device.sh run\n"
                         % (path, e.strerror))
        sys.exit(2)
    parts = re.split(r"^(\d\d:\d\d:\d\d)\n", text, flags=re.M)
    for i in range(1, len(parts) - 1, 2):
        try:
            yield json.loads(parts[i + 1])
        except ValueError:
            continue


def main():
    if len(sys.argv) != 4:
        sys.stderr.write("usage: phase-of.py PROGRESS_TXT ALONE_TOTAL_S NDEV\n")
        return 2
    alone, ndev = float(sys.argv[2]), max(1, int(sys.argv[3]))
    last_untimed, end, total, graded = None, None, None, 0
    for d in snapshots(sys.argv[1]):
        el = d.get("elapsed_s") or 0
        total = d.get("total", total)
        graded = d.get("graded", graded)
        if any(w.get("stage", "").startswith(UNTIMED) for w in d.get("workers") or []):
            last_untimed, end = el, None
        elif last_untimed is not None and end is None and total and graded >= total:
            end = el
        last = el
    if last_untimed is None:
        print("timed phase: not found in the progress snapshots (no untimed work seen)")
        return 0
    if end is None:
        end = last
    span = end - last_untimed
    per_dev = alone / ndev
    print("timed phase (progress snapshots, 2 s apart): from the untimed work's end at %.0f s of grading to %.0f s: "
          "%.0f s; the windows alone %.1f s%s; the rest, %.0f s, what the windows waited for (the speed tests' "
          "programs starting, warming up and ending; profiles on demand)" % (last_untimed, end, span, per_dev,
                                       " a device (%.1f s over %d)" % (alone, ndev) if ndev > 1 else "",
                                       max(0.0, span - per_dev)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
