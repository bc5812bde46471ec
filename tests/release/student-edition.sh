#!/bin/sh
# tests/release/student-edition.sh: the student edition holds what its lab READMEs name (TAP).
#
#   TL_ROOT=KIT TL_BUILD=BUILD sh tests/release/student-edition.sh     (Meson: suite 'release')
#
# Writes the student edition with `./kit release` into a temporary folder, then, in that edition,
# for every lab README (labs/README.md, labs/*/README.md):
#   - every path it names (in backticks, code blocks or links: labs/..., common/..., grader/...,
#     plots/..., slides/..., build/..., a bare file name such as `lab.c`) exists there, or for
#     build/ is something the edition's build makes;
#   - every command it names runs as written: `./kit CMD ...` answers `--help` with exit 0 (and
#     `./kit check 01 ARGS` runs for real: exit 0 or 1, never 2; `./kit check 01` alone, the
#     grader's path, is kit release's proof of this edition: exit 1 with the teaching output, read
#     from the release's log); `build/...` programs are built
#     and run with the README's arguments in a scratch folder: exit 0, 1 or 77 (77: no GPU), never
#     2 (bad usage), within 300 s.
# Placeholders (NN, FILE, LIST, ...) are not paths. A command that needs what this machine lacks
# (no nvcc: no GPU lab programs) is reported as SKIP with the reason, never as ok.
set -u

: "${TL_ROOT:?TL_ROOT: the kit's top folder}"
: "${TL_BUILD:?TL_BUILD: the kit's configured build folder}"
n=0
fails=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n - $*"; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
diag() { sed 's/^/# /'; }
finish() { echo "1..$n"; [ $fails = 0 ]; exit $?; }

for t in git meson ninja timeout; do
    command -v $t >/dev/null 2>&1 || { echo "1..0 # SKIP $t is not installed"; exit 0; }
done
[ -f "$TL_BUILD/build.ninja" ] || { echo "1..0 # SKIP '$TL_BUILD' is not a configured build folder"; exit 0; }

work=$(mktemp -d "${TMPDIR:-/tmp}/tl-edition.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
trap 'exit 143' INT TERM
ed=$work/edition
B=$ed/build

# ------------------------------------------------------------------ the edition
if (cd "$TL_ROOT" && ./kit release "$ed") >"$work/release.log" 2>&1 </dev/null; then
    ok "./kit release writes the student edition"
else
    notok "./kit release writes the student edition"
    tail -n 30 "$work/release.log" | diag
    finish
fi
bad=$(cd "$ed" && find . -path ./solutions -o -path ./tests -o -path './grader/secret*' -o -path './grader/hidden*' -o -name '*.secret*' | head -n 5)
if [ -z "$bad" ]; then
    ok "the student edition holds no solutions, tests or secrets"
else
    notok "the student edition holds no solutions, tests or secrets: $bad"
fi
[ ! -e "$ed/build" ] && ok "the student edition holds no build folder" || notok "the student edition holds no build folder"
# The student files are the skeletons (the grader-runs suite used to release a second edition for this).
if grep -q TODO "$ed/labs/01-cpu-baseline/gmm.c" 2>/dev/null; then
    ok "the student edition's labs/01-cpu-baseline/gmm.c is the skeleton"
else
    notok "the student edition's labs/01-cpu-baseline/gmm.c is the skeleton (no TODO in it)"
fi

# The edition's build, configured the way a student's first ./kit command does it.
if (cd "$ed" && TL_BUILD=$B ./kit setup) >"$work/setup.log" 2>&1 </dev/null; then
    ok "./kit setup configures the student edition"
else
    notok "./kit setup configures the student edition"
    tail -n 20 "$work/setup.log" | diag
    finish
fi
cuda=$(cat "$B/.kit-cuda" 2>/dev/null || echo unknown)
# Where no GPU is, the GPU programs the READMEs name are built (and run: exit 77) for one
# architecture, the highest of the default list, as kit release's proof builds them: what is checked
# here is that each builds and answers, which the other architectures' machine code does not change.
if [ "$cuda" = enabled ] && [ ! -e /dev/nvidiactl ] && [ ! -e /dev/nvidia0 ]; then
    arch=$(meson introspect "$B" --buildoptions 2>/dev/null | tr '{' '\n' |
        sed -n 's/.*"name": "gpu_archs".*"value": "\([^"]*\)".*/\1/p' | tr ',' '\n' | sed 's/ //g' | grep . | tail -n 1)
    if [ -n "$arch" ] && meson configure "$B" -Dgpu_archs="$arch" >"$work/archs.log" 2>&1; then
        echo "# no GPU here: the edition's GPU programs built for sm_$arch only"
    else
        notok "meson configure of the edition's build with -Dgpu_archs=${arch:-?} (one architecture, no GPU here)"
        diag <"$work/archs.log"
    fi
fi
cuda_inc=
nvcc=$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null)
[ -z "$nvcc" ] || cuda_inc=$(cd "$(dirname "$nvcc")/../include" 2>/dev/null && pwd)

