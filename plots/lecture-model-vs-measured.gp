# lecture-model-vs-measured.gp: the lecture's model GPU (150 GB/s, 1000 GFLOP/s) next to the same
# first-order bounds computed from this GPU's measured ceilings, and what the kernels reached.
#   gnuplot -c plots/lecture-model-vs-measured.gp WORKDIR OUTFILE png|pdf|svg   (plots/kit-plots.sh calls it)
# Lecture claim tested: 150 GB/s / 4 B per FLOP = 37.5 GFLOP/s for naive; TILE_WIDTH 16 gives 600,
# TILE_WIDTH 32 gives 1200, which the 1000 GFLOP/s peak caps. Are the measured kernels where the
# same arithmetic puts them on today's GPU?
chart_title = "Lecture's model vs this GPU: first-order bounds and measured best"
chart_name = ARG0
here = ARG0[1:strstrt(ARG0, "lecture-model-vs-measured.gp") - 1]
call here . "common.gp" ARG1 ARG2 ARG3

set ylabel "GFLOP/s (log scale)"
set logscale y 10
eval decade_tics("y")
base = 10.0                            # bars start here: a log axis has no zero
set yrange [base : peak_gflops * 40]
set xrange [-0.6 : 3.6]
set xtics ("naive\n(bw/4)" 0, "TILE_WIDTH 16\n(16 x bw/4)" 1, "TILE_WIDTH 32\n(32 x bw/4, cap: peak)" 2, \
           "FP32 peak\n(cuBLAS reached)" 3) nomirror scale 0 font ",24"
set style fill solid 0.9 border lc rgb "#404040"
# the key sits over the two low clusters, in head room left above the bars
set key inside top left vertical Left reverse samplen 1.5 spacing 1.1 font ",24"
set bmargin 4

w = 0.26
bar(i, j) = i + (j - 1) * w
value_label(v) = v >= 100 ? sprintf("%.0f", v) : sprintf("%.1f", v)

# the model's TILE 32 bound (1200) is above its own peak: say so on that bar
model_label(i, v) = (i == 2 && model_tiled32 > model_peak) ? sprintf("%.0f\n(%.0f capped)", v, model_tiled32) : value_label(v)

data = need(datafile("model.dat"))
plot data using (bar($1, 0)):3:(bar($1, 0) - w/2):(bar($1, 0) + w/2):(base):3 with boxxyerror lc rgb "#b0b0b0" \
         title "lecture's GPU (150 GB/s, 1000 GFLOP/s)", \
     data using (bar($1, 1)):4:(bar($1, 1) - w/2):(bar($1, 1) + w/2):(base):4 with boxxyerror lc rgb "#6baed6" \
         title sprintf("this GPU (%.0f GB/s, %.0f GFLOP/s)", bw_gbps, peak_gflops), \
     data using (bar($1, 2)):5:(bar($1, 2) - w/2):(bar($1, 2) + w/2):(base):5 with boxxyerror lc rgb "#ff7f0e" \
         title "kernel, best measured", \
     data using (bar($1, 0)):($1 == 2 ? $3 * 1.7 : $3):(model_label($1, $3)) with labels offset 0, 0.8 font ",20" notitle, \
     data using (bar($1, 1)):4:(value_label($4)) with labels offset 0, 0.8 font ",20" notitle, \
     data using (bar($1, 2)):5:(value_label($5)) with labels offset 0, 0.8 font ",20" notitle, \
     data using (bar($1, 2)):(missing(5) ? base * 1.3 : NaN):("no\ndata") \
         with labels offset 0, 1.6 font ",22" textcolor rgb "#b00000" notitle
