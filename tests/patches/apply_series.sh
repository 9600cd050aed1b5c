#!/usr/bin/env bash
# How cmake/RuntimeVariant.cmake applies a patch series, on a small made-up
# tree: the per-release override replaces the common patch of the same name
# for that release only, and a patch whose context has drifted (it would
# apply with fuzz) fails the whole series instead of landing elsewhere.
#
#   apply_series.sh <cmake> <RuntimeVariant.cmake> <patch program> <scratch dir>
set -euo pipefail
cmake=$1 script=$2 patch_prog=$3 scratch=$4
rm -rf "$scratch"; mkdir -p "$scratch"; cd "$scratch"
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# A pristine "LLVM" tree: openmp/hooks.c, plus the siblings the script links.
mkdir -p llvm-root/openmp llvm-root/cmake llvm-root/llvm
printf '%s\n' one two three four five six seven eight nine > llvm-root/openmp/hooks.c
mkdir -p series
printf '0001-hook.patch\n' > series/series
# Common patch: a line after "five".
cat > series/0001-hook.patch <<'P'
--- a/openmp/hooks.c
+++ b/openmp/hooks.c
@@ -3,6 +3,7 @@
 three
 four
 five
+common hook
 six
 seven
 eight
P
mkdir -p series/9.9.9
sed 's/common hook/override hook/' series/0001-hook.patch > series/9.9.9/0001-hook.patch

apply() { # release dest
  "$cmake" -DOMPEXT_APPLY_PATCHES=ON -DLLVM_ROOT="$PWD/llvm-root" -DRELEASE="$1" \
    -DSERIES="$PWD/series/series" -DDEST="$PWD/$2" -DSTAMP="$PWD/$2/stamp" \
    -DPATCH_PROGRAM="$patch_prog" -P "$script" >"$2.log" 2>&1
}

apply 1.0.0 common || fail "the common patch did not apply: $(cat common.log)"
grep -qx 'common hook' common/openmp/hooks.c || fail "release 1.0.0 did not get the common patch"
grep -qx '0001-hook.patch' common/stamp || fail "stamp of 1.0.0 does not name the common patch"

apply 9.9.9 override || fail "the override did not apply: $(cat override.log)"
grep -qx 'override hook' override/openmp/hooks.c || fail "release 9.9.9 did not get its override"
grep -q 'common hook' override/openmp/hooks.c && fail "release 9.9.9 got the common patch too"
grep -qx '9.9.9/0001-hook.patch' override/stamp || fail "stamp of 9.9.9 does not name the override"

# Drift: "seven" changed upstream. patch's default fuzz would still apply
# the hunk; --fuzz=0 must refuse it, and the series must fail.
sed -i 's/^seven$/seven (changed upstream)/' llvm-root/openmp/hooks.c
if apply 1.0.0 drift; then
  fail "a patch whose context drifted was applied: $(cat drift.log)"
else
  grep -q "Hunk #1 FAILED" drift.log && grep -q "0001-hook.patch" drift.log || fail "the drift failure does not say what failed: $(cat drift.log)"
fi
# The same drift with fuzz allowed would apply: the check above is not vacuous.
cp llvm-root/openmp/hooks.c fuzzy.c
sed 's|openmp/hooks.c|fuzzy.c|' series/0001-hook.patch | "$patch_prog" -p1 --fuzz=2 --batch -s fuzzy.c \
  || fail "control: the drifted hunk should apply with fuzz 2"

if [ "$failures" -ne 0 ]; then
  echo "apply_series: $failures failure(s)" >&2
  exit 1
fi
echo "apply_series: override per release, --fuzz=0 refuses drift: ok"
