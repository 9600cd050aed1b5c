"""A stand-in for lit's main: reports the tests listed in <test dir>/plan.

Each plan line is "<test> <result>,<result>,... <seconds>,<seconds>,...";
the n-th run of a test directory reports each test's n-th result and time
(the last ones once the list runs out), counting runs in <test dir>/runs.
Takes the arguments lit_compare.sh passes: -o <json>, --filter <regex>, the
test directory last.
"""
import json
import os
import re
import sys


def main():
    args = sys.argv[1:]
    out = args[args.index("-o") + 1]
    pattern = args[args.index("--filter") + 1] if "--filter" in args else ""
    testdir = args[-1]
    counter = os.path.join(testdir, "runs")
    run = int(open(counter).read()) if os.path.exists(counter) else 0
    with open(counter, "w") as f:
        f.write(str(run + 1))
    tests = []
    with open(os.path.join(testdir, "plan")) as f:
        for line in f:
            name, codes, times = line.split()
            name = "libomp :: " + name
            if not re.search(pattern, name):
                continue
            codes, times = codes.split(","), times.split(",")
            code = codes[min(run, len(codes) - 1)]
            secs = float(times[min(run, len(times) - 1)])
            tests.append({"name": name, "code": code, "elapsed": secs,
                          "output": f"run {run}: {name} {code}\n"})
    with open(out, "w") as f:
        json.dump({"tests": tests}, f)
