# Sourced by scripts/mutants-shard.sh and scripts/mutants-recheck.sh: runs
# cargo mutants (PROPTEST_CASES 32, two jobs) into target/OUT and keeps its
# outcome in target/mutants-outcomes/DEST/ with a summary.txt naming COMMIT.
#
#   run_and_keep OUT DEST COMMIT WHAT [cargo mutants args...]
# WHAT (may be empty) becomes the summary's "what:" line.
run_and_keep() {
  local out="$1" dest="target/mutants-outcomes/$2" commit="$3" what="$4"
  shift 4
  local status
  set +e
  PROPTEST_CASES="${PROPTEST_CASES:-32}" cargo mutants "$@" -j 2 --output "$out"
  status=$?
  set -e
  # 0: all caught; 2: some missed; 3: some timed out. Anything else is a failure of the run.
  case "$status" in 0 | 2 | 3) ;; *) echo "cargo mutants exited $status"; exit "$status" ;; esac
  mkdir -p "$dest"
  for f in caught missed timeout unviable; do
    cp "$out/mutants.out/$f.txt" "$dest/$f.txt"
  done
  {
    echo "commit: $commit"
    echo "date: $(date -u +%Y-%m-%d)"
    [ -z "$what" ] || echo "what: $what"
    for f in caught missed timeout unviable; do
      echo "$f: $(wc -l <"$dest/$f.txt")"
    done
  } >"$dest/summary.txt"
  cat "$dest/summary.txt"
}
