#!/bin/sh
# common/kit-demo.sh: `./kit demo`: the kit shown on this machine, in four parts a new user can follow:
#   1. each lab's reference solution through `./kit check NN` (on the GPU, or emulated without one);
#   2. one known-wrong submission (tests/wrong/) through `./kit check`, with its diagnosis;
#   3. a sample class (the lab 01 solution, a known-wrong file, a hostile file) through `./kit grade`,
#      and the summary of its report;
#   4. the charts, `./kit plots` from the dataset shipped in plots/data/.
# The student's files are never touched: everything runs in a copy of the kit under
# $TL_BUILD/demo/kit (the files git tracks, or all but build folders), with the solutions laid over
# labs/ there, and its own build folder $TL_BUILD/demo/build, kept between runs so a second demo
# rebuilds only what changed. The full logs are under $TL_BUILD/demo/logs/. In the student edition
# (no solutions/, no tests/) parts 1-3 are left out and said so.
# Called by ./kit with TL_ROOT and TL_BUILD exported, after the packages are installed.
# Exit: 0 the demo ran and every part came out as expected, 1 one did not (named), 2 bad usage.
set -u

: "${TL_ROOT:?kit demo: TL_ROOT is not set (run it as ./kit demo)}"
: "${TL_BUILD:?kit demo: TL_BUILD is not set (run it as ./kit demo)}"
. "$TL_ROOT/common/kit-lib.sh"
TL_WHO="kit demo"

D=$TL_BUILD/demo
KIT=$D/kit
LOGS=$D/logs
problems=0
t_start=$(date +%s)
part() { tl_say ""; tl_say "== $*"; }
elapsed() { echo $(( $(date +%s) - t_start )); }
# show LOG: the lines of a kit check a reader needs: the verdicts, the diagnosis lines, the score
show_check() {
    # wrapped at word boundaries, never cut mid-word
    grep -E '^(kit check|PASS|FAIL|SKIP|Score|nothing could|BUILD FAILED|NOT CHECKED)|^      ' "$1" | fold -s -w 120 |
        head -n "${2:-40}" | sed 's/^/    /'
}

part "set-up: a copy of the kit to work in (your files in labs/ are never touched)"
mkdir -p "$KIT" "$LOGS" || tl_die "cannot make $KIT"
# The kit's files, with their times kept (an unchanged file is not rebuilt on the next demo).
list=$D/files.txt
# git's list only where the kit is the top of its own work tree (a kit unpacked inside another
# checkout's ignored folder would list nothing)
: >"$list"
if command -v git >/dev/null 2>&1 &&
    [ "$(git -C "$TL_ROOT" rev-parse --show-toplevel 2>/dev/null)" = "$(cd "$TL_ROOT" && pwd -P)" ]; then
    git -C "$TL_ROOT" ls-files -co --exclude-standard >"$list" || tl_die "git ls-files failed in $TL_ROOT" 1
fi
if [ ! -s "$list" ]; then
    (cd "$TL_ROOT" && find . -path ./build -prune -o -path './build-*' -prune -o -path ./.git -prune \
        -o -type f -print | sed 's|^\./||') >"$list"
