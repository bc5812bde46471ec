# cpu-baseline.gp: lab 01 on the host CPU: the lecture's i-j-k loop, the i-k-j order and the blocked
# versions (block 32 and 64), GFLOP/s against size. The CPU is named from the records' 'cpu' key.
#   gnuplot -c plots/cpu-baseline.gp WORKDIR OUTFILE png|pdf|svg   (plots/kit-plots.sh calls it)
# Lecture claim tested: the loop order that walks memory in order is faster; blocking keeps a working
# set in the cache (tiling before the GPU).
chart_title = "CPU baseline (lab 01)"
chart_name = ARG0
here = ARG0[1:strstrt(ARG0, "cpu-baseline.gp") - 1]
call here . "common.gp" ARG1 ARG2 ARG3
set title sprintf("CPU baseline (lab 01), one thread: %s, host of the %s, measured %s\nbuild: %s", cpu_name, device, cpu_day, cpu_build) noenhanced font ",8.5"

if (strlen(cpu_present) == 0) {
    eval no_data_note("no CPU rows in the records (./kit bench runs lab 01)")
    set xrange [0:1]
    set yrange [0:1]
    unset xtics
    unset ytics
    plot NaN notitle
    exit
}
set xlabel "matrix size n  (n x n times n x n)" offset 0, 0.3
set ylabel "GFLOP/s  (2 n^3 / median time)" offset 1, 0
set logscale x 2
set xtics ("64" 64, "128" 128, "256" 256, "512" 512, "1024" 1024, "2048" 2048) nomirror
set xrange [cpu_size_min / 1.2 : cpu_size_max * 1.2]
set yrange [0 : *]
set lmargin at screen 0.08
set rmargin at screen 0.70
set key at screen 0.71, graph 1 left top reverse Left samplen 2 spacing 1.1 font ",8.5"
if (cpu_size_max >= 1024) {
    set label 95 "Past the caches (1024 and up:\n4 MiB a matrix) blocking keeps\na 64 x 64 block of N in L1 and\nbeats i-k-j; at 256 all fits\nand i-k-j wins." \
        at screen 0.71, graph 0.35 left font ",7.5" front noenhanced
} else {
    set label 95 sprintf("Sizes stop at %d: every matrix\nfits in the caches, so blocking\nonly adds overhead. Measure\npast the caches (2048) from a\nvectorising build to see it win\n(tests/gpu/deck-on-device.sh).", cpu_size_max) \
        at screen 0.71, graph 0.35 left font ",7.5" front noenhanced
}
plot for [s in cpu_present] need(datafile("gemm_" . s . ".dat")) using 1:5 with linespoints \
         lc rgb color(s) dt dashof(s) pt pointof(s) ps 2.2 * psf lw 2.4 title nameof(s)
eval record_frame
