#!/usr/bin/env bash
# ncu-work-on-device.sh: issue 24 item 4 on a GPU: the work evidence read from outside the student's
# process, by the GPU's counters through Nsight Compute's CLI (ncu), run inside the grader's own
# bubblewrap sandbox (grader/tl-sandbox-exec: the same tg_iso_probe and tg_spawn a graded case uses).
#
#   bash tests/gpu/ncu-work-on-device.sh probe   what ncu does at all here: its version, the driver's
#                                                profiling restriction, the metrics this ncu knows, raw
#                                                CSV of lab 03's and lab 02's reference outside the
#                                                sandbox and inside it (uid 65534, no capabilities),
#                                                with and without the network filter, and a --serve
#                                                session under ncu (fds 3 and 4 through ncu)
#   bash tests/gpu/ncu-work-on-device.sh full    (below: the grader's counter step on the lab files)
#
# Everything goes to $OUT (default ./gpu-out): ncu.txt (what is printed), the raw CSV files, logs.
# Exit: 0 done (probe: whatever ncu said is reported, not judged), 1 an expectation failed (full),
# 2 the build failed, 77 no GPU.
set -u
MODE=${1:-full}
OUT=${OUT:-./gpu-out}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
ROOT=$(pwd)
B=${TL_BUILD:-$ROOT/build-ncu}
S=$OUT/ncu.txt
: > "$S"
say() { printf '%s\n' "$*" | tee -a "$S"; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f s", b - a }'; }

if ! ls /dev/nvidia0 >/dev/null 2>&1; then say "skipped: no NVIDIA GPU here"; exit 77; fi
command -v bwrap >/dev/null 2>&1 || . tests/gpu/device-env.sh >> "$S"
export PATH="/usr/local/cuda/bin:$PATH"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
say "== ncu-work-on-device ($MODE): $(date -u +%FT%TZ); $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1); $(nproc) cores; uid $(id -u)"
say "ncu: ${NCU:-none} -> $(readlink -f "${NCU:-/none}" 2>/dev/null); $("${NCU:-false}" --version 2>/dev/null | tail -1)"
say "bwrap: $(command -v bwrap || echo none) $(bwrap --version 2>/dev/null)"
say "driver: $(grep -i -E 'profil' /proc/driver/nvidia/params 2>/dev/null | tr '\n' ' ') (RmProfilingAdminOnly 1: counters for CAP_SYS_ADMIN only)"
say "modprobe: $(grep -rh -i 'RestrictProfiling' /etc/modprobe.d 2>/dev/null | tr '\n' ' ')"
uptime | tee -a "$S"

# ------------------------------------------------------------------ build (what the steps need)
t0=$(now)
if [ ! -f "$B/build.ninja" ]; then
    meson setup "$B" -Dtests=false -Dgpu_archs=90 -Dgpu_programs=enabled --buildtype=debugoptimized > "$OUT/build.log" 2>&1 ||
        { say "meson setup failed:"; tail -30 "$OUT/build.log" | tee -a "$S"; exit 2; }
fi
T="common/tl-mat solutions/02-naive-kernel/lab02-ref solutions/03-tiled-kernel/lab03-ref
   solutions/06-register-tiling/lab06-ref"
# shellcheck disable=SC2086
ninja -C "$B" $T >> "$OUT/build.log" 2>&1 ||
    { say "build failed:"; grep -E 'error|FAILED' "$OUT/build.log" | head -20 | tee -a "$S"; exit 2; }
HAVE_GRADER=1
ninja -C "$B" grader/tl-sandbox-exec grader/tl-grade >> "$OUT/build.log" 2>&1 ||
    { HAVE_GRADER=0; say "the grader did not build (the sandbox steps are skipped):"; grep -E 'error|FAILED|WARNING' "$OUT/build.log" | head -8 | tee -a "$S"; }
say "built $T in $(since "$t0")"
[ -n "$NCU" ] || { say "not checked here: no ncu on PATH or under /usr/local/cuda/bin or /opt/nvidia"; exit 77; }
# the binary itself: the toolkit's bin/ncu is a script that finds its nsight-compute folder next to
# the toolkit or under /opt/nvidia, which the sandbox does not bind (request ncu-1 found that out)
NCUBIN=$(ls -d /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/nsight-compute*/ncu 2>/dev/null | tail -1)
NCUBIN=$(readlink -f "${NCUBIN:-$NCU}")
NCUDIR=$(dirname "$NCUBIN")
say "ncu binary: $NCUBIN (its folder $NCUDIR is bound read-only into the sandbox)"

# ------------------------------------------------------------------ the metrics this ncu knows
QM=${TMPDIR:-/tmp}/ncu-query-metrics.txt
"$NCU" --query-metrics > "$QM" 2>&1
say "query-metrics: exit $?, $(wc -l < "$QM") lines; the ones the step may use:"
grep -E 'thread_inst_executed_op_(ffma|dfma|fmul|fadd|dmul|dadd|hfma|global|shared|ld|st)|inst_executed_op_(global|shared|ldgsts|ldsm)|pipe_tensor|lsu_mem_global_op_(ld|st)|mem_shared_op_(ld|st)|gpu__time_duration|dram__bytes_read' \
    "$QM" | awk '{print "  " $1}' | sort -u | tee -a "$S"
WANT="gpu__time_duration.sum smsp__sass_thread_inst_executed_op_ffma_pred_on.sum smsp__sass_thread_inst_executed_op_dfma_pred_on.sum
smsp__sass_thread_inst_executed_op_fmul_pred_on.sum smsp__sass_thread_inst_executed_op_fadd_pred_on.sum
smsp__sass_inst_executed_op_global_ld.sum smsp__sass_inst_executed_op_global_st.sum smsp__sass_inst_executed_op_shared_ld.sum
smsp__sass_inst_executed_op_shared_st.sum smsp__sass_inst_executed_op_ldgsts.sum l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum smsp__sass_thread_inst_executed_op_global_ld_pred_on.sum
smsp__sass_thread_inst_executed_op_shared_ld_pred_on.sum smsp__sass_thread_inst_executed_op_global_st_pred_on.sum
smsp__sass_thread_inst_executed_op_shared_st_pred_on.sum sm__inst_executed_pipe_tensor_op_hmma.sum sm__inst_executed_pipe_tensor_op_gmma.sum"
MET=""
for m in $WANT; do
    base=${m%.sum}
    if grep -q "^$base\b\|^ *$base " "$QM"; then MET="$MET${MET:+,}$m"
    else say "  (not known to this ncu: $m)"; fi
done
say "metrics used: $MET"

# ncu on one lab program run; $1 tag, $2 where (host|sandbox|sandbox-noseccomp), rest the program and its args
ncu_run() {
    local tag=$1 where=$2 prog=$3; shift 3
    local t rc
    t=$(now)
    local log=$OUT/$tag.log csv=$OUT/$tag.csv
    case $where in
    host)
        "$NCU" --clock-control none --csv --page raw --metrics "$MET" --log-file "$csv" "$B/$prog" "$@" > "$log" 2>&1
        rc=$? ;;
    sandbox*)
        local g=$OUT/grant-$tag
        rm -rf "$g"; mkdir -p "$g/out"
        local ns="" pw=""
        [ "$where" != sandbox ] && ns=--no-seccomp
        if [ "$where" = sandbox-passwd ]; then   # the grader's profiled session: its user in /etc/passwd
            printf 'nobody:x:65534:65534:nobody:/tmp/case:/bin/sh\n' > "$g/passwd"
            printf 'nogroup:x:65534:\n' > "$g/group"
            chmod 644 "$g/passwd" "$g/group"
            pw="--ro $g/passwd:/etc/passwd --ro $g/group:/etc/group"
        fi
        # shellcheck disable=SC2086
        "$B/grader/tl-sandbox-exec" --gpu $ns $pw --tasks 512 --grant "$g" --rw "$g/out:/out" --ro "$B:/build" \
            --ro "$NCUDIR" --limit 240 -- "$NCUBIN" --clock-control none --csv --page raw --metrics "$MET" --log-file /out/ncu.csv \
            "/build/$prog" "$@" > "$log" 2>&1
        rc=$?
        cp "$g/out/ncu.csv" "$csv" 2>/dev/null || : > "$csv" ;;
    esac
    say ""
    say "-- $tag ($where): exit $rc in $(since "$t"); $(grep -c '^"' "$csv") CSV lines; the program and ncu said (tail):"
    grep -v '^"' "$log" | tail -12 | sed 's/^/   | /' | tee -a "$S"
    [ -s "$csv" ] && { say "   ncu's own lines in its log:"; grep -v '^"' "$csv" | tail -6 | cut -c1-300 | sed 's/^/   | /' | tee -a "$S"; }
    say "   raw CSV (Kernel Name and the metrics' columns; first 14 rows):"
    python3 - "$csv" "$MET" <<'PY' | tee -a "$S"
