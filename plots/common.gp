# common.gp: what every lecture chart shares. Loaded by plots/*.gp, never run on its own.
#
# A chart is called as   gnuplot -c CHART.gp WORKDIR OUTFILE TERMINAL   (TERMINAL: png, pdf or svg)
# and sets chart_title and chart_name, then runs   call here . "common.gp" ARG1 ARG2 ARG3   (a plain
# load would not see the arguments). WORKDIR holds meta.gp and the .dat files that
# tl-plotprep wrote. Sizes are 16:9 for slides; fonts are large enough to read from the back of a hall.

if (ARGC != 3) {
    print "usage: gnuplot -c CHART.gp WORKDIR OUTFILE TERMINAL   (TERMINAL: png, pdf or svg)"
    exit status 2
}
WORKDIR = ARG1
OUTFILE = ARG2
TERMINAL = ARG3

# gnuplot prints only a warning for a missing data file and still exits 0: check every input first.
readable(f) = int(system("test -r '" . f . "' && echo 1 || echo 0"))
need(f) = readable(f) ? f : NaN
datafile(name) = WORKDIR . "/" . name
if (!readable(datafile("meta.gp"))) {
    print sprintf("%s: no %s; run tl-plotprep --out %s RECORDS... first (plots/kit-plots.sh does)", chart_name, datafile("meta.gp"), WORKDIR)
    exit status 2
}
load datafile("meta.gp")

font_name = "DejaVu Sans"
# Drawn at the size it is shown: a chart fills a beamer 16:9 page (160 mm wide) minus one line, so
# the PDF is 160 x 82 mm and its text sizes are the sizes on the page (9 pt base, nothing under
# 7.5 pt: 16 pt when the page is projected as a 13.33 in slide). The PNG and SVG have the same
# proportions at 1920 px wide, their fonts scaled to match (12 px per point).
chart_w_mm = exists("chart_w_mm") ? chart_w_mm : 160.0
chart_h_mm = exists("chart_h_mm") ? chart_h_mm : 82.0
px = 1920.0 / chart_w_mm        # pixels per mm in the PNG and SVG
psf = 0.32                      # point-size factor at this size (pdf)
if (TERMINAL eq "png") {
    # pngcairo's text came out twice the PDF's at 1920 px with the factor 1 (gnuplot 5.4.4, checked
    # against the PDF rasterised at 304.8 dpi, the PNG's scale): the font scale carries the same /2
    # as the point size below
    eval sprintf("set terminal pngcairo size 1920,%d noenhanced font '%s,9' fontscale %.4f linewidth %.3f background 'white'", \
        int(chart_h_mm * px), font_name, px * 25.4 / 72 / 2.0, px * 0.12)
    psf = 0.32 * px * 25.4 / 72 / 2.0
} else {
    if (TERMINAL eq "pdf") {
        eval sprintf("set terminal pdfcairo size %.4fin,%.4fin noenhanced font '%s,9' linewidth 0.5 background 'white'", \
            chart_w_mm / 25.4, chart_h_mm / 25.4, font_name)
    } else {
        if (TERMINAL eq "svg") {
            eval sprintf("set terminal svg size 1920,%d dynamic noenhanced font '%s,9' fontscale %.4f linewidth %.3f background 'white'", \
                int(chart_h_mm * px), font_name, px * 25.4 / 72 * 1.3 / 1.0 * 0.75, px * 0.12)
            psf = 0.32 * px * 25.4 / 72 / 2.0 * 0.5
        } else {
            print sprintf("%s: terminal '%s' is not one of png, pdf, svg", chart_name, TERMINAL)
            exit status 2
        }
    }
}
set output OUTFILE
set encoding utf8

# Title: what the chart shows, then the device and the day it was measured.
set title chart_title . "\n" . device . ", measured " . gpu_day noenhanced font ",10"
set border lw 1
set grid lc rgb "#d0d0d0" lw 1
set key noenhanced

# Invented numbers must never pass for measured ones in class.
if (synthetic) {
    set label 99 "SYNTHETIC TEST DATA - NOT MEASURED" at screen 0.5, screen 0.5 center rotate by 15 \
        font font_name . ",28" textcolor rgb "#f6dcdc" back
}

# One look per series, the same on every chart.
color(s) = s eq "cpu_ijk" ? "#8c564b" : s eq "cpu_ikj" ? "#17becf" : s eq "cpu_blocked" ? "#7f7f7f" : \
           s eq "cpu_blocked64" ? "#e377c2" : \
           s eq "naive" ? "#d62728" : s eq "naive_rows" ? "#8c1c13" : s eq "naive_ldcg" ? "#f08080" : \
           s eq "tiled16" ? "#1f77b4" : s eq "tiled32" ? "#2ca02c" : \
           s eq "boundary16" ? "#6baed6" : s eq "boundary32" ? "#74c476" : \
           s eq "tiled32_conflict" ? "#9467bd" : s eq "tiled32_pad" ? "#17becf" : \
           s eq "coarse1d" ? "#bcbd22" : s eq "regtile" ? "#8c564b" : s eq "warptile" ? "#e377c2" : \
           s eq "cublas" ? "#ff7f0e" : s eq "cublas_tf32" ? "#7f7f7f" : s eq "cublas_bf16" ? "#393b79" : "#000000"
