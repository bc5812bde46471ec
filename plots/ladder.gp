# ladder.gp: the kernel ladder, one row per rung: GFLOP/s with its % of cuBLAS (left), and the bytes
# it moved through DRAM, L2, L1 and shared memory (right), at one size.
#   gnuplot -c plots/ladder.gp WORKDIR OUTFILE png|pdf|svg   (plots/kit-plots.sh calls it)
# Lecture claim tested: each step of the course changes where the bytes come from; the speed follows
# the level that is busiest, not DRAM alone.
chart_title = "The kernel ladder"
chart_name = ARG0
here = ARG0[1:strstrt(ARG0, "ladder.gp") - 1]
call here . "common.gp" ARG1 ARG2 ARG3
unset title   # one title across both panels, as a label at the top of the page
set label 90 sprintf("The kernel ladder at n = %d: speed, and bytes per memory level (traffic: %s)\n%s, measured %s", \
    traffic_n, traffic_src, device, date_day) at screen 0.5, screen 0.965 center front noenhanced

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
stats data using 3 nooutput
gmax = STATS_max
set multiplot
set yrange [n_ladder - 0.4 : -0.6]
set ytics nomirror scale 0 font ",20"
set style fill solid 0.9 border lc rgb "#404040"
set key noautotitle

# left: GFLOP/s, each bar labelled with its % of cuBLAS
set lmargin at screen 0.20
set rmargin at screen 0.50
set tmargin at screen 0.83
set bmargin at screen 0.12
set xlabel "GFLOP/s (2 n^3 / median time)"
set xrange [0 : gmax * 1.32]
set xtics font ",18"
set format x "%.0s%c"
plot data using (0):1:(0):3:($1 - 0.36):($1 + 0.36):ytic(nameof(strcol(2))) with boxxyerror \
         lc rgb "#1f77b4", \
     data using 3:1:(sprintf(" %.1f%%", $4)) with labels left font ",18"

# right: GB per level, log scale from 0.1 GB (the baseline is labelled on the axis)
unset label 90
set lmargin at screen 0.53
set rmargin at screen 0.98
set xlabel "GB moved (log scale; bars start at 0.1 GB)"
set logscale x 10
set xrange [0.1 : 5000]
set format x "%g"
set xtics ("0.1" 0.1, "1" 1, "10" 10, "100" 100, "1000" 1000)
set ytics format ""
h = 0.19
lev(l) = l == 0 ? "DRAM" : l == 1 ? "L2" : l == 2 ? "L1" : "shared"
set key at screen 0.98, screen 0.885 right top horizontal samplen 1 font ",20" width 1
plot for [l = 0:3] data using (0.1):($1 + (l - 1.5) * h):(0.1):(column(6 + l) > 0.1 ? column(6 + l) : 0.1):($1 + (l - 1.5) * h - h / 2):($1 + (l - 1.5) * h + h / 2) \
         with boxxyerror lc rgb levelcolor(l) title lev(l)
unset multiplot
