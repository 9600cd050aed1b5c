# slower.awk: the "never slower" table of summary.md, from paired.awk's
# output: every row whose per-round ext/stock is above 1.00, the largest
# gap first; one line saying so when there is none.  Each row also gives
# how many rounds had ext slower, and the one-sided sign test: the chance
# of at least that many such rounds if each round were a coin toss between
# the runtimes (a large value: the gap is within the run's noise).
#
# With a control (paired.awk's output for the stock runtime's second run of
# each round against its first, an A/A), each row also gives the control's
# per-round ratio and slower rounds for the same measurement, size and
# thread count, and a last line counts the control's own rows above 1.00
# and 1.05: what noise alone made of two identical runtimes in this run.
#
# usage: awk [-v all=1] [-v ratio=B/A] [-v control=AA_PAIRED_CSV] -f slower.awk PAIRED_CSV
#   PAIRED_CSV  measurement,bytes,threads,rounds,median_ratio,iqr,rounds_slower
#   all=1       every row, faster ones too (the gap then negative)
#   ratio       what the ratio compares, for the header (ext/stock)
#   control     the A/A's PAIRED_CSV; an empty or missing file: no control

BEGIN {
    FS = ","
    if (ratio == "") ratio = "ext/stock"
    if (control != "") {
        while ((getline line < control) > 0) {
            if (split(line, f, ",") != 7 || f[1] == "measurement")
                continue
            key = f[1] SUBSEP f[2] SUBSEP f[3]
            aa_ratio[key] = f[5] + 0
            aa_slower[key] = f[7] " of " f[4]
            aa_rows++
            aa_above += f[5] + 0 > 1.00
            if (f[5] + 0 > 1.05) {
                aa_above5++
                if (f[5] + 0 > aa_max) {
                    aa_max = f[5] + 0
                    aa_max_row = f[1] (f[2] + 0 > 0 ? " " f[2] " B" : "") ", " f[3] " threads"
                }
            }
        }
        close(control)
    }
    with_control = aa_rows > 0
}
FNR == 1 { next }
all || $5 + 0 > 1.00 {
    rows[++n] = sprintf("| %s | %s | %s | %.2f | %+.0f%% | %.2f | %d of %d | %.3f |", $1, $2, $3,
                        $5, ($5 - 1) * 100, $6, $7, $4, sign_test($7, $4))
    if (with_control) {
        key = $1 SUBSEP $2 SUBSEP $3
        rows[n] = rows[n] ((key in aa_ratio) ? sprintf(" %.2f | %s |", aa_ratio[key], aa_slower[key]) \
                                              : " n/a | n/a |")
    }
    gap[n] = $5 + 0
}
END {
    if (n == 0)
        print "No measurement, size or thread count was slower on ext than on stock."
    else {
        # insertion sort, largest ratio first (a few dozen rows at most)
        for (i = 2; i <= n; i++)
            for (j = i; j > 1 && gap[j] > gap[j - 1]; j--) {
                t = gap[j]; gap[j] = gap[j - 1]; gap[j - 1] = t
                t = rows[j]; rows[j] = rows[j - 1]; rows[j - 1] = t
            }
        if (with_control) {
            print "| measurement | bytes | threads | " ratio " per round | gap | iqr | rounds slower | sign test | A/A per round | A/A rounds slower |"
            print "|---|---|---|---|---|---|---|---|---|---|"
        } else {
            print "| measurement | bytes | threads | " ratio " per round | gap | iqr | rounds slower | sign test |"
            print "|---|---|---|---|---|---|---|---|"
        }
        for (i = 1; i <= n; i++)
            print rows[i]
    }
    if (with_control) {
        printf "\nThe A/A control itself: %d of %d rows above 1.00 per round, %d above 1.05", aa_above, aa_rows,
               aa_above5
        if (aa_above5 > 0)
            printf " (the largest %.2f: %s)", aa_max, aa_max_row
        print "."
    }
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
