#!/usr/bin/env bash
# work-on-device.sh: issue 11 item 4 on a GPU: the work each kernel did, measured from outside the
# student's process by the GPU's own counters (ncu), and judged by the lab table's work rule
# (`tl-lab work`, the same tl_work_judge the grader applies to the emulator's counts).
#
# For the reference solutions of labs 02-04 (must meet the rule) and the known-wrong files whose P is
# right but computed the wrong way (tests/wrong/manifest.tsv, the 'work:' rows: must break it, with
# the class named), one case each under `ncu --metrics`:
#   launches       the profiled kernels (the kit's own tl_* kernels left out; --no-time runs none)
#   global loads   smsp__sass_inst_executed_op_global_ld.sum x 32 (warp instructions x lanes: exact
#                  when every warp is full, so the sizes are multiples of 32), likewise stores and
#                  shared loads and stores; per multiply-add = / (m n k)
# Sizes: lab 03's smallest public case both widths take (32), lab 02's smallest public multiple of
# 32 (256), lab 04 64 and 64x32x96 (its public sizes are ragged on purpose; ragged warps would make
# the warp x 32 estimate too high).
#
# Run:  from the repository root on the GPU machine (ncu, nvcc, meson, ninja, python3):
#           bash tests/gpu/work-on-device.sh          (logs and work.txt in $OUT, default ./gpu-out)
# Exit: 0 every expectation held, 1 one did not, 2 the build failed, 77 no GPU or no ncu.
set -u
OUT=${OUT:-./gpu-out}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
B=${TL_BUILD:-build-gpu}
export PATH="/usr/local/cuda/bin:$PATH"
S=$OUT/work.txt
: > "$S"
say() { printf '%s\n' "$*" | tee -a "$S"; }

if ! ls /dev/nvidia0 >/dev/null 2>&1; then say "skipped: no NVIDIA GPU here"; exit 77; fi
if ! command -v ncu >/dev/null 2>&1; then say "not checked here: no ncu (Nsight Compute) on PATH"; exit 77; fi
say "== work-on-device: $(date -u +%FT%TZ); $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1); $(ncu --version | tail -1)"

if [ ! -f "$B/build.ninja" ]; then
    meson setup "$B" -Dtests=false -Dgpu_archs=90 -Dgpu_programs=enabled --buildtype=debugoptimized > "$OUT/work-build.log" 2>&1 ||
        { say "meson setup failed:"; tail -20 "$OUT/work-build.log" | tee -a "$S"; exit 2; }
fi
T="common/tl-lab solutions/02-naive-kernel/lab02-ref solutions/03-tiled-kernel/lab03-ref
   solutions/04-boundary-handling/lab04-ref tests/wrong/lab02-wrong-host-computes tests/wrong/lab03-wrong-host-computes
   tests/wrong/lab03-wrong-naive-in-tiled tests/wrong/lab04-wrong-naive-in-boundary"
# shellcheck disable=SC2086
ninja -C "$B" $T >> "$OUT/work-build.log" 2>&1 ||
    { say "build failed:"; grep -E 'error|FAILED' "$OUT/work-build.log" | head -20 | tee -a "$S"; exit 2; }

# The metrics: warp-level SASS instruction counts by operation, and thread-level FFMAs. Where this
# ncu lacks one, the older names.
MA=smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum
MB=smsp__inst_executed_op_global_ld.sum,smsp__inst_executed_op_global_st.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum
ncu --query-metrics 2>/dev/null | grep -E 'op_global_ld|op_shared_ld|op_ffma_pred_on' | head -20 > "$OUT/work-metrics-known.txt"
MET=$MA
grep -q 'smsp__sass_inst_executed_op_global_ld' "$OUT/work-metrics-known.txt" || MET=$MB
say "metrics: $MET"