import csv, sys
rows = [r for r in csv.reader(l for l in open(sys.argv[1], errors="replace") if l.startswith('"'))]
if not rows:
    print("   (none)"); sys.exit()
head = rows[0]
want = ["ID", "Kernel Name"] + sys.argv[2].split(",")
cols = [head.index(w) for w in want if w in head]
print("   " + " | ".join(head[c] for c in cols))
for r in rows[1:15]:
    print("   " + " | ".join((r[c] if c < len(r) else "?")[:48] for c in cols))
PY
}

# ncu in the grader's sandbox (tl-sandbox-exec: the same tg_iso_probe and tg_spawn a graded case
# uses): a program run, with and without the network filter, and a --serve session (fds 3 and 4
# through ncu to the program)
sandbox_probes() {
    # the sandbox: as a graded case (uid 65534, no capabilities, seccomp), then without the network filter
    ncu_run probe-sandbox-03-tiled16-512 sandbox solutions/03-tiled-kernel/lab03-ref --sizes 512 --variants tiled16 --no-time --repeat 1
    ncu_run probe-sandbox-noseccomp-03-tiled16-512 sandbox-noseccomp solutions/03-tiled-kernel/lab03-ref --sizes 512 --variants tiled16 --no-time --repeat 1
    ncu_run probe-sandbox-passwd-03-tiled16-512 sandbox-passwd solutions/03-tiled-kernel/lab03-ref --sizes 512 --variants tiled16 --no-time --repeat 1
    # a --serve session under ncu inside the sandbox: fds 3 and 4 must reach the program through ncu
    g=$OUT/grant-serve; rm -rf "$g"; mkdir -p "$g/out" "$g/in"
    "$B/common/tl-mat" gen 512 512 11 "$g/in/M.mat" && "$B/common/tl-mat" gen 512 512 12 "$g/in/N.mat"
    { printf 'case tiled16 512 512 512 0\n'; cat "$g/in/M.mat" "$g/in/N.mat"; printf 'quit\n'; } > "$g/in/req"
    chmod -R a+rX "$g/in"
    t=$(now)
    printf 'nobody:x:65534:65534:nobody:/tmp/case:/bin/sh\n' > "$g/in/passwd"; printf 'nogroup:x:65534:\n' > "$g/in/group"
    chmod -R a+rX "$g/in"
    "$B/grader/tl-sandbox-exec" --gpu --no-seccomp --tasks 512 --grant "$g" --rw "$g/out:/out" --ro "$g/in:/in" \
        --ro "$B:/build" --ro "$g/in/passwd:/etc/passwd" --ro "$NCUDIR" --limit 240 -- /bin/sh -c "exec 3</in/req 4>/out/answer; exec '$NCUBIN' --clock-control none --csv \
        --page raw --metrics '$MET' --log-file /out/ncu.csv /build/solutions/03-tiled-kernel/lab03-ref --serve" \
        > "$OUT/probe-serve.log" 2>&1
    say ""
    say "-- --serve under ncu in the sandbox: exit $? in $(since "$t"); answer: $(head -c 40 "$g/out/answer" 2>/dev/null | head -1 | tr -cd '[:print:]'); ncu CSV lines: $(grep -c '^"' "$g/out/ncu.csv" 2>/dev/null)"
    tail -8 "$OUT/probe-serve.log" | sed 's/^/   | /' | tee -a "$S"
    grep -v '^"' "$g/out/ncu.csv" 2>/dev/null | tail -5 | cut -c1-300 | sed 's/^/   | ncu: /' | tee -a "$S"
    cp "$g/out/ncu.csv" "$OUT/probe-serve.csv" 2>/dev/null
}

