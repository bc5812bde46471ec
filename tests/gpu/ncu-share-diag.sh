#!/usr/bin/env bash
# ncu-share-diag.sh: what a lab 03 class run on one GPU can share (issue 29, session 10's levers),
# measured outside the grader with the kit's own programs and the grader's sandbox. A diagnostic,
# not a test of a verdict: every part prints its figures and goes on.
#
# Run:  from the repository root on the GPU machine (nvcc, ncu, compute-sanitizer, meson, ninja,
#       python3, bubblewrap):  bash tests/gpu/ncu-share-diag.sh
#       $OUT (else ./gpu-out/) gets diag.txt (every figure) and diag.tgz (the logs and ncu's CSVs).
# Parts (R = the reference solution's program, lab03-ref; ncu with the grader's options and metrics,
# grader/ncu.c's list):
#   1. ncu's lock: the files ncu makes in TMPDIR and the locks /proc/locks shows on them while it
#      profiles (kind FLOCK or POSIX, who holds them: ncu's front end or the program), sampled every
#      20 ms; whether ncu waits for a lock held by another process on TMPDIR/nsight-compute-lock
#      (flock(2), then fcntl/lockf).
#   2. ncu processes at once: 1 alone; 4 with one TMPDIR; 4 with a TMPDIR each; 8 with one TMPDIR:
#      each one's wall time, the batch's, ncu's errors, the rows each wrote.
#   3. The same in the grader's sandbox (grader/tl-sandbox-exec, as a profiled case runs: uid 65534,
#      a private /tmp): 4 at once with one lock file bound at /tmp/nsight-compute-lock in each,
#      and 4 at once without (each its own /tmp, as the grader runs ncu now). "counts" is a digest of
#      every counter but the time of the student's kernel rows: equal digests, equal counts.
#   4. Counters with other processes' kernels on the GPU: R tiled32 at 2048 (the speed size) under
#      ncu 3 times alone, then 3 times while 12 other processes run lab 03 kernels (tiled16/32 at
#      4096) and 2 run compute-sanitizer racecheck: every metric compared (FMA, loads, stores, bytes),
#      and gpu__time_duration alone against loaded.
#   5. The reference's timed median: R tiled32 at 2048 timed in 6 fresh processes, the GPU alone:
#      the spread (may one timing of the reference serve many submissions?).
#   7. (PARTS=7, alone) 4 ncu at once, a TMPDIR each, with only the SASS-patched metrics, then only
#      the kernel time: whether ncu's one-at-a-time rule binds those too.
#   6. CPU of a correctness session: R tiled16 at the public sizes (16 ... 4096), no timing: CPU
#      (user + sys) and wall, alone and beside the 12 loaders, with the CUDA runtime's default
#      (spin) wait and with TL_CUDA_SYNC=blocking (common/device.cu: cudaDeviceScheduleBlockingSync);
#      and one CUDA context alone (size 16).
set -u
OUT="${OUT:-./gpu-out}"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
B=${TL_BUILD:-build-gpu}
D=$OUT/diag.txt
L=$OUT/logs
mkdir -p "$L"
: > "$D"
say() { printf '%s\n' "$*" | tee -a "$D"; }
now() { date +%s.%N; }
since() { awk -v s="$1" -v e="$(now)" 'BEGIN {printf "%.2f", e - s}'; }
[ -f tests/gpu/device-env.sh ] && . tests/gpu/device-env.sh > "$L/env.log" 2>&1
export PATH="/usr/local/cuda/bin:$PATH"
pack() { tar czf "$OUT/diag.tgz" -C "$OUT" logs 2>/dev/null && rm -rf "$L"; }
trap pack EXIT
say "== ncu-share-diag, $(date -u +%FT%TZ), commit $(git rev-parse --short HEAD 2>/dev/null)"
say "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1); cores $(nproc); load $(cut -d' ' -f1-3 /proc/loadavg)"

