# Marks the targets of the issue "Model-optimized collectives" met or missed,
# from results.csv (runtime,threads,measurement,bytes,median_overhead_us,...).
# Ratios are ext/stock medians from the same interleaved run; the median of
# the per-round ratios (paired.csv, from paired.awk) is shown beside them.
# The barrier floor is one cache-line transfer between the two cores, taken
# as 0.2 us (the measured one-way ping-pong cost on this machine: 0.17-0.24
# us).
#
# usage: awk -f targets.awk paired.csv results.csv
BEGIN {
    FS = ","
    # measurement, bytes, threads, limit, kind (ratio | floor)
    n = 0
    t[++n] = "BARRIER,0,2,0.6,ratio"
    t[++n] = "SINGLE_COPYPRIVATE,8,2,0.6,ratio"
    t[++n] = "REDUCTION,4,2,0.8,ratio"
    t[++n] = "PARALLEL,0,2,0.9,ratio"
    t[++n] = "BARRIER,0,8,1.0,ratio"
    t[++n] = "SINGLE_COPYPRIVATE,1048576,2,1.0,ratio"
    t[++n] = "BARRIER,0,2,1.5,floor"
    floor_us = 0.2
}
FNR == 1 { next }
FNR == NR { per_round[$1 "," $2 "," $3] = $5; next }   # paired.csv
$5 != "NA" { v[$1 "," $3 "," $4 "," $2] = $5 }
END {
    print "| target | measured | status |"
    print "|---|---|---|"
    for (i = 1; i <= n; i++) {
        split(t[i], f, ",")
        key = f[1] "," f[2] "," f[3]
        ext = v["ext," key]; stock = v["stock," key]
        label = f[1] (f[1] ~ /COPYPRIVATE/ ? " " f[2] " B" : "") " at " f[3] \
                " threads"
        if (f[5] == "ratio") {
            goal = label ", ext/stock <= " f[4]
            if (ext == "" || stock == "" || stock <= 0) {
                printf "| %s | n/a | not measured |\n", goal
                continue
            }
            r = ext / stock
            p = (key in per_round) ? sprintf("; per round %.2f", per_round[key]) : ""
            printf "| %s | %.2f (%.3f / %.3f us%s) | %s |\n", goal, r, ext, stock, p,
                   r <= f[4] ? "met" : sprintf("missed by %.0f%%", (r / f[4] - 1) * 100)
        } else {
            goal = label ", ext within " f[4] "x of one line transfer (" floor_us " us)"
            if (ext == "") { printf "| %s | n/a | not measured |\n", goal; continue }
            r = ext / floor_us
            printf "| %s | %.3f us = %.2fx | %s |\n", goal, ext, r,
                   r <= f[4] ? "met" : "missed"
        }
    }
}
