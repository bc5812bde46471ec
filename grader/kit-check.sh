#!/bin/sh
# grader/kit-check.sh: `./kit check NN [--emulate]`: the lab built incrementally in $TL_BUILD, then
# judged by the grader's own code on the public cases.
#   1. ninja builds the lab's program in $TL_BUILD (only the student's changed file recompiles; the
#      kit's own objects are already there). A GPU lab builds its emulated program instead when
#      there is no GPU here (no /dev/nvidia*), when this build has no CUDA, or with --emulate.
#   2. tl-grade --check --prebuilt PROGRAM judges it: the same cases, the same sandboxed --serve
#      session and the same checker as a grading run, so what passes here passes in the grader.
#      A build that fails is a FAIL quoting the compiler's first errors (tl-grade --build-failed).
# Hidden cases, safety and speed are the grader's alone. Exit: 0 every correctness test passes,
# 1 one failed (or the build failed), 2 usage, 3 a tool is missing, 77 nothing could be run here.
set -eu

: "${TL_ROOT:?kit check: TL_ROOT is not set (run it as ./kit check NN)}"
: "${TL_BUILD:?kit check: TL_BUILD is not set (run it as ./kit check NN)}"

. "$TL_ROOT/grader/kit-lib.sh"
TL_WHO="kit check"
usage() {
    tl_err "usage: ./kit check NN [--emulate]   (NN: the lab, e.g. 01)"
    exit 2
}
[ $# -ge 1 ] || usage
lab=$1
shift
emulate=
for a in "$@"; do
    case $a in
    --emulate) emulate=--emulate ;;
    *) tl_die "unknown option '$a' (./kit check --help)" ;;
    esac
done

tl_need_grader_libs
tl_build_grader "kit check"
tg="$TL_BUILD/grader/tl-grade"
# The lab table answers every question about a lab (build/common/tl-lab; ./kit built it).
tl_lab="$TL_BUILD/common/tl-lab"
[ -x "$tl_lab" ] || ninja -C "$TL_BUILD" common/tl-lab >/dev/null || tl_die "cannot build common/tl-lab in $TL_BUILD"
dir=$("$tl_lab" dir "$lab") || exit 2
[ -d "$TL_ROOT/labs/$dir" ] || tl_die "lab $lab is not in this kit yet (no labs/$dir)"
# The lab's targets, as ninja names them: its program, then (GPU labs) its emulated program.
bin=$("$tl_lab" get "$lab" binary)
emu=$("$tl_lab" get "$lab" emu_binary)
has_target() { ninja -C "$TL_BUILD" -t query "$1" >/dev/null 2>&1; }
target=$bin
if [ -n "$emu" ]; then
    if [ -z "$emulate" ] && [ ! -e /dev/nvidiactl ] && [ ! -e /dev/nvidia0 ]; then
        tl_say "kit check: no GPU here (no /dev/nvidia*): lab $lab runs emulated on the CPU (correctness only)"
        emulate=--emulate
    elif [ -z "$emulate" ] && ! has_target "$bin"; then
        tl_say "kit check: this build has no CUDA (no $bin target): lab $lab runs emulated on the CPU"
        emulate=--emulate
    fi
    if [ -n "$emulate" ]; then
        target=$emu
        has_target "$emu" || tl_die "nothing could be run: no GPU and no emulated build of lab $lab in $TL_BUILD" 77
    fi
fi
out=$TL_BUILD/check/$dir
mkdir -p "$out"
log=$out/build.log
tl_say "kit check $lab: labs/$dir/$("$tl_lab" files "$lab" | tr '\n' ' ')on the public cases"
# The log keeps the student's warnings (tl-grade shows them): when ninja has nothing to do, the
# sources are those of the last build, and so is its log. A student file changed since that log
# (or built by ./kit's progress step) is touched, so this build compiles it and logs its warnings.
for f in $("$tl_lab" files "$lab"); do
    src=$TL_ROOT/labs/$dir/$f
    if [ -f "$src" ] && { [ ! -f "$log" ] || [ "$src" -nt "$log" ]; }; then touch "$src"; fi
done
if ! ninja -C "$TL_BUILD" "$target" >"$log.new" 2>&1; then
    mv -f "$log.new" "$log"
    # emulated: a rewrite that cannot take valid CUDA is reported as not checked here, not as a FAIL
    exec "$tg" --check --quiet --kit "$TL_ROOT" --lab "$lab" --out "$out" --build-failed "$log" $emulate
