#!/bin/sh
# kit-slides.sh: build the lecture deck, slides/lecture.md, into $TL_BUILD/slides/lecture.pdf.
#
#   ./kit slides [RECORDS...]                      the front door (sets TL_ROOT, TL_BUILD)
#   TL_ROOT=. TL_BUILD=build sh slides/kit-slides.sh [RECORDS...]
#
# Steps: (1) sh plots/kit-plots.sh RECORDS... renders the charts into $TL_BUILD/plots/ and, in
# the same tl-plotprep run, the device, the date and every measured figure the deck quotes into
# $TL_BUILD/plots/measured.tex (LaTeX macros: nothing measured is typed into the deck); without
# RECORDS it picks the lecturer's newest ./kit bench records, else a shipped dataset, and says
# which; (2) every chart the deck references must be there (else exit 2, naming it);
# (3) pandoc -t beamer with pdflatex writes a temporary PDF that is renamed to lecture.pdf only
# when the build succeeded.
# Exit codes: 0 built, 1 pandoc/LaTeX failed on the deck, 2 bad usage, input or missing tools.

set -u

usage() {
    cat <<'EOF'
usage: ./kit slides [--help] [RECORDS...]

Builds the lecture slides (slides/lecture.md) into $TL_BUILD/slides/lecture.pdf.
RECORDS are benchmark record files (CSV, CONTRACTS section 4), for example the
output of './kit bench' on your GPU. Without RECORDS your newest ./kit bench records
are used (build/bench/records-*.csv), else the H100 dataset shipped in plots/data/;
the build says which file it draws. The charts and every number on the slides come
from one tl-plotprep run over the same records.

Needs pandoc and pdflatex with beamer, pgf and lmodern (Debian: pandoc texlive-latex-base
texlive-latex-recommended texlive-pictures lmodern, about 95 MB to download).
As root with apt they are installed when missing.

Exit codes: 0 built, 1 the deck failed to build (see lecture.log), 2 bad usage,
input or missing tools.
EOF
}

here=$(cd "$(dirname "$0")" && pwd)
TL_WHO="kit slides"
. "$here/../common/kit-lib.sh"   # this script's own kit
die() { tl_die "$*"; }

for a in "$@"; do
    case $a in
        -h|--help) usage; exit 0 ;;
        --) ;;
        -*) die "unknown option '$a' (try --help)" ;;
    esac
done
[ "${1:-}" = "--" ] && shift

here=$(cd "$(dirname "$0")" && pwd)
TL_ROOT=${TL_ROOT:-$(dirname "$here")}
TL_BUILD=${TL_BUILD:-$TL_ROOT/build}
export TL_ROOT TL_BUILD
deck=$TL_ROOT/slides/lecture.md
plots=$TL_BUILD/plots
out=$TL_BUILD/slides

[ -r "$deck" ] || die "cannot read the deck '$deck' (is TL_ROOT='$TL_ROOT' the kit's top folder?)"
[ -r "$TL_ROOT/plots/kit-plots.sh" ] ||
    die "'$TL_ROOT/plots/kit-plots.sh' is missing: the slides' charts come from the plots part of the kit"

# ---------------------------------------------------------------- records
# A records file says so in its metadata (CONTRACTS section 4: '# tilelab_records: 1').
is_records() { head -n 40 "$1" 2>/dev/null | grep -q '^# tilelab_records:'; }

for f in "$@"; do
    { [ -f "$f" ] && [ -r "$f" ]; } || die "cannot read records file '$f'"
    is_records "$f" || die "'$f' is not a tilelab records file: its metadata lacks '# tilelab_records: 1' (CONTRACTS section 4)"
done
# ./kit runs this part with TL_KIT_ARGS_ONLY=1 before it installs, configures or builds anything
[ "${TL_KIT_ARGS_ONLY:-0}" != 1 ] || exit 0

# ---------------------------------------------------------------- 1. charts
stage0=$(mktemp -d "${TMPDIR:-/tmp}/tl-slides-log.XXXXXX") || die "cannot create a temporary folder"
sh "$TL_ROOT/plots/kit-plots.sh" "$@" > "$stage0/plots.log"
rc=$?
cat "$stage0/plots.log"
[ $rc -eq 0 ] || { rm -rf "$stage0"; printf 'kit slides: plots/kit-plots.sh failed (exit %s); no slides built\n' "$rc" >&2; exit "$rc"; }

# ---------------------------------------------------------------- 2. every figure the deck shows
# Image references are written '![caption](CHART){attributes}' with CHART a chart name
# without extension (tests/slides parses them the same way).
figures=$({ grep -o '!\[[^]]*\]([^)]*)' "$deck" | sed 's/.*](\([^)]*\))$/\1/'
          grep -o '\\tlchart{[^}]*}' "$deck" | sed 's/^\\tlchart{\(.*\)}$/\1/'; } | LC_ALL=C sort -u)
