#!/bin/sh
# kit-plots.sh: render the lecture charts from records files (./kit plots).
#
#   sh plots/kit-plots.sh [--help] [RECORDS.csv...]
#
# Env: TL_ROOT   the kit's top folder (default: the folder above this script)
#      TL_BUILD  a configured Meson build folder (default: $TL_ROOT/build)
#      TL_PLOTPREP  a built tl-plotprep to use instead of building one (the tests set it)
#      TL_GNUPLOT   the gnuplot command (default: gnuplot)
# Without RECORDS it draws the lecturer's newest records, $TL_BUILD/bench/records-*.csv (what ./kit
# bench writes), else the first shipped dataset in name order, plots/data/*.csv; it says which.
# Writes every chart as PNG, PDF and SVG into $TL_BUILD/plots/ (temporary names first, renamed once
# complete and non-empty), and the slides' figures into $TL_BUILD/plots/measured.tex.
# Exit codes: 0 ok, 1 a chart did not render, 2 bad usage or input (with tl-plotprep's message).

set -u

CHARTS="ladder roofline mission gflops-vs-size cpu-baseline boundary-cost rectangular tile-occupancy-sweep nbody lab06"
FORMATS="png pdf svg"

usage() {
    cat <<EOF
usage: sh plots/kit-plots.sh [--help] [RECORDS.csv...]   (or: ./kit plots [RECORDS.csv...])

Renders the lecture charts ($CHARTS)
as PNG, PDF and SVG into \$TL_BUILD/plots/, from records files written by ./kit bench.
Without RECORDS it uses your newest ./kit bench records (\$TL_BUILD/bench/records-*.csv),
else the first shipped dataset in plots/data/ (the H100's); it prints which file it draws.
EOF
}

here=$(cd "$(dirname "$0")" && pwd) || exit 2
TL_WHO="kit plots"
. "$here/../common/kit-lib.sh"   # this script's own kit (TL_ROOT may name another, in the tests)
say() { tl_say "kit plots: $*"; }
refuse() { tl_die "$*"; }

TL_ROOT=${TL_ROOT:-$(dirname "$here")}
TL_BUILD=${TL_BUILD:-$TL_ROOT/build}
gnuplot=${TL_GNUPLOT:-gnuplot}

# The arguments, before anything is installed, configured or built: ./kit runs this part with
# TL_KIT_ARGS_ONLY=1 first, so a misspelt option or a missing file is answered in a second.
for arg in "$@"; do
    case $arg in
        -h|--help) usage; exit 0 ;;
        -*) refuse "unknown option '$arg': ./kit plots takes only records files (./kit plots --help)" ;;
    esac
done
# A records file says so in its metadata (common/CONTRACTS.md section 4: '# tilelab_records: N').
for arg in "$@"; do
    [ -e "$arg" ] || refuse "records file '$arg' not found: name the records ./kit bench wrote ($TL_BUILD/bench/records-*.csv) or a shipped dataset (plots/data/*.csv), or none to draw your newest (./kit plots --help)"
    { [ -f "$arg" ] && [ -r "$arg" ]; } || refuse "cannot read records file '$arg' (not a readable file): name a records CSV file (./kit plots --help)"
    head -n 40 "$arg" | grep -q '^# tilelab_records:' ||
        refuse "'$arg' is not a tilelab records file: its metadata lacks '# tilelab_records: N' (common/CONTRACTS.md section 4); name the records ./kit bench wrote (./kit plots --help)"
done
[ "${TL_KIT_ARGS_ONLY:-0}" != 1 ] || exit 0

if ! command -v "$gnuplot" >/dev/null 2>&1; then
    refuse "gnuplot is not installed ('$gnuplot' not found); install it with
    apt-get install --no-install-recommends gnuplot-nox
(without --no-install-recommends apt also pulls ImageMagick and Ghostscript)"
fi

