#!/usr/bin/env bash
# tests/gpu/cpu-diag.sh: where a lab 03 submission's CPU goes on the GPU machine (issue 29, session 13).
#
# Run:  from the repository root on the GPU machine:  bash tests/gpu/cpu-diag.sh
#       $OUT (else ./gpu-out) gets summary.txt (the table) and logs.tgz (the build logs, nvcc's
#       phase times, the grader's logs and progress.json, compute-sanitizer --help).
# What it measures, each piece alone (CPU = user + sys of the piece's whole process tree, counted by
# a cgroup of its own: v2 cpu.stat, else v1 cpuacct; tests/gpu/cpu-diag-client.py for programs):
#   A. the builds a submission makes over the kit's build (the kit configured as the grader's:
#      debugoptimized, -Dtests=false, gpu_archs 90, no yardstick): each command ninja runs for the
#      student's file, alone (nvcc at each tile width, with nvcc's own phase times (--time), the
#      counting twin's rewrite and compiles, the archives, the links), the two ninja calls as the
#      grader makes them on a fresh copy of the kit's build (and the steps ninja ran).
#   B. a lab03 process served as the grader serves it: start and quit (CUDA's context: lazy and
#      eager module loading), the public sizes of both variants in one session (each request's
#      CPU), a speed test's requests at 2048 (spinning and blocking waits), the counting twin's case.
#   C. compute-sanitizer: memcheck (tiled32, the grader's options) and racecheck (tiled16) at 32 and
#      64, racecheck with 1 and 2 CPU worker threads, and the verdict on a racy kernel
#      (tests/wrong/03/nosync1.cu) with its default and with 1 (device request cpu-1 measured the
#      other option variants: no change).
#   D. the grader: tl-grade --jobs 1 on NSUB (default 2) lab 03 submissions (the solution, byte-variants), its
#      profile per stage per submission, each submission's CPU (.done), the grader's own process
#      (/usr/bin/time: itself and the children it reaps; not the sandboxed trees).
# REPS (default 2): repetitions of each piece (the table gives the least and the median).
#   E. (with PARTS E and tests/gpu/cpu-base.patch, the reverse of the branch's cuts, one line of
#      context: `git diff -U1 HEAD 9f09c1e -- grader common labs ':!*.md'` on s13-cpu; applied to a merge
#      with another branch it takes out these cuts alone) the same NSUB
#      submissions graded serially before and after the cuts, ROUNDS times each (default 1), alternating: every test's
#      score compared, CPU-s per stage per submission side by side.
#   F. (session 14) N lab03 sessions started at once (N in FNS, default "1 4 8 16"): start+quit,
#      the public cases, a speed session, racecheck and memcheck: sessions a second, CPU and wall each.
#   G. (session 21) the GPU sessions of a class without its builds, its grader or its sandbox: GSUBS
#      (default 100) submissions of four sessions each, as the grader runs them for lab 03 (the public
#      cases of both variants in one session, racecheck tiled16 at 32 and 64, memcheck tiled32 at 32
#      and 64 with the padding, a speed session of three requests at 2048), GCONC (default "24", a
#      list) sessions at once spread over the GPUs, CUDA_DEVICE_MAX_CONNECTIONS=1 as the grader's;
#      GSETS (default "corr,race,mem,speed"): a list of the kinds each submission runs, one pass per
#      entry (e.g. "corr,race,mem,speed race corr,speed": all four, then racecheck alone, ...).
#      The time they take is a floor under a class run's (which adds the hidden sizes, the sandbox,
#      the builds and the set-up): where it is near the target, no schedule meets the target.
# PARTS (default "A B C D"): the parts run (A alone needs no GPU: the build machine's figures).
# Exit: 0 measured, 2 a build failed, 77 no GPU.
set -u
. tests/gpu/out.sh
ROOT=$(pwd)
REPS=${REPS:-2}
export PATH="/usr/local/cuda/bin:$PATH"
[ -f tests/gpu/device-env.sh ] && . tests/gpu/device-env.sh
PARTS=${PARTS:-A B C D}
part() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }
if [ "$PARTS" != A ] && { ! ls /dev/nvidia0 >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; }; then
    say "skipped: no NVIDIA GPU here"; exit 77
