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
CORPUS_GPU=1 CORPUS_LOGS=$OUT sh tests/corpus/run-corpus.sh "$(pwd)/build"
rc=$?
[ $rc -eq 0 ] && echo "ALL VERDICTS AS UNDER EMULATION" || echo "SOME VERDICTS DIFFER"
exit $rc
