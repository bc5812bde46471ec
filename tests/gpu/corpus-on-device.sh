#!/bin/sh
# corpus-on-device.sh: on the GPU machine, every kernel of tests/corpus/ (30 student-style kernels of
# labs 02-04) built with nvcc and judged on the GPU as `./kit check NN` judges it; each must get the
# verdict tests/corpus/expected.tsv gives it under emulation (PASS or FAIL). Prints run-corpus.sh's
# table (verdict, exit code, the first line of the first failing test).
# Run: from the repository root on the GPU machine (after . tests/gpu/device-env.sh):
#      sh tests/gpu/corpus-on-device.sh      Logs of wrong verdicts go to $OUT. Exit 0 when all held.
set -u
OUT=${OUT:-./gpu-out}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
./kit setup > "$OUT/kit-setup.log" 2>&1 && ninja -C build >> "$OUT/kit-setup.log" 2>&1 || { echo "kit setup or build failed (kit-setup.log)"; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sed 's/^/GPU: /'
# CORPUS_PARTS=N (default 4): N run-corpus.sh at once, each over a share of the table's rows (the
# grader's GPU locks in /tmp still give the profiled and timed runs the device alone); their tables are
# printed one after the other, in the table's order within each share.
parts=${CORPUS_PARTS:-4}
rows=$(grep -vc '^#' tests/corpus/expected.tsv)
per=$(( (rows + parts - 1) / parts ))
i=0; pids=
while [ $i -lt "$parts" ]; do
    pat=$(grep -v '^#' tests/corpus/expected.tsv | cut -f1 | sed -n "$((i * per + 1)),$(((i + 1) * per))p" |
          sed 's/[.]/[.]/g; s/^/^/; s/$/'"$(printf '\t')"'/' | paste -sd'|')
    [ -n "$pat" ] || break
    ( CORPUS_GPU=1 CORPUS_LOGS=$OUT sh tests/corpus/run-corpus.sh "$(pwd)/build" "$pat" > "$OUT/part$i.txt" 2>&1
      echo "exit $?" >> "$OUT/part$i.txt" ) &
    pids="$pids $!"
    i=$((i + 1))
done
# shellcheck disable=SC2086 # one word per pid
wait $pids
rc=0
for f in "$OUT"/part*.txt; do
    grep -v '^exit ' "$f"
    grep -qx 'exit 0' "$f" || rc=1
done
rm -f "$OUT"/part*.txt
[ $rc -eq 0 ] && echo "ALL VERDICTS AS UNDER EMULATION" || echo "SOME VERDICTS DIFFER"
exit $rc