fi
W=$(mktemp -d /tmp/tl-cpudiag.XXXXXX)
K=$W/keep
mkdir -p "$K"
pack() { ( cd "$K" && tar czf "$OUT/logs.tgz" . ) 2>/dev/null; rm -rf "$W"; }
trap pack EXIT
say "== cpu-diag: $(date -u +%FT%TZ) at $(tree_name)"
say "GPU: $(nvidia-smi 2>/dev/null --query-gpu=name,driver_version --format=csv,noheader | head -1); cores $(nproc); $(nvcc --version | tail -1); $(compute-sanitizer --version 2>/dev/null | tail -1)"
say "load at start: $(cut -d' ' -f1-3 /proc/loadavg)"

# cg_run LABEL COMMAND...: the command in a cgroup of its own (cwd as given); one table line
cg_run() {   # (tests/gpu/cpu-diag-client.py --plain: the cgroup as the process pieces' own)
    local l=$1; shift
    : > "$W/last.log"
    CLIENT_LOG=$W/last.log python3 "$ROOT/tests/gpu/cpu-diag-client.py" "$l" --plain -- "$@" > "$W/line"
    local rc=$?
    tee -a "$W/table" < "$W/line" >> "$S"
    cat "$W/line"
    [ $rc = 0 ] || sed 's/^/    | /' "$W/last.log" | tail -6 | tee -a "$S"
    cat "$W/last.log" >> "$K/pieces.log"
    return $rc
}
# rep LABEL COMMAND...: REPS times; the least and the median CPU
rep() {
    local l=$1; shift
    : > "$W/table"
    for i in $(seq "$REPS"); do cg_run "$l #$i" "$@" > /dev/null; done
    awk '{print $(NF - 10)}' "$W/table" | sort -n | awk -v l="$l" '{c[NR] = $1} END {
        printf "  %-50s least %.2f median %.2f CPU-s (%d runs)\n", l, c[1], c[int((NR + 1) / 2)], NR}' | tee -a "$S"
}

# ------------------------------------------------------------------ the kit, built as the grader builds it
say ""
say "== A. the builds of one submission (the kit's build folder configured as the grader's)"
mkdir -p "$W/kit"
tree_copy "$W/kit"
cp solutions/03-tiled-kernel/tiled.cu "$W/kit/labs/03-tiled-kernel/tiled.cu"
KB=$W/kb
t0=$(date +%s)
P=labs/03-tiled-kernel/lab03
C=labs/emulated/lab03-emu-count
export CCACHE_DISABLE=1
if ! { meson setup "$KB" "$W/kit" --buildtype=debugoptimized -Dtests=false -Dcuda=enabled -Dgpu_archs=90 \
            -Dyardstick=disabled > "$K/kb-setup.log" 2>&1 &&
       ninja -C "$KB" -j "$(nproc)" "$P" "$C" > "$K/kb-build.log" 2>&1; }; then
    say "the kit's build failed:"; tail -20 "$K/kb-setup.log" "$K/kb-build.log" | tee -a "$S"; exit 2
