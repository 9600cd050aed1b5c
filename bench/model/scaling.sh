#!/usr/bin/env bash
# Projected scaling of omp-ext against the stock runtime (and libgomp), from
# the cost model alone: regenerates the tables of docs/scaling.md (between
# its "generated" markers) and the PNG plots in docs/scaling/.  Every set
# shows the plugin's own plan (ompext-model --plan: plan.c, and for a team
# spanning packages plan_layout.c, what the plugin runs).  With
# CSV_DIR=DIR it also keeps every team size's CSV there.  A set with a
# topology (after '|', OMPEXT_TOPOLOGY's spelling) is priced on it, up to
# its cores; OMPEXT_TOPOLOGY itself is ignored.
#
#   bench/model/scaling.sh [ompext-model]
#
# ompext-model defaults to $OMPEXT_BIN_DIR/ompext-model, else
# build/ext/bin/ompext-model (make build), else build-model/bin/ompext-model
# (the model's own build: cmake -S omp-ext/model -B build-model).  Needs
# gnuplot for the plots.  Runs in well under a minute, one core.
set -euo pipefail
unset OMPEXT_TOPOLOGY
here=$(cd "$(dirname "$0")/../.." && pwd)
model=${1:-}
if [[ -z $model ]]; then
  for cand in "${OMPEXT_BIN_DIR:-/nonexistent}/ompext-model" \
              "$here/build/ext/bin/ompext-model" \
              "$here/build-model/bin/ompext-model"; do
    [[ -x $cand ]] && { model=$cand; break; }
  done
fi
[[ -n $model && -x $model ]] || { echo "scaling.sh: no ompext-model (give its path)" >&2; exit 1; }
out=$here/docs/scaling
doc=$here/docs/scaling.md
mkdir -p "$out"
threads=2-256
shown="2 4 8 16 32 60 64 128 256"   # the rows of the markdown tables
topo_threads=2-64                   # a topology's: up to its cores
topo_shown="2 4 8 16 32 33 48 64"

# name:params[|topology]   (the calibration file by its path, relative to
# the repo)
sets=("xeon-phi-5110p:xeon-phi-5110p"
      "sandy-bridge-e5-2670:sandy-bridge-e5-2670"
      "this-machine:bench/model/this-machine.params"
      "this-machine-2x32:bench/model/this-machine.params|package:2 core:32 pu:1")
# case:op:bytes:title
cases=("barrier:barrier::barrier"
       "reduce-8:reduce:8:reduction, one scalar (8 B)"
       "reduce-4k:reduce:4096:reduction, 4 KiB array"
       "copyprivate-8:copyprivate:8:copyprivate, 8 B"
       "copyprivate-64k:copyprivate:65536:copyprivate, 64 KiB"
       "fork_join:fork_join::fork/join of an empty region")

# A gnuplot script for a --plan CSV: the plan's min and max and stock's,
# per team size, log scale, 720x450.
plan_plot() {
  cat <<GP
set terminal png size 720,450
set output '$2'
set datafile separator ','
set title "$3" font ",10"
set xlabel 'threads'
set ylabel 'ns'
set logscale y
set key top left
plot '< sed "s/\"[^\"]*\"/x/" $1' using 1:5 skip 1 with lines title 'ext plan min', \\
     '' using 1:6 skip 1 with lines title 'ext plan max', \\
     '' using 1:8 skip 1 with lines dashtype 2 title 'stock min', \\
     '' using 1:9 skip 1 with lines dashtype 2 title 'stock max'
GP
}

# ompext-model's CSV with a quoted "k=3,2" made k=3;2, so fields split on ','.
unquote() { sed -E ':a; s/("[^",]*),([^"]*")/\1;\2/; ta; s/"//g'; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tables=$work/tables.md
csv=${CSV_DIR:-$work}
mkdir -p "$csv"
command -v gnuplot >/dev/null || { echo "scaling.sh: gnuplot is needed for the plots" >&2; exit 1; }
cd "$here"
for set in "${sets[@]}"; do
  name=${set%%:*} params=${set#*:} topo=
  if [[ $params == *"|"* ]]; then topo=${params#*|} params=${params%%|*}; fi
  range=$threads rows=$shown
  printf '\n### %s\n' "$name" >>"$tables"
  if [[ -n $topo ]]; then
    range=$topo_threads rows=$topo_shown
    printf '\nOn the topology `%s` (`--topology`): teams of more than one package priced with R_X between packages.\n' "$topo" >>"$tables"
  fi
  for c in "${cases[@]}"; do
    IFS=: read -r tag op bytes title <<<"$c"
    extra=()
    [[ -n $bytes ]] && extra=(--bytes "$bytes")
    [[ -n $topo ]] && extra+=(--topology "$topo")
    base="$csv/$name-$tag" png="$out/$name-$tag.png"
    "$model" --params "$params" --plan --op "$op" --threads "$range" "${extra[@]}" \
      --format csv >"$base-stock.csv"
    plan_plot "$base-stock.csv" "$png" "$name: $title" >"$work/small.gp"
    gnuplot "$work/small.gp"
    "$model" --params "$params" --op "$op" --threads "$range" "${extra[@]}" \
      --compare libgomp --format csv >"$base-libgomp.csv"
    printf '\n%s (ns; ratio = ext / baseline, below 1: ext faster) [plot](scaling/%s)\n\n' \
      "$title" "$name-$tag.png" >>"$tables"
    echo "| threads | ext algorithm | ext min | ext max | stock | stock min | stock max | ext/stock min | ext/stock max | ext/libgomp min | ext/libgomp max |" >>"$tables"
    echo "|---:|---|---:|---:|---|---:|---:|---:|---:|---:|---:|" >>"$tables"
    join -t, <(unquote <"$base-stock.csv" | tail -n +2 | sort -t, -k1,1) \
             <(unquote <"$base-libgomp.csv" | tail -n +2 | sort -t, -k1,1) |
      sort -t, -k1,1n |
      awk -F, -v shown="$rows" '
        BEGIN { split(shown, s, " "); for (i in s) keep[s[i]] = 1 }
        keep[$1] {
          # ext against libgomp: the plan over libgomp'"'"'s cost
          printf "| %d | %s %s | %.0f | %.0f | %s | %.0f | %.0f | %.2f | %.2f | %.2f | %.2f |\n",
            $1, (index($4, $3) == 1 ? "" : $3), ($4 == "-" ? "" : $4), $5, $6, $7, $8, $9, $10, $11, $5 / $18, $6 / $19
        }' >>"$tables"
  done
done

# Replace the generated part of the document.
awk -v gen="$tables" '
  /<!-- generated by bench\/model\/scaling.sh: begin -->/ {
    print; while ((getline line < gen) > 0) print line; skip = 1; next }
  /<!-- generated by bench\/model\/scaling.sh: end -->/ { skip = 0 }
  !skip' "$doc" >"$doc.new"
mv "$doc.new" "$doc"
echo "scaling.sh: wrote $doc and $out/" >&2
