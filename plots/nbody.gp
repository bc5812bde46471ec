# nbody.gp: 1-D tiling where it pays: all-pairs n-body accelerations (plots/nbody.cu), GFLOP/s per
# number of bodies for the naive kernel (every pos[j] from global memory through L1), the same with
# __ldcg (no L1), the static-shared tile and the extern __shared__ tile at 128, 256, 512 bodies.
#   gnuplot -c plots/nbody.gp WORKDIR OUTFILE png|pdf|svg   (plots/kit-plots.sh calls it)
# Lecture claim tested (Futhark notes): tiling pays when an input is invariant to a parallel
# dimension: pos[] is read by every thread i.
chart_title = "1-D tiling: n-body"
chart_name = ARG0
here = ARG0[1:strstrt(ARG0, "nbody.gp") - 1]
call here . "common.gp" ARG1 ARG2 ARG3
set title sprintf("1-D tiling pays: all-pairs n-body, 20 FLOP per interaction, checked then timed\n%s, %s", \
    device, strlen(kernel_day) ? "measured " . kernel_day : "not measured on this GPU") noenhanced font ",9.5"
if (n_nbody == 0) {
    eval no_data_note("no n-body rows for this GPU in the records: the shipped ones are the H100's\\n(plots/data/extra); measure yours with  bash tests/gpu/deck-on-device.sh")
    set xrange [0:1]
    set yrange [0:1]
    unset xtics
    unset ytics
    plot NaN notitle
    exit
}
set ylabel "GFLOP/s" offset 1, 0
set xlabel "bodies n (one thread each)" offset 0, 0.3
set style fill solid 0.9 border lc rgb "#404040"
set yrange [0 : nbody_max * 1.3]
set ytics ("0" 0, "10k" 10000, "20k" 20000, "30k" 30000, "40k" 40000) nomirror
set xrange [-0.6 : n_nbody - 0.4]
set xtics nomirror scale 0
set key inside top left horizontal maxcols 3 samplen 1.2 font ",8" width 0
set lmargin at screen 0.09
set rmargin at screen 0.98
w = 0.14
x(i, j) = i + (j - 2.5) * w
d = need(datafile("nbody.dat"))
plot d using 1:(NaN):xtic(9) with boxes notitle, \
     d using (x($1, 0)):3:(w) with boxes lc rgb "#d62728" title "naive (global, through L1)", \
     d using (x($1, 1)):4:(w) with boxes lc rgb "#f08080" title "naive, __ldcg (no L1)", \
     d using (x($1, 2)):5:(w) with boxes lc rgb "#2ca02c" title "tiled, __shared__ float4 tile[256]", \
     d using (x($1, 3)):6:(w) with boxes lc rgb "#9ecae1" title "extern __shared__, 128 a tile", \
     d using (x($1, 4)):7:(w) with boxes lc rgb "#3182bd" title "extern __shared__, 256", \
     d using (x($1, 5)):8:(w) with boxes lc rgb "#08519c" title "extern __shared__, 512"
eval record_frame
