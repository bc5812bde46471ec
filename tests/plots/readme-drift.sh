#!/bin/sh
# readme-drift.sh: the lab READMEs' measured tables are what tl-plotprep --readme makes of the records
# they cite (one source, one formatter), and a table edited by hand is caught (issue 28.4).
#   sh tests/plots/readme-drift.sh      (meson test -C build 'plots readme tables'); env TL_ROOT, TL_PLOTPREP
set -u
: "${TL_ROOT:?set TL_ROOT}" "${TL_PLOTPREP:?set TL_PLOTPREP}"
sh "$TL_ROOT/plots/readme-tables.sh" --check || { echo "FAIL: a lab README drifted from its records"; exit 1; }
# a copy of the kit's README of lab 02 with one figure changed must fail the same check, naming it
t=$(mktemp -d "${TMPDIR:-/tmp}/tl-drift.XXXXXX") || exit 1
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/labs/02-x" "$t/plots/data"
cp "$TL_ROOT"/plots/data/*.csv "$t/plots/data/"
awk '/tl-plotprep --readme/ { inb = 1 } inb && /^\| 4096 \|/ && !done { sub(/\| 4096 \| [0-9,]*/, "| 4096 | 1,234"); done = 1 } { print }' \
    "$TL_ROOT/labs/02-naive-kernel/README.md" > "$t/labs/02-x/README.md"
grep -q '| 4096 | 1,234' "$t/labs/02-x/README.md" || { echo "FAIL: the test could not plant its edit"; exit 1; }
kit=$TL_ROOT
out=$(TL_ROOT=$t sh "$kit/plots/readme-tables.sh" --check 2>&1)
rc=$?
[ $rc -eq 1 ] || { echo "FAIL: a hand-edited table passed the check (exit $rc): $out"; exit 1; }
case $out in *"02-x/README.md differs"*) ;; *) echo "FAIL: the drift message does not name the README: $out"; exit 1 ;; esac
echo "ok: the READMEs match their records, and an edited figure is caught"
