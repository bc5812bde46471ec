#!/usr/bin/env bash
# class-on-device.sh: a class of 100 lab 03 submissions graded on one GPU machine, with every test
# the rubric has there (correctness, compute-sanitizer safety, speed against the reference),
# and the figures issue 15 asks for: wall time, CPU and GPU time per submission, GPU busy fraction.
#
# Run:  from the repository root on the GPU machine (nvcc 13, compute-sanitizer, meson, ninja,
#       nvidia-smi; the grader's libraries libcjson, libarchive, libseccomp):
#           bash tests/gpu/class-on-device.sh [N]          (N submissions, default 100)
#       Everything goes to $OUT when it is set, else ./gpu-out/: summary.txt (the figures),
#       profile.txt, ncu-times.txt, verdicts.txt, ratios.txt, progress.json, and logs.tgz with
#       run.log (the grader's progress lines), util.csv (nvidia-smi samples), progress.txt
#       (DIR/progress.json every 10 s), gradebook.csv, class-summary.md, class.tsv, serial.log.
# The class (names sNNN-KIND): N DISTINCT submissions, no two files byte-equal (issue 29 item 5),
#       made by tests/gpu/class-submissions.sh: the reference solution, the skeleton, every
#       known-wrong lab 03 file of tests/wrong/manifest.tsv, the real-style corpus tests/corpus/03-*,
#       then generated variants of the solution (a comment, blank lines, trailing spaces or tabs:
#       bytes differ, meaning does not). class.tsv in $OUT lists them; the output says how many
#       are distinct (sha256).
#       Also kept: progress.json (the run's profile: wall and CPU seconds per stage, issue 29
#       item 3) and profile.txt (the same as a table).
# Target (issue 29): 100 distinct submissions with correctness, safety and speed in <= 120 s on a
#       16-core H100 machine, <= 70 s on nvidia-h100-x2 (2 GPUs, 32 cores). Commit $OUT's files under
#       tests/gpu/class-results/ with the device and the date.
# The serial comparison (issue 29 item 1): then SERIAL submissions (default 12; env SERIAL, 0: none)
#       that earned a speed ratio - the solution, the corpus's right kernels, variants - are graded
#       again with --jobs 1, and each speed ratio of the class run (graded concurrently) must equal
#       the serial run's within 2% (ratios from each results.json: the medians in ms). ratios.txt.
#       Each grading run is stopped after CLASS_TIMEOUT (default 250 s) or SERIAL_TIMEOUT (150 s).
# Several GPUs: tl-grade spreads the workers over every device it sees (grader/README.md); the
#       output names them, gives each device's utilisation (nvidia-smi), and samples the devices'
#       profiler locks (tilelab-gpu-UID-DEV.ncu in TL_GRADE_LOCK_DIR, set to a folder of this run's:
#       /proc/locks every 0.25 s, ncu-locks.txt in logs.tgz): how often each device profiled, and
#       how often two devices profiled at once (ncu's one-at-a-time rule is per device). It also
#       counts the variants profiled in one session per submission (one ncu for both variants) and
#       those profiled a session each (the fall-back).
# CONFIGS="NAME[:VAR=V ...];NAME2[:...]": the class graded once per configuration, one after another,
#       each with its own environment (e.g. "base;cap16:TL_GRADE_GPU_SHARE=16") and CLASS_TIMEOUT,
#       into $OUT/NAME/ (packed into logs.tgz); summary.txt holds every one's figures and compare.txt
#       one line each (graded in CLASS_TIMEOUT, set-up, busy cores, queue closed, windows); the serial
#       comparison is against the last one. Unset: one configuration, the grader's defaults, as before.
#       TG_REV=REV in an entry grades it with the grader of commit REV (built from `git archive REV`
#       into a folder of its own; the kit stays this tree's): versions of the grader compared in one
#       call, e.g. "main;cap:TG_REV=s14-cap". The device's copy has no .git: carry each commit as
#       .carry/revs/REV.tar (`git archive -o .carry/revs/REV.tar REV`).
# Each configuration also samples, every 0.25 s, each device's timed queue and lock and the machine's
#       busy cores (gpu-cpu.txt: how long the queue was closed, the cores busy while closed and open),
#       stamps the grader's log lines with their time (run-times.txt: the set-up's steps, the
#       submissions graded by 30, 60, 90, 120 s) and keeps the kit's and the reference's ninja logs.
# NO_NCU=1: the grader reads no GPU counters (TL_GRADE_NCU=0, the class run and the serial run): the
#       class as on a machine whose driver keeps the counters for administrators (its default); the
#       emulated twins are built and count the work. The output says so on its first lines.
# Exit: 0 graded and every verdict as expected (the solution and its variants full marks; the
#       corpus's right kernels every test but speed as the solution; the skeleton and the wrong
#       files less than full marks), 1 a verdict is not, 2 the build or the grader failed, 77 no GPU.
set -u
N=${1:-100}
SERIAL=${SERIAL:-12}
OUT="${OUT:-./gpu-out}"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
B=${TL_BUILD:-build-gpu}
export PATH="/usr/local/cuda/bin:$PATH"
S=$OUT/summary.txt
: > "$S"
say() { printf '%s\n' "$*" | tee -a "$S"; }

[ -f tests/gpu/device-env.sh ] && . tests/gpu/device-env.sh
if ! ls /dev/nvidia0 >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
    say "skipped: no NVIDIA GPU here (no /dev/nvidia0 or nvidia-smi fails)"; exit 77
fi
say "== class-on-device: $N lab 03 submissions, $(date -u +%FT%TZ)"
if [ "${NO_NCU:-0}" = 1 ]; then
    export TL_GRADE_NCU=0
    say "NO_NCU=1: the grader reads no GPU counters (TL_GRADE_NCU=0): the emulated twins count the work"
fi
ngpu=$(nvidia-smi -L | wc -l)
say "GPU: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | head -1) x $ngpu; cores: $(nproc)"