# ------------------------------------------------------------------ no instructor paths
# What a student runs in the edition prints no path of the instructor's kit (solutions/, tests/),
# which the edition lacks: the kit's help, the demo's (and its student-edition part), tl-lab's.
if ninja -C "$B" common/tl-lab >"$work/tl-lab.log" 2>&1; then
    for c in "./kit help" "./kit demo --help" "./kit check --help" "./kit grade --help" "build/common/tl-lab --help" \
             "build/common/tl-lab fields" "build/common/tl-lab dir 03"; do
        o=$(cd "$ed" && TL_BUILD=$B timeout 60 sh -c "$c" 2>&1 </dev/null)
        hit=$(printf '%s\n' "$o" | grep -E '(^|[^A-Za-z_.-])(solutions|tests)/' | head -n 3)
        if [ -z "$hit" ]; then
            ok "'$c' in the edition names no instructor path (solutions/, tests/)"
        else
            notok "'$c' in the edition names an instructor path:"
            printf '%s\n' "$hit" | diag
        fi
    done
else
    notok "the edition builds tl-lab"
    tail -n 10 "$work/tl-lab.log" | diag
fi
o=$(cd "$ed" && sed -n '/^if \[ \$student = 1 \]/,/^else/p' common/kit-demo.sh)
if [ -n "$o" ] && ! printf '%s\n' "$o" | grep -q -E 'tl_say .*(solutions|tests)/'; then
    ok "the demo's student-edition part names no instructor path"
else
    notok "the demo's student-edition part names no instructor path (common/kit-demo.sh)"
fi
# ------------------------------------------------------------------ what the READMEs name
# spans README: one line per code span, fenced code line or link target, as 'KIND<TAB>TEXT'.
spans() {
    awk '
    /^```/ { fence = !fence; next }
    fence  { print "code\t" $0; next }
    {
        s = $0
        while (match(s, /`[^`]+`/)) { print "span\t" substr(s, RSTART + 1, RLENGTH - 2); s = substr(s, RSTART + RLENGTH) }
        s = $0
        while (match(s, /\]\([^)]+\)/)) { print "link\t" substr(s, RSTART + 2, RLENGTH - 3); s = substr(s, RSTART + RLENGTH) }
    }' "$1"
}

# is_placeholder WORD: 0 for words that stand for something (NN, FILE, LIST, N, DIR...).
is_placeholder() {
    case $1 in
    *NN*|*FILE*|*LIST*|*DIR*|*'<'*|*'*'*|*'...'*|*NAME*) return 0 ;;
    esac
    return 1
}

# check_path README WORD: the path exists in the edition (or, for build/, is a target of its build).
check_path() {
    _r=$1 _w=${2%/}
    _d=$(dirname "$_r")
    case $_w in
    build/*)
        _t=${_w#build/}
        if [ -e "$B/$_t" ] || ninja -C "$B" -t query "$_t" >/dev/null 2>&1; then
            ok "$_r: '$_w' is made by the edition's build"
        elif [ "$cuda" != enabled ] && grep -q "'$_t'" "$TL_BUILD/build.ninja" 2>/dev/null; then
            skip "$_r: '$_w' is made by the edition's build" "no nvcc here: the GPU programs are not built"
        else
            notok "$_r: '$_w' is made by the edition's build"
        fi ;;
    */*)
        if [ -e "$ed/$_w" ] || [ -e "$ed/$_d/$_w" ]; then
            ok "$_r: '$_w' exists"
        else
            notok "$_r: '$_w' exists in the student edition"
        fi ;;
    *)
        if [ -e "$ed/$_d/$_w" ] || [ -e "$ed/$_w" ] || [ -n "$(find "$ed" -name "$_w" -print | head -n 1)" ]; then
            ok "$_r: '$_w' exists"
        elif [ -n "$cuda_inc" ] && [ -e "$cuda_inc/$_w" ]; then
            ok "$_r: '$_w' exists (a header of the CUDA toolkit, $cuda_inc)"
        elif [ -z "$cuda_inc" ] && case $_w in cuda*.h) true ;; *) false ;; esac; then
            skip "$_r: '$_w' exists" "no CUDA toolkit here to look for it in"
        else
            notok "$_r: '$_w' exists in the student edition"
        fi ;;
    esac
}

