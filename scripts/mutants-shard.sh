#!/usr/bin/env bash
# Runs shard K of N of the full mutation run over src/ and keeps its outcome
# in docs/mutants/ (the counts and every missed or timed-out mutant), so no
# shard is run twice. docs/MUTANTS.md lists which shards ran on which commit.
#
#   scripts/mutants-shard.sh 0 16
set -euo pipefail
cd "$(dirname "$0")/.."
k="$1"
n="$2"
out="target/mutants-shard-$k-of-$n"
# The commit the shard tests (the tree may move on while it runs).
commit="$(git rev-parse HEAD)"
set +e
PROPTEST_CASES="${PROPTEST_CASES:-32}" cargo mutants --shard "$k/$n" -j 2 --output "$out"
status=$?
set -e
# 0: all caught; 2: some missed; 3: some timed out. Anything else is a failure of the run.
case "$status" in 0 | 2 | 3) ;; *) echo "cargo mutants exited $status"; exit "$status" ;; esac
dest="docs/mutants/shard-$k-of-$n"
mkdir -p "$dest"
for f in caught.txt missed.txt timeout.txt unviable.txt; do
  cp "$out/mutants.out/$f" "$dest/$f"
done
{
  echo "commit: $commit"
  echo "date: $(date -u +%Y-%m-%d)"
  for f in caught missed timeout unviable; do
    echo "$f: $(wc -l <"$dest/$f.txt")"
  done
} >"$dest/summary.txt"
cat "$dest/summary.txt"
