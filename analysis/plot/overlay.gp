# One workload, several runs (policies) overlaid, from trace-timeline CSVs.
# Variables (gnuplot -e): files, intervals (space-separated, one per run),
# keys_scanned, keys_reclaimed, keys_refaulted, keys_swapout (one quoted
# legend entry per run and panel, saying when the run did not trace it),
# out, fmt (png|svg), title_text, lost_runs (the 1-based indices of the
# runs whose ring buffer lost events; their intervals with lost_gaps > 0
# are shaded in the run's colour, keyed "LABEL: events lost"), lost_keys
# (one quoted legend entry per index).
if (!exists("fmt")) fmt = "png"
if (!exists("title_text")) title_text = "reclaim activity by policy"
if (!exists("lost_runs")) lost_runs = ""
if (!exists("lost_keys")) lost_keys = ""
if (fmt eq "svg") {
    set terminal svg size 1100,1000 dynamic font "sans,11" background "white"
} else {
    set terminal pngcairo size 1100,1000 font "sans,10"
}
set output out
set datafile separator comma
set datafile missing "NA"
set key outside right top vertical Left reverse noenhanced
set grid
# Same plot area in every panel so their time axes line up.
set lmargin at screen 0.08
set rmargin at screen 0.80
set style data lines
n = words(files)
iv(i) = real(word(intervals, i))
sum2(a, b) = column(a) + column(b)
invisible = "lc rgb '#FF000000' notitle"
set y2range [0:1]
unset y2tics
nl = words(lost_runs)
lost_band(c) = (column("lost_gaps") > 0) ? 1 : NaN
li(k) = int(word(lost_runs, k))
shade = (nl > 0) ? "for [k=1:nl] word(files, li(k)) using ($1 + iv(li(k))/2):(lost_band(0)):(iv(li(k))) axes x1y2 with boxes fs transparent solid 0.18 noborder lt li(k) title word(lost_keys, k), " : ""

set multiplot layout 4,1 title title_text noenhanced
set ylabel "pages/s"
set title "Pages scanned (anon + file)"
plot @shade for [i=1:n] word(files, i) using ($1 + iv(i)/2):(sum2("scanned_anon", "scanned_file") / iv(i)) \
    title word(keys_scanned, i) lt i lw 2, 0 @invisible
set title "Pages reclaimed (anon + file)"
plot @shade for [i=1:n] word(files, i) using ($1 + iv(i)/2):(sum2("reclaimed_anon", "reclaimed_file") / iv(i)) \
    title word(keys_reclaimed, i) lt i lw 2, 0 @invisible
set title "Refaults of remembered pages (anon + file)"
plot @shade for [i=1:n] word(files, i) using ($1 + iv(i)/2):(sum2("refaulted_anon", "refaulted_file") / iv(i)) \
    title word(keys_refaulted, i) lt i lw 2, 0 @invisible
set title "Swap-out (anon pageout)"
set xlabel "time since first event (s)"
plot @shade for [i=1:n] word(files, i) using ($1 + iv(i)/2):(column("swapout") / iv(i)) \
    title word(keys_swapout, i) lt i lw 2, 0 @invisible
unset multiplot
