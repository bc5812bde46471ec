#!/usr/bin/env bash
# ncu-overhead-diag.sh: where a profiled run's ~2 s goes, and what may overlap (issue 29, session 11).
# A diagnostic, not a test of a verdict: every part prints its figures and goes on.
#
# Run:  from the repository root on the GPU machine (nvcc, ncu, meson, ninja, python3):
#       bash tests/gpu/ncu-overhead-diag.sh        ($OUT, else ./gpu-out/, gets ncu-overhead.txt)
# Session 10 measured (ncu-share-diag.sh): ncu runs one profiled process at a time per host (4 at
# once with a TMPDIR each: 3 fail "a driver resource was unavailable"; with one TMPDIR they queue,
# ~2.15 s each), and a profiled run costs ~1.65 s more than the program alone. The parts:
#   1. the fixed cost: the program alone; `ncu --version`; ncu with the grader's metrics; with the
#      kernel time only; with `--profile-from-start off` (nothing profiled: ncu's and its injection's
#      own start); with `--kernel-name regex:^MatrixMul` (the kit's kernels left out).
#   2. launch and attach apart (`--mode launch`, then `--mode attach`): how long until the launched
#      program waits, how long the attach takes (if only the attach is serial, the serial window is
#      that); then 3 launched at once and attached one after another (ports 49152, 49153, ...).
#   3. several processes under one ncu (`--target-processes all`, a shell running R 4 times): the
#      cost per further process.
#   4. (2 GPUs or more) one ncu on each GPU at once, a TMPDIR each and one TMPDIR: may two devices
#      be profiled at the same time?
# R = the reference's program (lab03-ref, tiled32, its own CLI mode at 512^3: the host's reference
# at that size is a few ms).
set -u
OUT="${OUT:-./gpu-out}"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
B=${TL_BUILD:-build-gpu}
D=$OUT/ncu-overhead.txt
: > "$D"
say() { printf '%s\n' "$*" | tee -a "$D"; }
now() { date +%s.%N; }
since() { awk -v s="$1" -v e="$(now)" 'BEGIN {printf "%.2f", e - s}'; }
[ -f tests/gpu/device-env.sh ] && . tests/gpu/device-env.sh > /dev/null 2>&1
export PATH="/usr/local/cuda/bin:$PATH"
say "== ncu-overhead-diag, $(date -u +%FT%TZ), commit $(git rev-parse --short HEAD 2>/dev/null)"
say "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1) x $(nvidia-smi -L 2>/dev/null | wc -l); cores $(nproc)"
t0=$(now)
if [ ! -f "$B/build.ninja" ]; then
    meson setup "$B" -Dtests=false -Dgpu_archs=90 -Dgpu_programs=enabled -Dbuildtype=debugoptimized > /tmp/ncuo-build.log 2>&1 ||
        { say "meson setup failed"; tail -20 /tmp/ncuo-build.log | tee -a "$D"; exit 2; }
fi
ninja -C "$B" -j 16 solutions/03-tiled-kernel/lab03-ref >> /tmp/ncuo-build.log 2>&1 ||
    { say "build failed"; tail -20 /tmp/ncuo-build.log | tee -a "$D"; exit 2; }
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
W=$(mktemp -d /tmp/tl-ncuo.XXXXXX)
PA="--variants tiled32 --sizes 512 --no-time --quiet"
BASE=(--csv --page raw --clock-control none --metrics "$M")
rows() { grep -c '^"[0-9]' "$1" 2>/dev/null || echo 0; }
errs() { grep -h '==ERROR==' "$@" 2>/dev/null | sort | uniq -c | head -2 | tr -s ' ' | tr '\n' ';'; }
# one timed command, twice: "A s / B s (exit X, N rows)"
twice() {
    local tag=$1; shift
    local res=""
    for i in 1 2; do
        rm -f "$W/$tag.csv"
        local s; s=$(now)
        TMPDIR=$W timeout 60 "$@" > "$W/$tag.log" 2>&1
        local rc=$?
        res="$res $(since "$s") s (exit $rc, $(rows "$W/$tag.csv") rows)"
    done
    say "  $tag:$res $(errs "$W/$tag.log")"
}

# ------------------------------------------------------------------ 1. the fixed cost
say "part 1: the fixed cost (R = lab03-ref tiled32 at 512, CLI mode)"
twice alone "$R" $PA
twice version "$NCU" --version
twice grader "$NCU" "${BASE[@]}" --log-file "$W/grader.csv" "$R" $PA
twice grader-apponly "$NCU" "${BASE[@]}" --target-processes application-only --log-file "$W/grader-apponly.csv" "$R" $PA
twice timeonly "$NCU" --csv --page raw --clock-control none --metrics gpu__time_duration.sum --log-file "$W/timeonly.csv" "$R" $PA
twice nothing "$NCU" "${BASE[@]}" --profile-from-start off --log-file "$W/nothing.csv" "$R" $PA
twice students-only "$NCU" "${BASE[@]}" --kernel-name regex:^MatrixMul --log-file "$W/students-only.csv" "$R" $PA

