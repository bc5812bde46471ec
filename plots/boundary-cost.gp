# boundary-cost.gp: what boundary handling costs. GFLOP/s of lab 04's any-size kernel next to lab 03's
# multiple-only tiled kernel, at sizes around multiples of the tile (1023, 1024, 1025, ...).
#   gnuplot -c plots/boundary-cost.gp WORKDIR OUTFILE png|pdf|svg   (plots/kit-plots.sh calls it)
# Lecture claim tested: the guarded loads and stores (branch divergence) affect only the blocks on
# the boundary, so they "should be small for large matrices"; one size past a multiple adds a whole
# row and column of mostly empty tiles.
chart_title = "Cost of boundary handling (lab 04 vs lab 03)"
chart_name = ARG0
here = ARG0[1:strstrt(ARG0, "boundary-cost.gp") - 1]
call here . "common.gp" ARG1 ARG2 ARG3

set ylabel "GFLOP/s (2 n^3 / median time)"
set xlabel "matrix size n, and under it the waves of blocks for TILE 16 | TILE 32\n(tiled, lab 03, runs only where n is a multiple of its TILE_WIDTH)"
set style fill solid 0.9 border lc rgb "#404040"
set xtics nomirror scale 0 font ",8"
set key inside top right horizontal samplen 1.5 spacing 1.1 font ",9" width 1 maxcols 2

w = 0.19     # bar width; four bars per size
# Waves (the tic labels, from tl-plotprep): a grid of ceil(n/T)^2 blocks runs in waves of
# SMs x resident blocks per SM (2048 threads / T^2: 8 for T 16, 2 for T 32); one size past a full
# wave starts a second, nearly empty one.
xs(i, j) = i + (j - 1.5) * w

if (n_boundary_sizes == 0) {
    eval no_data_note("no boundary16 / boundary32 rows in the records:\\nmeasure lab 04 (./kit bench)")
    set xrange [0:1]
    set yrange [0:1]
    unset xtics
    unset ytics
    unset y2tics
    plot NaN notitle
} else {
    set yrange [0 : boundary_max_gflops * 1.38]
    set format y "%.0s%c"
    set bmargin at screen 0.24
    set xlabel offset 0, -1.2
    if (sm_count > 0) {
        slots32 = 2 * sm_count
        second = 289 > slots32 ? sprintf("a second wave of %d blocks runs nearly alone:\nthat is why n = 513 is slower than 512 (256 blocks, one wave).", 289 - slots32) : "one wave."
        set label 95 sprintf("waves: ceil(n/T)^2 blocks / (%d SMs x 8 or x 2 resident blocks), rounded up.\nn = 513, TILE 32: 17 x 17 = 289 blocks for %d slots; %s", \
            sm_count, slots32, second) at graph 0.01, graph 0.88 left front font ",8"
    }
    set xrange [-0.6 : n_boundary_sizes - 0.4]
    set boxwidth w
    plot need(datafile("boundary_cost.dat")) using 0:(NaN) with boxes notitle, \
         "" using (xs($0, 0)):2 with boxes lc rgb color("boundary16") title "boundary 16", \
         "" using (xs($0, 1)):3 with boxes lc rgb color("tiled16") title "tiled 16", \
         "" using (xs($0, 2)):4 with boxes lc rgb color("boundary32") title "boundary 32", \
         "" using (xs($0, 3)):5 with boxes lc rgb color("tiled32") title "tiled 32", \
         "" using ($0):(NaN):xtic(6) with points notitle
    eval record_frame
}
