#!/usr/bin/env bash
# lab08-on-device.sh: lab 08 (tensor cores) on a real Hopper GPU, in one run: build, check, time, sweep.
#
# Run:  from the repository root on the GPU machine (nvcc 13, cuBLAS, ncu, compute-sanitizer):
#           bash tests/gpu/lab08-on-device.sh            # everything
#           bash tests/gpu/lab08-on-device.sh speed      # build, check, time (no ncu, no sanitizer, no kit)
#           bash tests/gpu/lab08-on-device.sh kit        # the kit's programs and ./kit check 08 only
#           bash tests/gpu/lab08-on-device.sh quick      # speed and kit without ncu, sanitizers, spread
#                                                          pass and ladder (under 5 minutes)
#       $OUT (default ./gpu-out) receives summary.txt, bench.log, records (lab08-records.csv) and logs.tgz.
# What:  1. builds tests/gpu/lab08-bench.cu with the solution's wmma.cu and mma.cu (sm_90) and wgmma.cu
#           (-gencode arch=compute_90a,code=sm_90a) once as the reference configuration and once per
#           sweep configuration (its launcher renamed: launch_wgmma_b128_s4, ...); ptxas resources and
#           the SASS instruction that does the math (HGMMA for wgmma, HMMA for mma.sync and WMMA);
#        2. checks every variant on square and ragged sizes against FP64 references (the exact bound
#           of its input format and the format bound; see lab08-bench.cu), then checks and times them
#           at 2048, 4096 and 8192 next to cuBLAS BF16 (the lab's layout and the NN layout), TF32
#           and SGEMM; the tensor cores' measured ceilings (--peaks: compute-only mma.sync and wgmma
#           kernels, lab08-tcpeak.cu, ceiling rows in the records); 4096 a second time for the
#           spread (not in quick); 4096 as the kit's speed test times it (--kit-convert: the kit's
#           BF16 conversion in each run), the ratios the speed tiers of common/labtable.c come from;
#        3. ncu: shared-memory bank conflicts of the mma.sync kernel (swizzled: must be 0) and of WMMA;
#        4. compute-sanitizer racecheck and memcheck on the WMMA and mma.sync kernels at a ragged size;
#        5. the lab in the kit (MODE all or kit): meson build of lab08, lab08-ref and the known-wrong
#           programs; the reference passes, the skeleton and every known-wrong file fail with their
#           class; the kit's timing; ./kit check 08 with the solution's files (pass);
#        6. a summary: wgmma_bf16 / cublas_bf16 at 4096 against the issue's 80%.
# Exit:  0 every expectation held, 1 otherwise, 2 build failure, 77 no usable CUDA device.
set -u
MODE=${1:-all}
FINAL="${OUT:-./gpu-out}"
L=/tmp/lab08-logs
rm -rf "$L"; mkdir -p "$L" "$FINAL"
B=/tmp/lab08-build
mkdir -p "$B"
export PATH="/usr/local/cuda/bin:$PATH"
S="$L/summary.txt"; : > "$S"
problems=0
say() { printf '%s\n' "$*" | tee -a "$L/run.log"; }
row() { printf '%s\n' "$*" | tee -a "$S"; }
finish() {
    tar -czf "$FINAL/logs.tgz" -C "$L" . 2>/dev/null
    cp "$S" "$L/bench.log" "$FINAL/" 2>/dev/null
    [ -f "$L/lab08-records.csv" ] && cp "$L/lab08-records.csv" "$FINAL/"
    [ -f "$L/kit-records.csv" ] && cp "$L/kit-records.csv" "$FINAL/"
    [ -f "$L/kit-ladder.log" ] && cp "$L/kit-ladder.log" "$FINAL/"
    [ -f "$L/lab08-precision.csv" ] && cp "$L/lab08-precision.csv" "$FINAL/"
    exit "$1"
}

row "lab08-on-device $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader 2>&1 | head -1)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw \
    --format=csv > "$L/nvidia-smi.csv" 2>&1 || true