fi
say "the kit's build (the two programs): $(( $(date +%s) - t0 )) s; build folder $(du -sh "$KB" | cut -f1), $(find "$KB" -type f | wc -l) files"
cp -a "$KB" "$W/kb0"      # (pristine: the grader copies this per submission)
ninja -C "$KB" -t commands "$P" > "$K/commands-lab03.txt"
ninja -C "$KB" -t commands "$C" > "$K/commands-count.txt"
# the student file's commands: those naming tiled, and the final link of each program
pieces() {   # pieces FILE: "N<TAB>command" for each piece that depends on the student's file
    grep -n -E 'tiled' "$1" | grep -v 'lab\.c\.o' | sed 's/:/\t/'
    printf '%s\t%s\n' "$(wc -l < "$1")" "$(tail -1 "$1")"
}
cd "$KB" || exit 2
# as the grader builds a submission: a copy of the kit's build, the student's objects removed, then
# ninja for the program and ninja for the counting twin (each step ninja ran is in the logs)
grader_build() {   # grader_build TAG: one submission's two ninja calls on a fresh copy
    rm -rf "$W/kbg"
    cg_run "$1: copy of the kit's build (cp -a)" cp -a --reflink=auto "$W/kb0" "$W/kbg" > /dev/null
    find "$W/kbg/labs" \( -name 'tiled.*' -o -name 'meson-generated_tiled.*' \) -type f -delete
    cg_run "$1: ninja -j 2 lab03" ninja -C "$W/kbg" -j 2 "$P" > /dev/null
    grep '^\[' "$W/last.log" | sed "s/^/    $1 lab03 /" >> "$K/grader-build-steps.txt"
    cg_run "$1: ninja -j 2 lab03-emu-count" ninja -C "$W/kbg" -j 2 "$C" > /dev/null
    grep '^\[' "$W/last.log" | sed "s/^/    $1 count /" >> "$K/grader-build-steps.txt"
    cg_run "$1: ninja no-op after it" ninja -C "$W/kbg" -j 2 "$P" "$C" > /dev/null
}
if part A; then
    for i in $(seq "$REPS"); do grader_build "as the grader #$i"; done
    say "  steps ninja ran (the first submission): $(grep 'as the grader #1' "$K/grader-build-steps.txt" | sed 's/.*\] //' | tr '\n' ';' | cut -c1-900)"
    for f in lab03 count; do
        pieces "$K/commands-$f.txt" | sort -un | while IFS=$'\t' read -r n cmd; do
            what=$(printf '%s' "$cmd" | grep -oE -- '-o [^ ]+' | head -1 | sed 's/-o //; s#.*/##')
            [ -n "$what" ] || what=$(printf '%s' "$cmd" | awk '{print $1" ... "$NF}' | sed 's#[^ ]*/##g')
            printf '%s\n' "$cmd" > "$W/cmd.sh"
            rep "$f step $n: ${what:0:40}" bash "$W/cmd.sh"
            case $cmd in *nvcc*" -c "*tiled*)
                rm -f "$W/nvcc.csv"
                if bash -c "$cmd --time $W/nvcc.csv" > /dev/null 2>&1; then
                    say "    nvcc's phases (ms): $(awk -F, 'NR > 1 {gsub(/ +$|^ +/, "", $2); printf "%s %.0f; ", $2, $7}' "$W/nvcc.csv")"
                fi
                cp "$W/nvcc.csv" "$K/nvcc-$n.csv" 2>/dev/null
                bash -c "$cmd --dryrun" > "$K/nvcc-dryrun-$n.txt" 2>&1
                ;;
            esac
        done
    done
fi
cd "$ROOT" || exit 2

part B || part C || part D || part E || part F || part G || exit 0
CL="python3 $ROOT/tests/gpu/cpu-diag-client.py"
LAB=$KB/$P
CNT=$KB/$C
b() { $CL "$@" 2>&1 | tee -a "$S"; }
# the public sizes of both variants (the rubric's), one request each
export CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-0}
pub16="tiled16:16,tiled16:32,tiled16:48,tiled16:64,tiled16:256,tiled16:512,tiled16:1024,tiled16:2048,tiled16:4096"
pub32="tiled32:32,tiled32:64,tiled32:256,tiled32:512,tiled32:1024,tiled32:2048,tiled32:4096"
# ------------------------------------------------------------------ B. a lab program's process
if part B; then
say ""
say "== B. lab03 --serve processes (CPU of the program's tree; inputs made outside it)"
for i in $(seq "$REPS"); do b "start+quit (blocking sync) #$i" - -- env TL_CUDA_SYNC=blocking "$LAB" --serve; done
b "start+quit, CUDA_MODULE_LOADING=EAGER" - -- env TL_CUDA_SYNC=blocking CUDA_MODULE_LOADING=EAGER "$LAB" --serve
b "start+quit, spinning sync (speed sessions)" - -- "$LAB" --serve
b "the public cases of both variants, one session" "$pub16,$pub32" -- env TL_CUDA_SYNC=blocking "$LAB" --serve
b "speed session: 2048 x2 untimed + timed (spin)" tiled32:2048,tiled32:2048,tiled32:2048:t -- "$LAB" --serve
b "speed session: the same, blocking sync" tiled32:2048,tiled32:2048,tiled32:2048:t -- env TL_CUDA_SYNC=blocking "$LAB" --serve
b "counting twin: tiled16@128 + tiled32@128" tiled16:128,tiled32:128 -- "$CNT" --serve

