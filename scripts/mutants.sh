#!/usr/bin/env bash
# Mutation-tests a change: only the mutants on lines the current branch
# changed in src/ against a base (default: main).
#
#   scripts/mutants.sh            # against main
#   scripts/mutants.sh origin/main
#
# Every "MISSED" line is a change to your code that no test noticed: add a
# test that fails on it, or explain in docs/MUTANTS.md why it cannot change
# any result. Run it before asking for review of a change to src/route,
# src/decimal, src/order, src/screening or src/client. Settings:
# .cargo/mutants.toml; more in docs/MUTANTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
base="${1:-main}"
if ! command -v cargo-mutants >/dev/null 2>&1; then
  cargo install cargo-mutants --locked
fi
if ! cargo nextest --version >/dev/null 2>&1; then
  cargo install cargo-nextest --locked
fi
diff="$(mktemp)"
trap 'rm -f "$diff"' EXIT
git diff "$(git merge-base "$base" HEAD)" -- src >"$diff"
if [ ! -s "$diff" ]; then
  echo "no change to src/ against $base: nothing to mutate"
  exit 0
fi
# Fewer proptest cases per mutant: a mutant caught at all is caught in the
# first few dozen cases, and the whole suite runs once per mutant.
# Each mutant runs the tests of the mutated package, `swaproute`: its unit
# tests and the integration suite (.cargo/mutants.toml). `--no-tests=pass`
# keeps a nextest filter that selects nothing from failing the run. Extra
# arguments after the base go to nextest, e.g.
# `scripts/mutants.sh main -E 'test(/split/)'`.
shift || true
PROPTEST_CASES="${PROPTEST_CASES:-32}" cargo mutants --in-diff "$diff" -j 2 --output target/mutants-diff \
  -- --no-tests=pass "$@"
