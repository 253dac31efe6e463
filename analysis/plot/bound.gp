# Miss-ratio curve of one experiment: misses beyond the first touch of
# each page against the cache size, one line per pagesim model, and the
# kernel runs as points at the memory they had (lab.sh bound --plot,
# through plot.sh bound).
# Variables (gnuplot -e): models (csv: policy,cache_pages,refs,distinct,
# misses,miss_ratio, from pagesim, sorted by policy and size), kernel (csv:
# policy,cache_pages,pswpin,refaults), model_list, kernel_list
# (space-separated names), out, fmt (png|svg), title_text.
if (!exists("fmt")) fmt = "png"
if (!exists("title_text")) title_text = "misses vs cache size"
if (fmt eq "svg") {
    set terminal svg size 1000,650 dynamic font "sans,11" background "white"
} else {
    set terminal pngcairo size 1000,650 font "sans,10"
}
set output out
set datafile separator comma
set datafile missing "NA"
set key outside right top vertical Left reverse noenhanced
set grid
set title title_text noenhanced
set xlabel "cache size (4 KiB pages)"
set ylabel "misses beyond the first touch (pages)"
set yrange [0:*]
set style data linespoints
# Ten models, ten colours (gnuplot's default cycle has eight).
colours = "#9400d3 #009e73 #56b4e9 #e69f00 #f0e442 #0072b2 #e51e10 #000000 #a0522d #ff69b4"
do for [i=1:10] { set linetype i lc rgb word(colours, i) }
set linetype cycle 10
nm = words(model_list)
nk = words(kernel_list)
# Rows of one name only; the others become NaN and are not drawn.
pick(name, col) = (strcol(1) eq name) ? column(col) : NaN
plot for [i=1:nm] models skip 1 using 2:(pick(word(model_list, i), 5) - column(4)) \
        title word(model_list, i) lw 2 pt 7 ps 0.5 lt i, \
     for [i=1:nk] kernel skip 1 using 2:(pick(word(kernel_list, i), 3)) with points \
        title sprintf("kernel %s: pswpin", word(kernel_list, i)) pt 5 ps 1.6, \
     for [i=1:nk] kernel skip 1 using 2:(pick(word(kernel_list, i), 4)) with points \
        title sprintf("kernel %s: refaults", word(kernel_list, i)) pt 9 ps 1.6
