#!/usr/bin/env python3
"""Compare the ext/stock ratios of two compare.sh runs, row by row.

    compare_runs.py <label A> <raw.csv of A> <label B> <raw.csv of B>

Both files are compare.sh's raw.csv (one row per round, runtime, thread
count and measurement). For each measurement, size and thread count the
ratio of a run is the median over its rounds of that round's ext/stock
(drifts of the machine within a round hit both runtimes alike). The spread
of a run is the interquartile range of those per-round ratios. B counts as
at least as fast as A on a row when its ratio is below A's, or above it by
no more than the larger of the two runs' spreads: a difference the runs'
own round-to-round variation already covers.

Prints a Markdown table on stdout and, last, one summary line. Exit status
0; the judgement is the table's, not the exit status's.
"""
import csv
import statistics
import sys


def per_round_ratios(path):
    """{(measurement, bytes, threads): [ext/stock of each round]}"""
    cells = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["runtime"] not in ("stock", "ext"):
                continue
            try:
                value = float(row["median_overhead_us"])
            except ValueError:
                continue
            key = (row["measurement"], int(row["bytes"]), int(row["threads"]))
            cells.setdefault(key, {}).setdefault(row["round"], {})[row["runtime"]] = value
    ratios = {}
    for key, rounds in cells.items():
        r = [v["ext"] / v["stock"] for v in rounds.values()
             if "ext" in v and "stock" in v and v["stock"] > 0]
        if r:
            ratios[key] = r
    return ratios


def quartile_spread(values):
    if len(values) < 4:
        return max(values) - min(values)
    q = statistics.quantiles(values, n=4)
    return q[2] - q[0]


def main(argv):
    if len(argv) != 5:
        sys.stderr.write(__doc__)
        return 2
    label_a, path_a, label_b, path_b = argv[1:]
    a = per_round_ratios(path_a)
    b = per_round_ratios(path_b)
    order = []
    for key in list(a) + list(b):
        if key not in order:
            order.append(key)
    print(f"| measurement | bytes | threads | ext/stock {label_a} | spread | "
          f"ext/stock {label_b} | spread | {label_b} at least as fast |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    rows = same_or_better = slower = 0
    slower_rows = []
    for key in order:
        if key not in a or key not in b:
            continue
        ra, rb = statistics.median(a[key]), statistics.median(b[key])
        sa, sb = quartile_spread(a[key]), quartile_spread(b[key])
        if rb <= ra:
            verdict = "yes"
            same_or_better += 1
        elif rb - ra <= max(sa, sb):
            verdict = "yes, within the spread"
            same_or_better += 1
        else:
            verdict = "**no**"
            slower += 1
            slower_rows.append(f"{key[0]} {key[1]} B {key[2]} threads")
        rows += 1
        print(f"| {key[0]} | {key[1]} | {key[2]} | {ra:.2f} | {sa:.2f} | "
              f"{rb:.2f} | {sb:.2f} | {verdict} |")
    print()
    print(f"{label_b} at least as fast as {label_a} on {same_or_better} of {rows} "
          f"rows; slower beyond the spread on {slower}"
          + (": " + "; ".join(slower_rows) if slower_rows else "") + ".")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
