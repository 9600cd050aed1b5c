# aggregate.awk: per-run benchmark rows -> one row per
# (runtime, threads, measurement, bytes).
#
# usage: awk -v runtimes="stock ext libgomp" -v threads="1 2 4 8" \
#            [-v partial="stock-gcc ext-gcc"] \
#            -f median.awk -f aggregate.awk MEASUREMENTS RAW_CSV
#   partial       runtimes that run only some measurements: they get rows
#                 only for what they measured
#   MEASUREMENTS  one "NAME BYTES" per line, in output order
#   RAW_CSV       header, then round,runtime,threads,measurement,bytes,
#                 median_overhead_us,... (one line per run and measurement)
#
# Output (CSV): runtime,threads,measurement,bytes,median_overhead_us,min_us,max_us,samples
# where median/min/max are taken over the per-run median overheads and
# samples is the number of runs that produced a value ("NA", 0 when none).

BEGIN {
    FS = ","
    nruntimes = split(runtimes, runtime, " ")
    npartial = split(partial, p, " ")
    for (i = 1; i <= npartial; i++)
        is_partial[p[i]] = 1
    nthreads = split(threads, thread, " ")
}

FNR == NR {                       # the measurement list
    if (NF == 1 && split($0, f, " ") == 2) {
        nmeas++
        meas_name[nmeas] = f[1]
        meas_bytes[nmeas] = f[2]
    }
    next
}

FNR == 1 { next }                 # raw header

$6 ~ /^-?[0-9]+(\.[0-9]+)?$/ {
    key = $2 SUBSEP $3 SUBSEP $4 SUBSEP $5
    values[key, ++count[key]] = $6 + 0
}

END {
    print "runtime,threads,measurement,bytes,median_overhead_us,min_us,max_us,samples"
    for (m = 1; m <= nmeas; m++)
        for (t = 1; t <= nthreads; t++)
            for (r = 1; r <= nruntimes; r++) {
                key = runtime[r] SUBSEP thread[t] SUBSEP meas_name[m] SUBSEP meas_bytes[m]
                n = count[key] + 0
                prefix = runtime[r] "," thread[t] "," meas_name[m] "," meas_bytes[m]
                if (n == 0) {
                    if (!(runtime[r] in is_partial))
                        print prefix ",NA,NA,NA,0"
                    continue
                }
                split("", v)
                for (i = 1; i <= n; i++)
                    v[i] = values[key, i]
                median = sorted_median(v, n)
                printf "%s,%.6f,%.6f,%.6f,%d\n", prefix, median, v[1], v[n], n
            }
}
