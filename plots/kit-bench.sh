#!/bin/sh
# kit-bench.sh: ./kit bench - measure the kernels and the device's ceilings on this GPU.
# Called by ./kit with TL_ROOT and TL_BUILD set. Writes ONE records file (common/CONTRACTS.md
# section 4) that ./kit plots and ./kit slides read. Every run is checked before it is timed:
# the lab programs refuse to time a run that failed its check.
set -u

say() { printf '%s\n' "$*"; }
die() { printf 'kit bench: %s\n' "$1" >&2; exit "${2:-2}"; }

usage() {
    cat <<EOF
usage: ./kit bench [--quick] [--out FILE]

Measures, on this machine's GPU: the copy bandwidth and FP32 FMA peak (tl-ceilings); the CPU
baseline at small sizes; the naive, tiled (16, 32) and boundary-handling kernels over sizes that
include non-multiples of the tile; lab 05's tile/occupancy sweep; cuBLAS SGEMM as the yardstick.
Results: one records file, by default build/bench/records-DEVICE-DATE.csv; then ./kit plots FILE.

  --quick     fewer sizes and repetitions (about a minute)
  --out FILE  where to write the records (written to FILE.tmp, then renamed)

Needs a CUDA GPU (exit 77 without one) and a build that is not 'debug' (nvcc -G).
EOF
}

quick=0
out=""
while [ $# -gt 0 ]; do
    case "$1" in
        -h|--help) usage; exit 0 ;;
        --quick) quick=1 ;;
        --out) [ $# -ge 2 ] || die "--out needs a file name"; out=$2; shift ;;
        *) die "unknown argument '$1'; run ./kit bench --help" ;;
    esac
    shift
done

B=$TL_BUILD
ninja -C "$B" >"$B/.bench-build.log" 2>&1 || { cat "$B/.bench-build.log" >&2; die "the build failed" 1; }
bt=$(meson introspect "$B" --buildoptions 2>/dev/null | tr '{' '\n' | sed -n 's/.*"name": "buildtype".*"value": "\([^"]*\)".*/\1/p')
[ "$bt" != debug ] || die "build/ is a debug build (nvcc -G): timings would mean nothing. Fix: meson configure $B -Dbuildtype=debugoptimized"

[ -x "$B/plots/tl-ceilings" ] || die "tl-ceilings was not built: is CUDA enabled? (./kit doctor)" 77
"$B/common/tl-device" >/dev/null 2>&1
[ $? = 0 ] || die "no usable CUDA device here: $("$B/common/tl-device" --brief | sed -n 's/^why: //p')" 77

# The reference solutions' binaries when this is the instructor edition, else the student's.
bin() {
    d=$1; id=$2
    if [ -x "$B/solutions/$d/lab$id-ref" ]; then echo "$B/solutions/$d/lab$id-ref"; else echo "$B/labs/$d/lab$id"; fi
}

# The kernels of labs 02-04 next to cuBLAS in one process: the reference solutions (speed-ref) in
# the instructor edition; the student edition has no solutions, so each lab's own program.
speed=$B/solutions/speed/speed-ref
[ -x "$speed" ] || die "no reference build (solutions/speed): ./kit bench measures the reference kernels and runs in the instructor edition; students run their lab programs with --records instead"

clocks() {
    if command -v nvidia-smi >/dev/null 2>&1; then
        nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv,noheader 2>/dev/null | head -n 1
    else
        echo "unknown (no nvidia-smi)"
    fi
}

# Square sizes (naive, tiled, boundary, cuBLAS in ONE process: speed-ref) and the sizes just
# around multiples of the tile (boundary kernels only: the tiled ones refuse them) are kept
# disjoint, so no measurement is taken twice (tl-plotprep refuses duplicates).
if [ $quick = 1 ]; then
    reps=5
    cpu_sizes=64,128,256
    sq_sizes=256,512,1024,2048,4096
    edge_sizes=1023,1025,2047,2049
    rect_sizes=1000x17x3000,4096x64x4096
    sweep_size=1024
