#!/usr/bin/env bash
# tests/gpu/gpucpu-on-device.sh: the CPU a lab 03 submission costs where the GPU grades it (issue 29,
# s12-gpucpu), and the default policy of where the work is counted on a GPU, checked on the device.
#
# Run:  from the repository root on the GPU machine:  bash tests/gpu/gpucpu-on-device.sh
#       Everything goes to $OUT (else ./gpu-out): summary.txt, buildcost.txt, progress.json and
#       logs.tgz (run.log, gradebook.csv, progress.txt, class.tsv, the hostile files' results).
# Part A, the builds a submission makes, each timed alone (CPU seconds of the ninja call and every
#       compiler under it: tests/bench/cpu-of.sh), in a build configured as the grader's kit build
#       (debugoptimized, -Dtests=false, gpu_archs 90): the GPU program (nvcc at two tile widths),
#       the emulated program (labNN-emu, which the grader no longer builds on a GPU that has
#       compute-sanitizer) and the counting twin (labNN-emu-count), for 3 distinct files; then one
#       compile of each kind 16 at once (the class's load on 16 cores): CPU per compile, alone and
#       under load.
# Part B, a class graded with the grader's defaults (TL_GRADE_NCU unset: the counting twin counts the
#       work, ncu probed once and used on demand only), --jobs 16: 16 distinct submissions
#       (class-submissions.sh: the solution, the skeleton, 5 known-wrong, 6 corpus right kernels, 3
#       variants), the corpus's 03-right-style-lambda-ldg-tiles.cu and 03-right-style-recursive-helper.cu
#       (honest and slow: profiled on demand, keeps its credit) and 8 hostile files of tests/hostile/03
#       whose verdicts the policy decides (gpu_async_stream, gpu_emulated_twin_differs (refused, naming
#       its test of TL_EMULATED), gpu_runtime_twin_differs (the counters read on demand take its
#       correctness credit), gpu_profiler_aware, sabotage_emulated, sabotage_count (refused, named),
#       interpose_count_only, spoof_unsupported).
#       Prints the profile per stage divided by the submissions (all graded: CPU per submission), each
#       submission's own CPU seconds (.done), and checks the verdicts: the solution and variants full
#       marks, the corpus's right kernels every test but speed as the solution, the skeleton and wrong
#       files less, each hostile file as tests/hostile/expected.txt says at this place
#       (gpu-no-counters: the bare word), and gpu_async_stream's speed test profiled on demand.
# PART_A_ONLY=1: part A alone (no GPU needed: the build machine's figures for comparison);
# PART_B_ONLY=1: part B alone.
# Exit: 0 every check held, 1 one did not, 2 the build or the grader failed, 77 no GPU.
set -u
. tests/gpu/out.sh
ROOT=$(pwd)
B=${TL_BUILD:-build-gpu}
export PATH="/usr/local/cuda/bin:$PATH"
[ -f tests/gpu/device-env.sh ] && . tests/gpu/device-env.sh
if [ "${PART_A_ONLY:-0}" != 1 ] && { ! ls /dev/nvidia0 >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; }; then
    say "skipped: no NVIDIA GPU here"; exit 77
fi
unset TL_GRADE_NCU
say "== gpucpu-on-device: $(date -u +%FT%TZ) at $(tree_name)"
say "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1) x $(nvidia-smi -L 2>/dev/null | wc -l); cores: $(nproc); ncu: $(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1); compute-sanitizer: $(command -v compute-sanitizer)"
W=$(mktemp -d /tmp/tl-gpucpu.XXXXXX)
keep="$OUT/keep"
mkdir -p "$keep"
pack() {
    ( cd "$keep" && tar czf "$OUT/logs.tgz" . ) 2>/dev/null
    rm -rf "$keep" "$W"
}
trap pack EXIT

# ------------------------------------------------------------------ part A: the builds, timed
A=$OUT/buildcost.txt
if [ "${PART_B_ONLY:-0}" = 1 ]; then say "(PART_B_ONLY=1: part A left out)"; else
: > "$A"
sa() { printf '%s\n' "$*" | tee -a "$A" >> "$S"; printf '%s\n' "$*"; }
cpu_of() {   # cpu_of LABEL COMMAND...: the CPU seconds of COMMAND and its children
    local l=$1; shift
    sh "$ROOT/tests/bench/cpu-of.sh" "$@" > "$W/a.out" 2> "$W/a.err"
    local rc=$?
    sa "  $l: $(grep '^cpu-of:' "$W/a.err" | sed 's/^cpu-of: //; s/: .*//') (rc $rc)"
    [ $rc = 0 ] || tail -5 "$W/a.out" "$W/a.err" | sed 's/^/    /' | tee -a "$A"
}
sa "== part A: a submission's builds on this machine (load $(cut -d' ' -f1 /proc/loadavg))"
mkdir -p "$W/kit"
tree_copy "$W/kit"
export CCACHE_DISABLE=1
t0=$(date +%s)
meson setup "$W/kb" "$W/kit" --buildtype=debugoptimized -Dtests=false -Dcuda=enabled -Dgpu_archs=90 > "$keep/kb-setup.log" 2>&1 &&
    ninja -C "$W/kb" -j "$(nproc)" labs/03-tiled-kernel/lab03 labs/emulated/lab03-emu labs/emulated/lab03-emu-count \
        > "$keep/kb-build.log" 2>&1
