#!/bin/sh
# chart-pages.sh: build the deck and check every chart page as the room sees it (issue 28.1).
#   sh tests/slides/chart-pages.sh [RECORDS.csv...]      (meson test -C build 'slides chart pages')
# Env: TL_ROOT (the kit), TL_PLOTPREP (a built tl-plotprep). Builds into a temporary TL_BUILD.
# Checks, on each page that \tlchart put a chart on (the LaTeX log's TLCHART lines):
#   1. the chart is at least 85% of the page height;
#   2. every word on the page (pdftotext -bbox-layout: the chart's own text is real text in the PDF)
#      lies inside the page, at least 1 pt from its edges;
#   3. no word is under 14 pt at projector scale (a 13.33 in wide slide: 6.6 pt on this 160 mm page),
#      the font size estimated from the word's box (pdftotext's box is 0.78 of a DejaVu font's size,
#      0.89 of Latin Modern's: measured on the deck's 8 pt chart keys and 7 pt footnote line);
#   4. no two words overlap (boxes that intersect by more than 0.8 pt both ways);
#   5. on each chart itself (its PDF, the file the page shows): no word straddles a plot's border,
#      read from the borders the chart recorded (plots/common.gp's record_frame: WORK/CHART.frames).
# Exit 0 all held, 1 a check failed (each failure named: page, words, sizes), 77 tools missing.
set -u
: "${TL_ROOT:?set TL_ROOT}"
for t in pandoc pdflatex pdftotext pdfinfo gnuplot; do
    command -v $t >/dev/null 2>&1 || { echo "SKIP: $t not installed"; exit 77; }
done
B=$(mktemp -d "${TMPDIR:-/tmp}/tl-chartpages.XXXXXX") || exit 1
trap 'rm -rf "$B"' EXIT
export TL_ROOT
TL_BUILD=$B sh "$TL_ROOT/slides/kit-slides.sh" "$@" > "$B/build.out" 2>&1 ||
    { cat "$B/build.out"; echo "FAIL: the deck did not build"; exit 1; }
pdf=$B/slides/lecture.pdf
log=$B/slides/lecture.log
# the last LaTeX run's TLCHART lines: page, height, paper height
awk '/^\[makePDF\] Run #/ { n = 0; delete p } /^TLCHART page=/ { p[++n] = $0 } END { for (i = 1; i <= n; i++) print p[i] }' \
    "$log" | sed 's/^TLCHART page=\([0-9]*\) height=\([0-9.]*\)pt paperheight=\([0-9.]*\)pt.*/\1 \2 \3/' > "$B/charts"
[ -s "$B/charts" ] || { echo "FAIL: no chart page found (no TLCHART line in $log)"; exit 1; }
fail=0
while read -r page h ph; do
    awk -v p="$page" -v h="$h" -v ph="$ph" 'BEGIN { r = h / ph; printf "page %d: chart %.1f%% of the page height\n", p, 100 * r; exit !(r >= 0.85) }' ||
        { echo "FAIL: page $page: chart under 85% of the page height"; fail=1; }
    pdftotext -bbox-layout -f "$page" -l "$page" "$pdf" "$B/p$page.html" ||
        { echo "FAIL: pdftotext on page $page"; fail=1; continue; }
    # one line per word: xmin ymin xmax ymax text, and the page size first
    sed -n -e 's/.*<page width="\([0-9.]*\)" height="\([0-9.]*\)".*/PAGE \1 \2/p' \
        -e 's/.*<word xMin="\([0-9.]*\)" yMin="\([0-9.]*\)" xMax="\([0-9.]*\)" yMax="\([0-9.]*\)">\(.*\)<\/word>.*/\1 \2 \3 \4 \5/p' \
        "$B/p$page.html" > "$B/w$page"
    awk -v page="$page" '
        $1 == "PAGE" { W = $2; H = $3; next }
        { n++; x0[n] = $1; y0[n] = $2; x1[n] = $3; y1[n] = $4; $1 = $2 = $3 = $4 = ""; t[n] = substr($0, 5) }
        END {
            bad = 0
            for (i = 1; i <= n; i++) {
                if (x0[i] < 1 || y0[i] < 1 || x1[i] > W - 1 || y1[i] > H - 1) {
                    printf "FAIL: page %d: \"%s\" leaves the page (%.1f,%.1f)-(%.1f,%.1f) of %.0f x %.0f pt\n", page, t[i], x0[i], y0[i], x1[i], y1[i], W, H; bad = 1 }
                hgt = y1[i] - y0[i]; wid = x1[i] - x0[i]; box = hgt > wid && length(t[i]) >= 4 ? wid : hgt  # rotated: width
                size = box / 0.78   # pdftotext boxes are 0.78 (DejaVu) to 0.89 (Latin Modern) of the font size
                if (length(t[i]) >= 2 && size < 6.6) {   # one glyph: its box is the glyph, not the line
                    printf "FAIL: page %d: \"%s\" is %.1f pt on the page (box %.1f pt), %.1f pt at projector scale (13.33 in), under 14\n", page, t[i], size, box, size * 2.116; bad = 1 }
                for (j = 1; j < i; j++) {
                    ox = (x1[i] < x1[j] ? x1[i] : x1[j]) - (x0[i] > x0[j] ? x0[i] : x0[j])
                    oy = (y1[i] < y1[j] ? y1[i] : y1[j]) - (y0[i] > y0[j] ? y0[i] : y0[j])
                    if (ox > 0.8 && oy > 0.8) {
                        printf "FAIL: page %d: \"%s\" overlaps \"%s\" by %.1f x %.1f pt\n", page, t[i], t[j], ox, oy; bad = 1 }
                }
            }
            printf "page %d: %d words checked\n", page, n
            exit bad
        }' "$B/w$page" || fail=1
