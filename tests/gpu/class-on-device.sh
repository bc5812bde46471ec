#!/usr/bin/env bash
# class-on-device.sh: a class of 100 lab 03 submissions graded on one GPU machine, with every test
# the rubric has there (correctness, compute-sanitizer safety, speed against the reference),
# and the figures issue 15 asks for: wall time, CPU and GPU time per submission, GPU busy fraction.
#
# Run:  from the repository root on the GPU machine (nvcc 13, compute-sanitizer, meson, ninja,
#       nvidia-smi; the grader's libraries libcjson, libarchive, libseccomp):
#           bash tests/gpu/class-on-device.sh [N]          (N submissions, default 100)
#       Everything goes to $OUT when it is set, else ./gpu-out/: summary.txt (the figures),
#       run.log (the grader's progress lines), util.csv (nvidia-smi samples), progress.txt
#       (DIR/progress.json every 10 s), gradebook.csv and class-summary.md.
# The class (names s000...): copies of the reference solution (most), the skeleton, and each
#       known-wrong lab 03 file of tests/wrong/manifest.tsv, in turn.
# Target (issue 15): 100 submissions with safety and speed in <= 600 s on a 16-core H100 machine.
# Exit: 0 graded and every verdict as expected (solutions full marks, the others less),
#       1 a verdict is not, 2 the build or the grader failed, 77 no GPU.
set -u
N=${1:-100}
OUT="${OUT:-./gpu-out}"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
B=${TL_BUILD:-build-gpu}
export PATH="/usr/local/cuda/bin:$PATH"
S=$OUT/summary.txt
: > "$S"
say() { printf '%s\n' "$*" | tee -a "$S"; }

if ! ls /dev/nvidia0 >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
    say "skipped: no NVIDIA GPU here (no /dev/nvidia0 or nvidia-smi fails)"; exit 77
fi
say "== class-on-device: $N lab 03 submissions, $(date -u +%FT%TZ)"
say "GPU: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | head -1); cores: $(nproc)"

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
trap 'rm -rf "$W"' EXIT
ninja -C "$B" common/tl-lab >> "$OUT/build.log" 2>&1 || { say "building tl-lab failed"; exit 2; }
dir=$("$B/common/tl-lab" dir 03) || exit 2
wrongs=()
while IFS=$'\t' read -r file lab _; do
    case $file in \#*|'') continue ;; esac
    [ "$lab" = 03 ] && [ -f "tests/wrong/$file" ] && wrongs+=("tests/wrong/$file")
