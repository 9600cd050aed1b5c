# paired.awk: per-run benchmark rows -> the median over rounds of ext/stock,
# each ext run divided by the stock run of the same round and thread count.
# Slow drifts of the machine (neighbours, where the host puts the vCPUs)
# move both runtimes of a round alike, so this ratio is steadier than the
# ratio of the two medians; the summary shows both.
#
# usage: awk -f median.awk -f paired.awk RAW_CSV
#   RAW_CSV  header, then round,runtime,threads,measurement,bytes,
#            median_overhead_us,... (one line per run and measurement)
#
# Output (CSV): measurement,bytes,threads,rounds,median_ratio
# (rounds: how many rounds had both values > 0; rows without any are left out)

BEGIN { FS = "," }
FNR == 1 { next }
$2 == "stock" || $2 == "ext" {
    if ($6 !~ /^-?[0-9]+(\.[0-9]+)?$/ || $6 + 0 <= 0)
        next
    row = $4 SUBSEP $5 SUBSEP $3
    if (!(row in seen)) {
        seen[row] = 1
        order[++nrows] = row
    }
    value[row, $1, $2] = $6 + 0
    rounds[$1] = 1
}
END {
    print "measurement,bytes,threads,rounds,median_ratio"
    for (i = 1; i <= nrows; i++) {
        row = order[i]
        n = 0
        split("", r)
        for (round in rounds)
            if ((row, round, "ext") in value && (row, round, "stock") in value)
                r[++n] = value[row, round, "ext"] / value[row, round, "stock"]
        if (n == 0)
            continue
        median = sorted_median(r, n)
        split(row, k, SUBSEP)
        printf "%s,%s,%s,%d,%.4f\n", k[1], k[2], k[3], n, median
    }
}