done < "$B/charts"
# straddles CHART_PDF FRAMES NAME: 1 (and each word named) when a word crosses a recorded plot border
straddles() {
    pdftotext -bbox-layout "$1" "$B/c-$3.html" || { echo "FAIL: pdftotext on $1"; return 1; }
    sed -n -e 's/.*<page width="\([0-9.]*\)" height="\([0-9.]*\)".*/PAGE \1 \2/p' \
        -e 's/.*<word xMin="\([0-9.]*\)" yMin="\([0-9.]*\)" xMax="\([0-9.]*\)" yMax="\([0-9.]*\)">\(.*\)<\/word>.*/\1 \2 \3 \4 \5/p' \
        "$B/c-$3.html" > "$B/cw-$3"
    awk -v chart="$3" '
        FNR == NR { n++; fx0[n] = $1; fx1[n] = $2; fy0[n] = $3; fy1[n] = $4; next }
        $1 == "PAGE" { W = $2; H = $3; next }
        {
            x0 = $1; y0 = $2; x1 = $3; y1 = $4; $1 = $2 = $3 = $4 = ""; t = substr($0, 5)
            for (i = 1; i <= n; i++) {
                L = fx0[i] * W; R = fx1[i] * W; T = H * (1 - fy1[i]); Bm = H * (1 - fy0[i])
                vert = (y1 > T + 0.5 && y0 < Bm - 0.5)       # the word is level with the panel
                horz = (x1 > L + 0.5 && x0 < R - 0.5)        # the word is above or below its width
                if ((vert && ((x0 < L - 0.5 && x1 > L + 0.5) || (x0 < R - 0.5 && x1 > R + 0.5))) ||
                    (horz && ((y0 < T - 0.5 && y1 > T + 0.5) || (y0 < Bm - 0.5 && y1 > Bm + 0.5)))) {
                    printf "FAIL: chart %s: \"%s\" crosses the border of panel %d (%.1f,%.1f)-(%.1f,%.1f)\n", chart, t, i, x0, y0, x1, y1
                    bad = 1
                }
            }
        }
        END { exit bad }' "$2" "$B/cw-$3"
}
# the check can fail: a canary chart through the same common.gp, a name placed across its right border
mkdir -p "$B/canary"
cp "$B/plots/work/meta.gp" "$B/canary/"
cat > "$B/canary/canary.gp" <<'GP'
chart_title = "canary"
chart_name = ARG0
here = ARG0[1:strstrt(ARG0, "canary.gp") - 1]
call here . "common.gp" ARG1 ARG2 ARG3
set label 1 "lab 06 register tile" at graph 0.97, graph 0.5 left
plot x notitle
eval record_frame
GP
cp "$TL_ROOT/plots/common.gp" "$B/canary/"
gnuplot -c "$B/canary/canary.gp" "$B/canary" "$B/canary/canary.pdf" pdf > "$B/canary/log" 2>&1 ||
    { cat "$B/canary/log"; echo "FAIL: the canary chart did not render"; fail=1; }
if straddles "$B/canary/canary.pdf" "$B/canary/canary.frames" canary > "$B/canary/out"; then
    echo "FAIL: a name across the canary's plot border was not caught"; fail=1
else
    echo "canary: $(head -n 1 "$B/canary/out")  (expected)"
fi
nframes=0
for frames in "$B"/plots/work/*.frames; do
    [ -s "$frames" ] || continue
    chart=$(basename "$frames" .frames)
    cpdf=$B/plots/$chart.pdf
    [ -s "$cpdf" ] || continue
    nframes=$((nframes + 1))
    straddles "$cpdf" "$frames" "$chart" || fail=1
done
[ $nframes -gt 0 ] || { echo "FAIL: no chart recorded its plot borders (plots/common.gp record_frame)"; fail=1; }
[ $fail -eq 0 ] && echo "all $(wc -l < "$B/charts") chart pages: full-frame, every word inside the page, none under 14 pt at projector scale, none overlapping; no word across a plot border in $nframes charts"
exit $fail
