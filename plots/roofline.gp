# roofline.gp: each GPU kernel at its largest size on a roofline of the measured ceilings.
#   gnuplot -c plots/roofline.gp WORKDIR OUTFILE png|pdf|svg   (plots/kit-plots.sh calls it)
# Lecture claim tested: raising the FLOPs per byte of global memory traffic (naive 1/4, tiled T/4)
# moves a kernel up the bandwidth slope toward the compute roof. Intensities are the lecture's
# first-order model, not measured traffic; cuBLAS sits at the compulsory-traffic bound n/6 (README).
chart_title = "Roofline: measured ceilings, lecture's model intensities"
chart_name = ARG0
here = ARG0[1:strstrt(ARG0, "roofline.gp") - 1]
call here . "common.gp" ARG1 ARG2 ARG3

set xlabel "operational intensity (FLOP per byte of global memory traffic)"
set ylabel "GFLOP/s"
set logscale xy 10
eval decade_tics("y")
set xtics ("1/16" 0.0625, "1/4" 0.25, "1" 1, "4" 4, "8" 8, "32" 32, "128" 128, "512" 512, "2k" 2048)
set xrange [0.05 : 3000]
set yrange [5 : peak_gflops * 3]
set samples 1000
# the key is anchored on its left edge: SVG viewers' fonts run wider than gnuplot estimates
set rmargin at screen 0.67
set key at screen 0.71, graph 1 left top reverse Left samplen 2 spacing 1.1 font ",24"

roof(x) = bw_gbps * x < peak_gflops ? bw_gbps * x : peak_gflops
model_roof(x) = model_bw * x < model_peak ? model_bw * x : model_peak
ridge = peak_gflops / bw_gbps
set arrow 1 from ridge, graph 0 to ridge, first peak_gflops nohead lc rgb "#808080" dt 3 lw 1.5 back
set label 1 sprintf("ridge %.1f FLOP/B", ridge) at ridge * 1.15, graph 0.06 left font ",20" textcolor rgb "#606060"
set label 2 sprintf("peak %.0f", peak_gflops) at ridge * 1.3, first peak_gflops * 1.35 left font ",22"
set label 3 sprintf("%.0f GB/s x intensity", bw_gbps) at 0.07, first bw_gbps * 0.07 * 1.5 left rotate by 28 font ",22"

if (roof_n_cublas > 0) {
    set label 5 "cuBLAS at n/6 FLOP/B:\nthe compulsory-traffic bound" at roof_n_cublas / 6.0 * 1.8, first best_cublas / 3.5 right \
        font ",20" textcolor rgb color("cublas")
}
if (n_roofline == 0) {
    eval no_data_note("no GPU kernel rows in the records")
}

plot roof(x) with lines lc rgb "#000000" lw 1.5 title "measured roof", \
     model_roof(x) with lines lc rgb "#b0b0b0" lw 1.2 dt 2 title "lecture's model GPU", \
     for [s in roof_kernels] need(datafile("roofline.dat")) using 2:(strcol(1) eq s ? $3 : NaN) \
         with points pt pointof(s) ps 5 * psf lc rgb color(s) title sprintf("%s, n=%d", nameof(s), value("roof_n_" . s))