if [ "$MODE" = probe ]; then
    ncu_run probe-host-03-tiled16-512 host solutions/03-tiled-kernel/lab03-ref --sizes 512 --variants tiled16 --no-time --repeat 1
    ncu_run probe-host-02-naive-512 host solutions/02-naive-kernel/lab02-ref --sizes 512 --variants naive --no-time --repeat 1
    ncu_run probe-host-06-regtile-1024 host solutions/06-register-tiling/lab06-ref --sizes 1024 --variants regtile --no-time --repeat 1
    # the timed path at the speed size: the kit's kernels around the student's, and what a timed run costs under ncu
    ncu_run probe-host-03-tiled32-2048-timed host solutions/03-tiled-kernel/lab03-ref --sizes 2048 --variants tiled32 --repeat 1
    say "   kernels by name in that run:"
    python3 - "$OUT/probe-host-03-tiled32-2048-timed.csv" <<'PY' | tee -a "$S"
import csv, sys, collections
rows = [r for r in csv.reader(l for l in open(sys.argv[1], errors="replace") if l.startswith('"'))]
if rows:
    h = rows[0]; k = h.index("Kernel Name"); t = h.index("gpu__time_duration.sum") if "gpu__time_duration.sum" in h else None
    c = collections.OrderedDict()
    for r in rows[2:]:
        c.setdefault(r[k], []).append(r[t] if t is not None else "?")
    for name, ts in c.items():
        print("   %3d x %s: %s" % (len(ts), name[:70], " ".join(ts[:14])))
    print("   units: " + " | ".join(rows[1][:12]))