# ------------------------------------------------------------------ build the grader
t0=$(date +%s)
if [ ! -f "$B/build.ninja" ]; then
    meson setup "$B" -Dtests=false -Dgpu_archs=90 -Dgpu_programs=enabled -Dbuildtype=debugoptimized > "$OUT/build.log" 2>&1 ||
        { say "meson setup failed:"; tail -30 "$OUT/build.log" | tee -a "$S"; exit 2; }
fi
ninja -C "$B" grader/tl-grade >> "$OUT/build.log" 2>&1 ||
    { say "building tl-grade failed:"; tail -30 "$OUT/build.log" | tee -a "$S"; exit 2; }
TG=$B/grader/tl-grade
say "grader built in $(( $(date +%s) - t0 )) s"

# ------------------------------------------------------------------ the class
W=$(mktemp -d /tmp/tl-class03.XXXXXX)
# At the end $OUT keeps a few files (the device queue brings back about 8): the figures as they are,
# the logs and samples in logs.tgz.
pack() {
    ( cd "$OUT" && ls -d util.csv progress.txt class.tsv build.log serial.log serial-progress.json class-summary.md \
          gradebook.csv run.log run-times.txt gpu-cpu.txt ncu-locks.txt kitbuild.ninja_log refbuild.ninja_log \
          unexpected profiled $CFG_DIRS 2>/dev/null | tar czf logs.tgz -T - && ls -d util.csv progress.txt class.tsv build.log serial.log \
          serial-progress.json class-summary.md gradebook.csv run.log run-times.txt gpu-cpu.txt ncu-locks.txt \
          kitbuild.ninja_log refbuild.ninja_log unexpected profiled $CFG_DIRS 2>/dev/null | xargs rm -rf ) 2>/dev/null
    rm -rf "$W"
}
CFG_DIRS=
trap pack EXIT
ninja -C "$B" common/tl-lab >> "$OUT/build.log" 2>&1 || { say "building tl-lab failed"; exit 2; }
bash tests/gpu/class-submissions.sh --n "$N" "$W/in" > "$OUT/class.tsv" 2>> "$OUT/build.log" ||
    { say "making the class failed:"; tail -5 "$OUT/build.log" | tee -a "$S"; exit 2; }
say "class: $(grep -v '^#' "$OUT/class.tsv" | cut -f2 | sort | uniq -c | awk '{printf "%s x%s, ", $2, $1}' | sed 's/, $//')"
say "$(grep '^#' "$OUT/class.tsv" | sed 's/^# //')"
head -c 8 /dev/urandom | od -An -tu8 | tr -d ' ' > "$W/secret"
# the grader's lock files in a folder of this run's (the class run and the serial run share it)
export TL_GRADE_LOCK_DIR="$W/locks"
mkdir -p "$TL_GRADE_LOCK_DIR"

# grader_of REV: a tl-grade built from the commit REV's grader (the kit graded with stays this
# tree's: labs, common and the reference are the class's), once per REV, into $W/b-REV; its path.
# (session 14: CONFIGS entries may name TG_REV=REV to compare versions of the grader in one call)
# The device machine's copy of the tree has no .git: there the commit comes as .carry/revs/REV.tar,
# made here with `git archive -o .carry/revs/REV.tar REV` and carried with the call.
grader_of() {
    local rev=$1 src=$W/src-$1 b=$W/b-$1
    if [ ! -x "$b/grader/tl-grade" ]; then
        mkdir -p "$src" &&
            { if [ -f ".carry/revs/$rev.tar" ]; then tar -x -C "$src" -f ".carry/revs/$rev.tar"
              else git archive "$rev" | tar -x -C "$src"; fi; } &&
            meson setup "$b" "$src" -Dtests=false -Dgpu_archs=90 -Dgpu_programs=enabled -Dbuildtype=debugoptimized \
                >> "$OUT/build.log" 2>&1 && ninja -C "$b" grader/tl-grade >> "$OUT/build.log" 2>&1 || return 1
    fi
    printf '%s\n' "$b/grader/tl-grade"
}

# ------------------------------------------------------------------ one class run (a configuration)
# class_run NAME ENV: grades the class into $WO with ENV (VAR=V words) added to the environment; its
# files into $C ($OUT, or $OUT/NAME with CONFIGS), its figures into summary.txt. Sets rc (tl-grade's
# exit), vrc (the verdicts': 0 as expected) and WO (the out folder the serial run compares with).
class_run() {
cname=$1 cenv=$2
if [ -n "$cname" ]; then C=$OUT/$cname; WO=$W/out-$cname; CFG_DIRS="$CFG_DIRS $cname"; else C=$OUT; WO=$W/out; fi
mkdir -p "$C"
[ -n "$cname" ] && { say ""; say "=== configuration $cname: ${cenv:-defaults} (CLASS_TIMEOUT ${CLASS_TIMEOUT:-250} s)"; }
TGC=$TG
case " $cenv " in *" TG_REV="*)
    rev=$(printf '%s\n' "$cenv" | tr ' ' '\n' | sed -n 's/^TG_REV=//p' | head -1)
    cenv=$(printf '%s\n' "$cenv" | tr ' ' '\n' | grep -v '^TG_REV=' | tr '\n' ' ')
    if ! TGC=$(grader_of "$rev"); then
        say "the grader of $rev did not build (build.log): configuration $cname skipped"; rc=2; vrc=1; return
    fi
    say "the grader: $rev's ($(git rev-parse --short "$rev" 2>/dev/null)), the kit: this tree's" ;;
esac
nvidia-smi --query-gpu=timestamp,utilization.gpu,memory.used,index --format=csv,noheader,nounits -lms 500 \
    > "$C/util.csv" 2>/dev/null &