# ------------------------------------------------------------------ 1. build
SOL=solutions/08-tensor-cores
INC="-Ilabs/08-tensor-cores -Icommon"
NV="nvcc -O3 -lineinfo -std=c++17"
SM90="-gencode arch=compute_90,code=sm_90"
SM90A="-gencode arch=compute_90a,code=sm_90a"
build_log="$L/build.log"
(
  $NV $SM90 $INC -Xptxas -v -c $SOL/wmma.cu -o $B/wmma.o > $L/ptxas-wmma.log 2>&1 &
  $NV $SM90 $INC -Xptxas -v -c $SOL/mma.cu -o $B/mma.o > $L/ptxas-mma.log 2>&1 &
  $NV $SM90A $INC -Xptxas -v -c $SOL/wgmma.cu -o $B/wgmma.o > $L/ptxas-wgmma.log 2>&1 &
  $NV $SM90A $INC -Xptxas -v -DWG_BN=256 -DWG_STAGES=3 -Dlaunch_wgmma_bf16=launch_wgmma_b256_s3 \
      -c $SOL/wgmma.cu -o $B/wg_b256_s3.o > $L/ptxas-wg_b256_s3.log 2>&1 &
  $NV $SM90A $INC -Xptxas -v -DWG_SETMAXNREG=0 -Dlaunch_wgmma_bf16=launch_wgmma_b256_s4_nomaxnreg \
      -c $SOL/wgmma.cu -o $B/wg_b256_s4_nomaxnreg.o > $L/ptxas-wg_nomaxnreg.log 2>&1 &
  $NV $SM90A $INC -Xptxas -v -DWG_BN=128 -DWG_STAGES=4 -Dlaunch_wgmma_bf16=launch_wgmma_b128_s4 \
      -c $SOL/wgmma.cu -o $B/wg_b128_s4.o > $L/ptxas-wg_b128_s4.log 2>&1 &
  $NV $SM90A $INC -Xptxas -v -DWG_BN=128 -DWG_STAGES=6 -Dlaunch_wgmma_bf16=launch_wgmma_b128_s6 \
      -c $SOL/wgmma.cu -o $B/wg_b128_s6.o > $L/ptxas-wg_b128_s6.log 2>&1 &
  $NV $SM90A $INC -Xptxas -v -DWG_STAGES=2 -Dlaunch_wgmma_bf16=launch_wgmma_b256_s2 \
      -c $SOL/wgmma.cu -o $B/wg_b256_s2.o > $L/ptxas-wg_b256_s2.log 2>&1 &
  $NV $SM90A $INC -Xptxas -v -DWG_NCONS=1 -Dlaunch_wgmma_bf16=launch_wgmma_b256_c1 \
      -c $SOL/wgmma.cu -o $B/wg_b256_c1.o > $L/ptxas-wg_b256_c1.log 2>&1 &
  $NV $SM90A $INC -Xptxas -v -c tests/gpu/lab08-tcpeak.cu -o $B/tcpeak.o > $L/ptxas-tcpeak.log 2>&1 &
  $NV $SM90 $INC -c labs/08-tensor-cores/convert.cu -o $B/convert.o > $L/build-convert.log 2>&1 &
  $NV $SM90 $INC -DLAB08_SWEEP -c tests/gpu/lab08-bench.cu -o $B/bench.o > $L/build-bench.log 2>&1 &
  wait
) 
cat $L/ptxas-*.log $L/build-bench.log $L/build-convert.log > "$build_log"
if ! $NV $SM90 -o $B/lab08-bench $B/bench.o $B/wmma.o $B/mma.o $B/wgmma.o $B/wg_*.o $B/tcpeak.o $B/convert.o \
        -lcublas >> "$build_log" 2>&1; then
    say "build failed:"; grep -E "error|warning" "$build_log" | head -40; finish 2
fi
row "KERNEL RESOURCES (ptxas -v)"
for f in $L/ptxas-*.log; do
    awk -v F="$(basename "$f" .log)" '/Compiling entry/ {name=$NF} /Used [0-9]+ registers/ {sub(/.*Used /, ""); printf "  %-22s %-40s %s\n", F, name, $0}' "$f" >> "$S"
    grep -h "C75" "$f" | sed 's/^/  WARNING /' >> "$S"