fi
# never the build folder itself (TL_BUILD may lie inside the kit)
rel_build=${TL_BUILD#"$TL_ROOT"/}
grep -v -e "^$rel_build/" -e '^build/' "$list" >"$list.tmp" && mv "$list.tmp" "$list"
# Only what changed is copied over the previous demo's copy, keeping the times.
(cd "$TL_ROOT" && tar -cf - -T "$list") | (cd "$KIT" && tar -xpf - --keep-newer-files 2>/dev/null) ||
    (cd "$TL_ROOT" && tar -cf - -T "$list") | (cd "$KIT" && tar -xpf -) || tl_die "cannot copy the kit to $KIT" 1
student=1
[ -d "$TL_ROOT/solutions" ] && student=0
tl_say "copy: $KIT ($(wc -l <"$list") files); build folder: $D/build; logs: $LOGS"

# The copy's own kit, with its own build folder.
dkit() { TL_BUILD=$D/build "$KIT/kit" "$@"; }
dkit setup >"$LOGS/setup.log" 2>&1 || { tail -n 20 "$LOGS/setup.log"; tl_die "configuring the demo's copy failed (above; $LOGS/setup.log)" 1; }
# Where no GPU is, nothing of the copy's runs on one: its nvcc units (the grader's device code, which
# tl-grade's build reads with nm) are compiled for one architecture, the highest of its gpu_archs,
# not each of them (issue 22 item 5). The copy's build is the demo's own; the list it had is kept in
# .demo-gpu-archs and put back when a later demo finds a GPU here.
if [ "$(cat "$D/build/.kit-cuda" 2>/dev/null)" = enabled ]; then
    _archs=$(meson introspect "$D/build" --buildoptions 2>/dev/null | tr '{' '\n' |
        sed -n 's/.*"name": "gpu_archs".*"value": "\([^"]*\)".*/\1/p')
    if [ ! -e /dev/nvidiactl ] && [ ! -e /dev/nvidia0 ]; then
        _one=$(printf '%s\n' "$_archs" | tr ',' '\n' | sed 's/ //g' | grep . | tail -n 1)
        if [ -n "$_one" ] && [ "$_archs" != "$_one" ]; then
            printf '%s\n' "$_archs" >"$D/build/.demo-gpu-archs"
            meson configure "$D/build" -Dgpu_archs="$_one" >>"$LOGS/setup.log" 2>&1 ||
                tl_die "meson configure -Dgpu_archs=$_one of the demo's copy failed ($LOGS/setup.log)" 1
        fi
    elif [ -s "$D/build/.demo-gpu-archs" ]; then
        meson configure "$D/build" -Dgpu_archs="$(cat "$D/build/.demo-gpu-archs")" >>"$LOGS/setup.log" 2>&1 ||
            tl_die "meson configure of the demo's copy for this GPU failed ($LOGS/setup.log)" 1
        rm -f "$D/build/.demo-gpu-archs"
    fi
fi
TL_LAB=$D/build/common/tl-lab
tl_build_in() { (TL_BUILD=$D/build; tl_build "$@"); }
tl_build_in common/tl-lab || tl_die "cannot build tl-lab in $D/build" 1
labs=$("$TL_LAB" list)

# lay NN FILE: FILE over lab NN's student file of the same name in the copy (a lab of several
# files, 08: each its own), else over its first student file (a known-wrong file under another
# name); only where they differ, so an unchanged file is not rebuilt
lay() {
    _nn=$1 _src=$2
    _dir=$("$TL_LAB" dir "$_nn")
    _f=$(basename "$_src")
    "$TL_LAB" files "$_nn" | grep -qxF "$_f" || _f=$("$TL_LAB" files "$_nn" | head -n 1)
    cmp -s "$_src" "$KIT/labs/$_dir/$_f" || cp "$_src" "$KIT/labs/$_dir/$_f"
}
# unlay NN: lab NN's student files back to the kit's skeleton in the copy (the grader's pristine
# copy is taken from the copy, and a skeleton equal to the solution would make the solution
# "no work handed in")
unlay() {
    _dir=$("$TL_LAB" dir "$1")
    for _f in $("$TL_LAB" files "$1"); do
        cmp -s "$TL_ROOT/labs/$_dir/$_f" "$KIT/labs/$_dir/$_f" || cp "$TL_ROOT/labs/$_dir/$_f" "$KIT/labs/$_dir/$_f"
    done
}

if [ $student = 1 ]; then
    part "1-3. left out: this is the student edition"
    tl_say "This edition holds no reference solutions and no known-wrong files: the reference checks, the"
    tl_say "known-wrong submission and the sample class need them and are left out. Check your own work with"
    tl_say "./kit check 01 (02, 03, ...); instructors run the full demo from the course's kit."
else
    # ---------------------------------------------------------------- 1. references
    if [ -e /dev/nvidiactl ] || [ -e /dev/nvidia0 ]; then where="on this machine's GPU"; else
        where="emulated on the CPU (no GPU here: correctness only)"; fi
    part "1. each lab's reference solution through ./kit check, $where"
    tl_say "   (the command a student runs; the solution's files are laid over labs/ in the copy)"
    for nn in $labs; do
        dir=$("$TL_LAB" dir "$nn")
        for f in $("$TL_LAB" files "$nn"); do
            [ -f "$TL_ROOT/solutions/$dir/$f" ] && lay "$nn" "$TL_ROOT/solutions/$dir/$f"
        done
        s=$(date +%s)
        dkit check "$nn" >"$LOGS/check-$nn.log" 2>&1
        rc=$?
        verdict="exit $rc"
        case $rc in 0) verdict="all public checks passed" ;; 77) verdict="skipped (nothing could run here)" ;; esac
        tl_say "-- ./kit check $nn ($dir): $verdict, $(( $(date +%s) - s )) s: $(grep -m1 '^Score' "$LOGS/check-$nn.log")"
        grep -E '^(PASS|FAIL|SKIP) ' "$LOGS/check-$nn.log" | cut -c1-110 | sed 's/^/     /'
        if [ $rc != 0 ] && [ $rc != 77 ]; then
            problems=$((problems + 1))
            tl_say "   UNEXPECTED: the reference failed its check; the log: $LOGS/check-$nn.log"
        fi
    done

    # ---------------------------------------------------------------- 2. a known-wrong submission
    part "2. a known-wrong submission and its diagnosis"
    wrong=tests/wrong/02/swapped.cu
    tl_say "   $wrong: $(sed -n '1s/^\/\* *KNOWN-WRONG SUBMISSION ([^)]*): *//p' "$TL_ROOT/$wrong" | cut -c1-100)"
    tl_say "   laid over labs/02-naive-kernel/naive.cu in the copy, then ./kit check 02:"
    lay 02 "$TL_ROOT/$wrong"
    dkit check 02 >"$LOGS/check-02-wrong.log" 2>&1
    rc=$?
    show_check "$LOGS/check-02-wrong.log" 24
    # the verdict as data (CONTRACTS.md section 10), never the report's words
    if [ $rc = 1 ] && grep -Eq '"pattern":[[:space:]]*"swapped-indices"' \
        "$D/build/check/02-naive-kernel/working-tree/results.json" 2>/dev/null; then
        tl_say "   caught: exit 1, the diagnosis names the swapped indices (the whole report: $LOGS/check-02-wrong.log)"
    else
        problems=$((problems + 1))
        tl_say "   UNEXPECTED: exit $rc without 'swapped indices' ($LOGS/check-02-wrong.log)"
    fi
    lay 02 "$TL_ROOT/solutions/02-naive-kernel/naive.cu"

    # ---------------------------------------------------------------- 3. a sample class
    part "3. a sample class through ./kit grade (lab 01: the solution, a known-wrong file, a hostile one)"
    class=$D/class
    rm -rf "$class" "$D/grades"
    unlay 01
    mkdir -p "$class/solution" "$class/transposed" "$class/print_pass"
    cp "$TL_ROOT/solutions/01-cpu-baseline/gmm.c" "$class/solution/gmm.c"
    cp "$TL_ROOT/tests/wrong/01/transposed.c" "$class/transposed/gmm.c"
    cp "$TL_ROOT/tests/hostile/01/print_pass.c" "$class/print_pass/gmm.c"
    tl_say "   solution: solutions/01-cpu-baseline/gmm.c; transposed: tests/wrong/01/transposed.c (M N^T);"
    tl_say "   print_pass: tests/hostile/01/print_pass.c (prints PASS lines and a perfect score, computes nothing)"
    s=$(date +%s)
    dkit grade --lab 01 --out "$D/grades" "$class/solution" "$class/transposed" "$class/print_pass" \
        >"$LOGS/grade.log" 2>&1
    rc=$?
    tl_say "   ./kit grade --lab 01 --out $D/grades ...: exit $rc, $(( $(date +%s) - s )) s"
    if [ $rc = 0 ] && [ -f "$D/grades/summary.md" ]; then
        tl_say "   $D/grades/summary.md (also gradebook.csv, summary.html, a results.json per student):"
        sed -n '1,/^$/p;/^| student/,/^$/p' "$D/grades/summary.md" | head -n 24 | cut -c1-160 | sed 's/^/     /'
        sol=$(awk -F, '$1 == "solution" { print $2 "/" $3 }' "$D/grades/gradebook.csv")
        bad=$(awk -F, '$1 == "transposed" || $1 == "print_pass" { if ($2 + 0 >= $3 + 0) print $1 }' "$D/grades/gradebook.csv")
        if [ -n "$sol" ] && [ "${sol%/*}" = "${sol#*/}" ] && [ -z "$bad" ]; then
            tl_say "   as expected: the solution scores $sol; the wrong and the hostile file score less"
        else
            problems=$((problems + 1))
            tl_say "   UNEXPECTED: solution $sol; full marks for: ${bad:-none} (gradebook.csv)"
        fi
    else
        problems=$((problems + 1))
        tail -n 15 "$LOGS/grade.log" | sed 's/^/     /'
        tl_say "   UNEXPECTED: ./kit grade exit $rc ($LOGS/grade.log)"
    fi