t0=$(now)
if [ ! -f "$B/build.ninja" ]; then
    meson setup "$B" -Dtests=false -Dgpu_archs=90 -Dgpu_programs=enabled -Dbuildtype=debugoptimized > "$L/build.log" 2>&1 ||
        { say "meson setup failed"; tail -20 "$L/build.log" | tee -a "$D"; exit 2; }
fi
ninja -C "$B" -j 16 grader/tl-grade grader/tl-sandbox-exec solutions/03-tiled-kernel/lab03-ref >> "$L/build.log" 2>&1 ||
    { say "build failed"; tail -20 "$L/build.log" | tee -a "$D"; exit 2; }
say "built in $(since "$t0") s"
NCU=${NCU_BIN:-$(ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/nsight-compute*/ncu 2>/dev/null | tail -1)}
NCU=$(readlink -f "$NCU")
NCUDIR=$(dirname "$NCU")
R=$(readlink -f "$B/solutions/03-tiled-kernel/lab03-ref")
[ -x "$NCU" ] && [ -x "$R" ] || { say "no ncu ($NCU) or no $R"; exit 2; }
say "ncu: $NCU ($("$NCU" --version 2>&1 | tail -1))"
M=$(python3 - grader/ncu.c <<'PY'
import re, sys
print(",".join(re.findall(r'\{"([a-z0-9_]+__[a-z0-9_.]+)", [0-9]+\}', open(sys.argv[1]).read())))
PY
)
say "metrics (grader/ncu.c): $M"
W=$(mktemp -d /tmp/tl-ncudiag.XXXXXX)
chmod 755 "$W"
NCUARGS=(--csv --page raw --clock-control none --metrics "$M")
P16="--variants tiled16 --sizes 2048 --no-time --quiet"
P32="--variants tiled32 --sizes 2048 --no-time --quiet"

# rows of a CSV of ncu's (the student's kernels: MatrixMul*), "n/a" none
rows() { grep -c '^"[0-9]' "$1" 2>/dev/null || echo 0; }
# the counts of a CSV's student kernel rows, every metric but the time, as one short digest ("-" none)
digest() {
    python3 - "$1" <<'PY'
import csv, hashlib, sys
try:
    rows = [r for r in csv.reader(l for l in open(sys.argv[1], errors="replace") if l.startswith('"'))]
except OSError:
    rows = []
if len(rows) < 3:
    print("-"); sys.exit()
h = rows[0]; k = h.index("Kernel Name")
keep = [i for i, c in enumerate(h) if "__" in c and c != "gpu__time_duration.sum"]
vals = [r[k] + "|" + "|".join(r[i] for i in keep) for r in rows[2:] if r[k].startswith("MatrixMul")]
print(hashlib.sha1("\n".join(vals).encode()).hexdigest()[:8] if vals else "-")
PY
}
errs() { grep -h '==ERROR==' "$@" 2>/dev/null | sort | uniq -c | head -3 | tr -s ' ' | tr '\n' ';'; }

# ------------------------------------------------------------------ 7 (PARTS=7: this part alone). may ncu run at once with fewer metrics?
# 4 ncu at once, each with its own TMPDIR (no serialization between them), with only the metrics ncu
# counts by patching the kernel's code (smsp__sass_*), then with only the kernel time: do they fail
# ("a driver resource was unavailable") as the grader's whole set did in part 2, and do the counts
# equal one run's alone?
if [ "${PARTS:-all}" = 7 ]; then
    MS=$(printf '%s' "$M" | tr ',' '\n' | grep '^smsp__sass_' | paste -sd, -)
    for set in sass time; do
        case $set in sass) MM=$MS ;; time) MM=gpu__time_duration.sum ;; esac
        rm -rf "$W/b7"; mkdir -p "$W/b7"
        s=$(now)
        TMPDIR=$W/b7 "$NCU" --csv --page raw --clock-control none --metrics "$MM" --log-file "$W/b7/alone.csv" "$R" $P16 > "$W/b7/alone.log" 2>&1
        say "part 7, $set metrics only, one alone: exit $? in $(since "$s") s, $(rows "$W/b7/alone.csv") rows, counts $(digest "$W/b7/alone.csv")"
        pids=()
        s=$(now)
        for i in 0 1 2 3; do
            mkdir -p "$W/b7/t$i"
            ( s0=$(now); TMPDIR=$W/b7/t$i "$NCU" --csv --page raw --clock-control none --metrics "$MM" --log-file "$W/b7/$i.csv" "$R" $P16 \
                  > "$W/b7/$i.log" 2>&1; echo "$? $(since "$s0")" > "$W/b7/$i.rc" ) &
            pids+=($!)
        done
        wait "${pids[@]}"
        each=""
        for i in 0 1 2 3; do each="$each $(cut -d' ' -f2 "$W/b7/$i.rc")(rc $(cut -d' ' -f1 "$W/b7/$i.rc"), $(rows "$W/b7/$i.csv") rows, counts $(digest "$W/b7/$i.csv"))"; done
        say "part 7, $set metrics only, 4 at once with a TMPDIR each: $(since "$s") s; each:$each; errors: $(errs "$W"/b7/?.log "$W"/b7/?.csv)"
        if [ "$set" = time ]; then
            say "   kernel times (ns): $(for f in "$W"/b7/alone.csv "$W"/b7/?.csv; do python3 - "$f" <<'PY'