# name | binary | lab | variant | tile | m k n | expected (ok, or the class the headline must name)
CASES="
reference 02 naive|solutions/02-naive-kernel/lab02-ref|02|naive|16|256 256 256|ok
reference 03 tiled16|solutions/03-tiled-kernel/lab03-ref|03|tiled16|16|32 32 32|ok
reference 03 tiled32|solutions/03-tiled-kernel/lab03-ref|03|tiled32|32|32 32 32|ok
reference 04 boundary16|solutions/04-boundary-handling/lab04-ref|04|boundary16|16|64 64 64|ok
reference 04 rect32|solutions/04-boundary-handling/lab04-ref|04|rect32|32|64 32 96|ok
wrong 02 host-computes|tests/wrong/lab02-wrong-host-computes|02|naive|16|256 256 256|host-side computation
wrong 03 host-computes|tests/wrong/lab03-wrong-host-computes|03|tiled16|16|32 32 32|host-side computation
wrong 03 naive-in-tiled (16)|tests/wrong/lab03-wrong-naive-in-tiled|03|tiled16|16|32 32 32|not tiled
wrong 03 naive-in-tiled (32)|tests/wrong/lab03-wrong-naive-in-tiled|03|tiled32|32|32 32 32|not tiled
wrong 04 naive-in-boundary|tests/wrong/lab04-wrong-naive-in-boundary|04|boundary16|16|64 64 64|not tiled
wrong 04 naive-in-boundary rect|tests/wrong/lab04-wrong-naive-in-boundary|04|rect32|32|64 32 96|not tiled
"
bad=0
say ""
say "$(printf '%-32s %-8s %-6s %-10s %-10s %-10s %-8s %s' case launches FFMA/mnk 'gld/FMA' 'lds/FMA' expected held 'the rule says')"
while IFS='|' read -r name bin lab var tile size expect; do
    [ -n "$name" ] || continue
    read -r m k n <<< "$size"
    tag=$(echo "$name" | tr -c 'A-Za-z0-9\n' '_')
    sz="${m}x${k}x${n}"
    [ "$m" = "$k" ] && [ "$k" = "$n" ] && sz=$m
    ncu --clock-control none --csv --page raw --metrics "$MET" --log-file "$OUT/work-$tag.csv" \
        "$B/$bin" --sizes "$sz" --variants "$var" --no-time --repeat 1 > "$OUT/work-$tag.log" 2>&1
    prc=$?
    # Sum the metrics over the kernels of the run (the kit's tl_* kernels left out).
    read -r L GLD GST SLD SST FFMA <<< "$(python3 - "$OUT/work-$tag.csv" "$MET" <<'PY'
import csv, sys
rows = list(csv.reader(l for l in open(sys.argv[1], errors="replace") if l.startswith('"')))
if not rows:
    print(0, 0, 0, 0, 0, 0); sys.exit()
head = rows[0]
def col(name):       # the exact column: the raw page also has .avg, .min, .max of each metric
    return head.index(name) if name in head else None
kn = col("Kernel Name")
cols = [col(m) for m in sys.argv[2].split(",")]
tot = [0.0] * 5
launches = 0
for r in rows[2:]:
    if kn is None or len(r) <= kn or r[kn].startswith("tl_"):
        continue
    launches += 1
    for j, c in enumerate(cols):
        if c is not None and c < len(r):
            try:
                tot[j] += float(r[c].replace(",", ""))
            except ValueError:
                pass
g = [int(round(t * 32)) for t in tot[:4]]
print(launches, *g, int(tot[4]))
PY
)"
    verdict=$("$B/common/tl-lab" work "$lab" "$tile" "$m" "$k" "$n" "$L" "$GLD" "$GST" "$SLD" "$SST")
    vrc=$?
    mnk=$((m * k * n))
    ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.4g", a / b; else print "-" }'; }
    if [ "$expect" = ok ]; then held=$([ "$vrc" = 0 ] && [ "$prc" = 0 ] && echo yes || echo NO)
    else held=$([ "$vrc" = 1 ] && echo "$verdict" | grep -q "^$expect" && echo yes || echo NO); fi
    [ "$held" = yes ] || bad=1
    line=$(echo "$verdict" | tail -1)
    [ "$vrc" = 0 ] && line="as the lab asks"
    say "$(printf '%-32s %-8s %-6s %-10s %-10s %-10s %-8s %s' "$name" "$L" "$(ratio "$FFMA" "$mnk")" \
        "$(ratio "$GLD" "$mnk")" "$(ratio "$SLD" "$mnk")" "${expect%% *}" "$held" "${line:0:150}")"
done <<< "$CASES"
say ""
say "gld/FMA and lds/FMA: ncu's warp instructions x 32 per multiply-add (m n k); FFMA/mnk: the FFMA instructions"
say "the threads executed per multiply-add (1: the compiler fused each multiply-add)."
[ "$bad" = 0 ] && { say "ALL EXPECTATIONS HELD"; exit 0; }
say "SOME EXPECTATIONS FAILED (logs: $OUT/work-*.log, ncu's csv: $OUT/work-*.csv)"; exit 1