done < tests/wrong/manifest.tsv
kinds=()    # what each submission is: solution, skeleton or the wrong file's name
for ((i = 0; i < N; i++)); do
    name=$(printf 's%03d' "$i"); mkdir -p "$W/in/$name"
    r=$((i % 10))
    if [ $r -lt 6 ] || [ ${#wrongs[@]} = 0 ]; then
        cp "solutions/$dir/tiled.cu" "$W/in/$name/"; kinds+=(solution)
    elif [ $r = 6 ]; then
        cp "labs/$dir/tiled.cu" "$W/in/$name/"; kinds+=(skeleton)
    else
        w=${wrongs[$(( (i / 10 * 3 + r - 7) % ${#wrongs[@]} ))]}
        cp "$w" "$W/in/$name/tiled.cu"; kinds+=("$(basename "$w")")
    fi
done
say "class: $(printf '%s\n' "${kinds[@]}" | sort | uniq -c | awk '{printf "%s x%s, ", $2, $1}' | sed 's/, $//')"
head -c 8 /dev/urandom | od -An -tu8 | tr -d ' ' > "$W/secret"

# ------------------------------------------------------------------ grade it, sampling the GPU
nvidia-smi --query-gpu=timestamp,utilization.gpu,memory.used --format=csv,noheader,nounits -lms 500 \
    > "$OUT/util.csv" 2>/dev/null &
smi=$!
: > "$OUT/progress.txt"
( while sleep 10; do [ -f "$W/out/progress.json" ] && { date -u +%T; cat "$W/out/progress.json"; } >> "$OUT/progress.txt"; done ) &
sampler=$!
TIMEFORMAT='%R %U %S'
{ time "$TG" --kit . --lab 03 --out "$W/out" --secret "$W/secret" --jobs auto "$W"/in/* > "$OUT/run.log" 2>&1; } 2> "$W/time"
rc=$?
kill "$smi" "$sampler" 2>/dev/null; wait "$smi" "$sampler" 2>/dev/null
read -r wall user sys < "$W/time"
cp "$W/out/gradebook.csv" "$OUT/gradebook.csv" 2>/dev/null
cp "$W/out/summary.md" "$OUT/class-summary.md" 2>/dev/null
if [ $rc != 0 ]; then
    say "tl-grade exited $rc (tail of its log):"; tail -20 "$OUT/run.log" | tee -a "$S"
fi

# ------------------------------------------------------------------ the figures
busy=$(awk -F', *' '$2 ~ /^[0-9]+$/ {s += $2; n++} END {if (n) printf "%.1f", s / n; else print "n/a"}' "$OUT/util.csv")
busy_run=$(awk -F', *' '$2 ~ /^[0-9]+$/ {n++; if ($2 > 0) b++} END {if (n) printf "%.1f", 100 * b / n; else print "n/a"}' "$OUT/util.csv")
say ""
say "wall time:            ${wall} s for $N submissions ($(awk -v w="$wall" -v n="$N" 'BEGIN {printf "%.2f", w / n}') s each); target 600 s: $(awk -v w="$wall" 'BEGIN {print (w <= 600) ? "met" : "MISSED"}')"
say "grader + children CPU: user ${user} s, sys ${sys} s = $(awk -v u="$user" -v s="$sys" -v n="$N" 'BEGIN {printf "%.2f", (u + s) / n}') s per submission (bubblewrap's children are not counted where it is used)"
say "GPU busy (nvidia-smi utilization.gpu, mean of 0.5 s samples): ${busy}%; samples with a kernel running: ${busy_run}%"
say "GPU time per submission (busy fraction x wall / N): $(awk -v b="$busy" -v w="$wall" -v n="$N" 'BEGIN {if (b == "n/a") print "n/a"; else printf "%.2f s", b / 100 * w / n}')"
grep -E "^tl-grade: (lab|the kit|GPU)" "$OUT/run.log" | tee -a "$S"
say "last progress lines:"; grep '^\[' "$OUT/run.log" | tail -3 | tee -a "$S"

# ------------------------------------------------------------------ the verdicts
bad=0
for ((i = 0; i < N; i++)); do
    name=$(printf 's%03d' "$i")
    row=$(grep "^$name," "$OUT/gradebook.csv" 2>/dev/null)
    sc=$(echo "$row" | cut -d, -f2); mx=$(echo "$row" | cut -d, -f3)
    if [ -z "$row" ] || [ -z "$sc" ] || [ "$sc" = "not graded" ]; then   # (gradebook: an empty score is not graded)
        say "verdict: $name (${kinds[$i]}) not graded"; bad=1
    elif [ "${kinds[$i]}" = solution ] && [ "$sc" != "$mx" ]; then
        say "verdict: $name (solution) scored $sc of $mx"; bad=1
    elif [ "${kinds[$i]}" != solution ] && [ "$sc" = "$mx" ]; then
        say "verdict: $name (${kinds[$i]}) got full marks"; bad=1
    fi
done
say "score distribution: $(cut -d, -f2 "$OUT/gradebook.csv" | tail -n +2 | sort -n | uniq -c | awk '{printf "%s x%s, ", $2, $1}' | sed 's/, $//')"
[ $rc = 0 ] || exit 2
[ $bad = 0 ] && say "every verdict as expected" || { say "some verdicts are not as expected (above)"; exit 1; }