# The records: the arguments, else the lecturer's newest bench records, else one shipped dataset.
shipped=""
if [ $# -eq 0 ]; then
    newest=$(ls -t "$TL_BUILD"/bench/records-*.csv 2>/dev/null | head -n 1)
    if [ -n "$newest" ]; then
        set -- "$newest"
        say "drawing your newest records: $newest"
    else
        shipped=$(ls "$TL_ROOT"/plots/data/*.csv 2>/dev/null | LC_ALL=C sort | head -n 1)
        [ -n "$shipped" ] || refuse "no records: measure on a GPU machine with ./kit bench (it writes
$TL_BUILD/bench/records-DEVICE-DATE.csv), or pass records files: ./kit plots FILE.csv"
        set -- "$shipped"
        say "drawing the shipped dataset $shipped (no records of yours in $TL_BUILD/bench/)"
    fi
elif [ $# -eq 1 ] && [ -f "$1" ] && [ "$(cd "$(dirname "$1")" && pwd -P)" = "$(cd "$TL_ROOT/plots/data" 2>/dev/null && pwd -P)" ]; then
    shipped=$1   # a shipped dataset passed alone: the other device's edition (plots/data/nvidia-h200-DATE.csv)
    say "drawing the shipped dataset $shipped"
fi
# plots/data/extra/: supplements of a shipped dataset's device (the n-body kernel and lab 01 past the
# caches, tests/gpu/deck-on-device.sh; labs 07 and 08, plots/supplement.sh from their device runs),
# added when their device matches, whether the dataset was picked or passed alone.
if [ -n "$shipped" ]; then
    dev=$(sed -n 's/^# device: //p' "$shipped" | head -n 1)
    for x in "$TL_ROOT"/plots/data/extra/*.csv; do
        [ -f "$x" ] || continue
        if [ "$(sed -n 's/^# device: //p' "$x" | head -n 1)" = "$dev" ]; then
            set -- "$@" "$x"
            say "adding the supplement $x (same device)"
        fi
    done
fi

# tl-plotprep: the given one, or built in the build folder (ninja does nothing when it is up to date).
if [ -n "${TL_PLOTPREP:-}" ]; then
    plotprep=$TL_PLOTPREP
else
    [ -f "$TL_BUILD/build.ninja" ] ||
        refuse "$TL_BUILD is not a configured Meson build folder; run ./kit setup (or: meson setup \"$TL_BUILD\")"
    if command -v meson >/dev/null 2>&1; then
        meson compile -C "$TL_BUILD" tl-plotprep >"$TL_BUILD/tl-plotprep.log" 2>&1
    else
        ninja -C "$TL_BUILD" plots/tl-plotprep >"$TL_BUILD/tl-plotprep.log" 2>&1
    fi || {
        cat "$TL_BUILD/tl-plotprep.log" >&2
        refuse "building tl-plotprep failed (log above, also in $TL_BUILD/tl-plotprep.log)"
    }
    plotprep=$TL_BUILD/plots/tl-plotprep
fi
[ -x "$plotprep" ] || refuse "tl-plotprep not found at $plotprep; build it with meson compile -C \"$TL_BUILD\" tl-plotprep"

out=$TL_BUILD/plots
work=$out/work
mkdir -p "$out" || refuse "cannot make $out"
rm -rf "$work"
# plotprep's message names the file, the line and the fix; pass it on as it is.
"$plotprep" --out "$work" --tex "$out/measured.tex" "$@" || exit 2

status=0
written=""
for chart in $CHARTS; do
    for fmt in $FORMATS; do
        final=$out/$chart.$fmt
        tmp=$out/.$chart.$fmt.tmp
        rm -f "$tmp"
        if ! "$gnuplot" -c "$TL_ROOT/plots/$chart.gp" "$work" "$tmp" "$fmt" 2>"$work/$chart.$fmt.log"; then
            printf 'kit plots: gnuplot failed on %s (%s):\n' "$chart.gp" "$fmt" >&2
            cat "$work/$chart.$fmt.log" >&2
            status=1
            rm -f "$tmp"
            continue
        fi
        # gnuplot exits 0 after warnings such as a skipped data file: a warning is a failure here.
        if grep -q 'line [0-9]*:' "$work/$chart.$fmt.log"; then
            printf 'kit plots: gnuplot warned on %s (%s):\n' "$chart.gp" "$fmt" >&2
            cat "$work/$chart.$fmt.log" >&2
            status=1
            rm -f "$tmp"
            continue
        fi
        if [ ! -s "$tmp" ]; then
            printf 'kit plots: %s (%s) came out empty\n' "$chart.gp" "$fmt" >&2
            status=1
            rm -f "$tmp"
            continue
        fi
        mv -f "$tmp" "$final" || { status=1; continue; }
        written="$written $final"
    done
done

# Every expected file exists and is non-empty, or the run failed.
for chart in $CHARTS; do
    for fmt in $FORMATS; do
        [ -s "$out/$chart.$fmt" ] || { say "missing: $out/$chart.$fmt"; status=1; }
    done
done
for f in $written; do
    say "wrote $f ($(wc -c <"$f" | tr -d ' ') bytes)"
done
if [ "$status" -ne 0 ]; then
    printf 'kit plots: some charts did not render (see above)\n' >&2
    exit "$status"
fi
say "charts and measured.tex drawn from: $*"
exit 0
