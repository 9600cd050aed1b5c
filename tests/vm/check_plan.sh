#!/usr/bin/env bash
# Compare the plan ext printed for a team (OMPEXT_VERBOSE=1) with what
# ompext-model says it should be for the same topology.  A team within one
# package: the plugin's own plan, `ompext-model --plan` (plan.c itself): the
# barrier, the method for 8 bytes, the copyprivate broadcast of 8 bytes and
# the fork/join tree.  A team spanning packages: the hierarchical plan as
# hier.c prices it (`ompext-model --op OP --topology`): a tree in each
# package and a barrier among the leaders, the reduction, the broadcast's
# fan-out, the fork/join tree in each package; and one leader per package
# exactly when the model's choice is hierarchical.  Used in the guests of
# tests/vm, whose topology is given.
#
#   check_plan.sh <ompext-model> <topology> <team size> <packages> <stderr>
#
# Prints each comparison; exits 1 on any mismatch or a line not found.
set -uo pipefail
model=$1 topology=$2 n=$3 packages=$4 err=$5
bad=0
mismatch() { echo "MISMATCH $*"; bad=1; }

# predict <op> [args]: "<algorithm> <parameters...>" for a team of n.
predict() {
  local op=$1
  shift
  "$model" --op "$op" --threads "$n" --topology "$topology" "$@" |
    awk -v n="$n" '$1 == n { s = $3; for (i = 4; i <= NF - 2; ++i)
      if ($i != "-") s = s " " $i; print s }'
}
# planned <op column>: what the plugin's plan runs (--plan's parameters).
planned() {
  "$model" --plan --threads "$n" --format csv |
    awk -F'"' -v op="$n,$1," 'index($1, op) == 1 { print $2 }'
}
line=$(grep -m1 "^omp-ext: team of $n: barrier=" "$err")
domains=$(grep -m1 "^omp-ext: team of $n: barrier tree(k=" "$err")
leaders=$(grep -m1 "^omp-ext: team of $n: $packages package domains, fork/join, reduction and broadcast with one leader per domain" "$err")
[ -n "$line" ] || { echo "no plan line for a team of $n in $err"; exit 1; }
echo "plan: $line"
[ -n "$domains" ] && echo "plan: $domains"
[ -n "$leaders" ] && echo "plan: $leaders"
hier=0

b=$(predict barrier)
echo "model: barrier $b"
case $b in
  "hier k="*" m="*)
    set -- $b
    hier=1
    want="omp-ext: team of $n: barrier tree(k=${2#k=}) in each domain, dissemination(m=${3#m=}) among $packages leaders"
    [ "$domains" = "$want" ] || mismatch "barrier: want '$want'" ;;
  *)
    p=$(planned barrier)
    echo "plan (ompext-model --plan): barrier $p"
    [[ -n $p && $line == *" barrier=$p "* ]] && [ -z "$domains" ] ||
      mismatch "barrier: want flat $p" ;;
esac

method=$(sed -nE 's/.* reduce=(by size\()?([a-z]+).*/\2/p' <<<"$line")
if [ $hier = 1 ]; then
  r=$(predict reduce --bytes 8)
  echo "model: reduce (8 B) $r"
  case $r in
    atomic | tree* | critical) [ "$method" = "${r%% *}" ] ||
      mismatch "reduce: want ${r%% *} for 8 bytes, the plan has $method" ;;
    hier*) [ "$method" = tree ] || mismatch "reduce: want tree across packages, the plan has $method" ;;
    *) mismatch "reduce: the model's prediction '$r' is not understood here" ;;
  esac
  c=$(predict copyprivate --bytes 8)
  echo "model: copyprivate (8 B) $c"
  case $c in
    "hier k="*) k=$(set -- $c; echo "${2#k=}") ;;
    *) k= ; mismatch "copyprivate: the model's prediction '$c' is not understood here" ;;
  esac
  f=$(predict fork_join)
  echo "model: fork_join $f"
  # "hier k=3 leaders k=1": the tree in each package is the leaders line's.
  set -- $f
  if [ "${1:-}" = hier ] && [[ ${2:-} == k=* ]]; then
    [[ $leaders == *"(fork/join tree(${2}) in each)"* ]] ||
      mismatch "fork_join: want tree(${2}) in each package"
  else
    mismatch "fork_join: the model's prediction '$f' is not understood here"
  fi
else
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
fi

if [ $hier = 1 ] && [ -z "$leaders" ]; then
  mismatch "leaders: the model's choice is hierarchical, the plan has no leader per package"
elif [ $hier = 0 ] && [ -n "$leaders$domains" ]; then
  mismatch "leaders: the model's choice is flat, the plan has leaders per package"
fi
# Hierarchical plans must have run as such: the stats count their steps.
if [ $hier = 1 ]; then
  for s in domain_barriers domain_reductions domain_broadcasts; do
    v=$(sed -n "s/.*omp-ext: stats:.* $s=\([0-9]*\).*/\1/p" "$err" | tail -n 1)
    [ "${v:-0}" -gt 0 ] || mismatch "stats: $s=${v:-none}, want more than 0"
  done
fi
[ $bad = 0 ] && echo "the plan is the model's"
exit $bad
