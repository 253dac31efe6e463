# Where reclaim's CPU goes, per policy: a stacked bar per policy of the
# microseconds of guest CPU per reclaimed page in each part (perf-reclaim's
# reclaim_us_per_page: lock, rmap, policy, shadow, swapout, other; the
# means over the runs of labstat --csv-long), the total's 95% CI as an
# error bar.
# Variables (gnuplot -e): data (CSV: policy, the six parts, total,
# total_ci95; one row per policy), out, fmt (png|svg), title_text.
if (!exists("fmt")) fmt = "png"
if (!exists("title_text")) title_text = "reclaim CPU per reclaimed page"
if (fmt eq "svg") {
    set terminal svg size 900,550 dynamic font "sans,11" background "white"
} else {
    set terminal pngcairo size 900,550 font "sans,10"
}
set output out
set datafile separator comma
set datafile missing "NA"
set key outside right top vertical Left reverse noenhanced title "part"
set grid ytics
set style data histograms
set style histogram rowstacked
set style fill solid 0.7 border -1
set boxwidth 0.6
set xtics noenhanced
set yrange [0:*]
set ylabel "guest CPU per reclaimed page (µs)"
set xlabel "policy"
set title sprintf("%s\nbars: mean of each part over the runs; error bar: 95%% CI of the total", \
    title_text) noenhanced
plot for [c=2:7] data using c:xtic(1) title columnhead(c), \
     data using 0:8:9 with yerrorbars lc rgb "black" pt 7 ps 0.5 title "total"
