# gflops-vs-size.gp: GFLOP/s against matrix size for the GPU kernels of labs 02-04 and cuBLAS, with the
# lecture's bandwidth ceilings (the CPU runs have their own chart, cpu-baseline).
#   gnuplot -c plots/gflops-vs-size.gp WORKDIR OUTFILE png|pdf|svg   (plots/kit-plots.sh calls it)
# Lecture claim tested: naive is held under bandwidth / 4 B per FLOP; tiling by TILE_WIDTH raises that
# ceiling TILE_WIDTH times, until the FP32 peak is the ceiling.
chart_title = "GPU matrix multiply throughput by size"
chart_name = ARG0
here = ARG0[1:strstrt(ARG0, "gflops-vs-size.gp") - 1]
call here . "common.gp" ARG1 ARG2 ARG3

set xlabel "matrix size n  (n x n times n x n)"
set ylabel "GFLOP/s  (2 n^3 / median time)"
set logscale x 2
set logscale y 10
eval decade_tics("y")
set xrange [size_min / 1.3 : size_max * 1.3]
set yrange [*:peak_gflops * 2.5]
# plot | ceiling names | key, side by side, so that neither covers a curve
set rmargin at screen 0.64
set key at screen 0.97, graph 1 right top reverse Left samplen 2 spacing 1.1 font ",9" width 1 title "kernels"

# The ceilings, named in the right margin at their height.
lab(y, text, s) = sprintf("set label \"%s\" at graph 1.01, first %g left front font \",22\" textcolor rgb \"%s\"", text, y, s)
eval lab(peak_gflops, "peak " . commas(peak_gflops), "#000000")
eval lab(tiled32_bound, "TILE 32: " . commas(tiled32_bound), color("tiled32"))
eval lab(tiled16_bound, "TILE 16: " . commas(tiled16_bound), color("tiled16"))
eval lab(naive_bound, "naive: " . commas(naive_bound), color("naive"))
set label 96 sprintf("dotted: bandwidth bounds,\nbw = %s GB/s copy\n/ 4 B per FLOP x TILE", commas(bw_gbps)) \
    at screen 0.99, graph 0.12 right front font ",8.5"
if (strlen(gpu_present) == 0) {
    eval no_data_note("no GPU kernel rows in the records")
}

plot for [s in gpu_present] need(datafile("gemm_" . s . ".dat")) using 1:5 with linespoints \
         lc rgb color(s) dt dashof(s) pt pointof(s) ps 2.2 * psf lw 1.2 title nameof(s), \
     peak_gflops with lines lc rgb "#000000" dt 2 lw 1 title "FP32 peak", \
     tiled32_bound with lines lc rgb color("tiled32") dt 3 lw 1.6 notitle, \
     tiled16_bound with lines lc rgb color("tiled16") dt 3 lw 1.6 notitle, \
     naive_bound with lines lc rgb color("naive") dt 3 lw 1.6 \
         title "bw/4 x TILE"
