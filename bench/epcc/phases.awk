# phases.awk: the "Where a region's time goes" section of summary.md, from
# the rounds of bench/floor/phases.c on stock and ext: each phase's median
# over rounds, in ns and in line handoffs, then the floor arithmetic for
# the issue's targets (a region <= 0.9 of stock, a region with a reduction
# <= 0.8): what the target allows ext, against the handoffs no runtime
# avoids.  A region: the release reaching a worker, the arrival reaching
# the primary.  A region with an int reduction, whose combine is the
# compiler's atomic add on the shared variable (the method both runtimes
# take at 2 threads): also that variable's line reaching the last worker
# between the two, since its locked add must own the line before its
# arrival is stored.  Load median.awk first.
#
# usage: awk -f median.awk -f phases.awk PHASES_CSV
#   PHASES_CSV  round,runtime,kind,phase,threads,median_ns (kind: handoff,
#               region, reduction; runtime: stock, ext)

BEGIN {
    FS = ","
    target["region"] = 0.9
    target["reduction"] = 0.8
    label["region"] = "empty region (PARALLEL)"
    label["reduction"] = "region with an int reduction (REDUCTION)"
    floor_handoffs["region"] = 2
    floor_handoffs["reduction"] = 3
    floor_text["region"] = "The release reaching a worker and the arrival reaching the primary take one handoff each"
    floor_text["reduction"] = "The release reaching a worker, the shared variable's line reaching the worker's atomic add and its arrival reaching the primary take one handoff each"
    nphases = split("fork primary join body total overhead", phase_order, " ")
}
FNR == 1 { next }
{
    key = $2 SUBSEP $3 SUBSEP $4
    v[key, ++n[key]] = $6 + 0
    run[$1, $2, $3, $4] = $6 + 0
    threads = $5
    rounds[$1] = 1
    if ($3 == "handoff")
        h[++nh] = $6 + 0
}

function med(rt, kind, phase,    a, i, k) {
    k = rt SUBSEP kind SUBSEP phase
    if (!(k in n))
        return -1
    for (i = 1; i <= n[k]; i++)
        a[i] = v[k, i]
    return sorted_median(a, n[k])
}

# overhead of each run: total - body, then the median over rounds
function overhead(rt, kind,    a, m, r) {
    m = 0
    for (r in rounds)
        if ((r, rt, kind, "total") in run && (r, rt, kind, "body") in run)
            a[++m] = run[r, rt, kind, "total"] - run[r, rt, kind, "body"]
    return m ? sorted_median(a, m) : -1
}

function cell(x) { return x < 0 ? "n/a" : sprintf("%.0f", x) }
function lines(x) { return (x < 0 || unit <= 0) ? "n/a" : sprintf("%.1f", x / unit) }

END {
    if (nh == 0) {
        print "No phase was measured (bench/floor/phases.c did not run)."
        exit
    }
    unit = sorted_median(h, nh)
    printf "One line handoff between two threads (half a round trip of one cache line):\n"
    printf "**%.0f ns** (median of %d runs).\n\n", unit, nh
    print "| region | phase | stock (ns) | ext (ns) | ext/stock | stock (handoffs) | ext (handoffs) |"
    print "|---|---|---:|---:|---:|---:|---:|"
    split("region reduction", kinds, " ")
    for (k = 1; k <= 2; k++) {
        kind = kinds[k]
        for (p = 1; p <= nphases; p++) {
            phase = phase_order[p]
            s = phase == "overhead" ? overhead("stock", kind) : med("stock", kind, phase)
            e = phase == "overhead" ? overhead("ext", kind) : med("ext", kind, phase)
            printf "| %s | %s | %s | %s | %s | %s | %s |\n", kind, phase, cell(s), cell(e),
                   (s > 0 && e >= 0) ? sprintf("%.2f", e / s) : "n/a", lines(s), lines(e)
        }
    }
    print ""
    for (k = 1; k <= 2; k++) {
        kind = kinds[k]
        s = overhead("stock", kind)
        e = overhead("ext", kind)
        if (s < 0 || e < 0)
            continue
        allowed = target[kind] * s
        floor = floor_handoffs[kind] * unit
        printf "- %s, %d threads: stock's overhead (total - body) %.0f ns; the target, %.1f of it, allows ext %.0f ns. ", \
               label[kind], threads, s, target[kind], allowed
        printf "%s: %.0f ns. ", floor_text[kind], floor
        printf "ext's overhead is %.0f ns (%.2f of stock), %.1f handoffs: fork %.1f, join %.1f. ", \
               e, e / s, e / unit, med("ext", kind, "fork") / unit, med("ext", kind, "join") / unit
        if (allowed < floor)
            printf "The target lies %.0f ns below that floor.\n", floor - allowed
        else if (e <= allowed)
            printf "The target is met.\n"
        else
            printf "The target lies %.0f ns above the floor: ext would have to take %.0f ns off the paths around the %d handoffs (%.0f ns today).\n", \
                   allowed - floor, e - allowed, floor_handoffs[kind], e - floor
    }
}