fi

# -------------------------------------------------------------------- 4. charts
part "4. the charts: ./kit plots from the dataset shipped in plots/data/"
# (no records in the demo's build folder: it draws the first shipped dataset, and says which)
dkit plots >"$LOGS/plots.log" 2>&1
rc=$?
grep -E "kit plots:" "$LOGS/plots.log" | head -n 2 | cut -c1-240 | sed 's/^/   /'
n=$(ls "$D/build/plots/"*.png 2>/dev/null | wc -l)
if [ $rc = 0 ] && [ "$n" -gt 0 ]; then
    tl_say "   $n charts as PNG (and PDF, SVG) in $D/build/plots/, e.g.:"
    ls "$D/build/plots/"*.png | head -n 4 | sed 's/^/     /'
else
    problems=$((problems + 1))
    tail -n 10 "$LOGS/plots.log" | sed 's/^/     /'
    tl_say "   UNEXPECTED: ./kit plots exit $rc ($LOGS/plots.log)"
fi

part "what next ($(elapsed) s for this demo)"
tl_say "  students:    read labs/01-cpu-baseline/README.md, edit labs/01-cpu-baseline/gmm.c, then ./kit check 01"
if [ $student = 0 ]; then
    tl_say "  instructors: grader/README.md; ./kit grade --help; ./kit release DIR writes the student edition"
    tl_say "  lecturers:   plots/README.md; ./kit bench on a GPU, ./kit plots, ./kit slides"
    tl_say "  everything:  ./kit test runs every test suite"
fi
if [ $problems != 0 ]; then
    tl_err "$problems part(s) of the demo did not come out as expected (UNEXPECTED above)"
    exit 1
fi
exit 0