done
if command -v cuobjdump > /dev/null; then
    for o in wmma mma wgmma tcpeak; do
        cuobjdump --dump-sass $B/$o.o > $L/sass-$o.txt 2>&1
        row "  SASS $o.o: HGMMA $(grep -c HGMMA $L/sass-$o.txt) HMMA $(grep -c HMMA $L/sass-$o.txt) LDSM $(grep -c LDSM $L/sass-$o.txt) UTMALDG $(grep -c UTMALDG $L/sass-$o.txt)"
    done
fi

# ------------------------------------------------------------------ 2. check and time
if [ "$MODE" != kit ]; then
say "== bench ($(date -u +%T))"
timeout 300 $B/lab08-bench --sizes 128,64x64x64,1000x17x3,257x129x383,1023x1000x1001,4095x4100x4097,2048 \
    --time-sizes 2048,4096,8192 --peaks --records $L/lab08-records.csv --precision $L/lab08-precision.csv 2>&1 | tee $L/bench.log
rc=${PIPESTATUS[0]}
[ "$rc" = 77 ] && { say "no usable CUDA device"; finish 77; }
[ "$rc" != 0 ] && { row "FAIL bench exit $rc (a check failed: see bench.log)"; problems=$((problems + 1)); }
row "TENSOR-CORE CEILINGS (compute-only kernels, lab08-tcpeak.cu; each shape, then the fastest)"
grep -E '^(PEAK|CEILING) ' $L/bench.log | sed 's/^/  /' >> "$S"
n_ceil=$(grep -c '^ceiling,08,tc_' $L/lab08-records.csv 2>/dev/null)
[ "${n_ceil:-0}" = 4 ] || { row "FAIL tensor-core ceilings: ${n_ceil:-0} of 4 rows in the records"; problems=$((problems + 1)); }
if [ "$MODE" != quick ]; then
say "== spread: 4096 again ($(date -u +%T))"
timeout 120 $B/lab08-bench --sizes "" --time-sizes 4096 --only wgmma_bf16,wgmma_b256_s3,wgmma_b128_s4,cublas_bf16,cublas_bf16_nn,cublas_tf32 2>&1 | tee -a $L/bench.log
fi
say "== 4096 as the kit's speed test times it ($(date -u +%T))"
KV=wgmma_bf16,wgmma_b256_s4_nomaxnreg,wgmma_b256_s3,wgmma_b256_s2,wgmma_b256_c1,wgmma_b128_s4,wgmma_b128_s6,mma_bf16,wmma_bf16
for pass in 1 2; do
    timeout 120 $B/lab08-bench --sizes "" --time-sizes 4096 --kit-convert --only $KV 2>&1 | sed "s/KTIME/KTIME$pass/" | tee -a $L/bench.log
done
row "KIT TIMING OF THE SWEEP at 4096 (the kit's BF16 conversion in every run, as the speed test): ratio to wgmma_bf16 in the same pass"
grep -E ' KTIME[12] ' $L/bench.log | awk '
    { name[NR] = $1; ms[NR] = $5; p[NR] = $3; if ($1 == "wgmma_bf16") ref[$3] = $5 }
    END { for (i = 1; i <= NR; i++) printf "  %-6s %-24s %8s ms  ratio %s\n", p[i], name[i], ms[i], ref[p[i]] ? sprintf("%.3f", ms[i] / ref[p[i]]) : "-" }' >> "$S"

fi
# ------------------------------------------------------------------ 3. ncu: bank conflicts
if [ "$MODE" = all ] && command -v ncu > /dev/null; then
    say "== ncu ($(date -u +%T))"
    ncu --clock-control none --csv --kernel-name regex:'mma_bf16|wmma' \
        --metrics l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__inst_executed_pipe_tensor.sum \
        $B/lab08-bench --sizes 1024 --time-sizes "" --only mma_bf16,wmma_bf16,wmma_tf32 > $L/ncu.csv 2>&1
    row "NCU shared-memory bank conflicts at 1024 (kernel, metric, value)"
    grep -E '"l1tex|"smsp' $L/ncu.csv | awk -F'","' '{printf "  %-20s %-62s %s\n", substr($5,1,20), $(NF-2), $NF}' | tr -d '"' >> "$S"
    conf=$(grep '"mma_bf16_kernel(' $L/ncu.csv | grep 'bank_conflicts_pipe_lsu_mem_shared_op_ld' | awk -F'","' '{print $NF}' | tr -d '",')
    [ "$conf" = "0" ] && row "  PASS mma_bf16 load bank conflicts = 0" || { row "  FAIL mma_bf16 load bank conflicts = '$conf' (expected 0)"; problems=$((problems + 1)); }
