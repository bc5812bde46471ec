#!/bin/sh
# acct-of.sh FILE COMMAND [ARG...]: runs COMMAND with the kernel's process accounting writing into
# FILE (accton), then prints where its CPU went: by test (each program `meson test` started) and by
# program name within each, every process under COMMAND counted, the grader's sandboxed ones too
# (tests/bench/acct-report.py FILE PID reads it again later). Where cpu-of.sh gives one figure for a
# command, this says which programs spent it: the compilers of a kit build, nvcc's parts, the
# emulated programs, tl-grade, pdflatex. Accounting is machine-wide: the report keeps COMMAND's own
# process tree only (pids and parents from the records), so others' work on a shared machine is
# left out. Needs root and the acct package (accton, dump-acct: apt-get install
# --no-install-recommends acct); it measures only, no kit command needs it.
# Exit status: COMMAND's; 2 when accounting cannot be turned on.
set -u
[ $# -ge 2 ] || { echo "usage: sh tests/bench/acct-of.sh FILE COMMAND [ARG...]" >&2; exit 2; }
if ! command -v accton >/dev/null 2>&1 || ! command -v dump-acct >/dev/null 2>&1; then
    echo "acct-of: accton/dump-acct missing: apt-get install --no-install-recommends acct" >&2
    exit 2
fi
file=$1
shift
if ! : >"$file" || ! accton "$file" >/dev/null; then
    echo "acct-of: cannot turn accounting on into $file (root?)" >&2
    exit 2
fi
sh -c 'echo $$ >"$1.pid" && shift && exec "$@"' sh "$file" "$@"
rc=$?
accton off >/dev/null
python3 "$(dirname "$0")/acct-report.py" "$file" "$(cat "$file.pid")" >&2
exit $rc
