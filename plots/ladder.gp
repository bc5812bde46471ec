# ladder.gp: the kernel ladder, one row per rung: GFLOP/s with its share of cuBLAS and of the FP32
# peak (left; the measured peak drawn as a line: cuBLAS itself is below it), and the bytes it moved
# through DRAM, L2, L1 and shared memory (right), at one size. Labels are tl-plotprep's text.
#   gnuplot -c plots/ladder.gp WORKDIR OUTFILE png|pdf|svg   (plots/kit-plots.sh calls it)
# A "with labels" series whose every row is NaN crashes gnuplot 5.4: labels that do not apply to a
# row get an empty text at a real position instead.
# Lecture claim tested: each step of the course changes where the bytes come from; the speed follows
# the level that is busiest, not DRAM alone.
chart_title = "The kernel ladder"
chart_name = ARG0
here = ARG0[1:strstrt(ARG0, "ladder.gp") - 1]
call here . "common.gp" ARG1 ARG2 ARG3
unset title   # one title across both panels, as a label at the top of the page
set label 90 sprintf("The kernel ladder at n = %d: speed, and bytes per memory level (traffic: %s)\n%s, measured %s", \
    traffic_n, traffic_src, device, gpu_day) at screen 0.5, screen 0.955 center front noenhanced font ",9.5"

if (n_ladder == 0) {
    eval no_data_note("no kernel ladder in the records:\\nmeasure it with ./kit bench")
    set xrange [0:1]
    set yrange [0:1]
    unset xtics
    unset ytics
    plot NaN notitle
    exit
}
data = need(datafile("ladder.dat"))
stats data using 3 nooutput   # before any range is set: stats drops points outside the ranges
gmax = STATS_max
stats data using 13 nooutput
tc = STATS_max > 0            # tensor-core rungs (lab 08, cuBLAS TF32/BF16): 10x past the FP32 peak
set multiplot
set yrange [n_ladder - 0.4 : -0.6]
set ytics nomirror scale 0 font ",8"
set style fill solid 0.9 border lc rgb "#404040"
set key noautotitle

# left: GFLOP/s bars with their value; then two columns of text: % of cuBLAS and % of the peak.
# With tensor-core rungs the axis is logarithmic (a linear one would flatten every FP32 rung), the
# bars are coloured by the units that multiply (FP32, TF32 or BF16 tensor cores) and a note below
# says what the percentages compare with.
set lmargin at screen 0.19
set rmargin at screen 0.47
set tmargin at screen 0.86
set bmargin at screen (tc ? 0.2 : 0.11)
set xlabel "GFLOP/s (2 n^3 / median time" . (tc ? "; log scale)" : ")") offset 0, 0.4 font ",8"
top = gmax > peak_gflops ? gmax : peak_gflops
if (!tc) {
    base = 0
    set xrange [0 : top * 1.02]
    set xtics ("0" 0, "20k" 20000, "40k" 40000, "60k" 60000) font ",8"
} else {
    base = 100
    set logscale x 10
    set xrange [base : 2e6]
    set xtics ("100" 100, "1k" 1000, "10k" 10000, "100k" 100000, "1M" 1000000) font ",8"
    if (tc_bf16 == tc_bf16) {
        set arrow 94 from first tc_bf16, graph 0 to first tc_bf16, graph 1 nohead dt (2, 2) lc rgb preccolor(2) lw 2 front
        set label 94 "BF16 TC peak " . tc_bf16_txt . " (measured)" at first tc_bf16, graph 0.5 center rotate by 90 offset 0.9, 0 font ",7.5" front
    }
    tc_peak_txt = tc_bf16 == tc_bf16 || tc_tf32 == tc_tf32 ? \
        "the TC peak measured by lab 08's compute-only kernels (TF32 " . tc_tf32_txt . ", BF16 " . tc_bf16_txt . "; " . tc_day . ")" : \
        "for a TC rung none: these records hold no measured TC peak (lab08-bench --peaks)"
    set label 95 "% of cuBLAS in the same units and input format (labs 07, 08: the cuBLAS timed in the same run);\n" . \
        "% of peak: the measured FP32 peak, or " . tc_peak_txt at screen 0.02, screen 0.05 left font ",7.5" front
}
set label 91 "FP32 peak " . peak_txt at first peak_gflops, graph 1.0 right offset 0, 0.6 font ",8" front
set arrow 91 from first peak_gflops, graph 0 to first peak_gflops, graph 1 nohead dt (4, 3) lc rgb "#000000" lw 2 front
set label 92 "% of\ncuBLAS" at screen 0.515, screen 0.895 center font ",8" front
set label 93 "% of\npeak" at screen 0.575, screen 0.895 center font ",8" front
if (tc) {   # the colours' key, as text in the colour (a gnuplot key of boxes stacks them here)
    set label 96 "\342\226\240 FP32 units" at screen 0.02, screen 0.088 left font ",7.5" tc rgb preccolor(0) front
    set label 97 "\342\226\240 tensor cores (TC), TF32 in" at screen 0.13, screen 0.088 left font ",7.5" tc rgb preccolor(1) front
    set label 98 "\342\226\240 TC, BF16 in" at screen 0.32, screen 0.088 left font ",7.5" tc rgb preccolor(2) front
}
# the value inside the bar's end (white) where the bar is long enough, else after it
inside(g) = tc ? g >= 2000 : g >= top * 0.72
plot data using (base):1:(base):3:($1 - 0.36):($1 + 0.36):(preccolor(column(13))):ytic(nameof(strcol(2))) with boxxyerror lc rgb variable, \
     data using 3:1:(inside($3) ? "" : strcol(10)) with labels left offset 0.3, 0 font ",7.5", \
     data using 3:1:(inside($3) ? strcol(10) : "") with labels right offset -0.3, 0 font ",7.5" tc rgb "#ffffff"
eval record_frame
unset label 94
unset label 96
unset label 97
unset label 98
unset label 95
unset arrow 94
unset logscale x

# middle: the two percentage columns (text only, no frame)
unset label 91
unset arrow 91
set lmargin at screen 0.485
set rmargin at screen 0.605
unset border
unset xtics
unset xlabel
unset grid
set ytics format ""
set xrange [0 : 2]
plot data using (0.5):1:11 with labels center font ",7.5", \
     data using (1.5):1:12 with labels center font ",7.5"
set border
set grid

# right: GB per level, log scale from 0.1 GB (the baseline is labelled on the axis)
unset label 90
unset label 92
unset label 93
set lmargin at screen 0.62
set rmargin at screen 0.98
set xlabel "GB moved (log scale; bars start at 0.1 GB)" offset 0, 0.4 font ",8"
set logscale x 10
set xrange [0.1 : 5000]
set xtics ("0.1" 0.1, "1" 1, "10" 10, "100" 100, "1000" 1000) font ",8"
h = 0.19
lev(l) = l == 0 ? "DRAM" : l == 1 ? "L2" : l == 2 ? "L1" : "shared"
set key at screen 0.98, screen 0.905 right top horizontal samplen 1 font ",8" width 1
plot for [l = 0:3] data using (0.1):($1 + (l - 1.5) * h):(0.1):(column(6 + l) > 0.1 ? column(6 + l) : 0.1):($1 + (l - 1.5) * h - h / 2):($1 + (l - 1.5) * h + h / 2) \
         with boxxyerror lc rgb levelcolor(l) title lev(l), \
     data using (0.13):1:14 with labels left font ",7.5" tc rgb "#606060" notitle
eval record_frame
unset multiplot
