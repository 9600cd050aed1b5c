# predicted_plot.awk: predicted.sh's CSV -> gnuplot program drawing one
# panel per (measurement, bytes): the measured per-round ext/stock against
# threads (a point, with the rounds' middle half as an error bar) over the
# band the cost model predicts (shaded), and the line ext = stock.
# Oversubscribed team sizes (above `cores`, shaded) carry a measurement and
# no band.
#
# usage: awk -v png=predicted.png -v title="..." -v cores=N -f size_label.awk \
#            -f panels.awk -f predicted_plot.awk PREDICTED_CSV > plot.gp

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
    panels_header(npanels, xt, nx, png, title, cores, "ext/stock")
    print  "set logscale y"
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
