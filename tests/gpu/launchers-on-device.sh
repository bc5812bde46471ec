#!/usr/bin/env bash
# launchers-on-device.sh: session 10's launcher files through `./kit check` on a GPU (issue 24's
# guarded device has a GPU side too: the honest launcher styles keep full marks, the launcher that
# computes P on the host does not).
#
# Run:  from the repository root on the GPU machine: bash tests/gpu/launchers-on-device.sh
# Prints one line per file: the lab, the file, ./kit check's exit and score, the expectation (full:
# every point; less: below full marks) and whether it held; then the first FAIL line of each file
# below full marks. Exit 0 every expectation held, 1 one did not, 77 no GPU.
set -u
[ -e /dev/nvidia0 ] || { echo "launchers-on-device: no GPU here"; exit 77; }
[ -f tests/gpu/device-env.sh ] && . tests/gpu/device-env.sh > /dev/null 2>&1
export PATH="/usr/local/cuda/bin:$PATH"
OUT=${OUT:-./gpu-out}
mkdir -p "$OUT"
bad=0
check() {   # lab, lab file, submission, expectation (full|less)
    local lab=$1 dst=$2 src=$3 want=$4 log
    log=$OUT/$(basename "$(dirname "$src")")-$(basename "$src" .cu).log
    cp "$dst" "$dst.orig"
    cp "$src" "$dst"
    ./kit check "$lab" > "$log" 2>&1
    local rc=$?
    mv "$dst.orig" "$dst"
    local score; score=$(grep -o 'Score: [0-9.]*/[0-9.]*' "$log" | tail -1 | cut -d' ' -f2)
    local got=less
    [ -n "$score" ] && [ "$(echo "$score" | awk -F/ '{print ($1 == $2)}')" = 1 ] && got=full
    local ok=yes
    [ "$got" = "$want" ] && [ -n "$score" ] || { ok=no; bad=1; }
    printf '%-4s %-52s exit %-3s score %-10s want %-4s ok=%s\n' "$lab" "$src" "$rc" "${score:-none}" "$want" "$ok"
    [ "$got" = less ] && grep -m1 -A1 '^FAIL' "$log" | cut -c1-220 | sed 's/^/     /'
}
check 02 labs/02-naive-kernel/naive.cu tests/styles/02/launcher_streams_workspace.cu full
check 02 labs/02-naive-kernel/naive.cu tests/hostile/02/reads_discarded.cu less
check 06 labs/06-register-tiling/regtile.cu tests/styles/06/launcher_padded_copies.cu full
check 06 labs/06-register-tiling/regtile.cu tests/hostile/06/reads_discarded.cu less
[ $bad = 0 ] && echo "launchers-on-device: every expectation held" || echo "launchers-on-device: an expectation did not hold"
exit $bad
