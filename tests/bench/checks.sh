# Sourced by the bench tests (tests/bench/test_*.sh): a scratch directory
# ($work, removed on exit), check WHAT EXPECTED ACTUAL, which counts
# failures, and checks_done NAME, which exits 1 if any check failed.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
check() {
    if [[ $2 == "$3" ]]; then echo "ok: $1"; else echo "FAIL: $1: expected '$2', got '$3'"; fails=$((fails + 1)); fi
}
checks_done() {
    ((fails == 0)) || { echo "$fails check(s) failed"; exit 1; }
    echo "$1: all checks passed"
}
