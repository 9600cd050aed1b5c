#!/usr/bin/env bash
# headline.sh: the README's headline table, made from a committed
# summary.md: ext/stock per round (the median of each round's ratio) for a
# few constructs, at one thread per core and at 2 and 4 times that
# (oversubscribed).
#
#   headline.sh SUMMARY.md              print the block
#   headline.sh --check README.md       exit 1 if README's block differs
#   headline.sh --update README.md      rewrite README's block
#
# README's block sits between "<!-- headline: PATH -->" and
# "<!-- /headline -->", PATH being the summary.md it comes from, relative to
# README's folder.  make bench updates it when the run wrote that summary.
set -euo pipefail
die() { echo "headline.sh: $*" >&2; exit 2; }

# construct label, measurement, bytes
rows=(
  "parallel region|PARALLEL|0"
  "barrier|BARRIER|0"
  "single|SINGLE|0"
  "copyprivate, 8 B|SINGLE_COPYPRIVATE|8"
  "copyprivate, 64 KiB|SINGLE_COPYPRIVATE|65536"
  "reduction, scalar|REDUCTION|4"
  "reduction, 4 KiB array|REDUCTION_ARRAY|4096"
  "reduction, 64 KiB array|REDUCTION_ARRAY|65536"
)

block() {
  local summary=$1 label=$2
  [[ -f $summary ]] || die "no file $summary"
  printf '%s\n' "${rows[@]}" | awk -F'|' -v label="$label" '
    FNR == NR { want[++n] = $0; next }
    /^- CPU: / { cpu = substr($0, 8); cores = cpu; sub(/.*, /, "", cores); sub(/ cores.*/, "", cores) }
    /^- LLVM release/ { k = split($0, a, " "); llvm = a[k] }
    /^- date: / { split($0, a, " "); date = substr(a[3], 1, 10) }
    /^## / { in_results = ($0 == "## Results") }
    in_results && /^\| [A-Z_]+ \|/ {
      split($0, c, "|")
      for (i in c) gsub(/^ +| +$/, "", c[i])
      ratio[c[2], c[3], c[4]] = c[9]
    }
    END {
      if (!cores) { print "headline.sh: no CPU line in the summary" > "/dev/stderr"; exit 2 }
      printf "ext/stock per round (below 1.00: ext is faster), from `%s`: %s, LLVM %s, %s.\n\n", label, cpu, llvm, date
      printf "| construct | %d threads | %d threads (oversubscribed) | %d threads (oversubscribed) |\n", cores, 2 * cores, 4 * cores
      print "|---|---:|---:|---:|"
      for (i = 1; i <= n; i++) {
        split(want[i], w, "|")
        line = "| " w[1] " |"
        for (m = 1; m <= 4; m *= 2) {
          v = ratio[w[2], w[3], m * cores]
          line = line " " (v == "" ? "n/a" : v) " |"
        }
        print line
      }
    }' - "$summary"
}

case ${1:-} in
  --check | --update)
    (($# == 2)) || die "usage: headline.sh --check|--update README.md"
    readme=$2
    [[ -f $readme ]] || die "no file $readme"
    path=$(sed -n 's/^<!-- headline: \(.*\) -->$/\1/p' "$readme")
    [[ -n $path ]] || die "$readme has no '<!-- headline: PATH -->' line"
    fresh=$(block "$(dirname "$readme")/$path" "$path")
    current=$(awk '/^<!-- headline: / { on = 1; next } /^<!-- \/headline -->$/ { on = 0 } on' "$readme")
    if [[ $1 == --check ]]; then
      [[ $fresh == "$current" ]] && exit 0
      echo "headline.sh: $readme's headline table is not $path's; the table from it:"
      printf '%s\n' "$fresh"
      echo "(bench/epcc/headline.sh --update $readme rewrites it)"
      exit 1
    fi
    tmp=$(mktemp)
    awk -v fresh="$fresh" '
      /^<!-- headline: / { print; print fresh; skip = 1; next }
      /^<!-- \/headline -->$/ { skip = 0 }
      !skip' "$readme" >"$tmp"
    cat "$tmp" >"$readme"
    rm -f "$tmp"
    ;;
  -h | --help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' ;;
  "" | -*) die "usage: headline.sh SUMMARY.md | --check README.md | --update README.md" ;;
  *) block "$1" "$1" ;;
esac