kbrc=$?
sa "  the kit's build (configure and the 3 programs, -j $(nproc)): $(( $(date +%s) - t0 )) s, rc $kbrc"
if [ $kbrc = 0 ]; then
    dir=labs/03-tiled-kernel
    for i in 1 2 3; do
        cp solutions/03-tiled-kernel/tiled.cu "$W/kit/$dir/tiled.cu"
        printf '/* distinct submission %s %s */\n' "$i" "$RANDOM$RANDOM" >> "$W/kit/$dir/tiled.cu"
        find "$W/kb/labs" \( -name 'tiled.*' -o -name 'meson-generated_tiled.*' \) -type f -delete
        for t in $dir/lab03 labs/emulated/lab03-emu labs/emulated/lab03-emu-count; do
            cpu_of "file $i, ninja $(basename "$t")" ninja -C "$W/kb" -j 2 "$t"
        done
    done
    # one compile of each kind, 16 at once (distinct outputs): CPU per compile under the class's load
    cd "$W/kb" || exit 2
    for kind in $dir/liblab03-tiled16.a:nvcc labs/emulated/liblab03-emu-t16.a:emulated \
                labs/emulated/liblab03-emu-count-t16.a:counting; do
        tgt=${kind%%:*}
        # the compile of the student's file, its object (and depfile) renamed @O@ for each instance
        cmd=$(ninja -t commands "$tgt" 2>/dev/null | grep -E " -c [^ ]*tiled" | tail -1 |
              sed -E 's# -o [^ ]+# -o @O@#; s# -MF [^ ]+# -MF @O@.d#; s#^ccache ##')
        if [ -z "$cmd" ]; then sa "  ${kind#*:}: no compile command found for $tgt"; continue; fi
        printf '%s\n' "$cmd" > "$W/cmd"
        if ! /usr/bin/time -f '%U %S' -o "$W/t1" bash -c "${cmd//@O@/$W/one.o}" > "$W/one.log" 2>&1; then
            sa "  ${kind#*:}: the compile failed: $(tail -c 300 "$W/one.log")"; continue
        fi
        one=$(awk '{printf "%.2f", $1 + $2}' "$W/t1")
        rm -f "$W"/par-*.o
        cpu_of "${kind#*:} compile (TILE_WIDTH 16): alone $one CPU-s; 16 at once" \
            bash -c 'c=$(cat "$1"); for i in $(seq 16); do bash -c "${c//@O@/$2/par-$i.o}" >/dev/null 2>&1 & done; wait' \
            x "$W/cmd" "$W"
        sa "    ($(ls "$W"/par-*.o 2>/dev/null | wc -l) of 16 objects made; that CPU / 16 is one compile under load)"
    done
    cd "$ROOT" || exit 2
fi
unset CCACHE_DISABLE
fi
[ "${PART_A_ONLY:-0}" = 1 ] && exit 0   # (PART_A_ONLY=1: part A alone, which needs no GPU)

# ------------------------------------------------------------------ part B: a class with the defaults
say ""
say "== part B: the grader's defaults (TL_GRADE_NCU unset) on a class of distinct lab 03 submissions"
t0=$(date +%s)
if [ ! -f "$B/build.ninja" ]; then
    meson setup "$B" -Dtests=false -Dgpu_archs=90 -Dgpu_programs=enabled -Dbuildtype=debugoptimized > "$keep/build.log" 2>&1 ||
        { say "meson setup failed:"; tail -30 "$keep/build.log" | tee -a "$S"; exit 2; }
fi
ninja -C "$B" grader/tl-grade common/tl-lab >> "$keep/build.log" 2>&1 ||
    { say "building tl-grade failed:"; tail -30 "$keep/build.log" | tee -a "$S"; exit 2; }
say "tl-grade built in $(( $(date +%s) - t0 )) s"
C=$W/in
bash tests/gpu/class-submissions.sh --n 16 --wrong 5 --corpus 6 "$C" > "$keep/class.tsv" 2>> "$keep/build.log" ||
    { say "making the class failed"; tail -5 "$keep/build.log" | tee -a "$S"; exit 2; }
