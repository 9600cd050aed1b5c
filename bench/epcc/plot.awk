# plot.awk: results.csv -> gnuplot program drawing one panel per
# (measurement, bytes): median overhead against threads, a line per runtime.
# A panel uses a log y axis when all its values are positive and span more
# than a factor of 10.
#
# Thread counts above `cores` are shaded as oversubscribed.
#
# usage: awk -v png=summary.png -v title="..." -v cores=N -f size_label.awk \
#            -f panels.awk -f plot.awk results.csv > plot.gp

BEGIN {
    FS = ","
    nrt = split("stock ext libgomp", rt, " ")
    color["stock"] = "#1f77b4"; color["ext"] = "#d62728"; color["libgomp"] = "#2ca02c"
}
FNR == 1 { next }
{
    panel = $3 SUBSEP $4
    if (!(panel in pidx)) {
        pidx[panel] = ++npanels
        pname[npanels] = $3
        pbytes[npanels] = $4
        sizes[$3]++
    }
    p = pidx[panel]
    if (!((p, $2) in has_thread)) {
        has_thread[p, $2] = 1
        pthreads[p, ++nthr[p]] = $2
    }
    if (!($2 in xseen)) { xseen[$2] = 1; xt[++nx] = $2 + 0 }
    val[p, $2, $1] = ($5 == "NA") ? "NaN" : $5
}
END {
    if (npanels == 0) exit 1
    panels_header(npanels, xt, nx, png, title, cores, "overhead (µs)")
    for (p = 1; p <= npanels; p++) {
        lo = ""; hi = ""; positive = 1
        printf "$p%d << EOD\n", p
        for (i = 1; i <= nthr[p]; i++) {
            t = pthreads[p, i]
            line = t
            for (r = 1; r <= nrt; r++) {
                v = ((p, t, rt[r]) in val) ? val[p, t, rt[r]] : "NaN"
                line = line " " v
                if (v != "NaN") {
                    v += 0
                    if (v <= 0) positive = 0
                    if (lo == "" || v < lo) lo = v
                    if (hi == "" || v > hi) hi = v
                }
            }
            print line
        }
        print "EOD"
        label = pname[p] (sizes[pname[p]] > 1 || pname[p] ~ /COPYPRIVATE/ ? " " size_label(pbytes[p]) : "")
        printf "set title '%s'\n", label
        if (lo == "") {         # nothing measured: an empty, labelled panel
            print "unset logscale y; set yrange [0:1]"
            print "set label 1 'no data' at graph 0.5, 0.5 center"
            print "plot 2 notitle"
            print "unset label 1; set autoscale y"
            continue
        }
        if (positive && hi > 10 * lo) print "set logscale y"
        else print "unset logscale y"
        printf "plot"
        for (r = 1; r <= nrt; r++)
            printf "%s $p%d using 1:%d with linespoints pt 7 ps 0.6 lw 1.5 lc rgb '%s' title '%s'",
                (r > 1 ? "," : ""), p, r + 1, color[rt[r]], rt[r]
        print ""
    }
    print "unset multiplot"
}
