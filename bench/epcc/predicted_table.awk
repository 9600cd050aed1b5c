# predicted_table.awk: summary.md's "measured against predicted" table, from
# predicted.sh's CSV: per construct, size and team size, the measured
# per-round ext/stock beside the band the cost model predicts with this
# run's calibration.  Oversubscribed rows (outside the model) are counted,
# not listed.
#
# usage: awk -f size_label.awk -f predicted_table.awk PREDICTED_CSV
#   PREDICTED_CSV  measurement,bytes,threads,measured_ratio,iqr,ext_algorithm,
#                  ext_min_ns,ext_max_ns,stock_min_ns,stock_max_ns,ratio_lo,
#                  ratio_hi,verdict

BEGIN { FS = "," }
FNR == 1 { next }
$13 == "oversubscribed" { over++; next }
{
    size = ($2 + 0 > 0 && $1 != "REDUCTION" && $1 != "REDUCTION_DOUBLE") ? size_label($2) : ""
    band = ($11 == $12) ? $11 : $11 " - " $12
    rows[++n] = sprintf("| %s | %s | %s | %.2f (iqr %.2f) | %s | %s | %s |",
                        $1, size, $3, $4, $5, band, $6, $13)
    count[$13]++
}
END {
    if (n == 0)
        print "No construct the model prices was measured inside the model's range (2 threads up to the core count)."
    else {
        print "| measurement | size | threads | measured ext/stock per round | predicted ext/stock | ext per the model | verdict |"
        print "|---|---|---|---|---|---|---|"
        for (i = 1; i <= n; i++)
            print rows[i]
        print ""
        printf "%d inside the predicted band, %d below it (ext did better than predicted), %d above it (worse).\n",
               count["inside"], count["below"], count["above"]
    }
    if (over > 0)
        printf "%d oversubscribed rows (more threads than cores) are outside the model and not predicted.\n", over
}