fi
if grep -q "no work to do" "$log.new" && [ -f "$log" ]; then rm -f "$log.new"; else mv -f "$log.new" "$log"; fi
# The grader takes the student files alone (tl-lab files): a file of the student's own
# that one of them includes builds here but not there. ninja's dependency records name every file
# each object read; one in the lab folder that is neither a student file nor the kit's (git's
# list, or the student edition's .tilelab-kit-files written by ./kit release) fails the check as
# the grader's build would, and the other files of the folder it ignores are named.
kitlist=
if [ -e "$TL_ROOT/.git" ] && git -C "$TL_ROOT" rev-parse --git-dir >/dev/null 2>&1; then
    kitlist=$(git -C "$TL_ROOT" ls-files "labs/$dir")
elif [ -f "$TL_ROOT/.tilelab-kit-files" ]; then
    kitlist=$(grep "^labs/$dir/" "$TL_ROOT/.tilelab-kit-files" || true)
fi
if [ -n "$kitlist" ]; then
    students=$("$tl_lab" files "$lab")
    is_known() {   # $1: a path relative to labs/$dir
        printf '%s\n' "$students" | grep -qxF "$1" && return 0
        printf '%s\n' "$kitlist" | grep -qxF "labs/$dir/$1"
    }
    extra=
    objs=$(ninja -C "$TL_BUILD" -t deps 2>/dev/null | sed -n 's/: #deps.*//p' | grep '^labs/' | grep -v -e '-ref-' -e '-ref\.p/')
    for f in $students; do
        for o in $(printf '%s\n' "$objs" | grep -F -e "/$f.o" -e "/meson-generated_${f%.*}.emu.cpp.o"); do
            for d in $(ninja -C "$TL_BUILD" -t deps "$o" 2>/dev/null | sed -n 's/^    //p'); do
                case $d in
                ../labs/$dir/*) rel=${d#../labs/$dir/} ;;
                "$TL_ROOT"/labs/$dir/*) rel=${d#"$TL_ROOT"/labs/$dir/} ;;
                *) continue ;;
                esac
                is_known "$rel" || case " $extra " in *" $f:$rel "*) ;; *) extra="$extra $f:$rel" ;; esac
            done
        done
    done
    # nvcc's objects carry no dependency record: their quoted #includes of a file in the folder
    for f in $students; do
        [ -f "$TL_ROOT/labs/$dir/$f" ] || continue
        for rel in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$TL_ROOT/labs/$dir/$f"); do
            rel=${rel#./}
            [ -f "$TL_ROOT/labs/$dir/$rel" ] || continue
            is_known "$rel" || case " $extra " in *" $f:$rel "*) ;; *) extra="$extra $f:$rel" ;; esac
        done
    done
    others=
    for p in "$TL_ROOT/labs/$dir"/*; do
        b=${p##*/}
        [ -f "$p" ] && ! is_known "$b" && others="$others $b"
    done
    [ -z "$others" ] || tl_say "kit check: ignored here as by the grader (it takes only $(echo $students)):$others"
    if [ -n "$extra" ]; then
        {
            for e in $extra; do
                printf '%s: error: includes %s, a file of yours the grader does not take (it takes only %s): put what it holds into %s\n' \
                    "${e%%:*}" "${e#*:}" "$(echo $students)" "${e%%:*}"
            done
        } >> "$log"
        exec "$tg" --check --quiet --kit "$TL_ROOT" --lab "$lab" --out "$out" --build-failed "$log"
    fi
fi
# A lab whose kernels' work the grader judges (launches, loads per multiply-add) also builds the
# same file as the emulator's counting twin ($emu-count: every access counted, 2.5-3.4x slower),
# which counts that work on one small case (grader/work.c): the GPU program cannot count it, and
# the emulated program, which runs every case, is built without the counting. On a GPU the
# emulated program is built too only where compute-sanitizer is missing (the safety tests use it
# then; tl-grade looks on PATH and in /usr/local/cuda/bin, tg_find_tool, and so does this), as the
# grader's build does (grader/build.c, want_emu_program; issue 29).
# Their build failing is no build failure of the lab (the file may use CUDA the emulator lacks):
# tl-grade then says the work was not checked, and why.
if [ -n "$emu" ] && has_target "$emu-count" &&
   [ "$("$TL_BUILD/common/tl-lab" get "$lab" work 2>/dev/null)" = 1 ]; then
    twins="$emu-count"
    if [ -z "$emulate" ] && ! PATH="$PATH:/usr/local/cuda/bin" command -v compute-sanitizer >/dev/null 2>&1; then
        twins="$emu $twins"
    fi
    # shellcheck disable=SC2086 # two ninja target paths, no spaces
    ninja -C "$TL_BUILD" $twins > "$out/emu-build.log" 2>&1 || true
fi
exec "$tg" --check --quiet --kit "$TL_ROOT" --lab "$lab" --out "$out" --prebuilt "$TL_BUILD/$target" $emulate
