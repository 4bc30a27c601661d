#!/bin/sh
# Runs every Check program given as an argument, then every tests/*.sh script, JOBS of
# them at a time: GPULEARN_TEST_JOBS (make check passes its -j N), else the processors.
# Each runs with cache and data folders of its own (it never touches the user's), its
# output captured and printed whole, in that order, as soon as it and every one before
# it have ended. Prints a closing "N passed, N failed, N skipped" line over them all.
jobs=${GPULEARN_TEST_JOBS:-}
[ -n "$jobs" ] || jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
case $jobs in '' | *[!0-9]* | 0) jobs=1 ;; esac
# Tests that run alone, nothing else beside them, and why (none at present: the TUI
# tests use tmux servers of their own, every test its own temporary folders, no test
# builds or listens on a port).
serial=""
# The tests are what runs at once: a grading inside one makes its runs one after the
# other (tests/grade_jobs.sh asks for workers itself), and a launch runs its blocks on
# one thread (tests/sim_threads.sh and test_sim_par ask for more themselves), so that N
# tests keep N cores busy and no launch nears its wall-time limit for want of one
# (lesson 9's 131073-block reduce_strided under AddressSanitizer on 2 loaded cores did).
export GPULEARN_JOBS=${GPULEARN_JOBS:-1}
export GPULEARN_SIM_THREADS=${GPULEARN_SIM_THREADS:-1}
passed=0; failed=0; skipped=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# the list: name_I and kind_I (prog: a Check program; script: sh, exit 77 a skip)
n=0
for t in "$@"; do
  n=$((n+1)); eval "name_$n=\$t kind_$n=prog"
done
for s in tests/*.sh; do
  [ "$s" = tests/run_all.sh ] && continue
  [ -f "$s" ] || continue
  n=$((n+1)); eval "name_$n=\$s kind_$n=script"
done

# start I: runs test I in the background; $tmp/I/rc appears (whole) when it has ended
start() {
  eval "t=\$name_$1 k=\$kind_$1"
  d=$tmp/$1; mkdir -p "$d/cache" "$d/data"
  (
    export XDG_CACHE_HOME="$d/cache" XDG_DATA_HOME="$d/data"
    if [ "$k" = prog ]; then "$t"; else sh "$t"; fi >"$d/out" 2>&1 </dev/null
    echo $? >"$d/rc.part"; mv "$d/rc.part" "$d/rc"
  ) &
}

# report I: prints test I's output and counts its verdict
report() {
  eval "t=\$name_$1 k=\$kind_$1"
  d=$tmp/$1; rc=$(cat "$d/rc")
  echo "== $t"
  cat "$d/out"
  if [ "$rc" = 0 ]; then passed=$((passed+1))
  elif [ "$k" = script ] && [ "$rc" = 77 ]; then skipped=$((skipped+1)); echo "SKIP: $t"
  else failed=$((failed+1)); echo "FAILED: $t"; fi
  rm -rf "$d"
}

is_serial() {
  eval "t=\$name_$1"
  for x in $serial; do [ "$x" = "$t" ] && return 0; done
  return 1
}

next=1    # the next test to start
shown=1   # the next test to print
ended=0   # tests started and ended (printed or not)
alone=0   # a serial test running, or 0
while [ $shown -le $n ]; do
  while [ $next -le $n ] && [ $((next - 1 - ended)) -lt "$jobs" ]; do
    [ $alone -ge $shown ] && [ ! -f "$tmp/$alone/rc" ] && break
    if is_serial $next; then
      [ $((next - 1 - ended)) -gt 0 ] && break
      alone=$next
    fi
    start $next; next=$((next+1))
  done
  while [ $shown -lt $next ] && [ -f "$tmp/$shown/rc" ]; do
    report $shown; shown=$((shown+1))
  done
  ended=$((shown - 1))
  i=$shown
  while [ $i -lt $next ]; do
    [ -f "$tmp/$i/rc" ] && ended=$((ended+1))
    i=$((i+1))
  done
  [ $shown -le $n ] && { sleep 0.1 2>/dev/null || sleep 1; }
done
wait
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed = 0 ]
