# mission.gp: the course's mission in one chart. Left: the bandwidth-bound naive kernel against the
# tiled ones, each with the lecture's model ceiling (150 GB/s, 1000 GFLOP/s), the same model on this
# GPU's measured bandwidth and peak, the bound from the kernel's measured DRAM traffic, and what it
# reached. Right: where the bytes each kernel asks for are served from (measured traffic).
#   gnuplot -c plots/mission.gp WORKDIR OUTFILE png|pdf|svg   (plots/kit-plots.sh calls it)
# Lecture claim tested: tiling multiplies the bandwidth-bound ceiling by TILE_WIDTH. Measured: the
# caches already give naive much of that reuse, so tiling gains less than the model says.
chart_title = "Mission"
chart_name = ARG0
here = ARG0[1:strstrt(ARG0, "mission.gp") - 1]
call here . "common.gp" ARG1 ARG2 ARG3
unset title
set label 90 sprintf("Bandwidth-bound vs tiled: model ceilings and measured ones, n = %d; %s, measured %s", \
    traffic_n, device, gpu_day) at screen 0.5, screen 0.965 center front noenhanced font ",9"
mission = need(datafile("mission.dat"))
served = need(datafile("served.dat"))

set multiplot
set style fill solid 0.9 border lc rgb "#404040"
set logscale y 10
set grid ytics
set tmargin at screen 0.72
set bmargin at screen 0.14

# ---- left: GFLOP/s, four bars per kernel
set lmargin at screen 0.11
set rmargin at screen 0.55
set ytics ("10" 10, "100" 100, "1k" 1000, "10k" 10000, "100k" 100000)
set ylabel "GFLOP/s (log scale; bars start at 10)"
base = 10.0
set yrange [base : peak_gflops * 6]
set xrange [-0.55 : 2.55]
set xtics ("naive" 0, "TILE_WIDTH 16" 1, "TILE_WIDTH 32" 2) nomirror scale 0 font ",9"
w = 0.2
bar(i, j) = i + (j - 1.5) * w
set label 91 "FP32 peak " . peak_txt at graph 0.99, first peak_gflops * 1.3 right font ",8"
set key at screen 0.08, screen 0.905 left top vertical maxcols 1 Left reverse samplen 1 spacing 0.9 font ",7.5" width 0
plot mission using (bar($1, 0)):3:(bar($1, 0) - w/2):(bar($1, 0) + w/2):(base):3 with boxxyerror lc rgb "#c8c8c8" \
         title "model: lecture's GPU (150 GB/s / 4 B x TILE, cap 1,000)", \
     mission using (bar($1, 1)):4:(bar($1, 1) - w/2):(bar($1, 1) + w/2):(base):4 with boxxyerror lc rgb "#9ecae1" \
         title "model: this GPU (" . bw_txt . " GB/s / 4 B x TILE)", \
     mission using (bar($1, 2)):5:(bar($1, 2) - w/2):(bar($1, 2) + w/2):(base):5 with boxxyerror lc rgb "#3182bd" \
         title "measured: DRAM GB/s x measured FLOP/B", \
     mission using (bar($1, 3)):6:(bar($1, 3) - w/2):(bar($1, 3) + w/2):(base):6 with boxxyerror lc rgb "#ff7f0e" \
         title "measured: the kernel", \
     for [j = 0:3] mission using (bar($1, j)):(column(3 + j)):(strcol(7 + j)) \
         with labels rotate by 90 right offset 0, -0.4 font ",7.5" notitle, \
     mission using (bar($1, 2)):(missing(5) ? base * 1.5 : NaN):("no traffic\nmeasured") \
         with labels rotate by 90 left font ",7.5" textcolor rgb "#b00000" notitle, \
     peak_gflops with lines dt 2 lc rgb "#000000" lw 1 notitle
eval record_frame

# ---- right: GB through each level, four bars per kernel, the reuse each level gave written on top
unset label 90
unset label 91
set lmargin at screen 0.66
set rmargin at screen 0.99
set ylabel "GB (log scale; bars start at 0.1)"
set yrange [0.1 : 20000]
set ytics ("0.1" 0.1, "1" 1, "10" 10, "100" 100, "1k" 1000, "10k" 10000)
set xrange [-0.55 : 3.55]
set xtics ("naive" 0, "naive\n__ldcg" 1, "tiled 16" 2, "tiled 32" 3) nomirror scale 0 font ",8.5"
set label 92 "above the DRAM bar: model bytes / DRAM bytes" at graph 0.99, graph 0.97 right font ",7.5"
set key at screen 0.62, screen 0.905 left top vertical maxcols 1 Left reverse samplen 1 spacing 0.9 font ",7.5" width 0
b0 = 0.1
plot served using (bar($1, 0)):3:(bar($1, 0) - w/2):(bar($1, 0) + w/2):(b0):3 with boxxyerror lc rgb "#c8c8c8" \
         title "model: 8 B per multiply-add", \
     served using (bar($1, 1)):4:(bar($1, 1) - w/2):(bar($1, 1) + w/2):(b0):4 with boxxyerror lc rgb levelcolor(2) \
         title "through L1", \
     served using (bar($1, 2)):5:(bar($1, 2) - w/2):(bar($1, 2) + w/2):(b0):5 with boxxyerror lc rgb levelcolor(1) \
         title "through L2", \
     served using (bar($1, 3)):6:(bar($1, 3) - w/2):(bar($1, 3) + w/2):(b0):6 with boxxyerror lc rgb levelcolor(0) \
         title "from DRAM", \
     served using (bar($1, 3)):6:(sprintf("%.0fx", $3 / $6)) with labels offset 0.6, 1.0 font ",8" notitle
eval record_frame
unset multiplot