fi

# ------------------------------------------------------------------ 4. sanitizers
if [ "$MODE" = all ] && command -v compute-sanitizer > /dev/null; then
    say "== compute-sanitizer ($(date -u +%T))"
    for tool in racecheck memcheck; do
        compute-sanitizer --tool $tool --error-exitcode 9 $B/lab08-bench --sizes 257x129x383 --time-sizes "" \
            --only wmma_bf16,wmma_tf32,mma_bf16 > $L/sanitizer-$tool.log 2>&1
        src=$?
        [ $src = 0 ] && row "  PASS compute-sanitizer $tool: clean (wmma, mma at 257x129x383)" \
            || { row "  FAIL compute-sanitizer $tool exit $src (see logs)"; problems=$((problems + 1)); }
    done
fi

# ------------------------------------------------------------------ 6. the lab in the kit (MODE all or kit)
# The kit's own programs: lab08-ref on its public sizes (must pass), the skeleton (must fail), every
# known-wrong file of tests/wrong/08 with its manifest arguments (exit 1, its class named), the kit's
# timing at 4096 (BF16 conversion included), then ./kit check 08 with the solution's three files copied
# into labs/08-tensor-cores (must pass; the skeleton is restored after).
if [ "$MODE" = all ] || [ "$MODE" = kit ] || [ "$MODE" = quick ]; then
    say "== kit build ($(date -u +%T))"
    [ -f tests/gpu/device-env.sh ] && . tests/gpu/device-env.sh >> "$L/run.log" 2>&1
    # the kit's own build folder, configured once here for ./kit check below too (its .kit-cuda
    # says CUDA is on, so ./kit does not configure it again)
    KB=build
    { meson setup "$KB" -Dcuda=enabled -Dtests=false -Dgpu_archs=90 -Dbuildtype=debugoptimized || meson setup --reconfigure "$KB" -Dcuda=enabled -Dtests=false -Dgpu_archs=90 -Dbuildtype=debugoptimized; } > "$L/kit-build.log" 2>&1
    echo enabled > "$KB/.kit-cuda"
    W08=$(awk -F'\t' '$2 == "08" { f = $1; sub(/^08\//, "", f); sub(/\.cu$/, "", f); print f }' tests/wrong/manifest.tsv)
    tg="labs/08-tensor-cores/lab08 solutions/08-tensor-cores/lab08-ref"
    for w in $W08; do tg="$tg tests/wrong/lab08-wrong-$w"; done
    # shellcheck disable=SC2086
    if ! ninja -C "$KB" $tg >> "$L/kit-build.log" 2>&1; then
        row "FAIL kit build (see kit-build.log)"; grep -E "error" "$L/kit-build.log" | head -20 | tee -a "$S"; problems=$((problems + 1))
    else
        row "KIT PROGRAMS"
        timeout 600 "$KB/solutions/08-tensor-cores/lab08-ref" --no-time > "$L/kit-ref.log" 2>&1; rc=$?
        [ $rc = 0 ] && row "  PASS lab08-ref public sizes: $(grep -m1 -E '^[0-9]+ passed' $L/kit-ref.log)" \
            || { row "  FAIL lab08-ref exit $rc: $(grep -m1 -E '^[0-9]+ passed' $L/kit-ref.log)"; grep FAIL $L/kit-ref.log | head -5 >> "$S"; problems=$((problems + 1)); }
        timeout 300 "$KB/labs/08-tensor-cores/lab08" --no-time --repeat 1 > "$L/kit-skeleton.log" 2>&1; rc=$?
        [ $rc = 1 ] && row "  PASS skeleton fails: $(grep -m1 -E '^[0-9]+ passed' $L/kit-skeleton.log)" \
            || { row "  FAIL skeleton exit $rc (expected 1)"; problems=$((problems + 1)); }
        while IFS=$'\t' read -r file lab expect args emu head; do
            [ "$lab" = 08 ] || continue
            name=$(basename "$file" .cu)
            # shellcheck disable=SC2086
            timeout 300 "$KB/tests/wrong/lab08-wrong-$name" $args > "$L/wrong-$name.log" 2>&1; rc=$?
            why=$(grep -m1 -E " FAIL" "$L/wrong-$name.log" | sed -E 's/^ +//; s/  +/ /g' | cut -c1-110)
            case $expect in
            work:*)   # P right, computed the wrong way: the GPU program cannot count loads; kit check judges
                if [ $rc = 0 ]; then row "  PASS wrong $name: P right on the GPU, as expected ('$expect' is the work judge's: ./kit check below)"
                else row "  FAIL wrong $name exit $rc, expected 0 (a right P; '$expect' is judged by ./kit check): $why"; problems=$((problems + 1)); fi ;;
            *)
                if [ $rc = 1 ] && grep -qE "$expect" "$L/wrong-$name.log"; then row "  PASS wrong $name caught: $why"
                else row "  FAIL wrong $name exit $rc, expected one of '$expect': $why"; problems=$((problems + 1)); fi ;;
            esac
        done < tests/wrong/manifest.tsv
        timeout 300 "$KB/solutions/08-tensor-cores/lab08-ref" --sizes 2048,4096 --reps 20 --records "$L/kit-records.csv" > "$L/kit-speed.log" 2>&1
        if [ "$MODE" = quick ]; then
            row "  (quick: the kernel ladder is not run)"
        elif ninja -C "$KB" solutions/speed/speed-ref >> "$L/kit-build.log" 2>&1; then
            timeout 300 "$KB/solutions/speed/speed-ref" --sizes 4096 --reps 20 --repeat 1 \
                --variants tiled32,warptile,wmma_tf32,wmma_bf16,mma_bf16,wgmma_bf16,cublas > "$L/kit-ladder.log" 2>&1
            row "  THE KERNEL LADDER (speed-ref at 4096; BF16 conversion included for the BF16 rungs):"
            grep -E "^ +4096 " "$L/kit-ladder.log" | sed 's/^/  /' | tee -a "$S"
        else
            row "  FAIL speed-ref did not build (see kit-build.log)"; problems=$((problems + 1))
        fi
        row "  KIT TIMING (lab08-ref, BF16 conversion by the kit included):"
        grep -E "^ +(2048|4096) " "$L/kit-speed.log" | sed 's/^/  /' | tee -a "$S"
        if [ -x ./kit ]; then
            say "== ./kit check 08 with the solution ($(date -u +%T))"
            mkdir -p /tmp/lab08-skel
            for f in wmma mma wgmma; do cp labs/08-tensor-cores/$f.cu /tmp/lab08-skel/; cp solutions/08-tensor-cores/$f.cu labs/08-tensor-cores/; done
            timeout 580 ./kit check 08 > "$L/kit-check-solution.log" 2>&1; rc=$?
            [ $rc = 0 ] && row "  PASS ./kit check 08 (solution): $(grep -m1 '^Score' $L/kit-check-solution.log)" \
                || { row "  FAIL ./kit check 08 (solution) exit $rc: $(grep -m1 '^Score' $L/kit-check-solution.log)"; problems=$((problems + 1)); }
            grep -E "^(PASS|FAIL|SKIP) |^ +work" "$L/kit-check-solution.log" | sed 's/^/    /' >> "$S"
            # the work rule on the GPU: a plain kernel in wmma.cu (tests/wrong/08/wmma-naive.cu) gives a
            # right P, and ./kit check counts its work with the emulated twin: no credit, not tiled
            say "== ./kit check 08 with tests/wrong/08/wmma-naive.cu ($(date -u +%T))"
            cp tests/wrong/08/wmma-naive.cu labs/08-tensor-cores/wmma.cu   # mma.cu, wgmma.cu: the solution's
            timeout 300 ./kit check 08 > "$L/kit-check-wmma-naive.log" 2>&1; rc=$?
            for f in wmma mma wgmma; do cp /tmp/lab08-skel/$f.cu labs/08-tensor-cores/; done
            if [ $rc = 1 ] && grep -q "no credit: not tiled" "$L/kit-check-wmma-naive.log"; then
                row "  PASS ./kit check 08 (wmma-naive.cu) exit 1: $(grep -m1 'no credit: not tiled' "$L/kit-check-wmma-naive.log" | sed -E 's/^ +//' | cut -c1-150)"
            else
                row "  FAIL ./kit check 08 (wmma-naive.cu) exit $rc, expected 1 with 'no credit: not tiled'"; problems=$((problems + 1))
            fi
            grep -E "^(PASS|FAIL|SKIP) |^ +work|no credit" "$L/kit-check-wmma-naive.log" | sed 's/^/    /' >> "$S"
        fi
    fi
