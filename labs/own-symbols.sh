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
# Meson's archives are thin (objcopy cannot copy those): each member object is renamed into a
# folder of its own and a plain archive made of them.
dir="$out.d"
rm -rf "$dir" "$out.tmp"
mkdir -p "$dir/x"
if [ "$(head -c 7 "$in")" = '!<thin>' ]; then
    "$ar" t "$in" > "$dir/members"        # thin: the members' paths, from the build folder
else
    abs="$(cd "$(dirname "$in")" && pwd)/$(basename "$in")"   # before the cd below: $in is relative
    (cd "$dir/x" && "$ar" x "$abs") || {   # a plain archive can be used as it is
        echo "own-symbols.sh: ar x failed: $in keeps its names" >&2
        cp "$in" "$out"
        exit 0
    }
    ls "$dir/x" | sed "s|^|$dir/x/|" > "$dir/members"
fi
# The names: every defined global or weak symbol ("ADDRESS TYPE NAME", TYPE upper case), and every
# COMDAT group's signature (readelf -g: "COMDAT group section [ 1] `.group' [_ZN4dim3C5Ejjj]"): a
# group keeps its name apart from its symbols' (a constructor's C1/C2 share the group C5), and two
# copies' groups of one name would be merged by the linker, the second copy's references then
# pointing into the discarded one.
readelf=${READELF:-readelf}
while IFS= read -r m; do
    "$nm" --defined-only "$m" | awk 'NF == 3 && $2 ~ /^[A-Z]$/ && $2 != "U" { print $3 }'
    "$readelf" -gW "$m" | sed -n "s/^COMDAT group section .*\[\(.*\)\] contains .*/\1/p"
done < "$dir/members" | awk -v suf="$suffix" -v keep=" $* " '
    index(keep, " " $0 " ") == 0 && !seen[$0]++ { print $0, $0 suf }
' > "$map"
# Never a failed build of the kit for want of a tool: where a step fails, the copy keeps its names
# (a plain archive of its own objects, as before this step existed), and the reason goes to the log.
keep_names() {
    echo "own-symbols.sh: $1: $in keeps its names (a kernel of your own name must then be static)" >&2
    rm -f "$out.tmp"
    i=0
    while IFS= read -r m; do
        i=$((i + 1))
        cp "$m" "$dir/$i.o"
    done < "$dir/members"
    "$ar" rcs "$out.tmp" "$dir"/*.o && mv "$out.tmp" "$out"
    exit $?
}
i=0
while IFS= read -r m; do
    i=$((i + 1))
    "$objcopy" --redefine-syms="$map" "$m" "$dir/$i.o" || keep_names "objcopy failed on $m"
done < "$dir/members"
"$ar" rcs "$out.tmp" "$dir"/*.o || keep_names "ar failed"
mv "$out.tmp" "$out"
