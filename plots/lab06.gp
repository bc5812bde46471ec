# lab06.gp: lab 06's steps at the ladder size: lab 03's tiled 32, 1-D coarsening, the 2-D register
# tile, the warp tile (the speed step) and cuBLAS; GFLOP/s bars with their share of cuBLAS and of the
# FP32 peak (tl-plotprep's text), and the GB through shared memory each moved (right).
#   gnuplot -c plots/lab06.gp WORKDIR OUTFILE png|pdf|svg   (plots/kit-plots.sh calls it)
# Lecture claim tested (PASI lecture 3, Futhark notes): registers tile shared memory as shared memory
# tiles global memory: each step cuts shared-memory bytes and the speed follows.
chart_title = "Lab 06: coarse -> register -> warp"
chart_name = ARG0
here = ARG0[1:strstrt(ARG0, "lab06.gp") - 1]
call here . "common.gp" ARG1 ARG2 ARG3
unset title
set label 90 sprintf("Lab 06 at n = %d: each step reuses more from registers\n%s, measured %s", lab06_n, device, gpu_day) \
    at screen 0.5, screen 0.955 center front noenhanced font ",9.5"
if (n_lab06 == 0) {
    eval no_data_note("no lab 06 rungs in the records:\\n./kit bench runs them when solutions/06 exists")
    set xrange [0:1]
    set yrange [0:1]
    unset xtics
    unset ytics
    plot NaN notitle
    exit
}
d = need(datafile("lab06.dat"))
nm(v) = v eq "tiled32" ? "lab 03 tiled 32" : v eq "coarse1d" ? "coarse 1-D (8 a thread)" : v eq "regtile" ? "register tile (8 x 8)" : \
        v eq "warptile" ? "warp tile (speed step)" : v eq "cublas" ? "cuBLAS SGEMM" : v
set multiplot
set style fill solid 0.9 border lc rgb "#404040"
set yrange [n_lab06 - 0.4 : -0.6]
set ytics nomirror scale 0 font ",8.5"
set tmargin at screen 0.86
set bmargin at screen 0.12
set lmargin at screen 0.22
set rmargin at screen 0.70
set xrange [0 : peak_gflops * 1.02]
set xtics ("0" 0, "20k" 20000, "40k" 40000, "60k" 60000)
set xlabel "GFLOP/s; label: GFLOP/s (% of cuBLAS, % of FP32 peak)" offset 0, 0.3
set arrow 1 from first peak_gflops, graph 0 to first peak_gflops, graph 1 nohead dt (4, 3) lc rgb "#000000" lw 2 front
set label 1 "FP32 peak " . peak_txt at first peak_gflops, graph 1 right offset 0, 0.6 font ",8" front
plot d using (0):1:(0):3:($1 - 0.35):($1 + 0.35):ytic(nm(strcol(2))) with boxxyerror lc rgb "#1f77b4" notitle, \
     d using 3:1:($3 < peak_gflops * 0.45 ? strcol(5) : "") with labels left offset 0.3, 0 font ",8" notitle, \
     d using 3:1:($3 >= peak_gflops * 0.45 ? strcol(5) : "") with labels right offset -0.3, 0 font ",8" tc rgb "#ffffff" notitle
eval record_frame
unset arrow 1
unset label 1
unset label 90
set lmargin at screen 0.73
set rmargin at screen 0.98
set ytics format ""
set xrange [0 : 500]
set xtics ("0" 0, "200" 200, "400" 400)
set xlabel "GB through shared memory" offset 0, 0.3
plot d using (0):1:(0):4:($1 - 0.35):($1 + 0.35) with boxxyerror lc rgb levelcolor(3) notitle
eval record_frame
unset multiplot