smi=$!
: > "$C/progress.txt"
( while sleep 2; do [ -f "$WO/progress.json" ] && { date -u +%T; cat "$WO/progress.json"; } >> "$C/progress.txt"; done ) &
sampler=$!
# every 0.25 s, from one reading of /proc/locks against the lock files' inodes: which devices'
# profiler locks are held (ncu-locks.txt, "T DEV,..."), and each device's timed queue (the gate held
# shared: windows queued), its lock (held alone: a window runs; shared: requests in flight), the
# machine's busy cores (/proc/stat) and its runnable processes (gpu-cpu.txt,
# "T DEV:queued:alone:inflight ... busy running")
python3 - "$TL_GRADE_LOCK_DIR" "$C/ncu-locks.txt" "$C/gpu-cpu.txt" <<'PY' &
import glob, os, sys, time
d, out_ncu, out_gc = sys.argv[1], sys.argv[2], sys.argv[3]
pre = "tilelab-gpu-%d-" % os.getuid()
def stat():
    t = r = 0
    for line in open("/proc/stat"):
        w = line.split()
        if w[0] == "cpu":
            v = [int(x) for x in w[1:]]
            t, idle = sum(v[:8]), v[3] + v[4]
        elif w[0] == "procs_running":
            r = int(w[1])
    return t, idle, r
ncpu = os.cpu_count() or 1
prev = stat()
with open(out_ncu, "w") as fn, open(out_gc, "w") as fg:
    while True:
        time.sleep(0.25)
        files = {}                     # inode: (device, ncu | gate | lock)
        for p in glob.glob(os.path.join(d, pre + "*.ncu")) + glob.glob(os.path.join(d, pre + "*.gate")) + \
                 glob.glob(os.path.join(d, pre + "*.lock")):
            try:
                files[os.stat(p).st_ino] = tuple(os.path.basename(p)[len(pre):].rsplit(".", 1))
            except OSError:
                pass
        ncu, st = set(), {}
        try:
            for line in open("/proc/locks"):
                w = line.split()
                if "->" in line or len(w) < 6 or w[1] != "FLOCK":
                    continue
                try:
                    ino = int(w[5].split(":")[2])
                except (IndexError, ValueError):
                    continue
                if ino not in files:
                    continue
                dev, what = files[ino]
                if what == "ncu":
                    ncu.add(dev)
                    continue
                s = st.setdefault(dev, [0, 0, 0])
                if what == "gate" and w[3] == "READ":
                    s[0] += 1
                elif what == "lock":
                    s[1 if w[3] == "WRITE" else 2] += 1
        except OSError:
            pass
        now = time.time()
        fn.write("%.2f %s\n" % (now, ",".join(sorted(ncu)) or "-"))
        fn.flush()
        cur = stat()
        dt = cur[0] - prev[0]
        busy = ncpu * (dt - (cur[1] - prev[1])) / dt if dt > 0 else 0
        prev = cur
        fg.write("%.2f %s %.2f %d\n" % (now, " ".join("%s:%d:%d:%d" % (k, *v) for k, v in sorted(st.items())) or "-",
                                        busy, cur[2]))
        fg.flush()
