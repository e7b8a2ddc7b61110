#!/usr/bin/env bash
# Runs shard K of N of the full mutation run over src/ and keeps its outcome
# in target/mutants-outcomes/ (the counts and every missed or timed-out mutant), so no
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
# shellcheck source=scripts/mutants-keep.sh
. scripts/mutants-keep.sh
run_and_keep "$out" "shard-$k-of-$n" "$commit" "" --shard "$k/$n"
