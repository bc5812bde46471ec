#!/usr/bin/env bash
# tests/gpu/window-diag.sh: what a speed test's timed window spends its time on (issue 29).
#
# On one H100 the class's timed phase is its windows: 81 at 0.23-0.24 s alone (class-results 1502Z,
# session 18). By the summaries' averages most of that is the requests' own cost, not the kernels':
# a timed request's 12 more runs of a ~2.3 ms kernel add about 28 ms to an untimed request of about
# 85 ms, whose inputs (32 MB at 2048) cross the pipe again. This measures it on lab03-ref --serve as
# the grader drives it (tests/gpu/serve-client.py: fds 3 and 4, CUDA_DEVICE_MAX_CONNECTIONS=1; outside
# the sandbox), each request split into: sending it (until the inputs' last bytes were in the pipe),
# the program's work to its answer's first line (buffers, copies, the runs, the check), and the
# answer's payload. Rows, at 1024, 2048 (the speed size) and 4096: a session of 4 untimed requests
# of tiled16, then one of 4 timed ones, both again with "same" requests (the inputs sent once,
# CONTRACTS.md section 2); and the pipe alone (the same bytes into `cat > /dev/null`).
# A diagnostic: every row prints its figures and goes on.
# Run:  bash tests/gpu/window-diag.sh    ($OUT, else ./gpu-out: summary.txt). Exit 0; 2 the build
#       failed; 77 no GPU.
set -u
. tests/gpu/out.sh
export PATH="/usr/local/cuda/bin:$PATH"
[ -f tests/gpu/device-env.sh ] && . tests/gpu/device-env.sh
if ! ls /dev/nvidia0 >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
    say "skipped: no NVIDIA GPU here"; exit 77
fi
B=${TL_BUILD:-build-gpu}
say "== window-diag: $(date -u +%FT%TZ); $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1); cores $(nproc)"
if [ ! -f "$B/build.ninja" ]; then
    meson setup "$B" -Dtests=false -Dgpu_archs=90 -Dgpu_programs=enabled -Dyardstick=disabled -Dbuildtype=debugoptimized > "$OUT/build.log" 2>&1 ||
        { say "meson setup failed"; tail -20 "$OUT/build.log" | tee -a "$S"; exit 2; }
fi
ninja -C "$B" solutions/03-tiled-kernel/lab03-ref >> "$OUT/build.log" 2>&1 ||
    { say "build failed"; tail -20 "$OUT/build.log" | tee -a "$S"; exit 2; }
R=$(readlink -f "$B/solutions/03-tiled-kernel/lab03-ref")
export CUDA_DEVICE_MAX_CONNECTIONS=1
C="python3 tests/gpu/serve-client.py"
for w in 1024 2048 4096; do
    say "-- ${w}^3, tiled16, untimed x 4 (one session):"
    timeout 120 $C --size "$w,$w,$w" --variants tiled16 --repeat 4 --split -- "$R" --serve 2>&1 | tee -a "$S"
    say "-- ${w}^3, tiled16, timed x 4 (one session; each: 2 warm-up runs, 10 timed ones):"
    timeout 120 $C --size "$w,$w,$w" --variants tiled16 --repeat 4 --timed --split -- "$R" --serve 2>&1 | tee -a "$S"
    say "-- ${w}^3, tiled16, untimed x 4, then timed x 4, each after the first \"same\" (no inputs sent; as the grader's windows now):"
    timeout 120 $C --size "$w,$w,$w" --variants tiled16 --repeat 4 --same --split -- "$R" --serve 2>&1 | tee -a "$S"
    timeout 120 $C --size "$w,$w,$w" --variants tiled16 --repeat 4 --timed --same --split -- "$R" --serve 2>&1 | tee -a "$S"
    python3 - "$w" <<'PY' | tee -a "$S"
import os, subprocess, sys, time
w = int(sys.argv[1])
data = b"\0" * (2 * 4 * w * w + 64)            # M and N as a request sends them
for rep in range(3):
    p = subprocess.Popen(["cat"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    t = time.time()
    p.stdin.write(data)
    p.stdin.close()
    p.wait()
    print("   pipe alone: %d bytes into cat > /dev/null in %.1f ms" % (len(data), 1000 * (time.time() - t)))
PY
done
say "== done $(date -u +%FT%TZ)"
