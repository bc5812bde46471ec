#!/bin/sh
# kit-bench.sh: ./kit bench - measure the kernels and the device's ceilings on this GPU.
# Called by ./kit with TL_ROOT and TL_BUILD set. Writes ONE records file (common/CONTRACTS.md
# section 4) that ./kit plots and ./kit slides read. Every run is checked before it is timed:
# the lab programs refuse to time a run that failed its check.
set -u

TL_WHO="kit bench"
. "$TL_ROOT/common/kit-lib.sh"
say() { tl_say "$@"; }
die() { tl_die "$@"; }

usage() {
    cat <<EOF
usage: ./kit bench [--quick] [--traffic | --no-traffic] [--out FILE]

Measures, on this machine's GPU: the ceilings per level (DRAM copy, L2, L1 and shared-memory
bandwidth, FP32 FMA peak: tl-ceilings); the CPU baseline at small sizes; the kernel ladder (naive
with x walking rows, naive, naive with __ldcg, tiled 16 and 32, boundary 16 and 32, tiled 32 with
bank conflicts and with padding, lab 06 when it is there, cuBLAS SGEMM FP32) at sizes that include a
non-multiple of the tile, each checked before it is timed; the labs' kernels over more sizes; lab 05's
sweep; and the bytes each ladder kernel moves through DRAM, L2, L1 and shared memory, read from the
GPU's counters with Nsight Compute (ncu).
Results: one records file, by default build/bench/records-DEVICE-DATE.csv, then the ladder table;
./kit plots and ./kit slides draw the newest such file.

  --quick       fewer sizes and repetitions
  --traffic     measure the traffic with ncu, and fail if the counters cannot be read
  --no-traffic  do not run ncu; the records carry the lecture's model traffic, labelled "model"
                (default: measure where ncu works, else fall back to the model and say why)
  --out FILE    where to write the records (written to FILE.tmp, then renamed)

Needs a CUDA GPU (exit 77 without one) and a build that is not 'debug' (nvcc -G).
EOF
}

quick=0
traffic=auto
out=""
while [ $# -gt 0 ]; do
    case "$1" in
        -h|--help) usage; exit 0 ;;
        --quick) quick=1 ;;
        --traffic) traffic=yes ;;
        --no-traffic) traffic=no ;;
        --out) [ $# -ge 2 ] || die "--out needs a file name"; out=$2; shift ;;
        *) die "unknown argument '$1'; run ./kit bench --help" ;;
    esac
    shift
done

B=$TL_BUILD
tl_build || die "the build failed (see above)" 1
bt=$(meson introspect "$B" --buildoptions 2>/dev/null | tr '{' '\n' | sed -n 's/.*"name": "buildtype".*"value": "\([^"]*\)".*/\1/p')
[ "$bt" != debug ] || die "build/ is a debug build (nvcc -G): timings would mean nothing. Fix: meson configure $B -Dbuildtype=debugoptimized"

"$B/common/tl-device" >/dev/null 2>&1
[ $? = 0 ] || die "no usable CUDA device here: $("$B/common/tl-device" --brief | sed -n 's/^why: //p')" 77
# (the device first: without a GPU the build leaves out the programs only a GPU runs, tl-ceilings
# among them: the top meson.build's gpu_programs)
[ -x "$B/plots/tl-ceilings" ] || die "tl-ceilings was not built: is CUDA enabled, or -Dgpu_programs=disabled? (./kit doctor)" 77

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

# Sizes. The ladder runs every rung at ladder_sizes (one a multiple of 32, one not: the lab 03
# kernels refuse the second, the others run it); the labs' kernels also run at sq_sizes, and the
# boundary kernels just around multiples of the tile (edge_sizes). The lists are kept disjoint, so
# no measurement is taken twice (tl-plotprep refuses duplicates). Traffic is counted at traffic_size.
labs_variants=naive,tiled16,tiled32,boundary16,boundary32,cublas
if [ $quick = 1 ]; then
    reps=5
    cpu_sizes=64,128,256
    ladder_sizes=1000,2048
    sq_sizes=256,512,1024
    edge_sizes=511,513,1023,1025
    rect_sizes=1000x17x3000,4096x64x4096
    sweep_size=1024
    traffic_size=2048
else
    reps=20
    cpu_sizes=64,100,128,256,512
    ladder_sizes=3000,4096
    sq_sizes=128,256,512,1000,1024,2000,2048,6144
    edge_sizes=511,513,1023,1025,2047,2049,4095,4097
    rect_sizes=1000x17x3000,4096x64x4096,6144x4096x512,512x6144x512
    sweep_size=2048
    traffic_size=4096
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/tl-bench.XXXXXX") || die "cannot make a temporary folder"
trap 'rm -rf "$work"' EXIT INT TERM
before=$(clocks)
start=$(date +%s)

# step NAME COMMAND...: one part of the bench, its records in $work/NN.csv.
n=0
total=8
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
step "ceilings: DRAM, L2, L1, shared, FP32 FMA" "$B/plots/tl-ceilings"
step "lab 01 CPU baseline ($cpu_sizes)" "$(bin 01-cpu-baseline 01)" --sizes "$cpu_sizes" --quiet
step "the kernel ladder ($ladder_sizes), one process" "$speed" --sizes "$ladder_sizes" --reps $reps --quiet
step "labs 02-04 + cuBLAS over sizes ($sq_sizes)" "$speed" --variants "$labs_variants" --sizes "$sq_sizes" --reps $reps --quiet
step "boundary kernels around multiples of the tile" "$speed" --variants boundary16,boundary32 --sizes "$edge_sizes" --reps $reps --quiet
step "lab 04 rectangular ($rect_sizes)" "$(bin 04-boundary-handling 04)" --variants rect16,rect32 --sizes "$rect_sizes" --reps $reps --quiet
step "lab 05 tile/occupancy sweep (Width $sweep_size)" "$(bin 05-occupancy-study 05)" --size $sweep_size --reps $reps --quiet

