# tile-occupancy-sweep.gp: lab 05's measured sweep: GFLOP/s of each configuration (bars) with the
# occupancy the lab's calculator predicts and the CUDA API reports (points, right axis).
#   gnuplot -c plots/tile-occupancy-sweep.gp WORKDIR OUTFILE png|pdf|svg   (plots/kit-plots.sh calls it)
# Lecture claim tested: registers and shared memory per block limit the resident blocks; lower
# occupancy costs throughput only once too few warps are left to hide memory latency.
chart_title = "Lab 05 sweep: tile width, registers, shared memory"
chart_name = ARG0
here = ARG0[1:strstrt(ARG0, "tile-occupancy-sweep.gp") - 1]
call here . "common.gp" ARG1 ARG2 ARG3
set title sprintf("Lab 05 sweep at Width %d: tile width, registers, shared memory per block\n%s, measured %s", \
    sweep_width, device, date_day) noenhanced

set ylabel "GFLOP/s (bars)"
set y2label "occupancy (points)"
set xlabel "tile width T, registers per thread, shared memory per block"
set bmargin 9
set y2range [0:165]
set ytics nomirror
set y2tics 0, 25, 100 format "%g%%"
# 24 configurations: one rotated line each, or the labels run into each other
set xtics nomirror font ",20" rotate by 60 right
set style fill solid 0.85 border lc rgb "#404040"
set boxwidth 0.6
set key inside top right vertical samplen 1.5 spacing 1.0 font ",20" width 1
# shared memory exactly: 16896 B is "16.5 KiB", never "16 KiB"
kib(b) = b != b ? "? smem" : b < 1024 ? sprintf("%.0f B", b) : \
         (int(b) % 1024 == 0 ? sprintf("%.0f KiB", b / 1024.0) : sprintf("%.1f KiB", b / 1024.0))
regs(r) = r != r ? "? regs" : sprintf("%.0f regs", r)
config(t, r, b) = sprintf("T%d %s %s", t, regs(r), kib(b))

if (n_sweep == 0) {
    eval no_data_note("no sweep rows in the records:\nrun lab 05's sweep (./kit bench does)")
    set xrange [0:1]
    set yrange [0:1]
    unset xtics
    unset ytics
    unset y2tics
    plot NaN notitle
} else {
    set label 94 "registers: 32 as compiled, 24 capped; both <= 65,536 / 2,048 = 32 a thread,\nso registers never limit occupancy here: shared memory and threads do" \
        at graph 0.01, graph 0.95 left front font ",18"
    stats need(datafile("sweep.dat")) using 8 nooutput
    set yrange [0 : STATS_max * 1.65]
    set format y "%.0s%c"
    set xrange [-0.6 : n_sweep - 0.4]
    plot datafile("sweep.dat") using 1:8:xticlabels(config($3, $4, $5)) with boxes lc rgb color("tiled16") \
             title "GFLOP/s", \
         "" using 1:($6 * 100) axes x1y2 with points pt 7 ps 3.2 * psf lc rgb "#d62728" title "occ_calc (lab 05)", \
         "" using 1:($7 * 100) axes x1y2 with points pt 6 ps 4.2 * psf lw 2 lc rgb "#000000" title "occ_api (CUDA)"
}
