#!/bin/sh
# Runs one OpenMP program under an OMPT tool on the stock runtime and on the
# ext runtime (plugin on, OMPEXT_STATS=1, and --expect-plugin=yes so that the
# program itself checks that the plugin's paths ran), and compares what the
# tool saw:
#   counts  the tool is sync_count_tool.c: its counts of sync_region and
#           sync_region_wait begin/end events per kind, of atomic mutex
#           acquire/acquired/released events, and of pairing errors, must
#           be equal;
#   archer  the tool is Archer and the program is built with
#           -fsanitize=thread: ext must report no race at a location stock
#           does not.  A location is the innermost frame (function,
#           file:line:column) of each stack of a report; reports go to files
#           (log_path), since the program captures its own stderr.  Both
#           sides run with the same TSAN_OPTIONS.
#
# usage: compare_stock_ext.sh counts|archer <tool.so> <stock lib dir>
#          <ext lib dir> <output dir> <name> [--ext-arg=ARG...]
#          <program> [arguments...]
# Each --ext-arg=ARG is passed to the program on ext only (an --expect-...
# option about the plugin's paths).  The rest of the environment
# (OMP_NUM_THREADS, KMP_FORCE_REDUCTION, ...) is the caller's, the same on
# both sides.
set -u
mode=$1 tool=$2 stock=$3 ext=$4 outdir=$5 name=$6
shift 6
ext_args=""
while [ $# -gt 0 ]; do
  case $1 in
  --ext-arg=*) ext_args="$ext_args ${1#--ext-arg=}" ;;
  *) break ;;
  esac
  shift
done
mkdir -p "$outdir" || exit 1

run() { # <side> <lib dir> <program options> <extra env...> <program...>
  side=$1 libdir=$2 options=$3
  shift 3
  out="$outdir/$name.$side"
  rm -f "$out".*
  env LD_LIBRARY_PATH="$libdir" OMP_TOOL=enabled OMP_TOOL_LIBRARIES="$tool" \
    OMPT_SYNC_COUNT_OUT="$out.txt" \
    TSAN_OPTIONS="ignore_noninstrumented_modules=1 exitcode=0 log_path=$out.report" \
    "$@" $options || {
    echo "compare_stock_ext: the program failed on $side"
    exit 1
  }
  if [ "$mode" = counts ]; then
    grep -q '^sync_region ' "$out.txt" 2>/dev/null || {
      echo "compare_stock_ext: the tool reported no sync region on $side"
      exit 1
    }
    echo "$side:"
    cat "$out.txt"
  else
    cat "$out".report.* 2>/dev/null |
      awk '/WARNING: ThreadSanitizer/ { inside = 1 }
           /^SUMMARY: ThreadSanitizer/ { inside = 0 }
           inside && /^ +#0 / { sub(/ \(.*$/, ""); sub(/^ +#0 /, ""); print }' |
      sort -u >"$out.txt"
    echo "$side: $(cat "$out".report.* 2>/dev/null |
      grep -c 'WARNING: ThreadSanitizer') warning(s)"
  fi
}

run stock "$stock" --expect-plugin=no OMPEXT=off "$@"
run ext "$ext" "--expect-plugin=yes$ext_args" OMPEXT_STATS=1 "$@"
if [ "$mode" = counts ]; then
  diff "$outdir/$name.stock.txt" "$outdir/$name.ext.txt" || {
    echo "compare_stock_ext: the counts differ (< stock, > ext)"
    exit 1
  }
  echo "compare_stock_ext: ext reports the same events as stock"
else
  new=$(comm -13 "$outdir/$name.stock.txt" "$outdir/$name.ext.txt")
  if [ -n "$new" ]; then
    echo "compare_stock_ext: ext reports races stock does not, at:"
    echo "$new"
    exit 1
  fi
  echo "compare_stock_ext: ext reports no race location stock does not"
fi
exit 0
