#!/bin/sh
# grader/kit-release.sh: `./kit release DIR`: writes the student edition of the kit into DIR.
#
# What goes in is the grader's own pristine-copy rule (`tl-grade --print-pristine KIT`, the same
# rule intake uses for a submission's build: no solutions/, no tests/ with their known-wrong and
# hostile submissions, no build folders, no grader secrets or hidden data), restricted to the files
# git tracks when the kit is a git checkout (an instructor's untracked class folders and grades stay
# out). It is proved before it is published: no file of it may equal a solution file, none of the
# excluded kinds may be in it, it is configured and built from clean in DIR.tmp, and `./kit check
# 01` (grader/kit-check.sh) must fail on the skeleton with the teaching output. Only then is DIR.tmp
# renamed to DIR. A non-empty DIR is never overwritten.
# Called by ./kit with TL_ROOT and TL_BUILD (a configured build folder; default TL_ROOT/build) exported.
# Exit: 0 written, 1 the edition failed its proof (nothing published), 2 bad usage.
set -eu

: "${TL_ROOT:?kit release: TL_ROOT is not set (run it as ./kit release DIR)}"
TL_BUILD=${TL_BUILD:-$TL_ROOT/build}   # where tl-grade is built (the kit's build folder)
. "$TL_ROOT/common/kit-lib.sh"
TL_WHO="kit release"

case ${1:-} in
-h|--help)
    tl_say "usage: ./kit release DIR   (DIR: a new or empty folder outside the kit)"
    tl_say "Writes the student edition: the kit as the grader's pristine copy holds it (no solutions/,"
    tl_say "no tests/, no grader secrets), built and checked from clean before it is published."
    exit 0 ;;
