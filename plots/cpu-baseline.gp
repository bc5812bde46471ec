# cpu-baseline.gp: lab 01 on the host CPU: the lecture's i-j-k loop, the i-k-j order and the blocked
# versions (block 32 and 64), GFLOP/s against size. The CPU is named from the records' 'cpu' key.
#   gnuplot -c plots/cpu-baseline.gp WORKDIR OUTFILE png|pdf|svg   (plots/kit-plots.sh calls it)
# Lecture claim tested: the loop order that walks memory in order is faster; blocking keeps a working
# set in the cache (tiling before the GPU).
chart_title = "CPU baseline (lab 01)"
chart_name = ARG0
here = ARG0[1:strstrt(ARG0, "cpu-baseline.gp") - 1]
call here . "common.gp" ARG1 ARG2 ARG3
set title sprintf("CPU baseline (lab 01), one thread of %s\nmeasured %s on the host of the %s", meta_cpu, date_day, device) noenhanced

if (strlen(cpu_present) == 0) {
    eval no_data_note("no CPU rows in the records (./kit bench runs lab 01)")
    set xrange [0:1]
    set yrange [0:1]
    unset xtics
    unset ytics
    plot NaN notitle
    exit
}
set xlabel "matrix size n  (n x n times n x n)"
set ylabel "GFLOP/s  (2 n^3 / median time)"
set logscale x 2
set xrange [cpu_size_min / 1.3 : cpu_size_max * 1.3]
set yrange [0 : *]
set key outside right top reverse Left samplen 2 spacing 1.2 font ",9"
plot for [s in cpu_present] need(datafile("gemm_" . s . ".dat")) using 1:5 with linespoints \
         lc rgb color(s) dt dashof(s) pt pointof(s) ps 2.2 * psf lw 1.5 title nameof(s)
