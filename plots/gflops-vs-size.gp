# gflops-vs-size.gp: GFLOP/s against matrix size for the GPU kernels of labs 02-04 and cuBLAS, with the
# lecture's bandwidth ceilings (the CPU runs have their own chart, cpu-baseline).
#   gnuplot -c plots/gflops-vs-size.gp WORKDIR OUTFILE png|pdf|svg   (plots/kit-plots.sh calls it)
# Lecture claim tested: naive is held under bandwidth / 4 B per FLOP; tiling by TILE_WIDTH raises that
# ceiling TILE_WIDTH times, until the FP32 peak is the ceiling.
chart_title = "GPU matrix multiply throughput by size"
chart_name = ARG0
here = ARG0[1:strstrt(ARG0, "gflops-vs-size.gp") - 1]
call here . "common.gp" ARG1 ARG2 ARG3

set xlabel "matrix size n  (n x n times n x n)" offset 0, 0.3
set ylabel "GFLOP/s  (2 n^3 / median time)" offset 1, 0
set logscale x 2
set logscale y 10
set ytics ("100" 100, "1k" 1000, "10k" 10000, "100k" 100000) nomirror
set xtics ("128" 128, "256" 256, "512" 512, "1024" 1024, "2048" 2048, "3000" 3000, "4096" 4096, "6144" 6144) nomirror
set xrange [size_min / 1.2 : size_max * 1.2]
set yrange [*:peak_gflops * 3]
set lmargin at screen 0.08
set rmargin at screen 0.66
set key at screen 0.675, graph 1 left top reverse Left samplen 2 spacing 1.0 font ",8" width 0

lab(y, text, s) = sprintf("set label \"%s\" at graph 0.02, first %g left front offset 0, 0.45 font \",7.5\" textcolor rgb \"%s\"", text, y, s)
eval lab(peak_gflops, "FP32 peak " . peak_txt . " (measured)", "#000000")
eval lab(tiled32_bound, "bound TILE 32: " . tiled32_bound_txt, color("tiled32"))
eval lab(tiled16_bound, "bound TILE 16: " . tiled16_bound_txt, color("tiled16"))
eval lab(naive_bound, "bound naive: " . naive_bound_txt, color("naive"))
set label 96 sprintf("lines: sizes that are multiples of 32;\nopen marks: sizes that are not (1000,\n2000, 3000): edge tiles, slower.\ndotted: bandwidth bounds, %s GB/s\n/ 4 B per FLOP x TILE_WIDTH", bw_txt) \
    at screen 0.675, graph 0.30 left front font ",7.5"
if (strlen(gpu_present) == 0) {
    eval no_data_note("no GPU kernel rows in the records")
}
m32(n) = int(n) % 32 == 0 ? 1 : 0
plot for [s in gpu_present] need(datafile("gemm32_" . s . ".dat")) using 1:5 with linespoints \
         lc rgb color(s) dt dashof(s) pt pointof(s) ps 2.2 * psf lw 2.4 title nameof(s), \
     for [s in gpu_present] need(datafile("gemm_" . s . ".dat")) using ($2 == $3 && $3 == $4 && !m32($1) ? $1 : NaN):5 with points \
         lc rgb color(s) pt 6 ps 2.6 * psf lw 2 notitle, \
     peak_gflops with lines lc rgb "#000000" dt 2 lw 2 notitle, \
     tiled32_bound with lines lc rgb color("tiled32") dt 3 lw 3 title "bound, TILE 32 (bw/4 x 32)", \
     tiled16_bound with lines lc rgb color("tiled16") dt 3 lw 3 title "bound, TILE 16 (bw/4 x 16)", \
     naive_bound with lines lc rgb color("naive") dt 3 lw 3 title "bound, naive (bw/4)"
eval record_frame
