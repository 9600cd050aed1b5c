#!/usr/bin/env bash
# bench.headline: the README's headline table is the committed summary.md's
# (headline.sh --check), and the check sees a changed number, which
# --update mends.
#
#   test_headline.sh <headline.sh> <repository root> <scratch dir>
set -euo pipefail
headline=$1 root=$2 dir=$3
fail() { echo "FAIL: $*"; exit 1; }

"$headline" --check "$root/README.md" || fail "README.md's headline table differs from its summary"

# A copy whose table has one number changed.
mkdir -p "$dir"
path=$(sed -n 's/^<!-- headline: \(.*\) -->$/\1/p' "$root/README.md")
mkdir -p "$dir/$(dirname "$path")"
cp "$root/$path" "$dir/$path"
awk '/^\| parallel region \|/ && !done { sub(/\| [0-9.]+ \|/, "| 9.99 |"); done = 1 } 1' \
  "$root/README.md" >"$dir/README.md"
cmp -s "$root/README.md" "$dir/README.md" && fail "the made-up change did not change the README"
if "$headline" --check "$dir/README.md" >"$dir/out.txt"; then
  fail "a changed number passed the check"
fi
grep -q "is not $path's" "$dir/out.txt" || fail "the check did not say why: $(cat "$dir/out.txt")"
"$headline" --update "$dir/README.md"
cmp -s "$root/README.md" "$dir/README.md" || fail "--update did not restore the table"
echo "headline table: checked, a changed number caught, --update restores it"
