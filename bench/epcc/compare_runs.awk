# compare_runs.awk: two runs' per-round ratios (paired.awk's output) ->
# ext/stock of run A against run B, row by row, as a Markdown table and a
# summary line.  B counts as at least as fast as A on a row when its ratio
# is below A's, or above it by no more than the larger of the two runs'
# interquartile ranges: a difference the runs' own round-to-round variation
# already covers.
#
# usage: awk -v a=LABEL_A -v b=LABEL_B -f compare_runs.awk PAIRED_A PAIRED_B

BEGIN { FS = "," }
FNR == 1 { next }                               # the header of each file
FNR == NR {                                     # run A
    key = $1 SUBSEP $2 SUBSEP $3
    ratio_a[key] = $5; spread_a[key] = $6
    next
}
{                                               # run B, in its own order
    key = $1 SUBSEP $2 SUBSEP $3
    if (!(key in ratio_a))
        next
    order[++nrows] = key
    ratio_b[key] = $5; spread_b[key] = $6
}
END {
    printf "| measurement | bytes | threads | ext/stock %s | spread | ext/stock %s | spread | %s at least as fast |\n", a, b, b
    print "|---|---:|---:|---:|---:|---:|---:|---|"
    for (i = 1; i <= nrows; i++) {
        key = order[i]
        ra = ratio_a[key]; rb = ratio_b[key]
        sa = spread_a[key]; sb = spread_b[key]
        if (rb <= ra) {
            verdict = "yes"; same++
        } else if (rb - ra <= (sa > sb ? sa : sb)) {
            verdict = "yes, within the spread"; same++
        } else {
            verdict = "**no**"; slower++
            split(key, k, SUBSEP)
            slower_rows = slower_rows (slower > 1 ? "; " : "") k[1] " " k[2] " B " k[3] " threads"
        }
        split(key, k, SUBSEP)
        printf "| %s | %s | %s | %.2f | %.2f | %.2f | %.2f | %s |\n", k[1], k[2], k[3], ra, sa, rb, sb, verdict
    }
    print ""
    printf "%s at least as fast as %s on %d of %d rows; slower beyond the spread on %d%s.\n", \
        b, a, same, nrows, slower, (slower ? ": " slower_rows : "")
}