fi
# ------------------------------------------------------------------ F. N sessions at once
# (session 14) a class's GPU phase runs 10-16 sessions at once: how do real lab03 sessions scale?
# N clients started together, each one session; the rate of sessions and each one's CPU and wall.
pf() {   # pf LABEL N REQS -- COMMAND...
    local l=$1 n=$2 r=$3 t0 t1 i; shift 3
    t0=$(date +%s.%N)
    for ((i = 0; i < n; i++)); do $CL "$l" "$r" "$@" > "$W/pf.$i" 2>&1 & done
    wait
    t1=$(date +%s.%N)
    cat "$W"/pf.* >> "$K/part-f.txt"
    cat "$W"/pf.* | awk -v l="$l" -v n="$n" -v t0="$t0" -v t1="$t1" '
        / CPU-s \(user / { for (i = 1; i <= NF; i++) { if ($i == "CPU-s" && !c1) { cpu += $(i - 1); c1 = 1 }
                                               if ($i == "sys") sys += $(i + 1); if ($i == "wall;" && !w1) { wall += $(i - 2); w1 = 1 } }
                         c++; c1 = 0; w1 = 0 }
        END { d = t1 - t0; printf "  %-44s N=%-3d %2d of %d answered in %6.2f s: %5.2f sessions/s; each %.2f CPU-s (sys %.2f), %.2f s wall\n",
                  l, n, c, n, d, c / d, c ? cpu / c : 0, c ? sys / c : 0, c ? wall / c : 0 }' | tee -a "$S"
    rm -f "$W"/pf.*
}
if part F; then
say ""
say "== F. N lab03 sessions at once (each line: N clients started together)"
small="tiled16:16,tiled16:32,tiled16:48,tiled16:64,tiled16:256,tiled16:512,tiled32:32,tiled32:64,tiled32:256,tiled32:512"
CSF="compute-sanitizer --error-exitcode 99 --print-limit 20 --launch-timeout 0"
for n in ${FNS:-1 4 8 16}; do pf "start+quit" "$n" - -- env TL_CUDA_SYNC=blocking "$LAB" --serve; done
for n in ${FNS:-1 4 8 16}; do pf "public cases, both variants" "$n" "$pub16,$pub32" -- env TL_CUDA_SYNC=blocking "$LAB" --serve; done
for n in ${FNS:-1 4 8 16}; do pf "public cases up to 512" "$n" "$small" -- env TL_CUDA_SYNC=blocking "$LAB" --serve; done
for n in ${FNS:-1 4 8 16}; do pf "speed session 2048 x3" "$n" tiled32:2048,tiled32:2048,tiled32:2048 -- "$LAB" --serve; done
for n in ${FNS:-1 4 8 16}; do pf "racecheck tiled16 32,64" "$n" tiled16:32,tiled16:64 -- env TL_CUDA_SYNC=blocking $CSF --tool racecheck \
    --racecheck-num-workers 1 "$LAB" --serve; done
for n in ${FNS:-1 4 8 16}; do pf "memcheck tiled32 32,64" "$n" tiled32:32,tiled32:64 -- env TL_CUDA_SYNC=blocking $CSF --tool memcheck \
    --padding 65536 "$LAB" --serve --exact-alloc; done
fi
# ------------------------------------------------------------------ G. a class's GPU sessions alone
if part G; then
ngpu=$(nvidia-smi -L | wc -l)
NSUB_G=${GSUBS:-100}
CSG="compute-sanitizer --error-exitcode 99 --print-limit 20 --launch-timeout 0"
say ""
say "== G. the GPU sessions of $NSUB_G lab 03 submissions, no builds (each set below: the sessions a submission runs), over $ngpu GPU(s), CUDA_DEVICE_MAX_CONNECTIONS=1"
cat > "$W/g1.sh" <<G1
#!/usr/bin/env bash
# g1.sh I KIND: session KIND of submission I, on GPU I % $ngpu
export CUDA_VISIBLE_DEVICES=\$((\$1 % $ngpu)) CUDA_DEVICE_MAX_CONNECTIONS=1
exec > "$W/gout/\$1-\$2.txt" 2>&1    # (a file each: lines of sessions at once never interleave)
case \$2 in
  corr)  exec $CL "corr" "$pub16,$pub32" -- env TL_CUDA_SYNC=blocking "$LAB" --serve ;;
  race)  exec $CL "race" tiled16:32,tiled16:64 -- env TL_CUDA_SYNC=blocking $CSG --tool racecheck --racecheck-num-workers 1 "$LAB" --serve ;;
  mem)   exec $CL "mem" tiled32:32,tiled32:64 -- env TL_CUDA_SYNC=blocking $CSG --tool memcheck --padding 65536 "$LAB" --serve --exact-alloc ;;
  speed) exec $CL "speed" tiled32:2048,tiled32:2048,tiled32:2048:t -- "$LAB" --serve ;;
