#!/usr/bin/env bash
# Sums the outcomes kept in target/mutants-outcomes/*/ (one directory per shard or
# targeted run) into the per-module table of docs/MUTANTS.md, and says which
# mutants of today's code no kept run has an outcome for.
#
#   scripts/mutants-report.sh          # the table, then the coverage line
#   scripts/mutants-report.sh --gaps   # also list the mutants not yet run
#
# A mutant is named by cargo-mutants as `file:line:col: description`. A
# mutant run twice (a re-check after new tests) counts with its newest
# outcome: runs are read in the order of the commits they tested (then by
# name, so `shard-3-of-16-recheck` comes after `shard-3-of-16`).
# "Explained" are the missed mutants docs/MUTANTS.md lists as equivalent, in
# docs/mutants/equivalent.txt (one name a line, `#` comments allowed).
set -euo pipefail
cd "$(dirname "$0")/.."

gaps=false
[ "${1:-}" = "--gaps" ] && gaps=true

outcomes="$(mktemp)"
current="$(mktemp)"
trap 'rm -f "$outcomes" "$current"' EXIT

# Oldest first, so a newer outcome wins: by the time of the commit each run
# tested (its summary.txt), then by name (a re-check after its shard).
export LC_ALL=C
runs="$(for dir in target/mutants-outcomes/*; do
  [ -f "$dir/summary.txt" ] || continue
  commit="$(sed -n 's/^commit: //p' "$dir/summary.txt")"
  when="$(git show -s --format=%ct "$commit" 2>/dev/null || echo 0)"
  printf '%s\t%s\n' "$when" "$dir"
done | sort -t "$(printf '\t')" -k1,1n -k2,2V | cut -f2)"
for dir in $runs; do
  for kind in caught missed timeout unviable; do
    f="$dir/$kind.txt"
    [ -f "$f" ] || continue
    awk -v kind="$kind" 'NF { print kind "\t" $0 }' "$f"
  done
done >"$outcomes"

# Files a whole shard ran on that have changed since its commit: their
# mutants without an outcome are on new or moved lines (the rest of the
# not-run mutants are simply beyond the shards run so far).
changed="$(for dir in $runs; do
  case "$dir" in *-recheck) continue ;; esac
  commit="$(sed -n 's/^commit: //p' "$dir/summary.txt")"
  git diff --name-only "$commit" -- src 2>/dev/null \
    | grep -Fx -f <(cut -d: -f1 "$dir"/*.txt | sort -u) || true
done | sort -u | tr '\n' ' ')"

equivalent="docs/mutants/equivalent.txt"
[ -f "$equivalent" ] || equivalent=/dev/null

cargo mutants --list >"$current"

awk -F '\t' -v equivalent="$equivalent" -v outcomes="$outcomes" -v GAPS="$gaps" -v changed="$changed" '
  FILENAME == equivalent { if ($0 !~ /^#/ && NF) explained[$0] = 1; next }
  BEGIN { n = split(changed, files, " "); for (i = 1; i <= n; i++) covered[files[i]] = 1 }
  FILENAME == outcomes { outcome[$2] = $1; next }
  {
    name = $0
    split(name, parts, ":")
    file = parts[1]
    module = file
    sub(/^src\//, "", module)
    # A module is the first directory under src/, or the file itself.
    if (index(module, "/")) module = substr(module, 1, index(module, "/") - 1)
    else sub(/\.rs$/, "", module)
    mutants[module]++
    total++
    o = (name in outcome) ? outcome[name] : "notrun"
    if (o == "missed" && (name in explained)) o = "explained"
    count[module, o]++
    all[o]++
    if (o == "notrun") pending[++npending] = name
    if (o == "notrun" && (file in covered)) moved[++nmoved] = name
    if (o == "missed") open_[++nopen] = name
  }
  # Timeouts count as caught: the mutant made the tests hang, not pass.
  function pct(m, with_explained,    viable, good) {
    viable = count[m, "caught"] + count[m, "timeout"] + count[m, "missed"] + count[m, "explained"]
    if (viable == 0) return "-"
    good = count[m, "caught"] + count[m, "timeout"]
    if (with_explained) good += count[m, "explained"]
    return sprintf("%.1f%%", 100 * good / viable)
  }
  END {
    print "| module | mutants | run | caught | timeout | missed | explained | unviable | % caught | % caught or explained |"
    print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    n = 0
    for (m in mutants) names[++n] = m
    # insertion sort: awk has no portable sort
    for (i = 2; i <= n; i++) { v = names[i]; j = i - 1; while (j > 0 && names[j] > v) { names[j + 1] = names[j]; j-- } names[j + 1] = v }
    for (i = 1; i <= n; i++) {
      m = names[i]
      run = mutants[m] - count[m, "notrun"]
      printf "| `%s` | %d | %d | %d | %d | %d | %d | %d | %s | %s |\n", m, mutants[m], run, count[m, "caught"], count[m, "timeout"], count[m, "missed"], count[m, "explained"], count[m, "unviable"], pct(m, 0), pct(m, 1)
    }
    for (o in all) count["ALL", o] = all[o]
    printf "| **all** | %d | %d | %d | %d | %d | %d | %d | %s | %s |\n", total, total - all["notrun"], all["caught"], all["timeout"], all["missed"], all["explained"], all["unviable"], pct("ALL", 0), pct("ALL", 1)
    printf "\n%d of %d mutants of today'"'"'s code have a kept outcome; %d missed and not explained.\n", total - all["notrun"], total, all["missed"]
    if (nopen > 0) { print "\nMissed, not explained:"; for (i = 1; i <= nopen; i++) print "  " open_[i] }
    if (nmoved > 0) { print "\nNot run, in files changed since a shard ran on them (new or moved lines):"; for (i = 1; i <= nmoved; i++) print "  " moved[i] }
    if (GAPS == "true" && npending > 0) { print "\nNot run:"; for (i = 1; i <= npending; i++) print "  " pending[i] }
  }
' "$equivalent" "$outcomes" "$current"
