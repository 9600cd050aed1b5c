#!/usr/bin/env bash
# docs.settings: every OMPEXT_* variable the plugin or the patch reads has
# its section in docs/settings.md and its row in the README's settings
# table, and neither names a variable nothing reads.
#
#   check_settings.sh <repository root>
set -euo pipefail
root=$1
read_vars=$(grep -rhoE '"OMPEXT(_[A-Z]+)*"' "$root/omp-ext/src" "$root/patches" | tr -d '"' | sort -u)
doc_vars=$(sed -n 's/^### `\(OMPEXT[A-Z_]*\)`$/\1/p' "$root/docs/settings.md" | sort -u)
readme_vars=$(sed -n 's/^| `\(OMPEXT[A-Z_]*\)` |.*/\1/p' "$root/README.md" | sort -u)
[[ -n $read_vars ]] || { echo "FAIL: found no OMPEXT_* variable in the sources"; exit 1; }
status=0
for where in docs/settings.md README.md; do
  listed=$doc_vars
  [[ $where == README.md ]] && listed=$readme_vars
  missing=$(comm -23 <(printf '%s\n' "$read_vars") <(printf '%s\n' "$listed"))
  extra=$(comm -13 <(printf '%s\n' "$read_vars") <(printf '%s\n' "$listed"))
  [[ -z $missing ]] || { echo "FAIL: $where does not describe:" $missing; status=1; }
  [[ -z $extra ]] || { echo "FAIL: $where describes variables nothing reads:" $extra; status=1; }
done
((status == 0)) && echo "settings: $(wc -w <<<"$read_vars") variables, each in docs/settings.md and README.md"
exit $status
