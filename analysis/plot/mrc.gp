# Miss-ratio curves of one reference string: misses beyond the first touch
# of each page against the cache size in percent of the distinct pages,
# one line per pagesim model, OPT as the floor (thick black).
# Variables (gnuplot -e): data (csv from mrc.sh: policy,percent,
# cache_pages,refs,distinct,misses,beyond), models (space-separated names,
# OPT first), out, fmt (png|svg), title_text.
if (!exists("fmt")) fmt = "png"
if (!exists("title_text")) title_text = "misses beyond first touch vs cache size"
if (fmt eq "svg") {
    set terminal svg size 1100,700 dynamic font "sans,11" background "white"
} else {
    set terminal pngcairo size 1100,700 font "sans,10"
}
set output out
set datafile separator comma
set key outside right top vertical Left reverse noenhanced
set grid
set title title_text noenhanced
set xlabel "cache size (% of distinct pages)"
set ylabel "misses beyond the first touch (pages)"
set xrange [0:105]
set yrange [0:*]
set style data linespoints
# OPT thick black; then nine colours, solid and then dashed: eighteen
# lines tell apart.
colours = "#e51e10 #0072b2 #009e73 #e69f00 #9400d3 #56b4e9 #a0522d #ff69b4 #808000"
nm = words(models)
set linetype 1 lc rgb "#000000" lw 3.5 pt 7 ps 0.6 dt 1
do for [i=2:nm] {
    dash = ((i - 2) / 9) % 2 + 1
    colour = word(colours, 1 + (i - 2) % 9)
    set linetype i lc rgb colour lw 1.6 pt 7 ps 0.45 dashtype dash
}
pick(name, col) = (strcol(1) eq name) ? column(col) : NaN
plot for [i=1:nm] data skip 1 using 2:(pick(word(models, i), 7)) title word(models, i) lt i