# ---------------------------------------------------------------- traffic (ncu)
# One process, every rung launched once (--no-time --repeat 1) at traffic_size; ncu reads the
# counters of each launch. Kernels are given to rungs by name; cuBLAS picks its own kernels, so
# whatever no map names is cuBLAS's.
ladder_variants=$("$speed" --help 2>/dev/null | sed -n 's/^  *\([a-z0-9_][a-z0-9_]*\) .*\[GPU\]$/\1/p' | tr '\n' ' ')
maps="naive_rows=ladder_naive_rows naive=MatrixMulKernel naive_ldcg=ladder_naive_ldcg
tiled16=MatrixMulKernel_t16 tiled32=MatrixMulKernel_t32 boundary16=MatrixMulKernel_b16
boundary32=MatrixMulKernel_b32 tiled32_conflict=ladder_tiled32_conflict tiled32_pad=ladder_tiled32_pad
coarse1d=MatrixMulCoarse1D regtile=MatrixMulRegTile warptile=MatrixMulWarpTile"
metrics=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,l1tex__t_bytes.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
ncu_bin=$(command -v ncu 2>/dev/null || { [ -x /usr/local/cuda/bin/ncu ] && echo /usr/local/cuda/bin/ncu; })
n=$((n + 1))
tcsv=$work/$(printf %02d $n).csv
printf '[%d/%d] %-44s ' "$n" "$total" "traffic per level at $traffic_size (ncu)"
why=""
if [ $traffic = no ]; then
    why="not measured (--no-traffic)"
elif [ -z "$ncu_bin" ]; then
    why="ncu (Nsight Compute) is not installed; it ships with the CUDA toolkit"
else
    t0=$(date +%s)
    # shellcheck disable=SC2086
    "$ncu_bin" --clock-control none --csv --print-units base --print-kernel-base function \
        --log-file "$work/ncu.log" --metrics "$metrics" \
        "$speed" --sizes "$traffic_size" --no-time --repeat 1 --quiet >"$work/ncu-run.log" 2>&1
    rc=$?
    if grep -q ERR_NVGPUCTRPERM "$work/ncu.log" "$work/ncu-run.log" 2>/dev/null; then
        why="the GPU's performance counters are reserved for admin users here (ERR_NVGPUCTRPERM). To allow
    them: run ./kit bench as root, or for every user: echo 'options nvidia NVreg_RestrictProfilingToAdminUsers=0'
    | sudo tee /etc/modprobe.d/nvidia-profiling.conf, then reboot (see developer.nvidia.com/ERR_NVGPUCTRPERM)"
    elif [ $rc != 0 ]; then
        why="ncu failed (exit $rc); its log: $work/ncu.log"
        sed 's/^/    /' "$work/ncu-run.log" | tail -n 10
    else
        set --
        for m in $maps; do set -- "$@" --map "$m"; done
        if "$B/plots/tl-traffic" --ncu "$work/ncu.log" --size "$traffic_size" "$@" --others cublas \
                --ignore tl_l2_flush_kernel --records "$tcsv" >"$work/traffic.log" 2>&1; then
            t1=$(date +%s)
            say "ok ($((t1 - t0)) s, measured)"
        else
            why="tl-traffic could not read ncu's counters: $(tail -n 1 "$work/traffic.log")"
        fi
    fi
fi
if [ -n "$why" ]; then
    [ $traffic = yes ] && { say "FAILED"; die "--traffic: $why" 1; }
    # shellcheck disable=SC2086
    "$B/plots/tl-traffic" --model --size "$traffic_size" --variants "$(echo $ladder_variants | tr ' ' ',')" \
        --why "$why" --records "$tcsv" >"$work/traffic.log" 2>&1 || die "tl-traffic --model failed: $(cat "$work/traffic.log")"
    say "model only"
    say "    traffic is the lecture's model, labelled \"model\" in the records: $why"
fi
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
    say "# command: ./kit bench$( [ $quick = 1 ] && echo ' --quick')$( [ $traffic = yes ] && echo ' --traffic')$( [ $traffic = no ] && echo ' --no-traffic')"
    say "# cpu: $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1 | tr -d ',') ($(nproc 2>/dev/null || echo '?') threads)"
    say "# traffic: $([ -n "$why" ] && echo model || echo measured)"
    [ -n "$ncu_bin" ] && say "# ncu: $("$ncu_bin" --version 2>/dev/null | tail -n 1 | tr -d ',')"
    command -v nvidia-smi >/dev/null 2>&1 && say "# driver_version: $(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -n 1)"
    say "# clocks_before: $before"
    say "# clocks_after: $after"
    say "# duration_s: $((end - start))"
    sed -n '/^kind,/{p;q;}' "$work/01.csv"
    for f in "$work"/[0-9]*.csv; do
        sed -e '/^#/d' -e '/^kind,/d' "$f"
    done
} >"$out.tmp" && mv "$out.tmp" "$out" || die "cannot write $out"

say "clocks after: $after"
say "records: $out ($(grep -vc '^#' "$out") lines) in $((end - start)) s"
say ""
"$B/plots/tl-plotprep" --table "$out" || say "(tl-plotprep could not print the ladder table)"
say ""
say "next: ./kit plots (draws the newest build/bench/records-*.csv), ./kit slides"
