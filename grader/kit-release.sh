#!/bin/sh
# grader/kit-release.sh: `./kit release DIR`: writes the student edition of the kit into DIR.
#
# The student edition is this kit without solutions/, without tests/ (its known-wrong and hostile
# submissions are built on the solutions), without build folders and without grader secrets or
# hidden data (grader/secret*, grader/hidden*, *.secret). It is proved before it is published: it is
# configured and built from clean in DIR.tmp, `./kit check 01` (grader/kit-check.sh) must fail on
# the skeleton with the teaching output, and no file of it may equal a solution file. Only then is
# DIR.tmp renamed to DIR. A non-empty DIR is never overwritten.
set -eu

: "${TL_ROOT:?kit release: TL_ROOT is not set (run it as ./kit release DIR)}"

if [ $# -ne 1 ]; then
    echo "usage: ./kit release DIR   (DIR: a new or empty folder for the student edition)" >&2
    exit 2
fi
dest=$1
case $dest in
/*) ;;
*) dest=$(pwd)/$dest ;;
esac
if [ -e "$dest" ] && [ ! -d "$dest" ]; then
    echo "kit release: '$dest' exists and is not a folder" >&2
    exit 2
fi
if [ -d "$dest" ] && [ -n "$(ls -A "$dest")" ]; then
    echo "kit release: '$dest' is not empty; refusing to overwrite it (remove it, or name a new folder)" >&2
    exit 2
fi
root=$(cd "$TL_ROOT" && pwd)
case $dest/ in
"$root"/*) echo "kit release: '$dest' lies inside the kit; name a folder outside it" >&2; exit 2 ;;
esac
tmp=$dest.tmp
rm -rf "$tmp"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT INT TERM

# The same exclusions as the grader's pristine copy (grader/intake.c, tg_path_excluded).
excluded() {
    case $1 in
    solutions/* | tests/* | .git/* | .carry/* | .gl/* | .whl/* | build/* | build-*/*) return 0 ;;
    grader/secret* | grader/hidden* | *.secret | */.secret*) return 0 ;;
    esac
    return 1
}

list=$tmp.list
if [ -e "$root/.git" ] && git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
    # Tracked files only: an instructor's untracked class folders and grading results stay out.
    git -C "$root" ls-files >"$list"
    u=$(git -C "$root" ls-files -o --exclude-standard | wc -l)
    [ "$u" -eq 0 ] || echo "kit release: note: $u untracked file(s) left out (git add what belongs to the kit)"
else
    (cd "$root" && find . -type f | sed 's|^\./||') >"$list"
fi
n=0
while IFS= read -r f; do
    [ -n "$f" ] || continue
    excluded "$f" && continue
    [ -f "$root/$f" ] && [ ! -L "$root/$f" ] || continue
    case /$f in */.state/*) continue ;; esac     # a grader out dir's private state
    mkdir -p "$tmp/$(dirname "$f")"
    cp -p "$root/$f" "$tmp/$f"
    n=$((n + 1))
done <"$list"
rm -f "$list"
echo "kit release: $n files copied into $tmp"

# No file of the student edition may be a copy of a solution file.
if [ -d "$root/solutions" ]; then
    sums=$tmp.sums
    find "$root/solutions" -type f ! -name meson.build -exec cksum {} + | awk '{print $1, $2}' >"$sums"
    leak=$(find "$tmp" -type f -exec cksum {} + | awk 'NR==FNR {s[$1" "$2]=1; next} ($1" "$2) in s {print $3}' "$sums" -)
    rm -f "$sums"
    if [ -n "$leak" ]; then
        echo "kit release: refusing: these files equal a solution file: $leak" >&2
        exit 1
    fi
fi

# Prove it: configure and build from clean, then ./kit check 01 must fail on the skeleton.
bdir=$tmp/build
if ! meson setup "$bdir" "$tmp" >"$tmp.log" 2>&1; then
    tail -n 30 "$tmp.log" >&2
    echo "kit release: the student edition does not configure (above); nothing was published" >&2
    rm -f "$tmp.log"
    exit 1
fi
if ! ninja -C "$bdir" >>"$tmp.log" 2>&1; then
    tail -n 30 "$tmp.log" >&2
    echo "kit release: the student edition does not build (above); nothing was published" >&2
    rm -f "$tmp.log"
    exit 1
fi
rm -f "$tmp.log"
set +e
out=$(TL_ROOT=$tmp TL_BUILD=$bdir sh "$tmp/grader/kit-check.sh" 01 2>&1)
rc=$?
set -e
if [ $rc -ne 1 ] || ! printf '%s\n' "$out" | grep -q 'likely:'; then
    printf '%s\n' "$out" | tail -n 30 >&2
    echo "kit release: expected './kit check 01' to fail on the skeleton with the teaching output (exit 1), got exit $rc; nothing was published" >&2
    exit 1
fi
echo "kit release: built from clean; './kit check 01' fails on the skeleton as it should:"
printf '%s\n' "$out" | sed -n '1,8p' | sed 's/^/  | /'
rm -rf "$bdir"
if [ -d "$dest" ]; then
    rmdir "$dest"
fi
mv "$tmp" "$dest"
trap - EXIT INT TERM
echo "kit release: student edition written to $dest"