# run_cmd README LINE: a command as the README writes it, run in the edition.
run_cmd() {
    _r=$1 _c=$2
    # shellcheck disable=SC2086
    set -- $_c
    case $1 in
    ./kit)
        _sub=${2:-}
        if [ "$_sub" = check ] && [ "${3:-}" = 01 ] && [ $# = 3 ]; then
            # The grader's path (tl-grade built, the skeleton judged): kit release's proof ran it in
            # this edition's files from a clean build of its own and published the edition only on
            # exit 1 with the teaching output ('where and why'); its log says so. Running it again
            # here would build the edition's tl-grade a second time (about 20 CPU-s, session 13);
            # ./kit's front door for check 01 runs for real with the README's other arguments below.
            if grep -q "'./kit check 01' fails on the skeleton as it should" "$work/release.log"; then
                ok "$_r: '$_c' runs (exit 1 on the skeleton, with the teaching output, in kit release's proof of this edition)"
            else
                notok "$_r: '$_c' ran in kit release's proof of this edition (its line is not in the release log)"
                tail -n 15 "$work/release.log" | diag
            fi
        elif [ "$_sub" = check ] && [ "${3:-}" = 01 ]; then
            (cd "$ed" && TL_BUILD=$B timeout 600 "$@") >"$work/cmd.log" 2>&1 </dev/null
            _rc=$?
            case $_rc in
            0|1) ok "$_r: '$_c' runs (exit $_rc)" ;;
            *) notok "$_r: '$_c' runs (exit $_rc)"; tail -n 15 "$work/cmd.log" | diag ;;
            esac
        fi
        if [ "$_sub" = check ] && [ $# -ge 3 ]; then
            set -- ./kit check "$3" --help
        else
            set -- ./kit "$_sub" --help
        fi
        (cd "$ed" && TL_BUILD=$B timeout 120 "$@") >"$work/cmd.log" 2>&1 </dev/null
        _rc=$?
        if [ $_rc = 0 ]; then ok "$_r: '$*' answers (from '$_c')"; else notok "$_r: '$*' answers, exit $_rc (from '$_c')"; tail -n 10 "$work/cmd.log" | diag; fi ;;
    build/*)
        _t=${1#build/}
        if ! ninja -C "$B" -t query "$_t" >/dev/null 2>&1; then
            if [ "$cuda" != enabled ]; then
                skip "$_r: '$_c' runs" "no nvcc here: $_t is not built"
            else
                notok "$_r: '$_c' runs: the edition's build has no '$_t'"
            fi
            return
        fi
        if ! ninja -C "$B" "$_t" >"$work/build.log" 2>&1; then
            notok "$_r: '$_c' runs: '$_t' does not build"
            tail -n 15 "$work/build.log" | diag
            return
        fi
        shift
        mkdir -p "$work/scratch"
        (cd "$work/scratch" && timeout 300 "$B/$_t" "$@") >"$work/cmd.log" 2>&1 </dev/null
        _rc=$?
        case $_rc:$* in
        0:*|1:*|77:*) case $* in *--help*) [ $_rc = 0 ] || { notok "$_r: '$_c' exits 0 (got $_rc)"; return; } ;; esac
                      ok "$_r: '$_c' runs (exit $_rc)" ;;
        *) notok "$_r: '$_c' runs (exit $_rc)"; tail -n 15 "$work/cmd.log" | diag ;;
        esac ;;
    esac
}

readmes=$(cd "$ed" && ls labs/README.md labs/*/README.md 2>/dev/null)
[ -n "$readmes" ] || notok "the student edition has lab READMEs"
for r in $readmes; do
    spans "$ed/$r" >"$work/spans"
    # the commands: code lines and spans that start with ./kit or build/ (comments after # cut)
    sed -n 's/^\(code\|span\)\t\(\.\/kit .*\|build\/.*\)$/\2/p' "$work/spans" | sed 's/[[:space:]]*#.*$//; s/   *.*$//; s/[[:space:]]*$//' |
        sort -u >"$work/cmds"
    # the paths: every word of a span, code line or link that looks like one
    cut -f2- "$work/spans" | tr ' \t(),;' '\n\n\n\n\n' | sed 's/^\.\///; s/[.:]$//' |
        grep -E '^((labs|common|grader|plots|slides|build|tests|solutions)/[A-Za-z0-9_./-]*|[A-Za-z0-9_-]+\.(c|cu|h|md|sh|gp))$' |
        sort -u >"$work/paths"
    grep -E '^(link)' "$work/spans" | cut -f2 | grep -v -E '^(https?:|#)' | sed 's/#.*//' >>"$work/paths"
    while IFS= read -r w; do
        [ -n "$w" ] || continue
        is_placeholder "$w" && continue
        check_path "$r" "$w"
    done <"$work/paths"
    while IFS= read -r c; do
        [ -n "$c" ] || continue
        case $c in *NN*|*FILE*|*LIST*|*DIR*|*...*) continue ;; esac
        run_cmd "$r" "$c"
    done <"$work/cmds"
done

finish
