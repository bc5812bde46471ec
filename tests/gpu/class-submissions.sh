#!/bin/sh
# tests/gpu/class-submissions.sh: a class of N DISTINCT lab 03 submissions (no two files
# byte-equal), for tests/gpu/class-on-device.sh and tests/bench/emulated-class.sh (issue 29).
#
#   sh tests/gpu/class-submissions.sh [--n N] [--wrong K] [--corpus K] [--kit DIR] DEST
#
# DEST/sNNN-WHAT/tiled.cu, in this order until N are made:
#   1. the reference solution (solutions/03-*/tiled.cu) and the skeleton (labs/03-*/tiled.cu);
#   2. the known-wrong files of lab 03 (tests/wrong/manifest.tsv's rows; --wrong K: the first K);
#   3. the real-style corpus, right and wrong (tests/corpus/03-*.cu; --corpus K: the first K);
#   4. generated variants of the solution that differ in bytes but not in meaning: a comment that
#      names the variant, at the top or the end, with blank lines, trailing spaces or tabs added
#      in turn (no code changes: each grades as the solution does).
# One line per submission on stdout: "NAME<TAB>KIND<TAB>SOURCE" (KIND: solution, skeleton, wrong,
# corpus-right, corpus-wrong, variant); then a line "# N submissions, N distinct ...". Exit 2 on
# bad arguments, or when two files would be byte-equal (the class would not be distinct).
set -eu

n=100
nwrong=-1
ncorpus=-1
kit=$(cd "$(dirname "$0")/../.." && pwd)
dest=
while [ $# -gt 0 ]; do
    case $1 in
    --n) n=$2; shift 2 ;;
    --wrong) nwrong=$2; shift 2 ;;
    --corpus) ncorpus=$2; shift 2 ;;
    --kit) kit=$2; shift 2 ;;
    -h|--help) awk 'NR > 1 && /^#/ {sub(/^# ?/, ""); print; next} NR > 1 {exit}' "$0"; exit 0 ;;
    -*) echo "class-submissions.sh: unknown option '$1' (--n N, --wrong K, --corpus K, --kit DIR)" >&2; exit 2 ;;
    *) dest=$1; shift ;;
    esac
done
for v in "$n" "$nwrong" "$ncorpus"; do
    case $v in -1) ;; ''|*[!0-9]*) echo "class-submissions.sh: a count must be a number, got '$v'" >&2; exit 2 ;; esac
done
[ -n "$dest" ] || { echo "class-submissions.sh: name the folder to write the class into (DEST)" >&2; exit 2; }
sol=
skel=
for f in "$kit"/solutions/03-*/tiled.cu; do [ -f "$f" ] && sol=$f; done
for f in "$kit"/labs/03-*/tiled.cu; do [ -f "$f" ] && skel=$f; done
if [ -z "$sol" ] || [ -z "$skel" ]; then
    echo "class-submissions.sh: no solutions/03-*/tiled.cu or labs/03-*/tiled.cu in '$kit' (--kit: the instructor's kit)" >&2
    exit 2
fi
mkdir -p "$dest"
[ -z "$(ls -A "$dest")" ] || { echo "class-submissions.sh: '$dest' is not empty: give an empty or new folder" >&2; exit 2; }

i=0
add() {   # add KIND SOURCE [FILTER-COMMAND]: one submission, unless N are made
    [ "$i" -lt "$n" ] || return 0
    name=$(printf 's%03d-%s' "$i" "$1")
    mkdir "$dest/$name"
    if [ $# -ge 3 ]; then
        sh -c "$3" <"$2" >"$dest/$name/tiled.cu"
    else
        cp "$2" "$dest/$name/tiled.cu"
    fi
    printf '%s\t%s\t%s\n' "$name" "$1" "${2#"$kit"/}"
    i=$((i + 1))
}

add solution "$sol"
add skeleton "$skel"
k=0
while IFS='	' read -r file lab _; do
    case $file in \#*|'') continue ;; esac
    if [ "$lab" != 03 ] || [ ! -f "$kit/tests/wrong/$file" ]; then continue; fi
    [ "$nwrong" -lt 0 ] || [ "$k" -lt "$nwrong" ] || break
    add wrong "$kit/tests/wrong/$file"
    k=$((k + 1))
done <"$kit/tests/wrong/manifest.tsv"
k=0
for f in "$kit"/tests/corpus/03-right-*.cu "$kit"/tests/corpus/03-wrong-*.cu; do
    [ -f "$f" ] || continue
    [ "$ncorpus" -lt 0 ] || [ "$k" -lt "$ncorpus" ] || break
    case $(basename "$f") in 03-right-*) add corpus-right "$f" ;; *) add corpus-wrong "$f" ;; esac
    k=$((k + 1))
done
v=1
while [ "$i" -lt "$n" ]; do
    case $((v % 4)) in
    0) f="{ printf '/* variant %d of the solution */\\n' $v; cat; }" ;;
    1) f="{ cat; printf '\\n// variant %d of the solution\\n' $v; }" ;;
    2) f="{ printf '// variant %d\\n\\n\\n' $v; sed '/\\\\\$/!s/\$/ /'; }" ;;
    *) f="{ printf '/* variant %d: tabs */\\n' $v; sed 's/^    /\\t/'; }" ;;
    esac
    add variant "$sol" "$f"
    v=$((v + 1))
done

# Distinct: no two files byte-equal.
total=0
for d in "$dest"/*/; do total=$((total + 1)); done
distinct=$(for d in "$dest"/*/; do sha256sum <"$d/tiled.cu"; done | sort -u | wc -l)
if [ "$distinct" -ne "$total" ]; then
    echo "class-submissions.sh: only $distinct of $total files are distinct (two are byte-equal)" >&2
    exit 2
fi
echo "# $total submissions, $distinct distinct (no two tiled.cu files byte-equal, sha256)"
