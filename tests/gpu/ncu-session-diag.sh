#!/usr/bin/env bash
# ncu-session-diag.sh: what one profiled session of the grader costs, part by part (issue 29,
# session 11). A diagnostic, not a test of a verdict: every part prints its figures and goes on.
#
# Run:  from the repository root on the GPU machine (nvcc, ncu, meson, ninja, python3):
#           bash tests/gpu/ncu-session-diag.sh      ($OUT, else ./gpu-out/, gets ncu-session.txt)
# The grader (device request gpu-1, H100 x2) profiles a lab 03 submission in one session of its
# program under one ncu: two untimed requests (tiled16, then tiled32) at the speed size 2048, each
# begun by the kit's request marker kernel (common/marker.cu). The reference's session took 4.2 s
# with the device alone, 3.3 s of it to the first answer; a submission's about 5 s in the class.
# This runs lab03-ref --serve as the grader does (tests/gpu/serve-client.py: fds 3 and 4, the same
# requests; outside the sandbox), with ncu's options as the grader's (counters.c), each row 3 times:
#   alone          the program, 2 requests, no ncu
#   ncu-2          under ncu, 2 requests (the grader's session)
#   ncu-2-nomark   the same, the marker not profiled (--kernel-name regex:MatrixMul): what the
#                  marker's rows cost (the split needs them; this says their price)
#   ncu-1          under ncu, 1 request (tiled32): a session per variant, as before session 11
#   ncu-1-nomark   the same without the marker profiled: the session 10 figure's like
#   ncu-2-512      under ncu, 2 requests at 512: what the size costs
# and says whether the session's table holds the markers numbered 1 and 2 (Grid Size (1, 1, 1),
# (2, 1, 1)) around the two kernels, as tg_ncu_split needs.
set -u
OUT="${OUT:-./gpu-out}"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
B=${TL_BUILD:-build-gpu}
D=$OUT/ncu-session.txt
: > "$D"
say() { printf '%s\n' "$*" | tee -a "$D"; }
now() { date +%s.%N; }
since() { awk -v s="$1" -v e="$(now)" 'BEGIN {printf "%.2f", e - s}'; }
[ -f tests/gpu/device-env.sh ] && . tests/gpu/device-env.sh > /dev/null 2>&1
export PATH="/usr/local/cuda/bin:$PATH"
say "== ncu-session-diag, $(date -u +%FT%TZ), commit $(git rev-parse --short HEAD 2>/dev/null)"
say "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1) x $(nvidia-smi -L 2>/dev/null | wc -l); cores $(nproc)"
t0=$(now)
if [ ! -f "$B/build.ninja" ]; then
    meson setup "$B" -Dtests=false -Dgpu_archs=90 -Dgpu_programs=enabled -Dbuildtype=debugoptimized > /tmp/ncus-build.log 2>&1 ||
        { say "meson setup failed"; tail -20 /tmp/ncus-build.log | tee -a "$D"; exit 2; }
fi
ninja -C "$B" solutions/03-tiled-kernel/lab03-ref >> /tmp/ncus-build.log 2>&1 ||
    { say "build failed"; tail -20 /tmp/ncus-build.log | tee -a "$D"; exit 2; }
say "built in $(since "$t0") s"
NCU=${NCU_BIN:-$(ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/nsight-compute*/ncu 2>/dev/null | tail -1)}
NCU=$(readlink -f "$NCU")
R=$(readlink -f "$B/solutions/03-tiled-kernel/lab03-ref")
[ -x "$NCU" ] && [ -x "$R" ] || { say "no ncu ($NCU) or no $R"; exit 2; }
say "ncu: $NCU ($("$NCU" --version 2>&1 | tail -1))"
M=$(python3 - grader/ncu.c <<'PY'
import re, sys
print(",".join(re.findall(r'\{"([a-z0-9_]+__[a-z0-9_.]+)", [0-9]+\}', open(sys.argv[1]).read())))
PY
)
W=$(mktemp -d /tmp/tl-ncus.XXXXXX)
trap 'rm -rf "$W"' EXIT
C="python3 tests/gpu/serve-client.py"
BASE=(--csv --page raw --clock-control none --metrics "$M" --target-processes application-only)
# one row: TAG SIZE VARIANTS [ncu options...]: 3 runs, "whole s (first request s, second s)" each
row() {
    local tag=$1 size=$2 vars=$3; shift 3
    local res="" line
    for _ in 1 2 3; do
        rm -f "$W/$tag.csv"
        if [ "$tag" = alone ]; then
            line=$(TMPDIR=$W timeout 120 $C --size "$size" --variants "$vars" -- "$R" --serve 2>&1 | tail -1)
        else
            line=$(TMPDIR=$W timeout 120 $C --size "$size" --variants "$vars" -- "$NCU" "${BASE[@]}" "$@" \
                   --log-file "$W/$tag.csv" "$R" --serve 2>&1 | tail -1)
        fi
        res="$res [$(printf '%s' "$line" | cut -c1-160)]"
    done
    say "  $tag:$res"
}
say "each row: 3 sessions of lab03-ref --serve, [whole; each request's answer; ncu's end after quit]"
row alone 2048,2048,2048 tiled16,tiled32
row ncu-2 2048,2048,2048 tiled16,tiled32
row ncu-2-nomark 2048,2048,2048 tiled16,tiled32 --kernel-name regex:MatrixMul
row ncu-1 2048,2048,2048 tiled32
row ncu-1-nomark 2048,2048,2048 tiled32 --kernel-name regex:MatrixMul
row ncu-2-512 512,512,512 tiled16,tiled32
# the grader's session's table: the rows in order, as tg_ncu_split reads them
python3 - "$W/ncu-2.csv" <<'PY' | tee -a "$D"
import csv, sys
try:
    lines = [l for l in open(sys.argv[1], errors="replace") if l.startswith('"')]
except OSError as e:
    print("the session's table: not written (%s)" % e); sys.exit(0)
rows = list(csv.reader(lines))
if not rows or "Kernel Name" not in rows[0]:
    print("the session's table: no header"); sys.exit(0)
h = rows[0]; k = h.index("Kernel Name"); g = h.index("Grid Size") if "Grid Size" in h else None
t = h.index("gpu__time_duration.sum") if "gpu__time_duration.sum" in h else None
print("the session's table (ncu-2, last run): " + "; ".join(
    "%s grid %s time %s" % (r[k], r[g] if g is not None else "?", r[t] if t is not None else "?") for r in rows[2:]))
PY
say "done in $(since "$t0") s"