-*) tl_die "unknown option '$1' (./kit release --help)" ;;
esac
[ $# -eq 1 ] || tl_die "usage: ./kit release DIR   (DIR: a new or empty folder for the student edition)"
dest=$1
case $dest in
/*) ;;
*) dest=$(pwd)/$dest ;;
esac
if [ -e "$dest" ] && [ ! -d "$dest" ]; then
    tl_die "'$dest' exists and is not a folder"
fi
if [ -d "$dest" ] && [ -n "$(ls -A "$dest")" ]; then
    tl_die "'$dest' is not empty; refusing to overwrite it (remove it, or name a new folder)"
fi
root=$(cd "$TL_ROOT" && pwd)
case $dest/ in
"$root"/*) tl_die "'$dest' lies inside the kit; name a folder outside it" ;;
esac
# ./kit runs this part with TL_KIT_ARGS_ONLY=1 before it installs, configures or builds anything
[ "${TL_KIT_ARGS_ONLY:-0}" != 1 ] || exit 0
mkdir -p "$(dirname "$dest")" 2>/dev/null || tl_die "cannot make the folder above '$dest'"
tmp=$dest.tmp
rm -rf "$tmp"
mkdir -p "$tmp" || tl_die "cannot make '$tmp'"
trap 'rm -rf "$tmp" "$tmp.list" "$tmp.tracked" "$tmp.sums" "$tmp.log"' EXIT
trap 'exit 143' INT TERM

# ------------------------------------------------------------------ what goes in
. "$TL_ROOT/grader/kit-lib.sh"
tl_need_grader_libs
TL_WHO="kit release"
tl_build grader/tl-grade || exit 1
tg=$TL_BUILD/grader/tl-grade
list=$tmp.list
"$tg" --print-pristine "$root" >"$list" || tl_die "tl-grade --print-pristine failed (above)" 1
[ -s "$list" ] || tl_die "tl-grade --print-pristine listed no files for '$root'" 1
if [ -e "$root/.git" ] && git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
    # Tracked files only: an instructor's untracked class folders and grading results stay out.
    git -C "$root" ls-files >"$tmp.tracked"
    u=$(grep -c -v -x -F -f "$tmp.tracked" "$list" || true)
    grep -x -F -f "$tmp.tracked" "$list" >"$list.new" || true
    mv "$list.new" "$list"
    [ "$u" -eq 0 ] || tl_say "kit release: note: $u untracked file(s) left out (git add what belongs to the kit)"
fi
n=0
while IFS= read -r f; do
    [ -n "$f" ] || continue
    [ -f "$root/$f" ] && [ ! -L "$root/$f" ] || continue
    mkdir -p "$tmp/$(dirname "$f")"
    cp -p "$root/$f" "$tmp/$f"
    n=$((n + 1))
done <"$list"
tl_say "kit release: $n files copied into $tmp"
# The kit's own files, for ./kit check: a file of the student's included from a student file builds
# in their tree but not in the grader's, which takes the student files alone (kit-check.sh).
cp "$list" "$tmp/.tilelab-kit-files"

# ------------------------------------------------------------------ proof
# Nothing of the instructor's: no solutions, no tests (known-wrong and hostile submissions), no secrets.
bad=$(cd "$tmp" && find . -path ./solutions -o -path ./tests -o -path './grader/secret*' \
    -o -path './grader/hidden*' -o -name '*.secret*' | sed 's|^\./||' | head -n 5)
[ -z "$bad" ] || tl_die "refusing: the pristine rule let these through: $bad" 1
# No file of the student edition may be a copy of a solution file.
if [ -d "$root/solutions" ]; then
    find "$root/solutions" -type f ! -name meson.build -exec cksum {} + | awk '{print $1, $2}' >"$tmp.sums"
    leak=$(find "$tmp" -type f -exec cksum {} + | awk 'NR==FNR {s[$1" "$2]=1; next} ($1" "$2) in s {print $3}' "$tmp.sums" -)
    [ -z "$leak" ] || tl_die "refusing: these files equal a solution file: $leak" 1
fi

# Configure and build from clean, then ./kit check 01 must fail on the skeleton.
bdir=$tmp/build
tl_say "kit release: building the student edition from clean (the proof; minutes on a small machine)"
# Every program of the edition, the GPU ones too where nvcc is (built by default only where a GPU
# is: the top meson.build's gpu_programs): the proof compiles all the student will build.
gp=
! tl_find_nvcc || gp=-Dgpu_programs=enabled
# Where no GPU is, machine code for one architecture: the highest of the kit build's gpu_archs
# (the one whose PTX ships too; 90 if that build says none). Every .cu of the edition still goes
# through nvcc, ptxas and the link; the other architectures' copies would only be compiled, never
# run, and cost nvcc's time once more each (issue 22 item 5; tests/bench/README.md, session 11).
# Where a GPU is, the proof builds what the student's build would: every architecture.
if [ -n "$gp" ] && [ ! -e /dev/nvidiactl ] && [ ! -e /dev/nvidia0 ]; then
    arch=$(meson introspect "$TL_BUILD" --buildoptions 2>/dev/null | tr '{' '\n' |
        sed -n 's/.*"name": "gpu_archs".*"value": "\([^"]*\)".*/\1/p' | tr ',' '\n' | sed 's/ //g' | grep . | tail -n 1)
    gp="$gp -Dgpu_archs=${arch:-90}"
fi
# shellcheck disable=SC2086 # $gp: options or none
if ! meson setup "$bdir" "$tmp" $gp >"$tmp.log" 2>&1; then
    tail -n 30 "$tmp.log" >&2
    tl_die "the student edition does not configure (above); nothing was published" 1
fi
TL_BUILD=$bdir tl_build || tl_die "the student edition does not build (above); nothing was published" 1
set +e
out=$(TL_ROOT=$tmp TL_BUILD=$bdir sh "$tmp/grader/kit-check.sh" 01 2>&1)
rc=$?
set -e
if [ $rc -ne 1 ] || ! printf '%s\n' "$out" | grep -q 'where and why'; then
    printf '%s\n' "$out" | tail -n 30 >&2
    tl_die "expected './kit check 01' to fail on the skeleton with the teaching output (exit 1), got exit $rc; nothing was published" 1
fi
tl_say "kit release: built from clean; './kit check 01' fails on the skeleton as it should:"
printf '%s\n' "$out" | sed -n '1,8p' | sed 's/^/  | /'
rm -rf "$bdir" "$tmp/.kit-setup.log"
if [ -d "$dest" ]; then
    rmdir "$dest"
fi
mv "$tmp" "$dest"
trap - EXIT INT TERM
rm -f "$tmp.list" "$tmp.tracked" "$tmp.sums" "$tmp.log"
tl_say "kit release: student edition written to $dest"
