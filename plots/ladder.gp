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
set multiplot
set yrange [n_ladder - 0.4 : -0.6]
set ytics nomirror scale 0 font ",8"
set style fill solid 0.9 border lc rgb "#404040"
set key noautotitle

# left: GFLOP/s bars with their value; then two columns of text: % of cuBLAS and % of the FP32 peak
set lmargin at screen 0.19
set rmargin at screen 0.47
set tmargin at screen 0.86
set bmargin at screen 0.11
set xlabel "GFLOP/s (2 n^3 / median time)" offset 0, 0.4 font ",8"
top = gmax > peak_gflops ? STATS_max : peak_gflops   # tensor-core rungs (labs 07-08) run past FP32
set xrange [0 : top * 1.02]
if (top <= peak_gflops) {
    set xtics ("0" 0, "20k" 20000, "40k" 40000, "60k" 60000) font ",8"
} else {
    set xtics font ",8"
    set format x "%.0s%c"
}
set label 91 "FP32 peak " . peak_txt at first peak_gflops, graph 1.0 right offset 0, 0.6 font ",8" front
set arrow 91 from first peak_gflops, graph 0 to first peak_gflops, graph 1 nohead dt (4, 3) lc rgb "#000000" lw 2 front
set label 92 "% of\ncuBLAS" at screen 0.515, screen 0.895 center font ",8" front
set label 93 "% of\npeak" at screen 0.575, screen 0.895 center font ",8" front
plot data using (0):1:(0):3:($1 - 0.36):($1 + 0.36):ytic(nameof(strcol(2))) with boxxyerror lc rgb "#1f77b4", \
     data using 3:1:($3 < peak_gflops * 0.72 ? strcol(10) : "") with labels left offset 0.3, 0 font ",7.5", \
     data using 3:1:($3 >= top * 0.72 ? strcol(10) : "") with labels right offset -0.3, 0 font ",7.5" tc rgb "#ffffff"
eval record_frame

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
         with boxxyerror lc rgb levelcolor(l) title lev(l)
eval record_frame
unset multiplot
