#!/bin/sh
# lab06-kit-check.sh: `./kit check 06` on the GPU machine, as a student runs it, with the reference
# solution's regtile.cu (must pass), the skeleton (must fail) and the known-wrong files named on the
# command line (must fail), each copied into labs/06-register-tiling/ in turn (restored at the end).
#
# Run:  from the repository root on the GPU machine: sh tests/gpu/lab06-kit-check.sh [WRONG...]
#       e.g. sh tests/gpu/lab06-kit-check.sh misaligned-vec nosync-stage
#       Logs go to $OUT (default ./gpu-out). About 45 s per check on an H100 (a pristine build each).
# Exit:  0 when every expectation held, 1 otherwise.
set -u
OUT=${OUT:-./gpu-out}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
F=labs/06-register-tiling/regtile.cu
cp "$F" "$OUT/skeleton-regtile.cu.keep"
problems=0
./kit setup > "$OUT/kit-setup.log" 2>&1 || echo "kit setup: exit $? (see kit-setup.log)"
check() {   # label source expected-exit
    cp "$2" "$F"
    t0=$(date +%s)
    ./kit check 06 > "$OUT/kit-check-$1.log" 2>&1
    rc=$?
    ok=yes; [ "$rc" = "$3" ] || { ok=NO; problems=$((problems + 1)); }
    echo "kit check 06 with $1: exit $rc (expected $3) ok=$ok in $(( $(date +%s) - t0 )) s: $(grep -m1 '^Score' "$OUT/kit-check-$1.log")"
}
check solution solutions/06-register-tiling/regtile.cu 0
check skeleton "$OUT/skeleton-regtile.cu.keep" 1
for w in "$@"; do check "wrong-$w" "tests/wrong/06/$w.cu" 1; done
cp "$OUT/skeleton-regtile.cu.keep" "$F"
grep -E "^(PASS|FAIL|SKIP) " "$OUT/kit-check-solution.log"
[ "$problems" = 0 ] && { echo "ALL EXPECTATIONS HELD"; exit 0; }
echo "$problems EXPECTATION(S) FAILED"; exit 1
