# roofline.gp: a hierarchical roofline. Each kernel of the ladder sits at its measured GFLOP/s, once
# per memory level, at its intensity there (FLOP per byte that passed through DRAM, L2, L1 or shared
# memory, from the GPU's counters), under that level's roof min(bandwidth x intensity, peak): the
# measured roof solid, the hardware's own dashed (from the records' metadata: SMs x 128 B x clock for
# L1 and shared, 2 x memory clock x bus for DRAM; no published L2 figure), and the tensor cores'
# measured peaks (TF32, BF16: lab 08's compute-only kernels, lab08-bench --peaks, with the GPU and the
# day; the datasheet's figure beside them) above the FP32 one: what labs 07-08 reach for.
#   gnuplot -c plots/roofline.gp WORKDIR OUTFILE png|pdf|svg   (plots/kit-plots.sh calls it)
# Names: kernels in a key right of the plot (it covers nothing), each kernel one colour; a level is a
# point shape. tl-plotprep --check-roofs --slack 0 passes only when a point above its measured roof
# is under the hardware roof; the chart's note names every such point (roof_note).
chart_title = "Hierarchical roofline"
chart_name = ARG0
here = ARG0[1:strstrt(ARG0, "roofline.gp") - 1]
call here . "common.gp" ARG1 ARG2 ARG3
set title sprintf("Hierarchical roofline at n = %d: each kernel once per memory level (traffic: %s)\n%s, measured %s", \
    traffic_n, traffic_src, device, gpu_day) noenhanced font ",9.5"

set xlabel "operational intensity at that level (FLOP per byte)" offset 0, 0.3
set ylabel "GFLOP/s" offset 1.5, 0
set logscale xy 10
set ytics ("1k" 1000, "10k" 10000, "100k" 100000, "1M" 1000000) nomirror
set xtics ("1/32" 0.03125, "1/8" 0.125, "1/2" 0.5, "2" 2, "8" 8, "32" 32, "128" 128, "512" 512) nomirror
set mxtics default
set xrange [0.02 : 2000]
top = tc_bf16 == tc_bf16 ? tc_bf16 * 1.6 : peak_gflops * 2.2
set yrange [500 : top]
set samples 800
set lmargin at screen 0.075
set rmargin at screen 0.655
set tmargin at screen 0.86
set bmargin at screen 0.13
set key at screen 0.665, screen 0.87 left top Left reverse samplen 1.6 spacing 0.95 font ",7.5" width -3

cap(p, bw, x) = bw * x < p ? bw * x : p
roof(bw, x) = cap(peak_gflops, bw, x)
hwroof(bw, x) = bw == bw ? cap(hw_peak == hw_peak ? hw_peak : peak_gflops, bw, x) : NaN
set label 2 "FP32 " . peak_txt . " measured, " . hw_peak_txt . " hardware" at 0.022, first peak_gflops * 1.18 left font ",7.5" front
tc_sheet(t) = t eq "n/a" ? "" : ", datasheet " . t
if (tc_tf32 == tc_tf32) {
    set label 3 "TF32 tensor cores " . tc_tf32_txt . " measured (" . tc_tf32_by . ", " . tc_day . tc_sheet(tc_tf32_sheet_txt) . "; lab 08)" \
        at 0.022, first tc_tf32 * 1.18 left font ",7.5" front
}
if (tc_bf16 == tc_bf16) {
    set label 4 "BF16 tensor cores " . tc_bf16_txt . " measured (" . tc_bf16_by . ", " . tc_day . tc_sheet(tc_bf16_sheet_txt) . "; lab 08)" \
        at 0.022, first tc_bf16 * 1.18 left font ",7.5" front
}
if (strlen(roof_note) > 0) {
    set label 5 "Above a measured roof: " . roof_note . "." at screen 0.075, screen 0.035 left font ",7.5" front noenhanced
}

if (n_hroof == 0) {
    eval no_data_note("no traffic rows in the records:\\nmeasure them with ./kit bench --traffic")
    plot roof(dram_gbps, x) lc rgb levelcolor(0) title "DRAM"
    eval record_frame
    exit
}
data = need(datafile("hroofline.dat"))
lvname(l) = l == 0 ? "DRAM" : l == 1 ? "L2" : l == 2 ? "L1" : "shared"
lvtxt(l) = l == 0 ? dram_txt . " / " . hw_dram_txt : l == 1 ? l2_txt . " / none" : l == 2 ? l1_txt . " / " . hw_l1_txt : shared_txt . " / " . hw_shared_txt
lvbw(l) = l == 0 ? dram_gbps : l == 1 ? l2_gbps : l == 2 ? l1_gbps : shared_gbps
lvhw(l) = l == 0 ? hw_dram_gbps : l == 1 ? hw_l2_gbps : l == 2 ? hw_l1_gbps : hw_shared_gbps
load need(datafile("hroof_names.gp"))
if (exists("hroof_unplaced") && strlen(hroof_unplaced) > 0) {   # timed, but their runs counted no bytes
    unplaced_txt = hroof_unplaced . ": in the ladder; their runs counted no traffic, so no point here"
    if (tc_tf32 == tc_tf32) {   # between the FP32 and the tensor-core roofs: empty on a Hopper chart
        set label 6 unplaced_txt at 0.022, first 200000 left font ",7.5" front noenhanced
    } else {
        set label 6 unplaced_txt at graph 0.01, graph 0.97 left font ",7.5" front noenhanced
    }
}
nk = words(hroof_kernels)
kn(b) = word(hroof_kernels, b + 1)
plot for [l = 0:3] roof(lvbw(l), x) with lines lw 2.2 lc rgb levelcolor(l) title sprintf("%s GB/s", lvname(l)) . ": " . lvtxt(l), \
     for [l = 0:3] hwroof(lvhw(l), x) with lines lw 1.6 dt (6, 4) lc rgb levelcolor(l) notitle, \
     NaN with lines lw 2.2 lc rgb "#000000" title "solid: measured roof", \
     NaN with lines lw 1.6 dt (6, 4) lc rgb "#000000" title "dashed: hardware roof", \
     peak_gflops with lines lw 2.2 lc rgb "#000000" notitle, \
     hw_peak with lines lw 1.6 dt (6, 4) lc rgb "#000000" notitle, \
     tc_tf32 with lines lw 1.6 dt (2, 3) lc rgb "#7f7f7f" notitle, \
     tc_bf16 with lines lw 1.6 dt (2, 3) lc rgb "#7f7f7f" notitle, \
     for [l = 0:3] NaN with points pt levelpoint(l) ps 2.4 * psf lc rgb "#404040" title "kernel at " . lvname(l), \
     for [b = 0:nk - 1] data index b using 4:5:(rgbint(strcol(1))) with lines lw 1.4 lc rgb variable notitle, \
     for [b = 0:nk - 1] data index b using 4:5:(levelpoint($2)):(rgbint(strcol(1))) with points pt variable ps 2.4 * psf lc rgb variable notitle, \
     for [b = 0:nk - 1] NaN with lines lw 4 lc rgb color(kn(b)) title nameof(kn(b))
eval record_frame
