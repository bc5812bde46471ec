#!/bin/sh
# own-symbols.sh NM OBJCOPY AR IN.a OUT.a SUFFIX KEEP...: OUT.a is IN.a with every symbol it defines renamed
# SYMBOL + SUFFIX, except the names in KEEP (the lab's API, already renamed per tile width by -D). The
# build's SUFFIX is '.tl_t16' (and '.tl_t32'): a clone suffix, which C++ demanglers print as
# 'mm_tiled<float>(...) [clone .tl_t16]', so a name in a backtrace or a profiler still reads.
#
# Labs 03 and 04 compile the student's one .cu once per tile width and link both copies into one
# program (labs/meson.build). A kernel or helper of the student's own name (`__global__ void
# sgemm_v1`, not static) would then be defined twice ("multiple definition"), and a template
# instantiated in both copies (`mm<float>` reading TILE_WIDTH) would be merged into one, so that one
# tile width ran the other's code. Renamed per copy, each copy keeps its own: renaming changes only
# names (relocations name symbols by index), and a COMDAT group is named by its symbol, so the
# copies' groups stay apart too. Undefined symbols (the CUDA runtime, libc) are left alone.
set -eu
[ $# -ge 6 ] || { echo "usage: own-symbols.sh NM OBJCOPY AR IN.a OUT.a SUFFIX [KEEP...]" >&2; exit 2; }
nm=$1 objcopy=$2 ar=$3 in=$4 out=$5 suffix=$6
shift 6
map="$out.syms"
# "ADDRESS TYPE NAME" lines of defined symbols (archive member headers and blank lines skipped)
"$nm" --defined-only "$in" | awk -v suf="$suffix" -v keep=" $* " '
    NF == 3 && $2 ~ /^[A-Z]$/ && $2 != "U" && index(keep, " " $3 " ") == 0 && !seen[$3]++ { print $3, $3 suf }
' > "$map"
# Meson's archives are thin (objcopy cannot copy those): each member object is renamed into a
# folder of its own and a plain archive made of them.
dir="$out.d"
rm -rf "$dir" "$out.tmp"
mkdir -p "$dir/x"
if [ "$(head -c 7 "$in")" = '!<thin>' ]; then
    "$ar" t "$in" > "$dir/members"        # thin: the members' paths, from the build folder
else
    (cd "$dir/x" && "$ar" x "$(cd "$(dirname "$in")" && pwd)/$(basename "$in")")
    ls "$dir/x" | sed "s|^|$dir/x/|" > "$dir/members"
fi
i=0
while IFS= read -r m; do
    i=$((i + 1))
    "$objcopy" --redefine-syms="$map" "$m" "$dir/$i.o"
done < "$dir/members"
"$ar" rcs "$out.tmp" "$dir"/*.o
mv "$out.tmp" "$out"