PY
    # ncu without the kit's kernels (a regex that leaves tl_* out), as the step would profile
    t=$(now)
    "$NCU" --clock-control none --csv --page raw --metrics gpu__time_duration.sum --kernel-name-base function \
        --kernel-name 'regex:^(?!tl_)' --log-file "$OUT/probe-regex.csv" \
        "$B/solutions/03-tiled-kernel/lab03-ref" --sizes 2048 --variants tiled32 --repeat 1 > "$OUT/probe-regex.log" 2>&1
    say ""
    say "-- kernel-name regex:^(?!tl_): exit $? in $(since "$t"); kernels: $(grep '^"' "$OUT/probe-regex.csv" | tail -n +3 | cut -d, -f5 | sort | uniq -c | tr '\n' ' ')"
    grep -v '^"' "$OUT/probe-regex.log" | tail -4 | sed 's/^/   | /' | tee -a "$S"
    [ "$HAVE_GRADER" = 1 ] || { say "no grader build: the sandbox probes are skipped"; exit 0; }
    sandbox_probes
    # what the target process sees of ncu (what a student could detect): its environment's names
    "$NCU" --metrics gpu__time_duration.sum /usr/bin/env > "$OUT/probe-env.log" 2>&1
    say ""
    say "-- the environment ncu gives its target (names only; what a profiler-aware program could look for):"
    grep -o '^[A-Z_][A-Z0-9_]*=' "$OUT/probe-env.log" | sort | comm -13 <(env | grep -o '^[A-Z_][A-Z0-9_]*=' | sort) - | tr '\n' ' ' | tee -a "$S"
    say ""
    say "probe done; uptime: $(uptime)"
    exit 0
fi

