# The kernel's miss-ratio curve of one policy on one workload (lab.sh
# sweep, through plot.sh sweep): pages read back per reference against
# the workload's size as a share of the memory the runs had; the kernel's
# mean with its runs' range, the policy's model and OPT on the same runs'
# reference strings, beyond the first touch of each page.
# Variables (gnuplot -e): data (lab.sh sweep's sweep.csv rows of one
# workload and policy), has_model (1 when the policy has a model), out,
# fmt (png|svg), title_text.
if (!exists("fmt")) fmt = "png"
if (!exists("title_text")) title_text = "pages read back against workload size"
if (fmt eq "svg") {
    set terminal svg size 900,600 dynamic font "sans,11" background "white"
} else {
    set terminal pngcairo size 900,600 font "sans,10"
}
set output out
set datafile separator comma
set datafile missing "NA"
set key top left Left reverse noenhanced
set grid
set title title_text noenhanced
set xlabel "workload size / memory the run had (%)"
set ylabel "pages read back per reference"
set yrange [0:*]
set offsets graph 0.03, graph 0.03, 0, 0
# Columns: 6 distinct, 7 refs, 8 size_pct, 10 kernel, 11 kernel_min,
# 12 kernel_max, 14 model_beyond, 15 opt_beyond.
opt_line = "with linespoints lw 3 lc rgb '#000000' pt 7 title 'OPT'"
model_line = "with linespoints lw 2 dt 2 lc rgb '#0072b2' pt 6 title 'model'"
kernel_line = "with yerrorlines lw 2 lc rgb '#e51e10' pt 5 title 'kernel (mean, runs'' range)'"
if (has_model) {
    plot data skip 1 using 8:($15 / $7) @opt_line, \
         data skip 1 using 8:($14 / $7) @model_line, \
         data skip 1 using 8:($10 / $7):($11 / $7):($12 / $7) @kernel_line
} else {
    plot data skip 1 using 8:($15 / $7) @opt_line, \
         data skip 1 using 8:($10 / $7):($11 / $7):($12 / $7) @kernel_line
}