PY
locks=$!
TIMEFORMAT='%R %U %S'
t_run=$(date +%s.%N)
{ time env $cenv timeout "${CLASS_TIMEOUT:-250}" "$TGC" --kit . --lab 03 --out "$WO" --secret "$W/secret" --jobs auto "$W"/in/* \
    > >(tee "$C/run.log" | python3 -u -c 'import sys, time
t0 = float(sys.argv[1])
for line in sys.stdin:
    sys.stdout.write("%7.2f %s" % (time.time() - t0, line)); sys.stdout.flush()' "$t_run" > "$C/run-times.txt") 2>&1; } 2> "$W/time"
rc=$?
sleep 1
[ $rc = 124 ] && say "the class run was stopped after ${CLASS_TIMEOUT:-250} s (CLASS_TIMEOUT)"
kill "$smi" "$sampler" "$locks" 2>/dev/null; wait "$smi" "$sampler" "$locks" 2>/dev/null
read -r wall user sys < "$W/time"
cp "$WO/gradebook.csv" "$C/gradebook.csv" 2>/dev/null
cp "$WO/summary.md" "$C/class-summary.md" 2>/dev/null
cp "$WO/progress.json" "$C/progress.json" 2>/dev/null
if [ $rc != 0 ]; then
    say "tl-grade exited $rc (tail of its log):"; tail -20 "$C/run.log" | tee -a "$S"
fi

# ------------------------------------------------------------------ ncu's cost per profiled variant (issue 29)
# Each results.json says what its profiled runs took (counters.c): the whole, to the answer (ncu's
# start, the program's, the case) and from it to ncu's end; summed here, with the grader's own probe.
python3 - "$WO" > "$C/ncu-times.txt" 2>&1 <<'PY'
import glob, re, sys
rx = re.compile(r"the profiled run took ([0-9.]+) s \(([0-9.]+) s to the answer[^;]*; ([0-9.]+) s for ncu to end")
runs = []
for f in glob.glob(sys.argv[1] + "/*/results.json"):
    seen = set()
    for m in rx.finditer(open(f, errors="replace").read()):
        if m.group(0) not in seen:
            seen.add(m.group(0)); runs.append(tuple(float(x) for x in m.groups()))
if runs:
    n = len(runs)
    print("ncu: %d profiled variant(s) read from the results: mean %.2f s each (%.2f s to the answer, %.2f s to ncu's "
          "end), %.1f s in all" % (n, sum(r[0] for r in runs) / n, sum(r[1] for r in runs) / n,
          sum(r[2] for r in runs) / n, sum(r[0] for r in runs)))
else:
    print("ncu: no profiled run's figures in the results (ncu not used here, or the class not graded)")
PY
tee -a "$S" < "$C/ncu-times.txt"
# (session 14) which submissions were profiled on demand, why, and which profiled run was run again
# alone and why (a shared run that ran out of time, lost the device's memory or ended without
# answering): profiled.txt, one line each, and a count in the summary
python3 - "$WO" > "$C/profiled.txt" 2>&1 <<'PY'
import glob, json, os, re, sys
rows = []
for f in sorted(glob.glob(sys.argv[1] + "/*/results.json")):
    t = open(f, errors="replace").read()
    if "profiled on demand" not in t and "profiled again with the device alone" not in t and \
       "profiled before the timed phase" not in t:
        continue
    name = os.path.basename(os.path.dirname(f))
    # (session 17) or before the timed phase, where its correctness cases showed it far slower
    why = re.search(r"profiled (on demand|before the timed phase) \(ncu, outside the program's process\): "
                    r"([^\\\"]{0,160})", t)
    again = sorted(set(re.findall(r"profiled again with the device alone: the run with it shared ([a-z' ]+)", t)))
    took = re.findall(r"the profiled run took ([0-9.]+) s", t)
    died = t.count("ended without answering")
    # (session 15) the speed test's figures: the reported median and the grader's wall-clock estimate,
    # to tell an honest file flagged by the wall clock under load from a forged time
    med = re.search(r"median ([0-9.]+) ms against the reference's ([0-9.]+) ms", t)
    est = re.search(r"wall-clock estimate per run, measured by the grader: ([0-9.]+) ms \(reference ([0-9.]+) ms\)", t)
    rows.append("%s\twhy: %s\tagain alone: %s\tprofiled runs took: %s s\t'ended without answering' x%d\t"
                "median %s ms (reference %s), wall-clock estimate %s ms (reference %s)" % (
        name, ("%s: %s" % (why.group(1), why.group(2))) if why else "-", ", ".join(again) or "no", "+".join(took) or "?", died,
        med.group(1) if med else "?", med.group(2) if med else "?", est.group(1) if est else "?", est.group(2) if est else "?"))
print("\n".join(rows) if rows else "no submission was profiled on demand")
PY
# (session 15) their results.json too (logs.tgz: profiled/): what the speed test said, waits included
grep 'why:' "$C/profiled.txt" | cut -f1 | while read -r n; do
    mkdir -p "$C/profiled" && cp "$WO/$n/results.json" "$C/profiled/$n.results.json" 2>/dev/null
done
say "profiled on demand: $(grep -c 'why: on demand' "$C/profiled.txt") submission(s) after the speed test, $(grep -c 'why: before the timed phase' "$C/profiled.txt") before the timed phase, $(grep 'why:' "$C/profiled.txt" | grep -vc 'again alone: no') with a run again alone (profiled.txt)"
# (session 18) tests that failed as a co-tenant's memory would make them fail, run again with the device alone
say "tests graded again with the GPU alone: $(cat "$WO"/*/results.json 2>/dev/null | grep -o 'graded again with the GPU alone' | wc -l); speed warm-ups run again alone: $(cat "$WO"/*/results.json 2>/dev/null | grep -o 'warm-up failed while the GPU was shared' | wc -l)"
# (session 17) wall-clock estimates that read suspicious and were measured again in a window of their own
say "wall-clock estimates measured again: $(cat "$WO"/*/results.json 2>/dev/null | grep -o 'measured again, in a window of its own: [0-9.]* ms per run[^\\\"]\{0,40\}' | sed 's/.*own: //' | sort | uniq -c | tr '\n' ';' | sed 's/;$//')"
# the levers of session 10 (issue 29): profiled runs with the device shared and those run again alone;
# the reference's timings against the speed tests that reused one (judges.c)
python3 - "$WO" <<'PY' | tee -a "$S"
import glob, sys
shared = alone = again = now = reused = 0
for f in glob.glob(sys.argv[1] + "/*/results.json"):
    t = open(f, errors="replace").read()
    shared += t.count("the device shared (one profiled run at a time")
    again += t.count("profiled again with the device alone")
    now += t.count("the reference timed now")
    reused += t.count("the reference's median was timed")
print("profiled runs: %d with the device shared, %d run again alone; speed tests: the reference timed %d time(s), "
      "a timing reused %d time(s)" % (shared, again, now, reused))
PY
# issue 29's levers of session 12: each speed test's window (speed.c: "timed window: A s alone; W s
# waiting for it (D s of it draining ..., R drain(s) given up; a request held the device H s at most
# meanwhile)") and the stops of requests on the CPU for them (the profile's stopped_for_timed)
python3 - "$WO" "$C/windows-alone-s.txt" <<'PY' | tee -a "$S"
import collections, glob, re, sys
rx = re.compile(r"timed window: ([0-9.]+) s alone; ([0-9.]+) s waiting for it \(([0-9.]+) s of it draining[^,]*, "
                r"(\d+) drain\(s\) given up; a request held the device ([0-9.]+) s at most")
# (session 13: the requests' part of the alone time, the test's hold to its last answer judged, the
# wait behind other windows, and which stage held the device longest / at the last give-up)
rx2 = re.compile(r"the requests ([0-9.]+) s of the alone time, the test ([0-9.]+) s from the lock to its last answer "
                 r"judged; behind other windows ([0-9.]+) s; the longest holder a (\S+) request, the last give-up's a (\S+) one")
w, x = [], []
longest, gaveup = collections.Counter(), collections.Counter()
for f in glob.glob(sys.argv[1] + "/*/results.json"):
    t = open(f, errors="replace").read()
    for m in rx.finditer(t):
        w.append(tuple(float(v) for v in m.groups()))
    for m in rx2.finditer(t):
        x.append(tuple(float(v) for v in m.groups()[:3]))
        longest[m.group(4)] += 1
        if m.group(5) != "none":
            gaveup[m.group(5)] += 1
open(sys.argv[2], "w").write("%.2f\n" % sum(v[0] for v in w))   # (phase-of.py's, below)
if w:
    n = len(w)
    srt = sorted(v[1] for v in w)
    print("timed windows: %d; alone %.2f s each (%.1f s in all); waiting for one %.2f s on average (median %.2f, "
          "most %.2f), draining %.2f s of it on average; %d drain(s) given up; a request held the device %.2f s at "
          "most while a drain waited" % (n, sum(v[0] for v in w) / n, sum(v[0] for v in w), sum(v[1] for v in w) / n,
          srt[n // 2], srt[-1], sum(v[2] for v in w) / n, int(sum(v[3] for v in w)), max(v[4] for v in w)))
else:
    print("timed windows: none in the results (no speed test reached its window, or an older grader)")
if x:
    n = len(x)
    print("timed windows' parts: the requests %.3f s of each alone time on average; the hold to the last answer judged "
          "%.3f s; behind other windows %.2f s of each wait; longest holder while draining: %s; last give-up's holder: %s" %
          (sum(v[0] for v in x) / n, sum(v[1] for v in x) / n, sum(v[2] for v in x) / n,
           ", ".join("%s %d" % kv for kv in longest.most_common()) or "-", ", ".join("%s %d" % kv for kv in gaveup.most_common()) or "-"))
PY
# (session 20) what the timed phase was made of: its length from the progress snapshots against the
# windows' alone time over the devices (tests/gpu/phase-of.py)
python3 tests/gpu/phase-of.py "$C/progress.txt" "$(cat "$C/windows-alone-s.txt" 2>/dev/null || echo 0)" "$ngpu" 2>&1 | tee -a "$S"
# issue 29's lever of session 11: a submission's variants in one ncu session (the figures say "one ncu
# session served ... (request N of M"), or a session each where that one could not decide
python3 - "$WO" <<'PY' | tee -a "$S"
import glob, re, sys
one = first = alone = subs = 0
whys = {}
for f in glob.glob(sys.argv[1] + "/*/results.json"):
    t = open(f, errors="replace").read()
    subs += 1
    one += len(set(re.findall(r"one ncu session served [^(]*\(request (\d+) of", t)))
    first += 1 if "(request 1 of" in t else 0
    for m in set(re.findall(r"profiled in a session of its own: one ncu session for the \d+ variants could not decide \(([^)]{0,120})", t)):
        alone += 1
        whys[m] = whys.get(m, 0) + 1
print("variants profiled in one ncu session per submission: %d (in %d submissions' sessions); in a session each after "
      "one could not decide: %d submission(s)%s" % (one, first, alone, "".join("; %dx %s" % (n, w) for w, n in
      sorted(whys.items(), key=lambda kv: -kv[1])[:3])))
# one profiled variant's figures as the solution's results.json says them (the tail shows what ran)
for f in sorted(glob.glob(sys.argv[1] + "/s000*/results.json"))[:1]:
    t = open(f, errors="replace").read()
    m = re.search(r"[0-9]+ kernel launch[^\"]{0,520}", t)
    print("the solution's profiled figures: %s" % (m.group(0) if m else "none in " + f))
PY
# the devices' profiler locks as sampled: how often each device profiled, and two at once
python3 - "$C/ncu-locks.txt" <<'PY' | tee -a "$S"
import collections, sys
n = 0; per = collections.Counter(); at_once = collections.Counter()
for line in open(sys.argv[1]):
    w = line.split()
    if len(w) < 2:
        continue
    n += 1
    held = [] if w[1] == "-" else w[1].split(",")
    at_once[len(held)] += 1
    per.update(held)
if n:
    print("profiler locks (ncu, per device; %d samples every 0.25 s): %s; held by %s" % (n,
          ", ".join("%s %.1f%%" % (d, 100.0 * c / n) for d, c in sorted(per.items())) or "none held",
          ", ".join("%d at once %.1f%%" % (k, 100.0 * v / n) for k, v in sorted(at_once.items()))))
else:
    print("profiler locks: no samples")
PY

# ------------------------------------------------------------------ the figures
busy=$(awk -F', *' '$2 ~ /^[0-9]+$/ {s += $2; n++} END {if (n) printf "%.1f", s / n; else print "n/a"}' "$C/util.csv")
busy_run=$(awk -F', *' '$2 ~ /^[0-9]+$/ {n++; if ($2 > 0) b++} END {if (n) printf "%.1f", 100 * b / n; else print "n/a"}' "$C/util.csv")
say ""
target=120; [ "$ngpu" -ge 2 ] && target=70
say "wall time:            ${wall} s for $N submissions ($(awk -v w="$wall" -v n="$N" 'BEGIN {printf "%.2f", w / n}') s each); target $target s on $ngpu GPU(s) (issue 29): $(awk -v w="$wall" -v t="$target" 'BEGIN {print (w <= t) ? "met" : "MISSED"}')"
say "grader + children CPU: user ${user} s, sys ${sys} s = $(awk -v u="$user" -v s="$sys" -v n="$N" 'BEGIN {printf "%.2f", (u + s) / n}') s per submission (bubblewrap's children are not counted where it is used)"
say "GPU busy (nvidia-smi utilization.gpu, mean of 0.5 s samples): ${busy}%; samples with a kernel running: ${busy_run}%"
say "per device (index: mean utilization, samples with a kernel, most memory used MiB): $(awk -F', *' '$2 ~ /^[0-9]+$/ {
    s[$4] += $2; n[$4]++; if ($2 > 0) b[$4]++; if ($3 > m[$4]) m[$4] = $3 }
    END {for (d in n) printf "%s: %.1f%%, %.1f%%, %d; ", d, s[d] / n[d], 100 * b[d] / n[d], m[d]}' "$C/util.csv")"
say "GPU time per submission (busy fraction x wall / N): $(awk -v b="$busy" -v w="$wall" -v n="$N" 'BEGIN {if (b == "n/a") print "n/a"; else printf "%.2f s", b / 100 * w / n}')"
grep -E "^tl-grade: (lab|the kit|GPU)" "$C/run.log" | tee -a "$S"
grep -E "^tl-grade: the GPU's counters" "$C/run.log" | cut -c1-900 | tee -a "$S"
grep -E "^tl-grade: profiled runs" "$C/run.log" | cut -c1-600 | tee -a "$S"
say "last progress lines:"; grep '^\[' "$C/run.log" | tail -3 | tee -a "$S"

# ------------------------------------------------------------------ the profile (issue 29 item 3)
python3 - "$C/progress.json" > "$C/profile.txt" 2>&1 <<'PY'
import json, sys
p = json.load(open(sys.argv[1])).get("profile")
if not p:
    print("no profile in progress.json"); sys.exit(0)
print("profile: run %.1f s wall, %d job(s), %d submission(s); per stage, summed over the class:" %
      (p["run_wall_s"], p["jobs"], p["students"]))
for st in p["stages"]:
    print("  %-12s %9.1f s wall %9.1f s CPU" % (st["stage"], st["wall_s"], st["cpu_s"]))
print("  %-12s %9.1f s wall %9.1f s CPU" % ("all stages", p["stages_wall_s"], p["stages_cpu_s"]))
print("  queued (waiting for a job slot): %.1f s summed" % p["queued_wall_s"])
PY
tee -a "$S" < "$C/profile.txt"

# ------------------------------------------------------------------ the verdicts
# Each row of the gradebook against what its kind must get; the solution's row (s000) is the
# yardstick for the corpus's right kernels (every test but speed equal to the solution's).
# A run stopped by CLASS_TIMEOUT writes no gradebook: then each graded submission's results.json
# (Gradescope's format: its tests' scores) stands for its row, and the submissions not reached are
# counted apart (not a verdict).
python3 - "$C/gradebook.csv" "$OUT/class.tsv" "$WO" > "$C/verdicts.txt" 2>&1 <<'PY'
import csv, glob, json, os, sys
stopped = not os.path.exists(sys.argv[1])
if not stopped:
    rows = {r["student"]: r for r in csv.DictReader(open(sys.argv[1]))}
else:
    rows = {}
    for f in glob.glob(os.path.join(sys.argv[3], "*", "results.json")):
        try:
            js = json.load(open(f))
        except (OSError, ValueError):
            continue
        r = {"status": "graded"}
        sc = mx = 0.0
        for t in js.get("tests", []):
            r[t["name"]] = "%.2f" % t.get("score", 0)
            sc += t.get("score", 0); mx += t.get("max_score", 0)
        r["score"], r["max"] = "%.2f" % sc, "%.2f" % mx
        rows[os.path.basename(os.path.dirname(f))] = r
    print("no gradebook (the run was stopped): %d submissions' results.json read" % len(rows))
kinds = [l.rstrip("\n").split("\t") for l in open(sys.argv[2]) if not l.startswith("#")]
sol = next((rows.get(n) for n, k, _ in kinds if k == "solution"), None)
bad = notreached = 0
for name, kind, src in kinds:
    r = rows.get(name)
    if stopped and not r:
        notreached += 1; continue
    if not r or r["status"] != "graded" or r["score"] == "":
        print("verdict: %s (%s) not graded" % (name, src)); bad = 1; continue
    sc, mx = float(r["score"]), float(r["max"])
    if kind in ("solution", "variant") and sc != mx:
        print("verdict: %s (%s) scored %g of %g" % (name, kind, sc, mx)); bad = 1
    elif kind in ("skeleton", "wrong", "corpus-wrong") and sc >= mx:
        print("verdict: %s (%s, %s) got full marks" % (name, kind, src)); bad = 1
    elif kind == "corpus-right" and sol:
        for t, v in r.items():
            if t in ("student", "score", "max", "status", "not_graded_here", "email", "sid", "submitted_at") or "speed" in t:
                continue
            if v != sol.get(t):
                print("verdict: %s (%s) %s: %s, the solution %s" % (name, src, t, v, sol.get(t))); bad = 1
if notreached:
    print("%d submissions not reached before the stop" % notreached)
print("every verdict as expected" if not bad else "some verdicts are not as expected (above)")
sys.exit(bad)
PY
vrc=$?
tee -a "$S" < "$C/verdicts.txt"
# (session 14) a verdict not as expected: that submission's results.json kept (logs.tgz: unexpected/)
# and each test below the solution's, its first output lines, in the summary: the reason, not only
# the score (0547Z: an honest file's memcheck test scored 0 and nothing said why)
for n in $(grep -oE '^verdict: s[0-9]+-[a-z-]+' "$C/verdicts.txt" | sed 's/^verdict: //' | sort -u); do
    [ -f "$WO/$n/results.json" ] || continue
    mkdir -p "$C/unexpected" && cp "$WO/$n/results.json" "$C/unexpected/$n.results.json"
    python3 - "$WO/$n/results.json" "$n" <<'PY' | tee -a "$S"
import json, sys
js = json.load(open(sys.argv[1]))
for t in js.get("tests", []):
    if t.get("score", 0) < t.get("max_score", 0):
        out = " | ".join(l for l in (t.get("output") or "").splitlines()[:4])
        print("  %s %s %.2f/%.2f: %s" % (sys.argv[2], t.get("name"), t.get("score", 0), t.get("max_score", 0), out[:600]))
PY
done
[ -f "$C/gradebook.csv" ] && say "score distribution: $(python3 -c 'import csv,sys,collections; c=collections.Counter(r["score"] for r in csv.DictReader(open(sys.argv[1]))); print(", ".join("%s x%d" % (k, v) for k, v in sorted(c.items(), key=lambda kv: float(kv[0] or -1))))' "$C/gradebook.csv")"

# ------------------------------------------------------------------ the schedule's figures (session 13)
# From gpu-cpu.txt: how long each device's timed queue was closed (a window queued or running) and
# held alone, the requests in flight, the machine's busy cores overall and while the queue was closed
# or open; from run-times.txt: the set-up's steps and the submissions graded over time.
python3 - "$C/gpu-cpu.txt" "$C/run-times.txt" "${CLASS_TIMEOUT:-250}" <<'PY' | tee -a "$S"
import re, sys
rows = []
for line in open(sys.argv[1]):
    w = line.split()
    if len(w) < 4:
        continue
    devs = {}
    for d in w[1:-2]:
        if d != "-":
            k, *v = d.split(":")
            devs[k] = [int(x) for x in v]
    rows.append((float(w[0]), devs, float(w[-2]), int(w[-1])))
if rows:
    n = len(rows)
    busy = sum(r[2] for r in rows) / n
    closed = [r for r in rows if any(v[0] > 0 or v[1] > 0 for v in r[1].values())]
    opened = [r for r in rows if not any(v[0] > 0 or v[1] > 0 for v in r[1].values())]
    alone = [r for r in rows if any(v[1] > 0 for v in r[1].values())]
    infl = sum(sum(v[2] for v in r[1].values()) for r in rows) / n
    m = lambda rs, i: sum(r[i] for r in rs) / len(rs) if rs else 0
    print("schedule (%d samples every 0.25 s): busy cores %.1f on average (%.1f while a timed queue was closed, %.1f while "
          "open); runnable %.1f; a device's queue closed %.0f%% of the run, held alone %.0f%%; requests in flight %.1f "
          "on average" % (n, busy, m(closed, 2), m(opened, 2), m(rows, 3), 100.0 * len(closed) / n, 100.0 * len(alone) / n, infl))
    t0 = rows[0][0]
    per = {}
    for r in rows:
        b = int((r[0] - t0) // 10) * 10
        per.setdefault(b, []).append(r)
    print("  per 10 s (busy cores / queue closed % / requests in flight): " + "; ".join(
        "%d: %.1f/%.0f/%.1f" % (b, m(rs, 2), 100.0 * sum(1 for r in rs if any(v[0] or v[1] for v in r[1].values())) / len(rs),
                               sum(sum(v[2] for v in r[1].values()) for r in rs) / len(rs)) for b, rs in sorted(per.items())))
graded = []
setup = []
for line in open(sys.argv[2], errors="replace"):
    t, _, rest = line.strip().partition(" ")
    try:
        t = float(t)
    except ValueError:
        continue
    m2 = re.match(r"\[(\d+)/(\d+)\]", rest)
    if m2:
        graded.append(t)
    elif rest.startswith("tl-grade:") and not graded:
        setup.append("%.1f %s" % (t, rest[10:70]))
if setup:
    print("set-up, the log's lines by time (s): " + " | ".join(setup))
lim = float(sys.argv[3])
marks = [30, 60, 90, 100, 110, 120, 150, 200, 250, 300]
print("graded by time: " + ", ".join("%d by %d s" % (sum(1 for t in graded if t <= s), s) for s in marks if s <= lim + 1) +
      ("; the first at %.1f s, the last (#%d) at %.1f s" % (graded[0], len(graded), graded[-1]) if graded else "; none"))
PY
# the kit's and the reference's builds: each step's time (ninja's log), the longest steps
for nl in "$WO/.state/kitbuild/.ninja_log" "$WO/.state/refbuild/.ninja_log"; do
    [ -f "$nl" ] && python3 - "$nl" <<'PY' | tee -a "$S"
import sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if not l.startswith("#")]
rows = [(int(r[0]), int(r[1]), r[3]) for r in rows if len(r) >= 4]
if rows:
    end = max(r[1] for r in rows)
    top = sorted(rows, key=lambda r: r[0] - r[1])[:4]
    print("%s: %d steps, %.1f s from the first start to the last end, %.1f s of steps summed; longest: %s" % (
        sys.argv[1].split("/.state/")[1], len(rows), (end - min(r[0] for r in rows)) / 1000.0,
        sum(r[1] - r[0] for r in rows) / 1000.0,
        ", ".join("%s %.1f s (%.1f-%.1f)" % (r[2].split("/")[-1], (r[1] - r[0]) / 1000.0, r[0] / 1000.0, r[1] / 1000.0) for r in top)))
PY
    [ -f "$nl" ] && cp "$nl" "$C/$(basename "$(dirname "$nl")").ninja_log"
done
# the kit's configure (meson setup in the sandbox, before ninja): its files' times, and the
# dependencies it looked for (a CMake fall-back costs seconds of the set-up)
KB="$WO/.state/kitbuild"
if [ -f "$KB/build.ninja" ] && [ -d "$KB/meson-private" ]; then
    t0=$(python3 -c 'import os,sys; d=sys.argv[1]; print(min(os.stat(os.path.join(d,f)).st_mtime for f in os.listdir(d)))' "$KB/meson-private")
    t1=$(python3 -c 'import os,sys; print(os.stat(sys.argv[1]).st_mtime)' "$KB/build.ninja")
    echo "kitbuild: configured in ~$(python3 -c "print('%.1f' % ($t1 - $t0))") s (meson-private's first file to build.ninja); $(grep -c 'CMake' "$KB/meson-logs/meson-log.txt" 2>/dev/null) CMake lines in meson's log; $(grep -h 'Run-time dependency' "$WO/.state/kitbuild.log" 2>/dev/null | tr '\n' ';')" | tee -a "$S"
    cp "$WO/.state/kitbuild.log" "$C/kitbuild.log" 2>/dev/null
fi
}

vbad=0
if [ -n "${CONFIGS:-}" ]; then
    : > "$OUT/compare.txt"
    IFS=';' read -r -a cfgs <<< "$CONFIGS"
    for cfg in "${cfgs[@]}"; do
        cfg=$(echo "$cfg" | sed 's/^ *//; s/ *$//')
        [ -n "$cfg" ] || continue
        cn=${cfg%%:*}; ce=; [ "$cfg" != "$cn" ] && ce=${cfg#*:}
        class_run "$cn" "$ce"
        [ "$vrc" = 0 ] || vbad=1
        # (nothing of one configuration's run may be left on the device for the next)
        sleep 2; left=$(nvidia-smi --query-compute-apps=pid --format=csv,noheader 2>/dev/null | grep -c .)
        [ "$left" -gt 0 ] && { say "[$cn] $left process(es) still on the GPU after the run: waiting 5 s"; sleep 5; }
        python3 - "$cn" "$ce" "$S" "$C" <<'PY' >> "$OUT/compare.txt"
import re, sys
name, env, s, c = sys.argv[1:5]
t = open(s, errors="replace").read()
t = t[t.rfind("=== configuration " + name + ":"):]
g = lambda rx, d="?": (re.search(rx, t) or [None, d])[1]
print("%-10s %-52s graded: %s | set-up %s s | busy cores %s | queue closed %s%% | windows: %s alone, %s waiting | %s" % (
    name, env or "(defaults)", g(r"graded by time: ([^\n]*)"), g(r"setup\s+([0-9.]+) s wall"), g(r"busy cores ([0-9.]+) on average"),
    g(r"queue closed ([0-9]+)% of the run"), g(r"alone ([0-9.]+) s each"), g(r"waiting for one ([0-9.]+) s on average"),
    g(r"(every verdict as expected|some verdicts are not as expected)")))
PY
    done
    say ""; say "=== configurations compared"; tee -a "$S" < "$OUT/compare.txt"
else
    class_run "" ""
    vbad=$vrc
fi

# ------------------------------------------------------------------ serial against concurrent (issue 29 item 1)
src=0 ns=0
if [ "$SERIAL" -gt 0 ] && { [ $rc = 0 ] || [ $rc = 124 ]; }; then   # (stopped: the submissions graded)
    python3 - "$WO" "$OUT/class.tsv" "$SERIAL" > "$W/serial.list" <<'PY'
import json, re, sys, os
out, tsv, k = sys.argv[1], sys.argv[2], int(sys.argv[3])
rx = re.compile(r"median ([0-9.]+) ms against the reference's ([0-9.]+) ms")
rows = [l.rstrip("\n").split("\t") for l in open(tsv) if not l.startswith("#")]
order = {"solution": 0, "corpus-right": 1, "wrong": 2, "corpus-wrong": 2, "variant": 3}
pick = []
for name, kind, _ in sorted(rows, key=lambda r: order.get(r[1], 9)):
    try:
        text = open(os.path.join(out, name, "results.json")).read()
    except OSError:
        continue
    if rx.search(text) and len(pick) < k:
        pick.append(name)
print("\n".join(pick))
PY
    ns=$(grep -c . "$W/serial.list")
    [ "$ns" = 0 ] && say "" && say "serial run: none (no submission of the last configuration reached its speed test" \
        "before the stop: nothing to compare)"
fi
if [ "$ns" -gt 0 ]; then
    set --
    while read -r name; do set -- "$@" "$W/in/$name"; done < "$W/serial.list"
    t1=$(date +%s)
    timeout "${SERIAL_TIMEOUT:-150}" "$TG" --kit . --lab 03 --out "$W/serial" --secret "$W/secret" --jobs 1 "$@" \
        > "$OUT/serial.log" 2>&1
    srun=$?
    say ""
    say "serial run: $ns submissions with --jobs 1 in $(( $(date +%s) - t1 )) s (exit $srun)"
    cp "$W/serial/progress.json" "$OUT/serial-progress.json" 2>/dev/null
    python3 - "$OUT/serial-progress.json" <<'PY' | tee -a "$S"
import json, sys
try:
    p = json.load(open(sys.argv[1])).get("profile")
except Exception:
    p = None
if p and p.get("students"):
    n = p["students"]
    print("serial profile, CPU s per submission (one at a time: nothing beside it): " + ", ".join(
        "%s %.2f" % (st["stage"], st["cpu_s"] / n) for st in p["stages"] if st["cpu_s"] > 0 and st["stage"] != "setup"))
PY
    python3 - "$WO" "$W/serial" "$W/serial.list" > "$OUT/ratios.txt" 2>&1 <<'PY'
import re, sys, os
conc, ser, names = sys.argv[1], sys.argv[2], [l.strip() for l in open(sys.argv[3]) if l.strip()]
rx = re.compile(r"median ([0-9.]+) ms against the reference's ([0-9.]+) ms")
def ratio(d, n):
    try:
        m = rx.search(open(os.path.join(d, n, "results.json")).read())
    except OSError:
        return None
    return (float(m.group(1)), float(m.group(2)), float(m.group(1)) / float(m.group(2))) if m else None
bad, worst, n = 0, 0.0, 0
print("%-22s %28s %28s %8s" % ("submission", "concurrent (ms, ref ms, ratio)", "serial (ms, ref ms, ratio)", "diff"))
for name in names:
    a, b = ratio(conc, name), ratio(ser, name)
    if not a or not b:
        print("%-22s no ratio in %s" % (name, "the serial run" if a else "the class run")); bad = 1; continue
    d = a[2] / b[2] - 1
    worst = max(worst, abs(d)); n += 1
    flag = "" if abs(d) <= 0.02 else "  OVER 2%"
    bad |= abs(d) > 0.02
    print("%-22s %8.3f %8.3f %8.4f   %8.3f %8.3f %8.4f %+7.2f%%%s" % (name, a[0], a[1], a[2], b[0], b[1], b[2], 100 * d, flag))
print("speed ratios, concurrent against serial: %d compared, largest difference %.2f%%: %s" %
      (n, 100 * worst, "within 2%" if not bad and n else "NOT within 2%"))
sys.exit(1 if bad or not n else 0)
PY
    src=$?
    tee -a "$S" < "$OUT/ratios.txt"
fi
[ $rc = 0 ] || exit 2
[ "$vbad" = 0 ] || exit 1
[ $src = 0 ] || exit 1
