#!/usr/bin/env bash
# The cost model's min/max band beside measured costs on this machine.
#
#   bench/model/validate.sh [output dir]   (default bench/results/<machine>)
#
# 1. ompext-calibrate measures this machine's parameters (default mode);
# 2. ompext-model predicts each algorithm's [min, max] with them, for the
#    configuration the Google Benchmark harness runs;
# 3. ompext-gbench measures those configurations on pinned threads.
# Writes model-validation.csv: algorithm,config,threads,bytes,model_min_ns,
# model_max_ns,measured_ns,inside,oversubscribed.  Team sizes above the
# core count are oversubscribed: the model assumes one thread per core.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
bin=${OMPEXT_BIN_DIR:-$here/build/ext/bin}
for tool in ompext-calibrate ompext-model ompext-gbench; do
  [[ -x $bin/$tool ]] || { echo "validate.sh: $bin/$tool missing: run 'make build'" >&2; exit 1; }
done
cores=$(nproc)
# shellcheck source=bench/epcc/machine_slug.sh
source "$here/bench/epcc/machine_slug.sh"
machine=${BENCH_MACHINE:-$(machine_slug "$cores")}
out=${1:-$here/bench/results/$machine}
threads=${VALIDATE_THREADS:-"2 4 8"}
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "validate.sh: calibrating (about 10 s)" >&2
"$bin/ompext-calibrate" -o "$work/calibration.txt" >/dev/null
cp "$work/calibration.txt" "$out/calibration.txt"

echo "validate.sh: measuring with ompext-gbench (threads: $threads)" >&2
OMPEXT_GBENCH_THREADS=$(echo $threads | tr ' ' ',') "$bin/ompext-gbench" \
  --benchmark_filter='BM_Barrier/(dissemination/m:1|tree/k:2|tournament|centralized)/|BM_Reduce/tree/fanin:2/|BM_Bcast/flat/bytes:(8|65536|1048576)/' \
  --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_min_time=0.2 --benchmark_format=csv 2>/dev/null |
  awk -F, '/_median"?,/ { gsub(/"/, "", $1); print $1 "," $3 }' >"$work/measured.csv"

# model <op> <algorithm> <fix> <n> [bytes] -> "min,max"
model() {
  local extra=()
  [[ -n ${5:-} ]] && extra=(--bytes "$5")
  # The measured machine, priced flat whatever OMPEXT_TOPOLOGY says.
  env -u OMPEXT_TOPOLOGY "$bin/ompext-model" --params "$work/calibration.txt" --op "$1" \
    --algorithm "$2" ${3:+--fix "$3"} --threads "$4-$4" "${extra[@]}" \
    --format csv | awk -F, 'NR == 2 { print $(NF-1) "," $NF }'
}

echo "algorithm,config,threads,bytes,model_min_ns,model_max_ns,measured_ns,inside,oversubscribed" >"$out/model-validation.csv"
while IFS=, read -r name ns; do
  n=$(sed -E 's/.*threads:([0-9]+).*/\1/' <<<"$name")
  bytes=""
  case $name in
    BM_Barrier/dissemination/m:1*) op=barrier alg=dissemination fix=m=1 cfg=m=1 ;;
    BM_Barrier/tree/k:2*)          op=barrier alg=tree fix=k=2 cfg=k=2 ;;
    BM_Barrier/tournament*)        op=barrier alg=tournament fix=k=0 cfg=k=0 ;;
    BM_Barrier/centralized*)       op=barrier alg=centralized fix= cfg=- ;;
    BM_Reduce/tree/fanin:2*)       op=reduce alg=tree fix= cfg=best ;;
    BM_Bcast/flat/bytes:*)         op=bcast alg=flat fix= cfg=- bytes=$(sed -E 's/.*bytes:([0-9]+).*/\1/' <<<"$name") ;;
    *) continue ;;
  esac
  band=$(model "$op" "$alg" "$fix" "$n" "$bytes") || band=","
  inside=$(awk -F, -v b="$band" -v m="$ns" 'BEGIN { split(b, x, ","); print (m >= x[1] && m <= x[2]) ? "yes" : (m < x[1] ? "below" : "above") }')
  over=$([[ $n -gt $cores ]] && echo yes || echo no)
  echo "$op/$alg,$cfg,$n,${bytes:-0},$band,$ns,$inside,$over" >>"$out/model-validation.csv"
done <"$work/measured.csv"
echo "validate.sh: wrote $out/model-validation.csv and $out/calibration.txt" >&2
column -s, -t "$out/model-validation.csv"