# ------------------------------------------------------------------ full: the grader's counter step
# Each class is graded by tl-grade as an instructor's run is (sandbox, every test of the rubric); the
# step (grader/counters.c) runs each variant once more under ncu in the sandbox before the tests.
# Printed per submission: the score, each correctness test's work line (the counts, the rule's
# decision, what the profiled run cost) and the speed test's lines (the median against ncu's kernel
# time). $OUT stays small (the lead's device tool returns a few MB): the results trees stay in $TMPDIR.
[ "$HAVE_GRADER" = 1 ] || { say "no grader build: nothing to grade"; exit 2; }
T_START=$(now)
sandbox_probes
bad=0
grade_class() {   # $1 lab, $2 class folder; then "NAME EXPECT" pairs: full (every point) or less
    local lab=$1 cls=$2 G=${TMPDIR:-/tmp}/ncu-graded-$1 t rc   # results outside $OUT: it must stay small
    rm -rf "$G"
    od -An -tu8 -N8 /dev/urandom | tr -d ' ' > "$OUT/lab$lab.secret"
    chmod 600 "$OUT/lab$lab.secret"
    t=$(now)
    "$B/grader/tl-grade" --kit "$ROOT" --lab "$lab" --out "$G" --secret "$OUT/lab$lab.secret" -- "$cls"/* \
        > "$OUT/grade-$lab.log" 2>&1
    rc=$?
    say ""
    say "== lab $lab: tl-grade exit $rc in $(since "$t") ($(ls "$cls" | wc -l) submissions); $(grep -m1 -o 'isolation: .*' "$OUT/grade-$lab.log" | cut -c1-140)"
    say "  $(grep -m1 "the GPU's counters" "$OUT/grade-$lab.log" | cut -c1-900)"
    [ -f "$G/gradebook.csv" ] || { say "no gradebook; the log ends:"; tail -20 "$OUT/grade-$lab.log" | tee -a "$S"; bad=1; return; }
    python3 - "$G" <<'PY' | tee -a "$S"
import json, os, sys
G = sys.argv[1]
for st in sorted(os.listdir(G)):
    p = os.path.join(G, st, "results.json")
    if not os.path.isfile(p):
        continue
    js = json.load(open(p))
    print("  %-28s %6.2f / %s" % (st, js.get("score", -1), js.get("tilelab", {}).get("max", "?")))
    for t in js.get("tests", []):
        out = t.get("output", "")
        keep = [l for l in out.splitlines() if l.startswith(("work", "no credit", "no speed credit", "time ",
                "size ", "REVIEW", "not run", "the profiled"))]
        if keep or t.get("score") != t.get("max_score"):
            print("    %-52s %5.2f/%-5s" % (t.get("name", "?")[:52], t.get("score", 0), t.get("max_score", "?")))
            for l in keep[:5]:
                print("      " + l[:330])
PY
    shift 2
    local sol
    sol=$(awk -F, 'NR > 1 && $1 == "solution" { print $2 }' "$G/gradebook.csv")
    while [ $# -ge 2 ]; do
        local name=$1 want=$2 got
        shift 2
        got=$(awk -F, -v n="$name" 'NR > 1 && $1 == n { print $2 }' "$G/gradebook.csv")
        local held=NO
        if [ "$want" = full ]; then awk -v a="$got" -v b="$sol" 'BEGIN { exit !(a != "" && a == b) }' && held=yes
        else awk -v a="$got" -v b="$sol" 'BEGIN { exit !(a != "" && a < b) }' && held=yes; fi
        [ "$held" = yes ] || bad=1
        say "  expect $name: $want (solution $sol, got ${got:-none}): $held"
    done
}

C3=${TMPDIR:-/tmp}/ncu-class-03
rm -rf "$C3"; mkdir -p "$C3/solution"
cp solutions/03-tiled-kernel/tiled.cu "$C3/solution/"
for f in tests/wrong/03/naive-in-tiled.cu tests/hostile/03/gpu_async_stream.cu tests/hostile/03/gpu_profiler_aware.cu; do
    d=$C3/$(basename "$(dirname "$(dirname "$f")")")-$(basename "$f" .cu)
    mkdir -p "$d" && cp "$f" "$d/tiled.cu"
done
grade_class 03 "$C3" wrong-naive-in-tiled less hostile-gpu_async_stream less hostile-gpu_profiler_aware less

for lab in 06:06-register-tiling:regtile.cu 02:02-naive-kernel:naive.cu; do
    IFS=: read -r n dir file <<< "$lab"
    el=$(awk -v a="$T_START" -v b="$(now)" 'BEGIN { printf "%d", b - a }')
    if [ "$el" -gt "${NCU_BUDGET_S:-100}" ]; then say ""; say "== lab $n: skipped: $el s spent, the request's time would not hold it"; continue; fi
    C=${TMPDIR:-/tmp}/ncu-class-$n
    rm -rf "$C"; mkdir -p "$C/solution"
    cp "solutions/$dir/$file" "$C/solution/" || { say "lab $n: no solution file $file"; bad=1; continue; }
    grade_class "$n" "$C"
done
say ""
say "uptime: $(uptime)"
[ "$bad" = 0 ] && { say "EVERY EXPECTATION HELD"; exit 0; }
say "SOME EXPECTATIONS FAILED (logs: $OUT/grade-*.log)"; exit 1
