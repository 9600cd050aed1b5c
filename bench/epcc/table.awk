# table.awk: results.csv -> Markdown table of median overheads with the
# ext/stock and ext/libgomp ratios (a ratio needs both values > 0), and the
# median of the per-round ext/stock ratios from paired.awk.
#
# usage: awk -f table.awk paired.csv results.csv

function cell(x) { return x == "" ? "n/a" : sprintf("%.3f", x) }
function ratio(a, b) { return (a == "" || b == "" || a <= 0 || b <= 0) ? "n/a" : sprintf("%.2f", a / b) }

BEGIN { FS = "," }
FNR == 1 { next }
FNR == NR {                       # paired.csv: measurement,bytes,threads,...
    per_round[$1 SUBSEP $2 SUBSEP $3] = sprintf("%.2f", $5)
    next
}
{
    row = $3 SUBSEP $4 SUBSEP $2
    if (!(row in seen)) {
        seen[row] = 1
        order[++nrows] = row
    }
    median[row, $1] = ($5 == "NA") ? "" : $5 + 0
}
END {
    print "| measurement | bytes | threads | stock (µs) | ext (µs) | libgomp (µs) | ext/stock | ext/stock per round | ext/libgomp |"
    print "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
    for (i = 1; i <= nrows; i++) {
        row = order[i]
        split(row, k, SUBSEP)
        s = median[row, "stock"]; e = median[row, "ext"]; g = median[row, "libgomp"]
        p = (row in per_round) ? per_round[row] : "n/a"
        printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", k[1], k[2], k[3],
            cell(s), cell(e), cell(g), ratio(e, s), p, ratio(e, g)
    }
}
