#!/bin/sh
# bench-and-check.sh: on the GPU machine, from the repository root: the full ./kit bench (the
# dataset shipped in plots/data/) and ./kit check on labs 02-05, once with the reference solution's
# files copied into the lab folder (must pass) and once with the skeleton (must fail).
# Everything lands in $OUT (default ./gpu-out), also as one results.tgz.
set -u
OUT=${OUT:-./gpu-out}
mkdir -p "$OUT/logs"
export PATH=/usr/local/cuda/bin:$PATH
log=$OUT/logs
./kit setup > "$log/setup.log" 2>&1
./kit doctor > "$log/doctor.log" 2>&1
t0=$(date +%s)
./kit bench --out "$OUT/bench.csv" > "$log/bench.log" 2>&1
echo "bench: exit $? in $(( $(date +%s) - t0 )) s"
tail -n 12 "$log/bench.log"
for nn in 02 03 04 05; do
    d=$(ls -d labs/$nn-*); d=${d#labs/}
    files=$(cd solutions/$d && ls *.c *.cu 2>/dev/null)
    mkdir -p "$OUT/keep/$d"
    for f in $files; do cp "labs/$d/$f" "$OUT/keep/$d/$f"; cp "solutions/$d/$f" "labs/$d/$f"; done
    ./kit check $nn --quiet > "$log/check-$nn-solution.log" 2>&1; s=$?
    for f in $files; do cp "$OUT/keep/$d/$f" "labs/$d/$f"; done
    ./kit check $nn --quiet > "$log/check-$nn-skeleton.log" 2>&1; k=$?
    echo "kit check $nn: solution exit $s ($(grep -m1 -E '^[0-9]+ passed' "$log/check-$nn-solution.log"); skeleton exit $k ($(grep -m1 -E '^[0-9]+ passed|FAIL' "$log/check-$nn-skeleton.log" | sed 's/  */ /g' | cut -c1-80))"
done
tar czf "$OUT/results.tgz" -C "$OUT" logs bench.csv 2>/dev/null
