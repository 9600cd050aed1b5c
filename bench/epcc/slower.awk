# slower.awk: the "never slower" table of summary.md, from paired.awk's
# output: every row whose per-round ext/stock is above 1.00, the largest
# gap first; one line saying so when there is none.  Each row also gives
# how many rounds had ext slower, and the one-sided sign test: the chance
# of at least that many such rounds if each round were a coin toss between
# the runtimes (a large value: the gap is within the run's noise).
#
# usage: awk [-v all=1] -f slower.awk PAIRED_CSV
#   PAIRED_CSV  measurement,bytes,threads,rounds,median_ratio,iqr,rounds_slower
#   all=1       every row, faster ones too (the gap then negative)

BEGIN { FS = "," }
FNR == 1 { next }
all || $5 + 0 > 1.00 {
    rows[++n] = sprintf("| %s | %s | %s | %.2f | %+.0f%% | %.2f | %d of %d | %.3f |", $1, $2, $3,
                        $5, ($5 - 1) * 100, $6, $7, $4, sign_test($7, $4))
    gap[n] = $5 + 0
}
END {
    if (n == 0) {
        print "No measurement, size or thread count was slower on ext than on stock."
        exit
    }
    # insertion sort, largest ratio first (a few dozen rows at most)
    for (i = 2; i <= n; i++)
        for (j = i; j > 1 && gap[j] > gap[j - 1]; j--) {
            t = gap[j]; gap[j] = gap[j - 1]; gap[j - 1] = t
            t = rows[j]; rows[j] = rows[j - 1]; rows[j - 1] = t
        }
    print "| measurement | bytes | threads | ext/stock per round | gap | iqr | rounds slower | sign test |"
    print "|---|---|---|---|---|---|---|---|"
    for (i = 1; i <= n; i++)
        print rows[i]
}

# P(X >= k) for X binomial(n, 1/2).
function sign_test(k, n,    p, c, i) {
    p = 0
    c = 1                       # C(n, 0)
    for (i = 0; i <= n; i++) {
        if (i >= k)
            p += c
        c = c * (n - i) / (i + 1)
    }
    return p / 2 ^ n
}
