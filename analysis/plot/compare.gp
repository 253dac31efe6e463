# Policies x workloads, normalised to the baseline, from labstat --csv-long.
# Variables (gnuplot -e): data, metric, policies (space-separated, in
# policy_idx order), xtics_cmd (a "set xtics (...)" command), baseline,
# ymax (top of the y axis), out, fmt (png|svg), title_text.
if (!exists("fmt")) fmt = "png"
if (!exists("title_text")) title_text = metric . " relative to " . baseline
if (fmt eq "svg") {
    set terminal svg size 1100,600 dynamic font "sans,11" background "white"
} else {
    set terminal pngcairo size 1100,600 font "sans,10"
}
set output out
set datafile separator comma
set datafile missing "NA"
set key outside right top vertical Left reverse noenhanced
set grid ytics
np = words(policies)
width = 0.8 / np
offset(p) = (p - (np - 1) / 2.0) * width
is_row(p) = strcol(1) eq metric && column(5) == p
set boxwidth width absolute
set style fill solid 0.6 border -1
@xtics_cmd
set xtics noenhanced
set offsets 0.15, 0.15, 0, 0
set yrange [0:ymax]
set ylabel sprintf("%s / %s mean", metric, baseline) noenhanced
set xlabel "workload (gmean: geometric mean of the ratios)"
set title sprintf("%s\nbars: mean ratio to %s; *: p<0.05 (Welch); error bars: the policy's 95%% CI / %s mean", \
    title_text, baseline, baseline) noenhanced
set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb "black"
plot for [p=0:np-1] data skip 1 using (is_row(p) ? column(3) + offset(p) : NaN):10 \
        with boxes lc p + 1 title word(policies, p + 1), \
     for [p=0:np-1] data skip 1 using (is_row(p) ? column(3) + offset(p) : NaN):10:11:12 \
        with yerrorbars lc rgb "black" pt 0 notitle, \
     for [p=0:np-1] data skip 1 using (is_row(p) && column(16) == 1 ? column(3) + offset(p) : NaN):\
        ((valid(12) ? column(12) : column(10)) * 1.02):("*") with labels font ",14" notitle