import csv, sys
try:
    rows = [r for r in csv.reader(l for l in open(sys.argv[1], errors="replace") if l.startswith('"'))]
    h = rows[0]; k = h.index("Kernel Name"); t = h.index("gpu__time_duration.sum")
    print(" ".join(r[t] for r in rows[2:] if r[k].startswith("MatrixMul")) or "-", end="; ")
except Exception:
    print("-", end="; ")
PY
done)"
        fi
    done
    rm -rf "$W"
    exit 0
fi

# ------------------------------------------------------------------ 1. ncu's lock
say ""
say "== 1. ncu's lock file"
T=$W/t1; mkdir -p "$T"
ls -la /tmp/nsight-compute-lock* > "$L/1-tmp-before.txt" 2>&1
( TMPDIR=$T "$NCU" "${NCUARGS[@]}" --log-file "$W/1.csv" "$R" $P16 > "$L/1-ncu.log" 2>&1; echo $? > "$W/1.rc" ) &
job=$!
s=$(now)
: > "$W/1-samples"
while kill -0 $job 2>/dev/null; do
    ts=$(since "$s")
    for f in "$T"/* "$T"/.*; do
        [ -e "$f" ] || continue
        case $f in */.|*/..) continue ;; esac
        ino=$(stat -c %i "$f" 2>/dev/null)
        printf '%s file %s ino %s\n' "$ts" "${f#"$T"/}" "$ino" >> "$W/1-samples"
        awk -v ino="$ino" -v ts="$ts" '{split($6, a, ":"); if (a[3] == ino) print ts, "lock", $2, $3, $4, $5}' /proc/locks >> "$W/1-samples"
    done
    sleep 0.02
done
wait $job
cp "$W/1-samples" "$L/1-samples.txt"
say "ncu with TMPDIR=$T: exit $(cat "$W/1.rc") in $(since "$s") s, $(rows "$W/1.csv") kernel rows"
say "files ncu left in TMPDIR: $(ls -la "$T" | tail -n +4 | awk '{print $1, $5, $NF}' | tr '\n' ';')"
say "seen while it ran (first and last time, s; kind, mode, pid -> program):"
awk '{k = $2 == "file" ? "file " $3 : "lock " $3 " " $4 " " $5 " pid " $6; if (!(k in f)) {f[k] = $1; o[++n] = k} l[k] = $1}
     END {for (i = 1; i <= n; ++i) print "   " o[i] ": " f[o[i]] " - " l[o[i]]}' "$W/1-samples" > "$W/1-sum"
while read -r line; do
    pid=$(printf '%s\n' "$line" | sed -n 's/.* pid \([0-9]*\):.*/\1/p')
    if [ -n "$pid" ]; then say "$line ($(cat /proc/$pid/comm 2>/dev/null || echo 'ended'))"; else say "$line"; fi