else
    reps=20
    cpu_sizes=64,100,128,256,512
    sq_sizes=128,256,512,1000,1024,2000,2048,3000,4096,6144
    edge_sizes=511,513,1023,1025,2047,2049,4095,4097
    rect_sizes=1000x17x3000,4096x64x4096,6144x4096x512,512x6144x512
    sweep_size=2048
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/tl-bench.XXXXXX") || die "cannot make a temporary folder"
trap 'rm -rf "$work"' EXIT INT TERM
before=$(clocks)
start=$(date +%s)

# step NAME COMMAND...: one part of the bench, its records in $work/NN.csv.
n=0
total=6
step() {
    name=$1; shift
    n=$((n + 1))
    printf '[%d/%d] %-44s ' "$n" "$total" "$name"
    t0=$(date +%s)
    "$@" --records "$work/$(printf %02d $n).csv" >"$work/$(printf %02d $n).log" 2>&1
    rc=$?
    t1=$(date +%s)
    case $rc in
        0) say "ok ($((t1 - t0)) s)" ;;
        *) say "FAILED (exit $rc)"; sed 's/^/    /' "$work/$(printf %02d $n).log" | tail -n 30
           die "a bench step failed its checks, so nothing is reported (log above)" 1 ;;
    esac
}

say "kit bench on $("$B/common/tl-device" --brief | sed -n 's/^name: //p'), clocks before: $before"
step "device ceilings (copy bandwidth, FMA peak)" "$B/plots/tl-ceilings"
step "lab 01 CPU baseline ($cpu_sizes)" "$(bin 01-cpu-baseline 01)" --sizes "$cpu_sizes" --quiet
step "kernels of labs 02-04 + cuBLAS, one process" "$speed" --sizes "$sq_sizes" --reps $reps --quiet
step "boundary kernels around multiples of the tile" "$speed" --variants boundary16,boundary32 --sizes "$edge_sizes" --reps $reps --quiet
step "lab 04 rectangular ($rect_sizes)" "$(bin 04-boundary-handling 04)" --variants rect16,rect32 --sizes "$rect_sizes" --reps $reps --quiet
step "lab 05 tile/occupancy sweep (Width $sweep_size)" "$(bin 05-occupancy-study 05)" --size $sweep_size --reps $reps --quiet
after=$(clocks)
end=$(date +%s)

if [ -z "$out" ]; then
    dev=$(sed -n 's/^# device: //p' "$work/01.csv" | tr -c 'A-Za-z0-9\n' '-' | tr -s '-' | sed 's/-$//')
    mkdir -p "$B/bench"
    out=$B/bench/records-$dev-$(date -u +%Y-%m-%d).csv
fi

# One file: the metadata of the ceilings run (device, clocks, build, date), the bench's own
# keys, one header, then every step's rows.
{
    grep '^# ' "$work/01.csv" | grep -v -e '^# timing:' -e '^# seed:' -e '^# command:'
    say "# seed: $(sed -n 's/^# seed: //p' "$work/03.csv")"
    say "# timing: cuda-events (GPU) / host monotonic clock (CPU), median of $reps after warm-up, L2 flushed between runs when the inputs fit in it; every run checked correct first"
    say "# command: ./kit bench$( [ $quick = 1 ] && echo ' --quick')"
    say "# clocks_before: $before"
    say "# clocks_after: $after"
    say "# duration_s: $((end - start))"
    sed -n '/^kind,/{p;q;}' "$work/01.csv"
    for f in "$work"/[0-9]*.csv; do
        sed -e '/^#/d' -e '/^kind,/d' "$f"
    done
} >"$out.tmp" && mv "$out.tmp" "$out" || die "cannot write $out"

say "clocks after: $after"
say "records: $out ($(grep -vc '^#' "$out") lines) in $((end - start)) s; next: ./kit plots $out"
