# shellcheck shell=bash
# tests/gpu/out.sh: sourced by a device script for its output: OUT (else ./gpu-out) made and made
# absolute, S its summary.txt (emptied), and say() printing a line to the screen and into S.
OUT="${OUT:-./gpu-out}"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
S=$OUT/summary.txt
: > "$S"
say() { printf '%s\n' "$*" | tee -a "$S"; }
# tree_copy DEST: this working tree's files (tracked, and untracked ones git does not ignore) into
# DEST, as the device tool carries them. Not `git archive HEAD`: the device machine's copy keeps the
# .git of the session's first call, so its HEAD can be older than its files (session 21: cpu-diag.sh
# part G measured the kit of 3419050 while the carried files were 8b61f28's). A path the stale index
# lists but the tree no longer has is skipped.
tree_copy() {
    mkdir -p "$1" &&
    git ls-files -z -co --exclude-standard | tar --null --ignore-failed-read -cf - -T - 2>/dev/null | tar -xf - -C "$1"
}
# tree_name: the commit git names here, and whether the files differ from it (on the device machine
# they often do: tree_copy above)
tree_name() {
    printf '%s%s' "$(git rev-parse --short HEAD 2>/dev/null)" \
        "$(git status --porcelain 2>/dev/null | grep -q . && echo ' plus changes in the working tree')"
}