rgbint(s) = int("0x" . color(s)[2:7])
dashof(s) = (s eq "cpu_ijk" || s eq "boundary16" || s eq "boundary32") ? 2 : 1
pointof(s) = s eq "naive" ? 7 : s eq "tiled16" ? 5 : s eq "tiled32" ? 9 : s eq "cublas" ? 13 : \
             s eq "boundary16" ? 4 : s eq "boundary32" ? 8 : s eq "cpu_ijk" ? 7 : s eq "cpu_ikj" ? 5 : \
             s eq "cpu_blocked" ? 9 : s eq "cpu_blocked64" ? 11 : 6
nameof(s) = s eq "cpu_ijk" ? "CPU ijk" : s eq "cpu_ikj" ? "CPU ikj" : s eq "cpu_blocked" ? "CPU blocked 32" : \
            s eq "cpu_blocked64" ? "CPU blocked 64" : \
            s eq "naive" ? "naive" : s eq "naive_rows" ? "naive, x walks rows" : s eq "naive_ldcg" ? "naive, __ldcg (no L1)" : \
            s eq "tiled16" ? "tiled 16" : s eq "tiled32" ? "tiled 32" : \
            s eq "boundary16" ? "boundary 16" : s eq "boundary32" ? "boundary 32" : \
            s eq "tiled32_conflict" ? "tiled 32, bank conflicts" : s eq "tiled32_pad" ? "tiled 32, padded" : \
            s eq "coarse1d" ? "lab 06 coarse 1-D" : s eq "regtile" ? "lab 06 register tile" : \
            s eq "warptile" ? "lab 06 speed step" : s eq "cublas" ? "cuBLAS SGEMM" : \
            s eq "cpasync" ? "lab 07 cp.async" : s eq "tma" ? "lab 07 TMA" : s eq "grouped" ? "lab 07 TMA, grouped" : \
            s eq "wmma_tf32" ? "lab 08 WMMA, TF32 TC" : s eq "wmma_bf16" ? "lab 08 WMMA, BF16 TC" : \
            s eq "mma_bf16" ? "lab 08 mma.sync, BF16 TC" : s eq "wgmma_bf16" ? "lab 08 wgmma, BF16 TC" : \
            s eq "cublas_tf32" ? "cuBLAS, TF32 TC" : s eq "cublas_bf16" ? "cuBLAS, BF16 TC" : s
# the units a ladder rung multiplies with (ladder.dat's prec column): FP32, or tensor cores (TC) fed TF32 or BF16
precname(p) = p == 0 ? "FP32 units" : p == 1 ? "tensor cores, TF32" : "tensor cores, BF16"
preccolor(p) = p == 0 ? 0x1f77b4 : p == 1 ? 0x8c564b : 0x9467bd
# the memory levels of the hierarchical roofline: DRAM, L2, L1, shared (level index 0..3)
levelcolor(l) = l == 0 ? "#d62728" : l == 1 ? "#ff7f0e" : l == 2 ? "#2ca02c" : "#1f77b4"
levelpoint(l) = l == 0 ? 7 : l == 1 ? 5 : l == 2 ? 9 : 11
# The plot frames of the PDF, for tests/slides/chart-pages.sh: after each panel's plot a chart runs
# "eval record_frame", which appends that panel's border (gnuplot's GPVAL_TERM_* after the plot; the
# borders are in points, the sizes in points x GPVAL_TERM_SCALE) to
# WORKDIR/CHART.frames as fractions of the chart: xmin xmax ymin ymax (y from the bottom). The test
# fails a word that straddles a border: a name running across the frame.
chart_base = chart_name[strlen(here) + 1 : strlen(chart_name) - 3]
frames_file = WORKDIR . "/" . chart_base . ".frames"
if (TERMINAL eq "pdf") { set print frames_file; set print }
record_frame = TERMINAL eq "pdf" ? "set print frames_file append; print sprintf('%.6f %.6f %.6f %.6f', " . \
    "GPVAL_TERM_XMIN * GPVAL_TERM_SCALE / (GPVAL_TERM_XSIZE + 0.0), GPVAL_TERM_XMAX * GPVAL_TERM_SCALE / (GPVAL_TERM_XSIZE + 0.0), " . \
    "GPVAL_TERM_YMIN * GPVAL_TERM_SCALE / (GPVAL_TERM_YSIZE + 0.0), GPVAL_TERM_YMAX * GPVAL_TERM_SCALE / (GPVAL_TERM_YSIZE + 0.0)); set print" : ""

# Numbers are never formatted here: tl-plotprep writes every printed figure as text (meta.gp's *_txt,
# label columns in the .dat files) with the formatter the slides and READMEs use (fmt_num: rounded).

# Decades on a log axis as 1, 10, 100, 1k, 10k ... (gnuplot's %c would write 100m for 0.1).
decade(e) = e < 0 ? sprintf("%g", 10.0**e) : e < 3 ? sprintf("%d", int(10**e)) : e < 6 ? sprintf("%dk", int(10**(e-3))) : sprintf("%dM", int(10**(e-6)))
decade_tics(axis) = sprintf("set %stics (%s)", axis, join_decades(-3, 8))
join_decades(a, b) = a > b ? "" : sprintf("\"%s\" %g%s", decade(a), 10.0**a, a < b ? ", " : "") . join_decades(a + 1, b)

# gnuplot drops a whole row when a column it reads is NaN; test the text first to draw "no data" there.
missing(c) = strcol(c) eq "NaN"

# A frame that says there is nothing to draw, instead of an empty picture.
no_data_note(text) = sprintf("set label 98 \"%s\" at graph 0.5, graph 0.5 center font \",11\" textcolor rgb \"#b00000\" front", text)