fi

# ------------------------------------------------------------------ 5. summary
row "TIMES (median ms, TFLOP/s, ratio to cuBLAS BF16 and to cuBLAS TF32 at the same size and pass; checked first)"
grep ' TIME ' $L/bench.log | awk '
    { name[NR] = $1; size[NR] = $2; ms[NR] = $5; tf[NR] = $(NF-1)
      if ($1 == "wgmma_bf16") pass[$2]++          # the first variant of each pass
      p[NR] = pass[$2]
      if ($1 == "cublas_bf16") bf[$2, pass[$2]] = $(NF-1)
      if ($1 == "cublas_tf32") t32[$2, pass[$2]] = $(NF-1) }
    END { for (i = 1; i <= NR; i++) {
              b = bf[size[i], p[i]]; t = t32[size[i], p[i]]
              printf "  %-24s %-16s %8s ms %7s TFLOP/s  %5s of BF16  %5s of TF32\n", name[i], size[i], ms[i], tf[i],
                     b ? sprintf("%.2f", tf[i] / b) : "-", t ? sprintf("%.2f", tf[i] / t) : "-" } }' >> "$S"
row "PRECISION (max |err| vs the FP64 product of the FP32 inputs, relative Frobenius error; exact = vs the rounded inputs)"
grep -E ' (PASS|FAIL) ' $L/bench.log | grep -E ' (4096x4096x4096|1023x1000x1001) ' | \
    awk '{printf "  %-18s %-16s %s %s | %s\n", $1, $2, $3, $4, substr($0, index($0, "exact:"))}' >> "$S"
