#!/usr/bin/env python3
"""Results of LLVM's libomp lit suite: per test, its result and its time.

  lit_results.py extract <lit json> <results file>
      Reads lit's JSON results (lit -o, with --time-tests) and writes one
      line per test, "<RESULT> <test> <seconds>", sorted by test.
  lit_results.py compare <stock results> <ext results> <max ratio> <floor s>
                        [<recheck list>]
      Fails (exit 1) if a test that passes on stock does not pass on ext, or
      if a test that passes on both takes more than <max ratio> times stock's
      time on ext and more than <floor s> seconds.  Prints the slowest ratios
      either way, so a drift shows before it fails.  With <recheck list>, a
      failing run exits 3 instead and writes the failing tests' names there,
      one a line, to be run again (lit_compare.sh).
  lit_results.py output <lit json> <test>...
      The last lines lit recorded of each named test that did not pass: what
      it printed, its exit code, the commands it ran.
  lit_results.py best <results file>...
      Per test, the shortest time over the files: "<RESULT> <test> <seconds>",
      the result PASS only if every file says PASS.
"""
import json
import sys


def lit_tests(json_path):
    """Each test of lit's JSON results as (its name in the suite, its entry)."""
    with open(json_path) as f:
        tests = json.load(f)["tests"]
    # "libomp :: tasking/omp_task.c" -> "tasking/omp_task.c"
    return [(t["name"].split(" :: ", 1)[-1], t) for t in tests]


def extract(json_path, out_path):
    rows = [(name, t["code"], t.get("elapsed") or 0.0)
            for name, t in lit_tests(json_path)]
    if not rows:
        sys.exit("lit_results: no tests in " + json_path)
    with open(out_path, "w") as out:
        for name, code, secs in sorted(rows):
            out.write(f"{code} {name} {secs:.3f}\n")
    counts = {}
    for _, code, _ in rows:
        counts[code] = counts.get(code, 0) + 1
    summary = " ".join(f"{n} {c}" for c, n in sorted(counts.items()))
    print(f"lit_results: {len(rows)} tests: {summary}")


def read(path):
    results = {}
    with open(path) as f:
        for line in f:
            code, name, secs = line.split()
            results[name] = (code, float(secs))
    return results


def compare(stock_path, ext_path, max_ratio, floor, recheck_path=None):
    stock, ext = read(stock_path), read(ext_path)
    failures, timed, failed = [], [], []
    for name, (code, secs) in sorted(stock.items()):
        if code != "PASS":
            continue
        ext_code, ext_secs = ext.get(name, ("MISSING", 0.0))
        if ext_code != "PASS":
            failed.append(name)
            failures.append(f"{name} (stock PASS, ext {ext_code})")
            continue
        ratio = ext_secs / secs if secs > 0 else float("inf")
        timed.append((ratio, name, secs, ext_secs))
        if ratio > max_ratio and ext_secs > floor:
            failed.append(name)
            failures.append(f"{name} (ext {ext_secs:.2f} s, stock {secs:.2f} s,"
                            f" {ratio:.1f} times)")
    timed.sort(reverse=True)
    print("lit_results: slowest on ext against stock (ext/stock, ext s, stock s):")
    for ratio, name, secs, ext_secs in timed[:5]:
        print(f"  {ratio:5.2f}  {ext_secs:7.2f}  {secs:7.2f}  {name}")
    total_stock = sum(t[2] for t in timed)
    total_ext = sum(t[3] for t in timed)
    print(f"lit_results: {len(timed)} tests pass on both; total time ext "
          f"{total_ext:.1f} s, stock {total_stock:.1f} s")
    if failures:
        print(f"lit_results: failed (results, or more than {max_ratio:g} times "
              f"stock's time and more than {floor:g} s):")
        for f in failures[:100]:
            print("  " + f)
        if recheck_path:
            with open(recheck_path, "w") as out:
                out.write("".join(name + "\n" for name in failed))
            sys.exit(3)
        sys.exit(1)
    print(f"lit_results: every test that passes on stock passes on ext, none "
          f"more than {max_ratio:g} times slower beyond {floor:g} s")


def best(paths):
    runs = [read(p) for p in paths]
    for name in sorted(runs[0]):
        codes = [r.get(name, ("MISSING", 0.0))[0] for r in runs]
        secs = min(r.get(name, ("MISSING", 0.0))[1] for r in runs)
        code = next((c for c in codes if c != "PASS"), "PASS")
        print(f"{code} {name} {secs:.3f}")


def output(json_path, names, lines=40):
    for name, t in lit_tests(json_path):
        if name not in names or t["code"] == "PASS":
            continue
        tail = (t.get("output") or "").splitlines()[-lines:]
        print(f"lit_results: {name}: {t['code']} after "
              f"{t.get('elapsed') or 0.0:.2f} s; the last lines lit recorded:")
        for line in tail:
            print("  | " + line)


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "extract":
        extract(sys.argv[2], sys.argv[3])
    elif len(sys.argv) in (6, 7) and sys.argv[1] == "compare":
        compare(sys.argv[2], sys.argv[3], float(sys.argv[4]), float(sys.argv[5]),
                sys.argv[6] if len(sys.argv) == 7 else None)
    elif len(sys.argv) >= 4 and sys.argv[1] == "output":
        output(sys.argv[2], set(sys.argv[3:]))
    elif len(sys.argv) >= 3 and sys.argv[1] == "best":
        best(sys.argv[2:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
