# tile-occupancy-sweep.gp: lab 05's measured sweep: GFLOP/s of each configuration (bars, coloured by
# the resource that limits its resident blocks) with the occupancy the lab's calculator predicts and
# the CUDA API reports (points, right axis).
#   gnuplot -c plots/tile-occupancy-sweep.gp WORKDIR OUTFILE png|pdf|svg   (plots/kit-plots.sh calls it)
# Lecture claim tested: registers and shared memory per block limit the resident blocks; lower
# occupancy costs throughput only once too few warps are left to hide memory latency.
chart_title = "Lab 05 sweep: tile width, registers, shared memory"
chart_name = ARG0
here = ARG0[1:strstrt(ARG0, "tile-occupancy-sweep.gp") - 1]
call here . "common.gp" ARG1 ARG2 ARG3
set title sprintf("Lab 05 sweep at Width %d (P = M N, all %d x %d): what limits the blocks per SM\n%s, measured %s", \
    sweep_width, sweep_width, sweep_width, device, gpu_day) noenhanced

set ylabel "GFLOP/s (bars)"
set y2label "occupancy (points)"
# gnuplot sizes the bottom margin for unrotated tic labels: fix it, and write the axis's legend as a label
set bmargin at screen 0.32
set label 95 "T8, T16, T32: the lecture's kernel at tile width T (T x T threads);  R2, R4, R8: 16 x 16 threads, each R x R outputs\nheld in registers;  then registers per thread and shared memory per block (static + unused dynamic)" \
    at screen 0.5, screen 0.065 center font ",8.5"
set y2range [0:165]
set ytics nomirror
set y2tics 0, 25, 100 format "%g%%"
# 36 configurations: one rotated line each, or the labels run into each other
set xtics nomirror font ",7.5" rotate by 90 right
set style fill solid 0.9 border lc rgb "#404040"
set boxwidth 0.7
set key inside top left vertical samplen 1.2 spacing 1.0 font ",9" width 2 maxrows 3
# shared memory exactly: 16896 B is "16.5 KiB", never "16 KiB"
kib(b) = b != b ? "? smem" : b < 1024 ? sprintf("%.0f B", b) : \
         (int(b) % 1024 == 0 ? sprintf("%.0f KiB", b / 1024.0) : sprintf("%.1f KiB", b / 1024.0))
regs(r) = r != r ? "? regs" : sprintf("%.0f regs", r)
# the lecture's kernel: "T16" (tile width 16, 16 x 16 threads); the register-tiled one: "R8" (16 x 16
# threads, each R x R outputs)
kname(t, m) = m > 1 ? sprintf("R%d", m) : sprintf("T%d", t)
config(t, r, b, m) = sprintf("%s %s %s", kname(t, m), regs(r), kib(b))
# what limits the resident blocks (sweep.dat column 9): threads, warps, blocks, registers, shared
limname(l) = l != l ? "not recorded" : l == 0 ? "threads" : l == 1 ? "warps" : l == 2 ? "blocks per SM" : \
             l == 3 ? "registers" : "shared memory"
limrgb(l) = l != l ? 0xbbbbbb : l == 0 ? 0x1f77b4 : l == 1 ? 0x9467bd : l == 2 ? 0x7f7f7f : \
            l == 3 ? 0xff7f0e : 0x2ca02c

if (n_sweep == 0) {
    eval no_data_note("no sweep rows in the records:\nrun lab 05's sweep (./kit bench does)")
    set xrange [0:1]
    set yrange [0:1]
    unset xtics
    unset ytics
    unset y2tics
    plot NaN notitle
} else {
    # a key entry only for the limits that occur
    array nlim[5]
    do for [l=0:4] {
        # a NaN column drops the whole row: test the text first (common.gp's missing())
        stats need(datafile("sweep.dat")) using (missing(9) ? 0 : $9 == l ? 1 : 0) nooutput
        nlim[l + 1] = STATS_sum
    }
    stats need(datafile("sweep.dat")) using 8 nooutput
    set yrange [0 : STATS_max * 1.45]
    set format y "%.0s%c"
    set xrange [-0.6 : n_sweep - 0.4]
    if ((sum [l=1:5] nlim[l]) < n_sweep) {
        set label 96 "grey: no limit recorded (older records, or the calculator disagreed with the CUDA API)" \
            at graph 0.99, graph 0.80 right front font ",8"
    }
    plot datafile("sweep.dat") using 1:8:(missing(9) ? limrgb(NaN) : limrgb($9)):xticlabels(config($3, $4, $5, $10)) with boxes \
             lc rgb variable notitle, \
         for [l=0:4] NaN with boxes lc rgb limrgb(l) title (nlim[l + 1] > 0 ? "limit: " . limname(l) : ""), \
         "" using 1:($6 * 100) axes x1y2 with points pt 7 ps 2.6 * psf lc rgb "#d62728" title "occupancy: lab 05 calculator", \
         "" using 1:($7 * 100) axes x1y2 with points pt 6 ps 3.6 * psf lw 2 lc rgb "#000000" title "occupancy: CUDA API"
    eval record_frame
}
