# table.awk: results.csv -> Markdown table of median overheads with the
# ext/stock and ext/libgomp ratios (a ratio needs both values > 0), and the
# median of the per-round ext/stock ratios from paired.awk.
#
# usage: awk [-v a=stock -v b=ext -v c=libgomp] -f table.awk paired.csv results.csv
#   a, b, c  the runtimes of the columns (b/a, per round from paired.csv,
#            and b/c); rows results.csv has for neither a nor b are left out

function cell(x) { return x == "" ? "n/a" : sprintf("%.3f", x) }
function ratio(a, b) { return (a == "" || b == "" || a <= 0 || b <= 0) ? "n/a" : sprintf("%.2f", a / b) }

BEGIN {
    FS = ","
    if (a == "") a = "stock"
    if (b == "") b = "ext"
    if (c == "") c = "libgomp"
}
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
    has[row, $1] = 1
}
END {
    printf "| measurement | bytes | threads | %s (µs) | %s (µs) | %s (µs) | %s/%s | %s/%s per round | %s/%s |\n",
        a, b, c, b, a, b, a, b, c
    print "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
    for (i = 1; i <= nrows; i++) {
        row = order[i]
        split(row, k, SUBSEP)
        s = median[row, a]; e = median[row, b]; g = median[row, c]
        if (!((row, a) in has) && !((row, b) in has))
            continue
        p = (row in per_round) ? per_round[row] : "n/a"
        printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", k[1], k[2], k[3],
            cell(s), cell(e), cell(g), ratio(e, s), p, ratio(e, g)
    }
}
