# patterns.awk: make bench's table of program patterns (bench/patterns):
# for each pattern and team size, the median over rounds of each runtime's
# time per step, in microseconds; "n/a" where a runtime has no value.
#
# usage: awk -v runtimes="stock ext stock-gcc ext-gcc" -f median.awk -f patterns.awk RAW_CSV
#   RAW_CSV  header, then round,runtime,threads,measurement,bytes,median_overhead_us

BEGIN {
    FS = ","
    nrt = split(runtimes, rt, " ")
}
FNR == 1 { next }
$6 ~ /^[0-9]+(\.[0-9]+)?$/ {
    row = $4 SUBSEP $3
    if (!(row in seen)) {
        seen[row] = 1
        order[++nrows] = row
    }
    key = row SUBSEP $2
    values[key, ++count[key]] = $6 + 0
}
END {
    header = "| pattern | threads |"
    rule = "|---|---:|"
    for (i = 1; i <= nrt; i++) {
        header = header " " rt[i] " (µs) |"
        rule = rule "---:|"
    }
    print header
    print rule
    for (r = 1; r <= nrows; r++) {
        split(order[r], parts, SUBSEP)
        line = "| " parts[1] " | " parts[2] " |"
        for (i = 1; i <= nrt; i++) {
            key = order[r] SUBSEP rt[i]
            if (count[key] == 0) {
                line = line " n/a |"
                continue
            }
            delete a
            for (k = 1; k <= count[key]; k++)
                a[k] = values[key, k]
            line = line sprintf(" %.3f |", sorted_median(a, count[key]))
        }
        print line
    }
}
