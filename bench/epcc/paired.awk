# paired.awk: per-run benchmark rows -> the median over rounds of ext/stock,
# each ext run divided by the stock run of the same round and thread count.
# Slow drifts of the machine (neighbours, where the host puts the vCPUs)
# move both runtimes of a round alike, so this ratio is steadier than the
# ratio of the two medians; the summary shows both.
#
# usage: awk [-v base=stock -v test=ext] -f median.awk -f paired.awk RAW_CSV
#   base, test  the runtimes compared (test/base; default ext/stock)
#   RAW_CSV  header, then round,runtime,threads,measurement,bytes,
#            median_overhead_us,... (one line per run and measurement)
#
# Output (CSV): measurement,bytes,threads,rounds,median_ratio,iqr,rounds_slower
# (rounds: how many rounds had both values > 0; rows without any are left out;
# iqr: the interquartile range of the per-round ratios, exclusive quartiles,
# the range itself under 4 rounds; rounds_slower: of those rounds, how many
# had a ratio above 1)

BEGIN {
    FS = ","
    if (base == "") base = "stock"
    if (test == "") test = "ext"
}
FNR == 1 { next }
$2 == base || $2 == test {
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
    print "measurement,bytes,threads,rounds,median_ratio,iqr,rounds_slower"
    for (i = 1; i <= nrows; i++) {
        row = order[i]
        n = 0
        split("", r)
        for (round in rounds)
            if ((row, round, test) in value && (row, round, base) in value)
                r[++n] = value[row, round, test] / value[row, round, base]
        if (n == 0)
            continue
        slower = 0
        for (j = 1; j <= n; j++)
            slower += r[j] > 1
        median = sorted_median(r, n)   # sorts r
        iqr = (n < 4) ? r[n] - r[1] : quartile(r, n, 3) - quartile(r, n, 1)
        split(row, k, SUBSEP)
        printf "%s,%s,%s,%d,%.4f,%.4f,%d\n", k[1], k[2], k[3], n, median, iqr, slower
    }
}

# The q-th quartile of the sorted a[1..n], n >= 2: the value at position
# q(n+1)/4, interpolated between its neighbours (the "exclusive" method).
function quartile(a, n, q,    j, delta) {
    j = int(q * (n + 1) / 4)
    if (j < 1) j = 1
    if (j > n - 1) j = n - 1
    delta = q * (n + 1) - 4 * j
    return (a[j] * (4 - delta) + a[j + 1] * delta) / 4
}
