# bench/chart.gp: draws one PNG chart from a data file that bench/chart.sh
# describes. Called as
#   gnuplot -e "dat='F.dat'; png='F.png'; kind='sizes'; ttl='...'; ylab='...';
#               cols='4 5'; logy=0" bench/chart.gp
# kind sizes:  column 1 is a message size in bytes (log-2 axis), each column
#              of cols a series, titled by its header (the first line of dat)
# kind bars:   column 1 is a label, each column of cols a bar per label
# kind ranges: column 1 is a label, cols names the low and high columns of
#              one bar per label (a range of ratios)
# Ratio charts get a line at 1.0 (rdmpi the same as the other library).
# "-" in a cell is a value that was not measured.

set terminal pngcairo size 900,520 font "DejaVu Sans,11" noenhanced
set output png
set title ttl noenhanced
set ylabel ylab noenhanced
set datafile missing "-"
set key below horizontal noenhanced
set key autotitle columnhead
set grid ytics
set border 3
set tics nomirror
if (logy) { set logscale y }
one(x) = 1.0

if (kind eq "sizes") {
    set xlabel "message size (bytes)"
    set logscale x 2
    set xtics ("1" 1, "8" 8, "64" 64, "512" 512, "4K" 4096, "32K" 32768, \
               "256K" 262144, "2M" 2097152, "16M" 16777216)
    set autoscale xfix
    if (logy) {
        set autoscale yfix
        set ytics ("0.1" 0.1, "0.2" 0.2, "0.5" 0.5, "1" 1, "2" 2, "5" 5, "10" 10, "20" 20, "50" 50, "100" 100)
        set offsets graph 0.02, graph 0.02, graph 0.08, graph 0.08
    } else {
        set offsets graph 0.02, graph 0.02, graph 0.08, 0
        set yrange [0:*]
    }
    plot for [c in cols] dat using 1:(column(c+0)) with linespoints lw 2 pt 7 ps 1 \
             title columnhead(c+0), \
         one(x) with lines dt 2 lc rgb "black" title "1.0"
}
if (kind eq "bars") {
    set style data histograms
    set style histogram clustered gap 1
    set style fill solid 0.8 border -1
    set boxwidth 0.9
    set xtics nomirror rotate by 20 right
    set yrange [0:*]
    plot for [c in cols] dat using (column(c+0)):xtic(1) title columnhead(c+0), \
         one(x) with lines dt 2 lc rgb "black" title "1.0"
}
if (kind eq "ranges") {
    lo = word(cols, 1) + 0
    hi = word(cols, 2) + 0
    set style fill solid 0.5 border -1
    set boxwidth 0.5
    stats dat using (column(lo)) nooutput
    set xrange [-0.7:STATS_records - 0.3]
    set offsets 0, 0, graph 0.1, 0
    set xtics nomirror rotate by 20 right
    set yrange [0:*]
    plot dat using 0:(column(lo)):(column(lo)):(column(hi)):(column(hi)):xtic(1) \
             with candlesticks lc rgb "#3070b0" title "lowest to highest ratio over the sizes", \
         one(x) with lines dt 2 lc rgb "black" title "1.0"
}
