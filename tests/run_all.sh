#!/bin/sh
# Runs every Check program given as an argument, then every tests/*.sh script.
# Prints a closing "N passed, N failed" line over the programs and scripts run.
passed=0; failed=0; skipped=0
# Tests never touch the user's cache, workspace or progress.
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME="$tmp/cache" XDG_DATA_HOME="$tmp/data"
for t in "$@"; do
  echo "== $t"
  if "$t"; then passed=$((passed+1)); else failed=$((failed+1)); echo "FAILED: $t"; fi
done
for s in tests/*.sh; do
  [ "$s" = tests/run_all.sh ] && continue
  [ -f "$s" ] || continue
  echo "== $s"
  sh "$s"; rc=$?
  if [ $rc = 0 ]; then passed=$((passed+1));
  elif [ $rc = 77 ]; then skipped=$((skipped+1)); echo "SKIP: $s";
  else failed=$((failed+1)); echo "FAILED: $s"; fi
done
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed = 0 ]
