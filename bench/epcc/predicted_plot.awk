# predicted_plot.awk: predicted.sh's CSV -> gnuplot program drawing one
# panel per (measurement, bytes): the measured per-round ext/stock against
# threads (a point, with the rounds' middle half as an error bar) over the
# band the cost model predicts (shaded), and the line ext = stock.
# Oversubscribed team sizes (above `cores`, shaded) carry a measurement and
# no band.
#
# usage: awk -v png=predicted.png -v title="..." -v cores=N -f size_label.awk \
#            -f predicted_plot.awk PREDICTED_CSV > plot.gp

BEGIN { FS = "," }
FNR == 1 { next }
{
    panel = $1 SUBSEP $2
    if (!(panel in pidx)) {
        pidx[panel] = ++npanels
        pname[npanels] = $1
        pbytes[npanels] = $2
    }
    p = pidx[panel]
    lo = ($13 == "oversubscribed") ? "NaN" : $11
    hi = ($13 == "oversubscribed") ? "NaN" : $12
    data[p, ++nrows[p]] = sprintf("%s %s %s %s %s", $3, $4, $5 / 2, lo, hi)
    if (!($3 in xseen)) { xseen[$3] = 1; xt[++nx] = $3 + 0 }
}
END {
    if (npanels == 0) exit 1
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
    print  "set logscale y"
    print  "set xlabel 'threads' offset 0,0.5"
    print  "set ylabel 'ext/stock' offset 1,0"
    print  "set key top left font \",8\""
    print  "set grid"
    if (cores > 0 && xmax > cores) {
        printf "set object 1 rect from first %g, graph 0 to graph 1, graph 1 fc rgb '#eeeeee' fs solid noborder behind\n", cores * 1.414
        printf "set label 2 'oversubscribed' at first %g, graph 0.05 font ',7' tc rgb '#777777'\n", cores * 1.5
    }
    for (p = 1; p <= npanels; p++) {
        printf "$p%d << EOD\n", p
        for (i = 1; i <= nrows[p]; i++)
            print data[p, i]
        print "EOD"
        label = pname[p] (pbytes[p] + 0 > 0 && pname[p] ~ /COPYPRIVATE|ARRAY/ ? " " size_label(pbytes[p]) : "")
        printf "set title '%s'\n", label
        printf "plot $p%d using 1:4:5 with filledcurves lc rgb '#f4c7c3' title 'predicted', ", p
        printf "$p%d using 1:4 with points pt 1 lc rgb '#d62728' notitle, ", p
        printf "$p%d using 1:5 with points pt 1 lc rgb '#d62728' notitle, ", p
        printf "$p%d using 1:2:3 with yerrorbars pt 7 ps 0.7 lc rgb '#000000' title 'measured', ", p
        print  "1 with lines dt 2 lc rgb '#777777' title 'ext = stock'"
    }
    print "unset multiplot"
}
