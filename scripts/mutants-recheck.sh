#!/usr/bin/env bash
# Runs again every mutant that scripts/mutants-report.sh lists as missed and
# not explained (after tests were written for them), and those on new or
# moved lines of files changed since a shard ran on them; keeps the outcome in
# target/mutants-outcomes/NAME-recheck/, which the report reads after NAME.
#
#   scripts/mutants-recheck.sh shard-3-of-16
#   scripts/mutants-recheck.sh --gaps final
#
# With --gaps it also runs every mutant no kept run has an outcome for: once
# all shards have run, the ones the moving shard slices left out.
#
# cargo-mutants 27 applies neither -F nor -E to its "delete field … from
# struct … expression" mutants (22 here): they are re-run every time.
# Harmless: they only add outcomes.
set -euo pipefail
cd "$(dirname "$0")/.."
gaps=""
if [ "${1:-}" = "--gaps" ]; then
  gaps="--gaps"
  shift
fi
name="$1"
report="$(scripts/mutants-report.sh ${gaps:+"$gaps"})"
# Each section is a header line, then one name a line indented by two spaces.
names="$(sed -n '/^Missed, not explained:$/,/^$/p; /^Not run, in files changed since/,/^$/p; /^Not run:$/,/^$/p' <<<"$report" | sed -n 's/^  //p' | sort -u)"
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
# shellcheck source=scripts/mutants-keep.sh
. scripts/mutants-keep.sh
run_and_keep "$out" "$name-recheck" "$commit" \
  "after $name, the mutants still missed (re-run after the tests written for them) and those on new or moved lines${gaps:+, and every mutant not yet run}" \
  "${args[@]}"
