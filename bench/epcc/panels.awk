# panels.awk: the gnuplot header both plots share (plot.awk for
# summary.png, predicted_plot.awk for predicted.png): a grid of panels
# against threads on a log2 x axis, thread counts above `cores` shaded as
# oversubscribed.  Load it before the plot script.

# Prints the header of a multiplot of npanels panels; xt[1..nx] are the
# thread counts on the x axis.
function panels_header(npanels, xt, nx, png, title, cores, ylabel,
                       cols, rows, i, xmin, xmax, xtics) {
    cols = npanels <= 3 ? npanels : (npanels <= 9 ? 3 : 4)
    rows = int((npanels + cols - 1) / cols)
    xmin = xt[1]; xmax = xt[1]; xtics = ""
    for (i = 1; i <= nx; i++) {
        if (xt[i] < xmin) xmin = xt[i]
        if (xt[i] > xmax) xmax = xt[i]
        xtics = xtics (i > 1 ? ", " : "") xt[i]
    }
    printf "set terminal pngcairo size %d,%d noenhanced font \",9\"\n", 420 * cols, 300 * rows + 40
    print  "set encoding utf8"
    printf "set output '%s'\n", png
    printf "set multiplot layout %d,%d title \"%s\"\n", rows, cols, title
    print  "set logscale x 2"
    printf "set xrange [%g:%g]\n", xmin / 1.25, xmax * 1.25
    printf "set xtics (%s)\n", xtics
    print  "set xlabel 'threads' offset 0,0.5"
    printf "set ylabel '%s' offset 1,0\n", ylabel
    print  "set key top left font \",8\""
    print  "set grid"
    if (cores > 0 && xmax > cores) {
        printf "set object 1 rect from first %g, graph 0 to graph 1, graph 1 fc rgb '#eeeeee' fs solid noborder behind\n", cores * 1.414
        printf "set label 2 'oversubscribed' at first %g, graph 0.05 font ',7' tc rgb '#777777'\n", cores * 1.5
    }
}
