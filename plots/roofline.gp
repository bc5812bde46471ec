# roofline.gp: a hierarchical roofline. Each kernel of the ladder sits at its measured GFLOP/s, once
# per memory level, at its intensity there (FLOP per byte that passed through DRAM, L2, L1 or shared
# memory, from the GPU's counters), under that level's measured roof min(bandwidth x intensity, peak).
#   gnuplot -c plots/roofline.gp WORKDIR OUTFILE png|pdf|svg   (plots/kit-plots.sh calls it)
# Lecture claim tested: a kernel is bound by the level whose roof it touches; tiling moves the DRAM
# point right (less traffic), and the level that binds moves inward (to shared memory).
# tests/plots/test_roofline.c checks on the shipped datasets that no point is above its roof by > 5%.
chart_title = "Hierarchical roofline"
chart_name = ARG0
here = ARG0[1:strstrt(ARG0, "roofline.gp") - 1]
call here . "common.gp" ARG1 ARG2 ARG3
set title sprintf("Hierarchical roofline, n = %d (traffic: %s)\n%s, measured %s", \
    traffic_n, traffic_src, device, date_day) noenhanced

set xlabel "operational intensity (FLOP per byte through that level)"
set ylabel "GFLOP/s"
set logscale xy 10
eval decade_tics("y")
set xtics ("1/32" 0.03125, "1/8" 0.125, "1/2" 0.5, "2" 2, "8" 8, "32" 32, "128" 128, "512" 512) nomirror
set xrange [0.02 : 6000]
set yrange [300 : peak_gflops * 2.2]
set samples 2000
set rmargin at screen 0.74
set key at screen 0.755, graph 1 left top Left reverse samplen 1.5 spacing 1.05 font ",20" title "roofs (measured)"

roof(bw, x) = bw * x < peak_gflops ? bw * x : peak_gflops
set label 2 sprintf("FP32 peak %s", commas(peak_gflops)) at 0.025, first peak_gflops * 1.25 left font ",20"

if (n_hroof == 0) {
    eval no_data_note("no traffic rows in the records:\\nmeasure them with ./kit bench --traffic")
    plot roof(dram_gbps, x) lc rgb levelcolor(0) title "DRAM"
    exit
}
data = need(datafile("hroofline.dat"))
labels = need(datafile("hroof_labels.dat"))
# one kernel = one row of four points at its GFLOP/s, joined by a thin line, named at its right end
plot roof(dram_gbps, x) with lines lw 1.6 lc rgb levelcolor(0) title sprintf("DRAM %s GB/s", commas(dram_gbps)), \
     roof(l2_gbps, x) with lines lw 1.6 lc rgb levelcolor(1) title sprintf("L2 %s GB/s", commas(l2_gbps)), \
     roof(l1_gbps, x) with lines lw 1.6 lc rgb levelcolor(2) title sprintf("L1 %s GB/s", commas(l1_gbps)), \
     roof(shared_gbps, x) with lines lw 1.6 lc rgb levelcolor(3) title sprintf("shared %s GB/s", commas(shared_gbps)), \
     data using 4:5 with lines lc rgb "#c0c0c0" lw 1 notitle, \
     for [l = 0:3] data using 4:($2 == l ? $5 : NaN) with points pt levelpoint(l) ps 2.6 * psf lc rgb levelcolor(l) \
         title (l == 0 ? "kernel at DRAM" : l == 1 ? "kernel at L2" : l == 2 ? "kernel at L1" : "kernel at shared"), \
     labels using (1150):2:(nameof(strcol(1))) with labels left font ",17" notitle, \
     labels using (1000):3:(100):($2 - $3) with vectors nohead lc rgb "#909090" lw 1 notitle