esac
G1
chmod +x "$W/g1.sh"
for set in ${GSETS:-corr,race,mem,speed}; do
for ((i = 0; i < NSUB_G; i++)); do for k in ${set//,/ }; do echo "$i $k"; done; done > "$W/g.list"
for gc in ${GCONC:-24}; do
    rm -rf "$W/gout"; mkdir -p "$W/gout"
    t0=$(date +%s.%N)
    xargs -P "$gc" -L 1 "$W/g1.sh" < "$W/g.list"
    t1=$(date +%s.%N)
    cat "$W"/gout/*.txt > "$K/part-g-$set-$gc.txt"
    say "  sessions $set of each submission:"
    awk -v gc="$gc" -v t0="$t0" -v t1="$t1" -v n="$NSUB_G" '
        $3 == "CPU-s" { k = $1; c[k]++; cpu[k] += $2; for (i = 1; i <= NF; i++) if ($i == "wall;") { w[k] += $(i - 2); break }
                        if ($0 !~ /exit (0|99)( |$)/) bad++; tot++ }
        END { d = t1 - t0; printf "  %d at once: %d sessions in %.1f s (%.2f a second; %.1f s for each 100 submissions); %d did not end well\n",
                     gc, tot, d, tot / d, d * 100 / n, bad
              for (k in c) printf "    %-6s %3d sessions, each %.2f CPU-s, %.2f s wall on average\n", k, c[k], cpu[k] / c[k], w[k] / c[k] }' \
        "$K/part-g-$set-$gc.txt" | tee -a "$S"
done
done
fi
# ------------------------------------------------------------------ C. compute-sanitizer
if part C; then
say ""
say "== C. compute-sanitizer (the grader's options: session.c argv_tool)"
compute-sanitizer --help > "$K/compute-sanitizer-help.txt" 2>&1
CS="compute-sanitizer --error-exitcode 99 --print-limit 20 --launch-timeout 0"
MC="$CS --tool memcheck --padding 65536"
RC="$CS --tool racecheck"
sm="tiled32:32,tiled32:64"
sr="tiled16:32,tiled16:64"
for i in $(seq "$REPS"); do b "memcheck tiled32 32,64 #$i" "$sm" -- env TL_CUDA_SYNC=blocking $MC "$LAB" --serve --exact-alloc; done
for i in $(seq "$REPS"); do b "racecheck tiled16 32,64 #$i" "$sr" -- env TL_CUDA_SYNC=blocking $RC "$LAB" --serve; done
# racecheck's CPU worker threads (its default 0: it picks; the grader now passes 1): cpu-1 found a
# racecheck session at 1.4-1.6 CPU-s, most of it before the first request
for w in 1 2; do
    for i in $(seq "$REPS"); do
        b "racecheck 32,64 --racecheck-num-workers $w #$i" "$sr" -- env TL_CUDA_SYNC=blocking $RC --racecheck-num-workers "$w" \
            "$LAB" --serve
    done
done
for i in $(seq "$REPS"); do b "racecheck start+quit, --racecheck-num-workers 1 #$i" - -- env TL_CUDA_SYNC=blocking $RC \
    --racecheck-num-workers 1 "$LAB" --serve; done
# the same verdict on a racy kernel (tests/wrong/03/nosync1.cu: no __syncthreads() after the loads)
cp tests/wrong/03/nosync1.cu "$W/kit/labs/03-tiled-kernel/tiled.cu"
if ninja -C "$KB" "$P" > "$K/racy-build.log" 2>&1; then
    b "racy: racecheck 32,64 (default workers)" "$sr" -- env TL_CUDA_SYNC=blocking $RC "$LAB" --serve
    b "racy: racecheck 32,64 --racecheck-num-workers 1" "$sr" -- env TL_CUDA_SYNC=blocking $RC --racecheck-num-workers 1 "$LAB" --serve
else
    say "the racy file did not build: $(tail -3 "$K/racy-build.log")"
fi
cp solutions/03-tiled-kernel/tiled.cu "$W/kit/labs/03-tiled-kernel/tiled.cu"
ninja -C "$KB" "$P" >> "$K/racy-build.log" 2>&1
b "bwrap alone (true), for scale" - -- bwrap --ro-bind / / --dev /dev --proc /proc --unshare-all --die-with-parent /bin/true

fi
# ------------------------------------------------------------------ D. the grader, serially
if part D || part E; then
say ""
say "== D. tl-grade --jobs 1 on ${NSUB:-2} lab 03 submissions (the grader's profile, per submission)"
B=${TL_BUILD:-build-gpu}
t0=$(date +%s)
if [ ! -f "$B/build.ninja" ]; then
    meson setup "$B" -Dtests=false -Dgpu_archs=90 -Dgpu_programs=enabled -Dbuildtype=debugoptimized > "$K/build.log" 2>&1 ||
        { say "meson setup failed:"; tail -30 "$K/build.log" | tee -a "$S"; exit 2; }
fi
ninja -C "$B" grader/tl-grade common/tl-lab >> "$K/build.log" 2>&1 ||
    { say "building tl-grade failed:"; tail -30 "$K/build.log" | tee -a "$S"; exit 2; }
say "tl-grade built in $(( $(date +%s) - t0 )) s"
unset CCACHE_DISABLE
sh tests/gpu/class-submissions.sh --n "$(( ${NSUB:-2} + 1 ))" --wrong 0 --corpus 0 "$W/in" > "$K/class.tsv" 2>&1
rm -rf "$W"/in/s001-*      # (the skeleton: the honest path is what a class mostly is)
head -c 8 /dev/urandom | od -An -tu8 | tr -d ' ' > "$W/secret"
export TL_GRADE_LOCK_DIR=$W/locks
mkdir -p "$TL_GRADE_LOCK_DIR"
grade_serial() {   # grade_serial TAG TL-GRADE KIT: one serial run, its profile per submission
    local tag=$1 tg=$2 kit=$3
    rm -rf "$W/out-$tag"
    /usr/bin/time -f '%U %S %e' -o "$W/time-$tag" "$tg" --kit "$kit" --lab 03 --out "$W/out-$tag" \
        --secret "$W/secret" --jobs 1 "$W"/in/* > "$K/run-$tag.log" 2>&1
    local rc=$?
    cp "$W/out-$tag/progress.json" "$K/progress-$tag.json" 2>/dev/null
    say "[$tag] tl-grade exit $rc; itself and the children it reaped (not the sandboxed trees): $(awk '{printf "user %.2f sys %.2f CPU-s, %.1f s wall", $1, $2, $3}' "$W/time-$tag")"
    python3 - "$W/out-$tag" "$tag" <<'PY' | tee -a "$S"
import glob, json, os, sys
out, tag = sys.argv[1], sys.argv[2]
try:
    p = json.load(open(os.path.join(out, "progress.json")))["profile"]
except (OSError, ValueError, KeyError):
    print("[%s] no profile" % tag); sys.exit(0)
n = max(p["students"], 1)
print("[%s] profile, CPU-s per submission (%d graded): %s; all stages %.2f" % (tag, n, ", ".join(
    "%s %.2f" % (s["stage"], s["cpu_s"] / n) for s in p["stages"] if s["cpu_s"] >= 0.005), p["stages_cpu_s"] / n))
for d in sorted(glob.glob(os.path.join(out, "*", ".done"))):
    w = open(d).read().split()
    print("[%s]   %s: score %s/%s, %s s wall, %s CPU-s (.done)" % (tag, os.path.basename(os.path.dirname(d)), w[0], w[1], w[2], w[3]))
PY
    grep -hE "^tl-grade: (the kit|GPU)" "$K/run-$tag.log" | cut -c1-300 | tee -a "$S"
    tar czf "$K/out-$tag.tgz" -C "$W/out-$tag" --exclude=.state . 2>/dev/null
}
if [ -f tests/gpu/cpu-base.patch ] && part E; then
    # before/after on this machine: the tree with tests/gpu/cpu-base.patch applied is the code before
    # the branch's cuts (the patch is their reverse), its own tl-grade grading from its own kit
    say "== E. before and after, the same submissions, one after the other (before: tests/gpu/cpu-base.patch applied)"
    tree_copy "$W/base"
    if ! (cd "$W/base" && { git apply "$ROOT/tests/gpu/cpu-base.patch" || patch -p1 -s < "$ROOT/tests/gpu/cpu-base.patch"; }) > "$K/base-patch.log" 2>&1; then
        say "the base patch did not apply:"; tail -5 "$K/base-patch.log" | tee -a "$S"
    elif ! { meson setup "$W/base/build-gpu" "$W/base" -Dtests=false -Dgpu_archs=90 -Dgpu_programs=enabled \
                 -Dbuildtype=debugoptimized > "$K/base-build.log" 2>&1 &&
             ninja -C "$W/base/build-gpu" grader/tl-grade >> "$K/base-build.log" 2>&1; }; then
        say "the base's tl-grade did not build:"; tail -10 "$K/base-build.log" | tee -a "$S"
    else
        for round in $(seq "${ROUNDS:-1}"); do
            grade_serial "before-$round" "$W/base/build-gpu/grader/tl-grade" "$W/base"
            grade_serial "after-$round" "$ROOT/$B/grader/tl-grade" "$ROOT"
        done
        python3 - "$W" <<'PY' | tee -a "$S"
import glob, json, os, sys
w = sys.argv[1]
def tests(out):
    r = {}
    for f in glob.glob(os.path.join(out, "*", "results.json")):
        js = json.load(open(f))
        r[os.path.basename(os.path.dirname(f))] = {t["name"]: t.get("score", 0) for t in js.get("tests", [])}
    return r
def prof(out):
    p = json.load(open(os.path.join(out, "progress.json")))["profile"]
    n = max(p["students"], 1)
    return {s["stage"]: s["cpu_s"] / n for s in p["stages"]}, p["stages_cpu_s"] / n
same = True
rounds = sorted(d[len("out-before-"):] for d in os.listdir(w) if d.startswith("out-before-"))
for rd in rounds:
    b, a = tests(os.path.join(w, "out-before-" + rd)), tests(os.path.join(w, "out-after-" + rd))
    for st in sorted(set(b) | set(a)):
        if b.get(st) != a.get(st):
            same = False
            print("VERDICTS DIFFER (round %s) for %s: before %s, after %s" % (rd, st, b.get(st), a.get(st)))
print("every test's score the same before and after: %s" % ("yes" if same else "NO"))
rows = {}
for tag in [p + "-" + rd for rd in rounds for p in ("before", "after")]:
    try:
        rows[tag] = prof(os.path.join(w, "out-" + tag))
    except (OSError, ValueError, KeyError):
        print("no profile for %s" % tag)
stages = sorted({k for v in rows.values() for k in v[0]})
print("CPU-s per submission, serial:   " + "  ".join("%9s" % t for t in rows))
for st in stages:
    vals = [rows[t][0].get(st, 0) for t in rows]
    if max(vals) >= 0.005:
        print("  %-28s " % st + "  ".join("%9.2f" % v for v in vals))
print("  %-28s " % "all stages" + "  ".join("%9.2f" % rows[t][1] for t in rows))
PY
    fi
else
    grade_serial now "$B/grader/tl-grade" .
fi
fi
say ""
say "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
exit 0
