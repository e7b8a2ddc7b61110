#!/usr/bin/env bash
# Runs again every mutant that scripts/mutants-report.sh lists as missed and
# not explained (after tests were written for them), and those on new or
# moved lines of files changed since a shard ran on them; keeps the outcome in
# docs/mutants/NAME-recheck/, which the report reads after NAME.
#
#   scripts/mutants-recheck.sh shard-3-of-16
#
# cargo-mutants 27 applies neither -F nor -E to its "delete field … from
# struct … expression" mutants (22 here): they are re-run every time.
# Harmless: they only add outcomes.
set -euo pipefail
cd "$(dirname "$0")/.."
name="$1"
report="$(scripts/mutants-report.sh)"
names="$(sed -n '/^Missed, not explained:$/,/^$/p; /^Not run, in files changed since/,/^$/p' <<<"$report" | sed -n 's/^  //p')"
if [ -z "$names" ]; then
  echo "nothing missed and not explained, nothing moved: nothing to re-check"
  exit 0
fi
args=()
while IFS= read -r mutant; do
  # The whole name, as a regex matching only itself.
  args+=(-F "^$(printf '%s' "$mutant" | sed 's/[][\.*^$()+?{}|]/\\&/g')\$")
done <<<"$names"
commit="$(git rev-parse HEAD)"
out="target/mutants-recheck-$name"
set +e
PROPTEST_CASES="${PROPTEST_CASES:-32}" cargo mutants "${args[@]}" -j 2 --output "$out"
status=$?
set -e
case "$status" in 0 | 2 | 3) ;; *) echo "cargo mutants exited $status"; exit "$status" ;; esac
dest="docs/mutants/$name-recheck"
mkdir -p "$dest"
for f in caught.txt missed.txt timeout.txt unviable.txt; do
  cp "$out/mutants.out/$f" "$dest/$f"
done
{
  echo "commit: $commit"
  echo "date: $(date -u +%Y-%m-%d)"
  echo "what: after $name, the mutants still missed (re-run after the tests written for them) and those on new or moved lines"
  for f in caught missed timeout unviable; do
    echo "$f: $(wc -l <"$dest/$f.txt")"
  done
} >"$dest/summary.txt"
cat "$dest/summary.txt"