x=0
for f in 03-right-style-lambda-ldg-tiles 03-right-style-recursive-helper; do   # (the second: slow, profiled on demand)
    x=$((x + 1))
    mkdir -p "$C/x0$x-corpus-right"
    cp "tests/corpus/$f.cu" "$C/x0$x-corpus-right/tiled.cu"
    printf 'x0%s-corpus-right\tcorpus-right\ttests/corpus/%s.cu\n' "$x" "$f" >> "$keep/class.tsv"
done
hostile="gpu_async_stream gpu_emulated_twin_differs gpu_runtime_twin_differs gpu_profiler_aware sabotage_emulated sabotage_count interpose_count_only spoof_unsupported"
for h in $hostile; do
    mkdir -p "$C/hostile-$h"
    cp "tests/hostile/03/$h.cu" "$C/hostile-$h/tiled.cu"
    printf 'hostile-%s\thostile\ttests/hostile/03/%s.cu\n' "$h" "$h" >> "$keep/class.tsv"
done
n=$(ls "$C" | wc -l)
say "class: $n submissions: $(grep -v '^#' "$keep/class.tsv" | cut -f2 | sort | uniq -c | awk '{printf "%s x%s, ", $2, $1}' | sed 's/, $//')"
head -c 8 /dev/urandom | od -An -tu8 | tr -d ' ' > "$W/secret"
export TL_GRADE_LOCK_DIR="$W/locks"
mkdir -p "$TL_GRADE_LOCK_DIR"
: > "$keep/progress.txt"
( while sleep 10; do [ -f "$W/out/progress.json" ] && { date -u +%T; cat "$W/out/progress.json"; } >> "$keep/progress.txt"; done ) &
sampler=$!
t0=$(date +%s.%N)
timeout "${CLASS_TIMEOUT:-230}" "$B/grader/tl-grade" --kit . --lab 03 --out "$W/out" --secret "$W/secret" --jobs 16 "$C"/* \
    > "$keep/run.log" 2>&1
rc=$?
kill "$sampler" 2>/dev/null; wait "$sampler" 2>/dev/null
say "tl-grade: exit $rc after $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}') s wall ($n submissions, --jobs 16)"
[ $rc = 124 ] && say "the class run was stopped by CLASS_TIMEOUT (${CLASS_TIMEOUT:-230} s)"
grep -E "^tl-grade: (the kit|GPU|the GPU's counters)" "$keep/run.log" | cut -c1-700 | tee -a "$S"
cp "$W/out/progress.json" "$OUT/progress.json" 2>/dev/null
cp "$W/out/gradebook.csv" "$keep/" 2>/dev/null
for h in $hostile; do
    d=$(ls -d "$W"/out/hostile-"$h"* 2>/dev/null | head -1)
    [ -n "$d" ] && cp "$d/results.json" "$keep/results-$h.json" 2>/dev/null
done
d=$(ls -d "$W"/out/s000-solution* 2>/dev/null | head -1)
[ -n "$d" ] && cp "$d/results.json" "$keep/results-solution.json" 2>/dev/null

# the profile per submission, and each submission's own CPU (.done: score max seconds cpu)
python3 - "$W/out" "$keep/class.tsv" <<'PY' | tee -a "$S"
import glob, json, os, sys
out, tsv = sys.argv[1], sys.argv[2]
try:
    p = json.load(open(os.path.join(out, "progress.json")))["profile"]
except (OSError, ValueError, KeyError):
    print("no profile in progress.json"); p = None
if p:
    n = max(p["students"], 1)
    print("profile: run %.1f s wall, %d jobs, %d graded; per stage summed, and per graded submission:" %
          (p["run_wall_s"], p["jobs"], p["students"]))
    for st in p["stages"]:
        print("  %-18s %8.1f s wall %8.1f CPU-s   %6.2f CPU-s each" % (st["stage"], st["wall_s"], st["cpu_s"], st["cpu_s"] / n))
    print("  %-18s %8.1f s wall %8.1f CPU-s   %6.2f CPU-s each" % ("all stages", p["stages_wall_s"], p["stages_cpu_s"],
                                                                     p["stages_cpu_s"] / n))
kind = {}
for l in open(tsv):
    if not l.startswith("#") and l.strip():
        f = l.rstrip("\n").split("\t"); kind[f[0]] = f[1]
per = {}
for d in sorted(glob.glob(os.path.join(out, "*", ".done"))):
    name = os.path.basename(os.path.dirname(d))
    w = open(d).read().split()
    k = next((v for s, v in kind.items() if name.startswith(s)), "?")
    per.setdefault(k, []).append((float(w[3]), float(w[2]), name))
allc = [c for v in per.values() for c, _, _ in v]
if allc:
    print("each submission's own CPU-s (the worker and all it ran, .done), %d graded: mean %.2f, min %.2f, max %.2f" %
          (len(allc), sum(allc) / len(allc), min(allc), max(allc)))
for k, v in sorted(per.items()):
    print("  %-13s x%-2d mean %6.2f CPU-s, %6.1f s wall (%s)" % (k, len(v), sum(c for c, _, _ in v) / len(v),
          sum(s for _, s, _ in v) / len(v), ", ".join("%s %.1f" % (nm.split("-")[0], c) for c, _, nm in v)))
PY

# ------------------------------------------------------------------ the verdicts
. tests/hostile/expected.sh
place=$(hostile_place "")
say "== verdicts (hostile files at place '$place')"
python3 - "$W/out" "$keep/class.tsv" "$place" > "$W/verdicts" 2>&1 <<'PY'
import glob, json, os, subprocess, sys
out, tsv, place = sys.argv[1], sys.argv[2], sys.argv[3]
rows = {}
for f in glob.glob(os.path.join(out, "*", "results.json")):
    try:
        js = json.load(open(f))
    except (OSError, ValueError):
        continue
    t = {x["name"]: (x.get("score", 0), x.get("max_score", 0), x.get("output", "")) for x in js.get("tests", [])}
    rows[os.path.basename(os.path.dirname(f))] = t
def find(name):
    return next((v for k, v in rows.items() if k == name or k.startswith(name + "-")), None)
sol = find("s000-solution")
bad = 0
for l in open(tsv):
    if l.startswith("#") or not l.strip():
        continue
    name, kind, src = l.rstrip("\n").split("\t")
    r = find(name)
    if r is None:
        print("NOT GRADED  %s (%s)" % (name, src)); bad = 1; continue
    sc, mx = sum(v[0] for v in r.values()), sum(v[1] for v in r.values())
    ok, why = True, ""
    if kind in ("solution", "variant"):
        ok = sc == mx
    elif kind in ("skeleton", "wrong", "corpus-wrong"):
        ok = sc < mx
    elif kind == "corpus-right" and sol:
        diff = [t for t in r if "speed" not in t and r[t][0] != sol.get(t, (None,))[0]]
        ok, why = not diff, ("differs from the solution in: " + ", ".join(diff)) if diff else ""
    elif kind == "hostile":
        h = os.path.basename(src)[:-3]
        want = subprocess.run(["sh", "-c", '. tests/hostile/expected.sh; hostile_expected tests/hostile/expected.txt 03 "$1" "$2"',
                               "x", h, place], capture_output=True, text=True).stdout.strip() or "less"
        ssc = sum(v[0] for v in sol.values()) if sol else mx
        ok = (sc == ssc) if want == "full" else (sc < ssc)
        why = "expected %s" % want
        alltext = " | ".join(v[2] for v in r.values())
        named = {"gpu_emulated_twin_differs": "tests TL_EMULATED", "sabotage_count": "tests __SANITIZE_THREAD__",
                 "gpu_runtime_twin_differs": "no credit: the GPU's counters, read on demand"}
        if h in named:
            i = alltext.find(named[h])
            why += "; reason named (%s): %s" % (named[h], ("yes: " + alltext[max(i - 40, 0):i + 200].replace("\n", " ")) if i >= 0 else "NO")
            ok = ok and i >= 0
        if h == "gpu_async_stream":
            sp = next((v for t, v in r.items() if "speed" in t), None)
            od = sp is not None and "profiled on demand" in sp[2] and "no speed credit" in sp[2]
            why += "; speed test profiled on demand and refused: %s (%s)" % ("yes" if od else "NO", (sp[2] if sp else "no speed test")[-400:].replace("\n", " | "))
            ok = ok and od
    print("%-4s %-34s %-12s %6.2f/%-6.2f %s" % ("ok" if ok else "BAD", name, kind, sc, mx, why))
    bad |= not ok
    demand = [t for t, v in r.items() if "profiled on demand" in v[2]]
    if demand:
        print("       profiled on demand (%s): %s" % (", ".join(demand), next(v[2] for t, v in r.items() if t == demand[0])
              [r[demand[0]][2].find("profiled on demand"):][:220].replace("\n", " ")))
    if kind in ("corpus-right",) or name.startswith("hostile-"):
        work = [v[2] for t, v in r.items() if "work at size" in v[2]]
        if work:
            w = work[0]; i = w.find("work at size")
            print("       work: %s" % w[i:i + 260].replace("\n", " "))
print("every check held" if not bad else "SOME CHECKS DID NOT HOLD (above)")
sys.exit(bad)
PY
vrc=$?
tee -a "$S" < "$W/verdicts"
grep -E "^\[" "$keep/run.log" | tail -30 > "$keep/progress-lines.txt"
if [ $rc != 0 ] && [ $rc != 124 ]; then say "tl-grade failed (exit $rc):"; tail -15 "$keep/run.log" | tee -a "$S"; exit 2; fi
[ $vrc = 0 ] && [ $rc = 0 ] && exit 0
exit 1
