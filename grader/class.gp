# grader/class.gp: the class at a glance (tl-grade's glance.c runs it after every class run):
# left, how many students scored in each 10 % bin; right, each test's pass rate (full points).
#   gnuplot -c grader/class.gp SCORES.dat TESTS.dat OUT.png LAB
# SCORES.dat: "bin_low_percent students" rows; TESTS.dat: "index pass_percent "test name"" rows.
scores = ARG1; tests = ARG2; out = ARG3; lab = ARG4
stats tests using 1 nooutput
ntests = STATS_records
set terminal pngcairo size 1400, (ntests * 26 > 440 ? ntests * 26 + 160 : 600) font "sans,11" noenhanced
set output out
set multiplot layout 1, 2 title sprintf("Lab %s: the class at a glance", lab) font "sans,14"

set title "Score distribution"
set xlabel "score (% of the maximum)"
set ylabel "students"
set xrange [-5:105]
stats scores using 2 nooutput
set yrange [0:(STATS_max < 1 ? 1 : STATS_max * 1.12)]
ystep = STATS_max <= 10 ? 1 : STATS_max <= 50 ? 5 : 10
set ytics ystep
set xtics 0, 10, 100
set grid ytics
set style fill solid 0.7 border -1
set boxwidth 9
plot scores using ($1 + 5):2 with boxes lc rgb "#3b6ea8" notitle, \
     scores using ($1 + 5):2:(sprintf("%d", $2)) with labels offset 0, 0.7 notitle

set title "Pass rate per test (full points)"
set xlabel "students passing (%)"
unset ylabel
set xrange [0:115]
set yrange [ntests - 0.5:-0.5]
set xtics 0, 20, 100
set ytics font "sans,9" autofreq
set grid xtics noytics
set lmargin 44
plot tests using ($2 / 2):1:($2 / 2):(0.38):ytic(3) with boxxyerror lc rgb "#5a9a5a" fs solid 0.7 notitle, \
     tests using ($2 + 1):1:(sprintf("%.0f%%", $2)) with labels left notitle
unset multiplot
