#!/usr/bin/env bash
# Compare the plan ext printed for a team (OMPEXT_VERBOSE=1) with what
# ompext-model says it should be for the same topology.  A team within one
# package: the plugin's own plan, `ompext-model --plan` (plan.c itself): the
# barrier, the method for 8 bytes, the copyprivate broadcast of 8 bytes and
# the fork/join tree.  A team spanning packages: the layout line, each
# collective on the leaders, flat or the runtime's with its predicted ratio
# to stock, must be the one `ompext-model --plan --topology` prints
# (plan_layout.c, from the model's view of the topology), and the stats
# must show the leaders' steps exactly where the line has leaders.  Used in
# the guests of tests/vm, whose topology is given.
#
#   check_plan.sh <ompext-model> <topology> <team size> <packages> <stderr>
#
# CHECK_PLAN_STATS=0: the layout line only (stderr of several team sizes,
# whose stats add up).
#
# Prints each comparison; exits 1 on any mismatch or a line not found.
set -uo pipefail
model=$1 topology=$2 n=$3 packages=$4 err=$5
bad=0
mismatch() { echo "MISMATCH $*"; bad=1; }

# planned <op column>: what the plugin's plan runs (--plan's parameters).
planned() {
  "$model" --plan --threads "$n" --format csv |
    awk -F'"' -v op="$n,$1," 'index($1, op) == 1 { print $2 }'
}
# stats <counter>: its value in the OMPEXT_STATS=1 line (0 if absent).
stats() {
  local v
  v=$(sed -n "s/.*omp-ext: stats:.* $1=\([0-9]*\).*/\1/p" "$err" | tail -n 1)
  echo "${v:-0}"
}

want=$("$model" --plan --threads "$n" --topology "$topology" |
  sed -n "s/^# \(team of $n: .*\)/\1/p")
if [ -n "$want" ]; then
  got=$(sed -n "s/^omp-ext: \(team of $n: $packages package domains: .*\)/\1/p" "$err" | head -n 1)
  echo "model: $want"
  echo "plan:  $got"
  [ "$got" = "$want" ] || mismatch "layout: the plugin's line is not the model's"
  # collective <name in the line> <counter>: leaders ran exactly where
  # the line has them (a reduction may take atomics, so only "flat" is
  # checked there).
  collective() {
    local c
    c=$(stats "$2")
    case $want in
      *"$1 leaders"*) [ "$1" = reduction ] || [ "$c" -gt 0 ] ||
        mismatch "stats: $2=$c, want more than 0 ($1 on the leaders)" ;;
      *) [ "$c" = 0 ] || mismatch "stats: $2=$c, want 0 ($1 not on the leaders)" ;;
    esac
  }
  if [ "${CHECK_PLAN_STATS:-1}" != 0 ]; then
    collective barrier domain_barriers
    collective reduction domain_reductions
    collective copyprivate domain_broadcasts
  fi
  [ $bad = 0 ] && echo "the plan is the model's"
  exit $bad
fi

line=$(grep -m1 "^omp-ext: team of $n: barrier=" "$err")
domains=$(grep -m1 "^omp-ext: team of $n: barrier tree(k=" "$err")
leaders=$(grep -m1 "^omp-ext: team of $n: [0-9]* package domains" "$err")
[ -n "$line" ] || { echo "no plan line for a team of $n in $err"; exit 1; }
echo "plan: $line"
[ -n "$domains" ] && echo "plan: $domains"
[ -n "$leaders" ] && echo "plan: $leaders"
p=$(planned barrier)
echo "plan (ompext-model --plan): barrier $p"
[[ -n $p && $line == *" barrier=$p "* ]] && [ -z "$domains" ] ||
  mismatch "barrier: want flat $p"

method=$(sed -nE 's/.* reduce=(by size\()?([a-z]+).*/\2/p' <<<"$line")
r=$(planned reduce:8)
echo "plan (ompext-model --plan): reduce (8 B) $r"
[ -n "$r" ] && [ "$method" = "${r%%(*}" ] ||
  mismatch "reduce: want ${r%%(*} for 8 bytes, the plan has $method"
c=$(planned copyprivate:8)
echo "plan (ompext-model --plan): copyprivate (8 B) $c"
# "flat, then ..." (fan-out n-1) or "tree(k=4[, copies from the root]), ..."
case $c in
  flat*) k=$((n - 1)) from= ;;
  "tree(k="*) k=$(sed -nE 's/^tree\(k=([0-9]+).*/\1/p' <<<"$c")
     from=; [[ $c == *"copies from the root"* ]] && from=" from root" ;;
  *) k= ; mismatch "copyprivate: the plan's '$c' is not understood here" ;;
esac
# "bcast=tree(k=4,..." or "bcast=tree(k=4 from root,...".
[ -z "$k" ] || [[ $line == *" bcast=tree(k=$k$from,"* ]] ||
  mismatch "copyprivate: want a broadcast tree(k=$k$from)"
f=$(planned fork_join)
echo "plan (ompext-model --plan): fork_join $f"
[[ -n $f && $line == *" forkjoin=$f "* ]] ||
  mismatch "fork_join: want forkjoin=$f"

[ -z "$leaders$domains" ] ||
  mismatch "leaders: a team within one package has leaders per package"
[ $bad = 0 ] && echo "the plan is the model's"
exit $bad