[ -n "$figures" ] || die "the deck '$deck' references no chart"
mkdir -p "$out" || die "cannot create '$out'"
stage=$(mktemp -d "${TMPDIR:-/tmp}/tl-slides.XXXXXX") || die "cannot create a temporary folder"
trap 'rm -rf "$stage" "$stage0"' EXIT
mv "$stage0/plots.log" "$stage/plots.log"
trap 'exit 130' INT TERM
: > "$stage/figures.sed"
for name in $figures; do
    case $name in */*|*.*) die "deck image '$name': reference charts by name only (e.g. 'roofline'), the build picks .pdf or .png from $plots" ;; esac
    pick=
    for ext in pdf png; do
        f=$plots/$name.$ext
        [ -s "$f" ] || continue
        # the newer of NAME.pdf and NAME.png ('test -nt' is not POSIX; 'find -newer' is)
        if [ -z "$pick" ] || [ -n "$(find "$f" -prune -newer "$pick")" ]; then pick=$f; fi
    done
    [ -n "$pick" ] || die "figure '$name' is missing: plots/kit-plots.sh did not render $plots/$name.pdf or $plots/$name.png"
    case $pick in *[\|\&\\]*) die "figure path '$pick' holds a character the build cannot quote (| & \\)" ;; esac
    printf 's|](%s)|](%s)|g\ns|\\\\tlchart{%s}|\\\\tlchart{%s}|g\n' "$name" "$pick" "$name" "$pick" >> "$stage/figures.sed"
done
sed -f "$stage/figures.sed" "$deck" > "$stage/lecture.md" || die "cannot stage the deck"

# ---------------------------------------------------------------- 3. tools
have_tools() {
    command -v pandoc >/dev/null 2>&1 && command -v pdflatex >/dev/null 2>&1 &&
    command -v kpsewhich >/dev/null 2>&1 &&
    [ -n "$(kpsewhich beamer.cls 2>/dev/null)" ] && [ -n "$(kpsewhich pgfcore.sty 2>/dev/null)" ] &&
    [ -n "$(kpsewhich lmodern.sty 2>/dev/null)" ]
}
# Debian bookworm: beamer.cls is in texlive-latex-recommended, but beamer needs pgf, which is
# in texlive-pictures; pandoc's template needs lmodern. texlive-fonts-recommended is not used.
pkgs="pandoc texlive-latex-base texlive-latex-recommended texlive-pictures lmodern"
if ! have_tools; then
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
        printf 'kit slides: pandoc or LaTeX (beamer, pgf, lmodern) missing; installing: %s\n' "$pkgs" >&2
        # shellcheck disable=SC2086
        DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y \
            --no-install-recommends $pkgs >&2 ||
            die "apt-get could not install $pkgs (try 'apt-get update' first)"
        have_tools || die "still missing pandoc, pdflatex, beamer.cls, pgfcore.sty or lmodern.sty after installing $pkgs"
    else
        die "pandoc and pdflatex (with beamer, pgf and lmodern) are needed; install them, e.g. on Debian/Ubuntu: sudo apt-get install --no-install-recommends $pkgs"
    fi
fi

# ---------------------------------------------------------------- 4. measured figures
# tl-plotprep wrote them with the charts (step 1), from the same records.
[ -s "$plots/measured.tex" ] || die "plots/kit-plots.sh wrote no $plots/measured.tex (the deck's figures)"
cp "$plots/measured.tex" "$stage/measured.tex" && cp "$plots/measured.tex" "$out/measured.tex" ||
    die "cannot copy $plots/measured.tex"
drawn=$(sed -n 's/^kit plots: charts and measured.tex drawn from: //p' "$stage/plots.log")

# ---------------------------------------------------------------- 5. the PDF
# The PDF's page objects are kept out of compressed object streams
# (\pdfobjcompresslevel=0, which must precede \documentclass, hence the engine option
# that prefixes the first input line): without poppler's pdfinfo, the pages can still
# be counted as '/Type /Page' objects (tests/slides does so).
tmp=$out/.lecture-$$.pdf
log=$out/lecture.log
(cd "$stage" && pandoc lecture.md -t beamer --slide-level=2 --pdf-engine=pdflatex --verbose \
    --pdf-engine-opt='\pdfobjcompresslevel=0\input' \
    --resource-path="$stage:$plots" -H "$here/preamble.tex" -H measured.tex -o "$tmp") > "$log" 2>&1
rc=$?
if [ $rc -ne 0 ] || [ ! -s "$tmp" ]; then
    rm -f "$tmp"
    printf 'kit slides: pandoc/pdflatex failed on the deck (exit %s); the end of %s:\n' "$rc" "$log" >&2
    tail -n 25 "$log" >&2
    exit 1
fi
mv -f "$tmp" "$out/lecture.pdf" || die "cannot rename '$tmp' to '$out/lecture.pdf'"
# --verbose puts LaTeX's own output into the log: a slide whose content is taller than the
# page shows as 'Overfull \vbox' (beamer cuts it off silently); count the last LaTeX run only.
over=$(awk '/^\[makePDF\] Run #/ { n = 0 } /^Overfull \\vbox/ { n++ } END { print n + 0 }' "$log")
if [ "$over" -gt 0 ]; then
    printf 'kit slides: warning: %s slide(s) too tall for the page (Overfull \\vbox in %s); look at the PDF\n' \
        "$over" "$log" >&2
fi
if grep -q '^\[WARNING\]' "$log"; then
    printf 'kit slides: pandoc warned (see %s):\n' "$log" >&2
    grep '^\[WARNING\]' "$log" | head -n 5 >&2
fi
printf 'kit slides: wrote %s (charts and numbers drawn from %s)\n' "$out/lecture.pdf" "$drawn"