[ "$MODE" = kit ] || for sz in 4096; do
    w=$(grep " ${sz}x${sz}x${sz} *TIME" $L/bench.log | awk '$1=="wgmma_bf16" {print $5}' | sort -n | head -1)
    c=$(grep " ${sz}x${sz}x${sz} *TIME" $L/bench.log | awk '$1=="cublas_bf16" {print $5}' | sort -n | head -1)
    best=$(grep " ${sz}x${sz}x${sz} *TIME" $L/bench.log | awk '$1 ~ /^wgmma/ {print $5, $1}' | sort -n | head -1)
    if [ -n "$w" ] && [ -n "$c" ]; then
        pct=$(awk -v w="$w" -v c="$c" 'BEGIN {printf "%.1f", 100 * c / w}')
        row "RATIO at $sz: wgmma_bf16 $w ms, cublas_bf16 $c ms: $pct% of cuBLAS BF16 (target 80%); fastest wgmma: $best"
        awk -v p="$pct" 'BEGIN {exit !(p >= 80)}' || problems=$((problems + 1))
    else
        row "RATIO at $sz: missing (wgmma '$w', cublas '$c')"; problems=$((problems + 1))
    fi
done
row "problems: $problems"
# the records and the summary last, in the output's tail, for a run whose files may not come back
echo "== summary"; cat "$S"
echo "== lab08-records.csv"; cat "$L/lab08-records.csv" 2>/dev/null
finish $(( problems > 0 ))