done < "$W/1-sum"
say "/tmp/nsight-compute-lock* before any ncu here: $(tr '\n' ' ' < "$L/1-tmp-before.txt")"

# does ncu wait for a lock another process holds on TMPDIR/nsight-compute-lock? (held 4 s from t=0)
holdtest() {   # KIND (flock|lockf)
    local T2=$W/t1-$1; mkdir -p "$T2"
    python3 - "$T2/nsight-compute-lock" "$1" <<'PY' &
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o666)
(fcntl.flock if sys.argv[2] == "flock" else fcntl.lockf)(fd, fcntl.LOCK_EX)
time.sleep(4)
PY
    local hp=$!
    sleep 0.3
    local s1; s1=$(now)
    TMPDIR=$T2 "$NCU" "${NCUARGS[@]}" --log-file "$W/1-$1.csv" "$R" $P16 > "$L/1-hold-$1.log" 2>&1
    local rc=$?
    say "ncu while another process holds TMPDIR/nsight-compute-lock by $1 for 4 s: exit $rc in $(since "$s1") s ($(rows "$W/1-$1.csv") rows; alone it took about the time above: longer than 3.7 s means it waited for that lock)"
    wait $hp
}
holdtest flock
holdtest lockf

# ------------------------------------------------------------------ 2. ncu processes at once
say ""
say "== 2. ncu processes at once (R tiled16 at 2048, the grader's metrics), on the host"
batch() {   # LABEL N SHARED(1: one TMPDIR)
    local label=$1 n=$2 shared=$3 s pids=() i
    rm -rf "$W/b"; mkdir -p "$W/b"
    s=$(now)
    for ((i = 0; i < n; ++i)); do
        local td=$W/b/tmp; [ "$shared" = 1 ] || td=$W/b/tmp$i
        mkdir -p "$td"
        ( s0=$(now); TMPDIR=$td "$NCU" "${NCUARGS[@]}" --log-file "$W/b/$i.csv" "$R" $P16 > "$W/b/$i.log" 2>&1
          echo "$? $(since "$s0")" > "$W/b/$i.rc" ) &
        pids+=($!)
    done
    wait "${pids[@]}"
    local total; total=$(since "$s")
    local each=""
    for ((i = 0; i < n; ++i)); do each="$each $(cut -d' ' -f2 "$W/b/$i.rc")(rc $(cut -d' ' -f1 "$W/b/$i.rc"), $(rows "$W/b/$i.csv") rows, counts $(digest "$W/b/$i.csv"))"; done
    say "$label: $n at once in $total s; each:$each; errors: $(errs "$W"/b/*.log "$W"/b/*.csv)"
    cat "$W"/b/*.log > "$L/2-$label.log" 2>/dev/null
}
batch one 1 1
batch four-one-lock 4 1
batch four-own-locks 4 0
batch eight-one-lock 8 1

# ------------------------------------------------------------------ 3. in the grader's sandbox
say ""
say "== 3. ncu in the grader's sandbox (tl-sandbox-exec, uid 65534, private /tmp), 4 at once"
G=$W/grant; mkdir -p "$G"
printf 'nobody:x:65534:65534:nobody:/tmp/case:/bin/sh\n' > "$G/passwd"; printf 'nogroup:x:65534:\n' > "$G/group"
: > "$G/nsight-compute-lock"
chmod 644 "$G/passwd" "$G/group"; chmod 666 "$G/nsight-compute-lock"
sbatch() {   # LABEL LOCK(1: the shared lock file bound in)
    local label=$1 lock=$2 s pids=() i
    s=$(now)
    for i in 0 1 2 3; do
        mkdir -p "$G/out$i"; rm -f "$G/out$i/ncu.csv"
        local lb=(); [ "$lock" = 1 ] && lb=(--rw "$G/nsight-compute-lock:/tmp/nsight-compute-lock")
        ( s0=$(now); "$B/grader/tl-sandbox-exec" --gpu --no-seccomp --tasks 512 --grant "$G" --rw "$G/out$i:/tmp/tl-prof" \
              "${lb[@]}" --ro "$B:/build" --ro "$G/passwd:/etc/passwd" --ro "$G/group:/etc/group" --ro "$NCUDIR" --limit 120 -- \
              "$NCU" "${NCUARGS[@]}" --log-file /tmp/tl-prof/ncu.csv /build/solutions/03-tiled-kernel/lab03-ref $P16 \
              > "$W/s$i.log" 2>&1
          echo "$? $(since "$s0")" > "$W/s$i.rc" ) &
        pids+=($!)
    done
    wait "${pids[@]}"
    local total; total=$(since "$s") each=""
    for i in 0 1 2 3; do each="$each $(cut -d' ' -f2 "$W/s$i.rc")(rc $(cut -d' ' -f1 "$W/s$i.rc"), $(rows "$G/out$i/ncu.csv") rows, counts $(digest "$G/out$i/ncu.csv"))"; done
    say "$label: 4 at once in $total s; each:$each; errors: $(errs "$W"/s?.log "$G"/out?/ncu.csv)"
    for i in 0 1 2 3; do { echo "--- $label $i"; cat "$W/s$i.log"; grep -v '^"' "$G/out$i/ncu.csv" 2>/dev/null; } >> "$L/3-sandbox.log"; done
}
sbatch sandbox-one-lock-file 1
sbatch sandbox-own-tmp 0
say "the shared lock file after: $(ls -la "$G/nsight-compute-lock" | awk '{print $1, $3, $5}')"

# ------------------------------------------------------------------ 4. counters with other kernels on the GPU
say ""
say "== 4. counters of R tiled32 at 2048 alone and beside 12 lab 03 programs + 2 racecheck runs"
T4=$W/t4; mkdir -p "$T4"
for i in 1 2 3; do TMPDIR=$T4 "$NCU" "${NCUARGS[@]}" --log-file "$W/4-alone$i.csv" "$R" $P32 > "$L/4-alone$i.log" 2>&1; done
: > "$W/stop"
loaders=()
for i in $(seq 1 12); do
    ( while [ -f "$W/stop" ]; do "$R" --variants tiled16,tiled32 --sizes 4096 --no-time --quiet > /dev/null 2>&1; done ) &
    loaders+=($!)
done
for i in 1 2; do
    ( while [ -f "$W/stop" ]; do compute-sanitizer --tool racecheck "$R" --variants tiled16 --sizes 64 --no-time --quiet > /dev/null 2>&1; done ) &
    loaders+=($!)
done
sleep 3
nvidia-smi --query-gpu=utilization.gpu,memory.used --format=csv,noheader > "$W/4-util" 2>&1
for i in 1 2 3; do TMPDIR=$T4 "$NCU" "${NCUARGS[@]}" --log-file "$W/4-load$i.csv" "$R" $P32 > "$L/4-load$i.log" 2>&1; done
say "GPU beside them (nvidia-smi once): $(cat "$W/4-util")"

# ------------------------------------------------------------------ 6 (loaded half). CPU of a correctness session
PUB="--variants tiled16 --sizes 16,32,48,64,256,512,1024,2048,4096 --no-time --quiet"
# (bash's times builtin: the children's CPU so far; the difference around one command)
cpu_run() {   # LABEL VAR=VALUE (or -)
    local label=$1 envset=$2 s
    times > "$W/times0"
    s=$(now)
    if [ "$envset" = - ]; then "$R" $PUB > /dev/null 2>&1; else env "$envset" "$R" $PUB > /dev/null 2>&1; fi
    local w; w=$(since "$s")
    times > "$W/times1"
    say "$label: wall $w s, CPU $(python3 - "$(tail -1 "$W/times0")" "$(tail -1 "$W/times1")" <<'PY'
import sys, re
def secs(line):
    v = [float(m) * 60 + float(s) for m, s in re.findall(r"([0-9]+)m([0-9.]+)s", line)]
    return v[0] + v[1]
print("%.2f s (user + sys)" % (secs(sys.argv[2]) - secs(sys.argv[1])))
PY
)"
}
say ""
say "== 6. CPU of a correctness session (R tiled16, sizes 16 ... 4096, no timing)"
cpu_run "beside the loaders, CUDA's default wait" -
cpu_run "beside the loaders, TL_CUDA_SYNC=blocking" TL_CUDA_SYNC=blocking
rm -f "$W/stop"
wait "${loaders[@]}" 2>/dev/null
sleep 1
cpu_run "alone, CUDA's default wait" -
cpu_run "alone, TL_CUDA_SYNC=blocking" TL_CUDA_SYNC=blocking
PUB="--variants tiled16 --sizes 16 --no-time --quiet"
cpu_run "alone, one CUDA context and size 16" -
PUB="--variants tiled16 --sizes 4096 --no-time --quiet"
cpu_run "alone, size 4096 only" -

say ""
say "== 4 (results). every metric, alone (3 runs) and loaded (3 runs); values per run"
python3 - "$W" "$M" <<'PY' | tee -a "$D"
import csv, sys
w, metrics = sys.argv[1], sys.argv[2].split(",")
def read(path):
    try:
        rows = [r for r in csv.reader(l for l in open(path, errors="replace") if l.startswith('"'))]
    except OSError:
        return None
    if len(rows) < 3:
        return None
    h = rows[0]
    k = h.index("Kernel Name")
    out = {}
    for r in rows[2:]:
        if not r[k].startswith("MatrixMul"):
            continue
        for m in metrics:
            if m in h:
                out[m] = r[h.index(m)]
        out["kernel"] = r[k]
    return out
alone = [read("%s/4-alone%d.csv" % (w, i)) for i in (1, 2, 3)]
load = [read("%s/4-load%d.csv" % (w, i)) for i in (1, 2, 3)]
if not all(alone) or not all(load):
    print("missing rows: alone %s loaded %s" % ([bool(a) for a in alone], [bool(a) for a in load]))
same = True
for m in metrics:
    a = [x.get(m, "-") if x else "-" for x in alone]
    l = [x.get(m, "-") if x else "-" for x in load]
    eq = len(set(a + l)) == 1
    if m != "gpu__time_duration.sum":
        same &= eq
    print("  %-52s alone %-40s loaded %-40s %s" % (m, " ".join(a), " ".join(l), "same" if eq else "DIFFERENT"))
def f(v):
    try:
        return float(v.replace(",", ""))
    except Exception:
        return float("nan")
ta = [f(x["gpu__time_duration.sum"]) for x in alone if x]
tl = [f(x["gpu__time_duration.sum"]) for x in load if x]
if ta and tl:
    print("gpu__time_duration: alone %s, loaded %s: loaded/alone (medians) %.3f" % (ta, tl, sorted(tl)[len(tl) // 2] / sorted(ta)[len(ta) // 2]))
print("counts (every metric but the time) alone and loaded: %s" % ("IDENTICAL" if same else "NOT identical"))
PY
cp "$W"/4-*.csv "$L/" 2>/dev/null

# ------------------------------------------------------------------ 5. the reference's timed median
say ""
say "== 5. R tiled32 at 2048 timed, 6 fresh processes, the GPU alone"
for i in 1 2 3 4 5 6; do "$R" --variants tiled32 --sizes 2048 --quiet --records "$W/5-$i.csv" > "$L/5-$i.log" 2>&1; done
python3 - "$W" <<'PY' | tee -a "$D"
import csv, sys
med = []
for i in range(1, 7):
    try:
        lines = [l for l in open("%s/5-%d.csv" % (sys.argv[1], i)) if not l.startswith("#")]
        for r in csv.DictReader(lines):
            if r.get("variant") == "tiled32" and r.get("median_ms"):
                med.append(float(r["median_ms"]))
    except OSError:
        pass
if med:
    print("medians (ms): %s; spread max/min - 1 = %.3f%%" % (" ".join("%.4f" % m for m in med), 100 * (max(med) / min(med) - 1)))
else:
    print("no medians read (see logs/5-*.log)")
PY
cp "$W"/5-1.csv "$L/" 2>/dev/null
rm -rf "$W"
say ""
say "done in $(since "$t0") s"
exit 0