# ------------------------------------------------------------------ 2. launch, then attach
say "part 2: --mode launch, then --mode attach"
launch() {   # $1 tag: starts ncu --mode launch in the background, waits until it says it waits
    local tag=$1 s; s=$(now)
    TMPDIR=$W timeout 90 "$NCU" --mode launch "$R" $PA > "$W/$tag.launch.log" 2>&1 &
    echo $! > "$W/$tag.pid"
    for _ in $(seq 1 1000); do
        grep -qi 'attach' "$W/$tag.launch.log" 2>/dev/null && break
        kill -0 "$(cat "$W/$tag.pid")" 2>/dev/null || break
        sleep 0.02
    done
    echo "$(since "$s")" > "$W/$tag.ready"
}
attach() {   # $1 tag, $2 port
    local tag=$1 s; s=$(now)
    TMPDIR=$W timeout 60 "$NCU" --mode attach --hostname 127.0.0.1 --port "$2" "${BASE[@]}" --log-file "$W/$tag.csv" \
        > "$W/$tag.attach.log" 2>&1
    local rc=$?
    echo "$(since "$s") s (exit $rc, $(rows "$W/$tag.csv") rows)"
}
launch L1
say "  one: launched and waiting after $(cat "$W/L1.ready") s ($(grep -i -m1 'attach' "$W/L1.launch.log" | cut -c1-120))"
say "  one: attach took $(attach L1 49152) $(errs "$W/L1.attach.log")"
wait 2>/dev/null
s=$(now)
for t in L2 L3 L4; do launch $t & done
wait
say "  three launched at once: waiting after $(cat "$W/L2.ready") / $(cat "$W/L3.ready") / $(cat "$W/L4.ready") s (batch $(since "$s") s)"
p=49152
for t in L2 L3 L4; do
    say "  attach port $p: $(attach $t $p) $(errs "$W/$t.attach.log")"
    p=$((p + 1))
done
sleep 1
pkill -f -- "--mode launch" 2>/dev/null
say "  launch logs (tail): $(tail -n 2 "$W"/L2.launch.log | tr '\n' ' ' | cut -c1-300)"

# ------------------------------------------------------------------ 3. several processes under one ncu
say "part 3: processes under one ncu (--target-processes all)"
s=$(now)
TMPDIR=$W timeout 90 "$NCU" "${BASE[@]}" --target-processes all --log-file "$W/four.csv" \
    bash -c "$R $PA; $R $PA; $R $PA; $R $PA" > "$W/four.log" 2>&1
say "  R 4 times under one ncu: $(since "$s") s (exit $?, $(rows "$W/four.csv") rows) $(errs "$W/four.log")"
s=$(now)
TMPDIR=$W timeout 90 "$NCU" "${BASE[@]}" --target-processes all --log-file "$W/one.csv" bash -c "$R $PA" > "$W/one.log" 2>&1
say "  R once the same way: $(since "$s") s (exit $?, $(rows "$W/one.csv") rows)"

# ------------------------------------------------------------------ 4. one ncu per GPU at once
ngpu=$(nvidia-smi -L 2>/dev/null | wc -l)
if [ "$ngpu" -ge 2 ]; then
    say "part 4: $ngpu GPUs: ncu on GPU 0 and GPU 1 at once"
    for mode in own shared; do
        for rep in 1 2; do
            pids=()
            s=$(now)
            for g in 0 1; do
                td=$W/g$g; [ $mode = shared ] && td=$W/gs
                mkdir -p "$td"
                ( s0=$(now); CUDA_VISIBLE_DEVICES=$g TMPDIR=$td timeout 60 "$NCU" "${BASE[@]}" --log-file "$W/p4-$g.csv" "$R" $PA \
                      > "$W/p4-$g.log" 2>&1; echo "$? $(since "$s0")" > "$W/p4-$g.rc" ) &
                pids+=($!)
            done
            wait "${pids[@]}"
            say "  TMPDIR $mode, try $rep: batch $(since "$s") s; GPU 0: $(cat "$W/p4-0.rc") ($(rows "$W/p4-0.csv") rows), GPU 1: $(cat "$W/p4-1.rc") ($(rows "$W/p4-1.csv") rows) $(errs "$W"/p4-?.log "$W"/p4-?.csv)"
        done
    done
    pids=()
    s=$(now)
    for i in 0 1 2 3; do
        g=$((i % 2)); mkdir -p "$W/q$i"
        ( s0=$(now); CUDA_VISIBLE_DEVICES=$g TMPDIR=$W/q$i timeout 60 "$NCU" "${BASE[@]}" --log-file "$W/p4q-$i.csv" "$R" $PA \
              > "$W/p4q-$i.log" 2>&1; echo "$? $(since "$s0")" > "$W/p4q-$i.rc" ) &
        pids+=($!)
    done
    wait "${pids[@]}"
    each=""; for i in 0 1 2 3; do each="$each [$i on GPU $((i % 2)): $(cat "$W/p4q-$i.rc"), $(rows "$W/p4q-$i.csv") rows]"; done
    say "  4 at once, 2 per GPU, a TMPDIR each: batch $(since "$s") s;$each $(errs "$W"/p4q-?.log "$W"/p4q-?.csv)"
else
    say "part 4: one GPU here: not run"
fi
tar czf "$OUT/ncu-overhead-logs.tgz" -C "$W" . 2>/dev/null
rm -rf "$W"
say "done in $(since "$t0") s"
