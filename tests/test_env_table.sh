#!/bin/sh
# The environment variables the kit reads are documented once: README.md's table "Environment
# variables" (issue 22 item 6). Fails when a program of common/ or grader/ calls getenv on a name the
# table lacks, when a script (./kit, common/*.sh, grader/*.sh) reads an upper-case variable with a
# default (${NAME:-...}, ${NAME:?...}, ${NAME:=...}) that the table lacks, or when a name has more
# than one row. Usage: test_env_table.sh ROOT
set -eu
root=${1:?usage: test_env_table.sh ROOT}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# The table: the rows between "## Environment variables" and the next "## " heading; each row's
# first cell names one or more variables in backticks (`NAME` or `NAME=VALUE`).
awk '/^## Environment variables/ {on = 1; next} /^## / {on = 0} on && /^\| `/' "$root/README.md" |
    while IFS= read -r row; do
        cell=$(printf '%s\n' "$row" | cut -d'|' -f2)
        printf '%s\n' "$cell" | grep -oE '`[A-Za-z_][A-Za-z0-9_]*' | tr -d '`'
    done > "$tmp/table"
[ -s "$tmp/table" ] || { echo "README.md: no table under '## Environment variables'"; exit 1; }

# What the kit reads.
find "$root/common" "$root/grader" -type f \( -name '*.c' -o -name '*.h' -o -name '*.cpp' -o -name '*.cu' \) \
    -exec grep -ohE 'getenv\("[A-Za-z_][A-Za-z0-9_]*"\)' {} + |
    sed 's/getenv("\(.*\)")/\1/' > "$tmp/read"
for f in "$root/kit" "$root"/common/*.sh "$root"/grader/*.sh; do
    grep -ohE '\$\{[A-Z][A-Z0-9_]*:[-?=]' "$f" | sed 's/^\${\(.*\):.$/\1/'
done >> "$tmp/read"
[ "$(sort -u "$tmp/read" | wc -l)" -ge 10 ] || { echo "found too few reads: the scan is broken"; exit 1; }

fail=0
# shellcheck disable=SC2013  # names: one word each
for v in $(sort -u "$tmp/read"); do
    if ! grep -qx "$v" "$tmp/table"; then
        echo "FAIL: the kit reads \$$v, which README.md's 'Environment variables' table does not list"
        fail=1
    fi
done
# shellcheck disable=SC2013
for v in $(sort "$tmp/table" | uniq -d); do
    echo "FAIL: \$$v has more than one row in README.md's 'Environment variables' table (document it once)"
    fail=1
done
[ "$fail" = 0 ] && echo "ok: $(sort -u "$tmp/read" | wc -l) variables read, each in the table once"
exit "$fail"
