# rectangular.gp: lab 04's rectangular runs, M (m x k) times N (k x n), GFLOP/s per shape and tile.
#   gnuplot -c plots/rectangular.gp WORKDIR OUTFILE png|pdf|svg   (plots/kit-plots.sh calls it)
# Lecture claim tested: the same tiled kernel serves any shape; a short k (few phases) or a thin
# matrix leaves the GPU with little work per block or too few blocks.
# (A label series whose every row is NaN crashes gnuplot 5.4: missing values get a "no data" label.)
chart_title = "Rectangular products (lab 04)"
chart_name = ARG0
here = ARG0[1:strstrt(ARG0, "rectangular.gp") - 1]
call here . "common.gp" ARG1 ARG2 ARG3

set ylabel "GFLOP/s (2 m k n / median time)"
set xlabel "shape m x k x n"
set style fill solid 0.9 border lc rgb "#404040"
set xtics nomirror scale 0 font ",9"
set key inside top right samplen 1.5 font ",9"
if (n_rect == 0) {
    eval no_data_note("no rect16 / rect32 rows in the records (./kit bench runs lab 04)")
    set xrange [0:1]
    set yrange [0:1]
    plot NaN notitle
    exit
}
set yrange [0 : rect_max_gflops * 1.2]
set format y "%.0s%c"
set xrange [-0.6 : n_rect - 0.4]
w = 0.36
plot datafile("rect.dat") using 1:(NaN):xtic(2) with boxes notitle, \
     "" using ($1 - w / 2):3:(w) with boxes lc rgb color("boundary16") title "TILE_WIDTH 16", \
     "" using ($1 + w / 2):4:(w) with boxes lc rgb color("boundary32") title "TILE_WIDTH 32", \
     "" using ($1 - w / 2):(missing(3) ? 0 : $3):(strcol(5)) with labels offset 0, 0.7 font ",8" notitle, \
     "" using ($1 + w / 2):(missing(4) ? 0 : $4):(strcol(6)) with labels offset 0, 0.7 font ",8" notitle
eval record_frame
