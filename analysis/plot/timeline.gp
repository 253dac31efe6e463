# Reclaim timeline of one run from a trace-timeline CSV.
# Variables (gnuplot -e): data, out, fmt (png|svg), title_text,
# interval (seconds per CSV row), scan_cols, state_cols, io_cols (the
# columns of each panel that the trace has), absent_note (those it lacks),
# policy_cols (the policy's own state gauges; a fourth panel if any),
# lost_note (how many events the ring buffer lost; "" when none): the
# intervals with lost_gaps > 0 are then shaded, keyed "events lost";
# switch_note (the run-time policy switches; "" when none): a line marks
# each interval with a switch, another colour one with a fallback.
if (!exists("fmt")) fmt = "png"
if (!exists("title_text")) title_text = data
if (!exists("absent_note")) absent_note = ""
if (!exists("policy_cols")) policy_cols = ""
if (!exists("lost_note")) lost_note = ""
if (!exists("switch_note")) switch_note = ""
panels = (policy_cols eq "") ? 3 : 4
if (fmt eq "svg") {
    set terminal svg size 1100,300*panels dynamic font "sans,11" background "white"
} else {
    set terminal pngcairo size 1100,300*panels font "sans,10"
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
stats data using 1 nooutput
set xrange [0:STATS_max + interval]
rate(c) = column(c) / interval
mid = interval / 2.0
invisible = "lc rgb '#FF000000' notitle"
# Intervals in which the ring buffer lost events: a full-height band on
# the second y axis, so a gap in the lines is never read as behaviour.
set y2range [0:1]
unset y2tics
lost_band(c) = (column("lost_gaps") > 0) ? 1 : NaN
lost_style = "axes x1y2 with boxes fs solid 0.22 noborder lc rgb '#d62728' title 'events lost'"
shade = (lost_note ne "") ? sprintf("data using ($1 + mid):(lost_band(0)):(interval) %s, ", lost_style) : ""
# Intervals with a run-time policy switch (a fallback is one too): a
# full-height line at the interval's start, on the same second axis.
mark(c) = (column(c) > 0) ? 1 : NaN
switch_style = "axes x1y2 with impulses lw 2 dt 2 lc rgb '#333333' title 'policy switch'"
fallback_style = "axes x1y2 with impulses lw 3 lc rgb '#ff7f0e' title 'fallback to lru'"
if (switch_note ne "") {
    shade = shade . sprintf("data using 1:(mark(\"switches\")) %s, ", switch_style)
}
if (strstrt(switch_note, "(0 fallbacks") == 0 && switch_note ne "") {
    shade = shade . sprintf("data using 1:(mark(\"fallbacks\")) %s, ", fallback_style)
}

set multiplot layout panels,1 title sprintf("%s%s%s%s", title_text, \
    absent_note eq "" ? "" : "\nnot in trace (no line): " . absent_note, \
    lost_note eq "" ? "" : "\n" . lost_note, \
    switch_note eq "" ? "" : "\n" . switch_note) noenhanced
set ylabel "pages/s"
set title "Reclaim scanning: pages scanned and reclaimed"
plot @shade for [c in scan_cols] \
    data using ($1 + mid):(rate(c)) title c lw 2, 0 @invisible
set title "Page state changes: activations, deactivations, non-resident history"
plot @shade for [c in state_cols] \
    data using ($1 + mid):(rate(c)) title c lw 2, 0 @invisible
set title "Paging I/O: swap-in, swap-out (anon pageout), file writeback by reclaim"
if (panels == 3) set xlabel "time since first event (s)"
plot @shade for [c in io_cols] \
    data using ($1 + mid):(rate(c)) title c lw 2, 0 @invisible
if (panels == 4) {
    set title "Policy state at the end of each interval (its own trace event)"
    set ylabel "pages"
    set xlabel "time since first event (s)"
    plot @shade for [c in policy_cols] \
        data using ($1 + interval):(column(c)) title c[14:*] lw 2 with steps, 0 @invisible
}
unset multiplot
