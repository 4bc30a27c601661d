#!/bin/sh
# fuzz_campaign.sh — a libFuzzer campaign of a fixed number of executions per target, on
# the GPU machine's 16 cores (10 million executions of each target).
#
#   FUZZ_JOBS=16 sh tools/fuzz_campaign.sh [TARGET...]
#
# TARGET: ptx, spec, lesson (default all three; one per call where a call may run 10
# minutes: fuzz_ptx needs about 9 of them on 16 cores). Env: FUZZ_JOBS (fork-mode
# processes, default 16), FUZZ_EXECS (executions per target, default 10000000),
# FUZZ_MAX_SECONDS (a target's cap, default 540), OUT (where the logs and new crashing
# inputs are copied, when set).
#
# Uses build/fuzz/fuzz_TARGET as it is when present (built elsewhere by `make
# fuzz-build`: carry it), else builds it (clang and libclang-rt-14-dev). Each target
# replays its saved crashes (fuzz/crashes/TARGET) first, then fuzzes from its seeds
# (fuzz/corpus/TARGET) with its dictionary in fork mode, crashes, OOMs and time-outs
# ignored so that one does not end the campaign (-timeout=10 -rss_limit_mb=2048), until
# FUZZ_EXECS executions or FUZZ_MAX_SECONDS, and prints one line:
#   fuzz_campaign ptx: 10012345 executions in 512 s (16 jobs), coverage 4123 edges,
#   oom/timeout/crash 0/1/0, 0 new crashing inputs; saved crashes replayed: 3, still crashing: 0
# New crashing inputs land in build/fuzz/crashes/TARGET/ (and $OUT/crashes/TARGET/).
# Exit 0 unless a fuzzer could not run; 1 when a target found a crash or a saved crash
# still crashes.
set -u
JOBS=${FUZZ_JOBS:-16}
EXECS=${FUZZ_EXECS:-10000000}
MAX=${FUZZ_MAX_SECONDS:-540}
targets=${*:-ptx spec lesson}
export ASAN_OPTIONS="${ASAN_OPTIONS:-allocator_may_return_null=1:detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
found=0
for name in $targets; do
  case $name in
    ptx) dict=fuzz/ptx.dict ;;
    spec) dict=fuzz/json.dict ;;
    lesson) dict=fuzz/lesson.dict ;;
    *) echo "fuzz_campaign: unknown target '$name' (ptx, spec or lesson)"; exit 2 ;;
  esac
  bin=build/fuzz/fuzz_$name
  if [ ! -x "$bin" ]; then
    make --no-print-directory -j"$JOBS" "$bin" >/dev/null || { echo "fuzz_campaign: cannot build $bin"; exit 2; }
  fi
  corpus=build/fuzz/corpus/$name crashes=build/fuzz/crashes/$name log=build/fuzz/campaign_$name.log
  mkdir -p "$corpus" "$crashes"
  saved=0 still=0
  for f in fuzz/crashes/"$name"/*; do
    [ -f "$f" ] || continue
    saved=$((saved + 1))
    "$bin" -timeout=5 -rss_limit_mb=2048 "$f" >/dev/null 2>&1 || { still=$((still + 1)); echo "still crashes: $f"; }
  done
  before=$(ls "$crashes" | wc -l)
  start=$(date +%s)
  # its own process group (setsid), so that stopping it stops the fork-mode jobs too
  setsid "$bin" "$corpus" "fuzz/corpus/$name" -dict="$dict" -fork="$JOBS" -ignore_crashes=1 \
    -ignore_ooms=1 -ignore_timeouts=1 -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    -max_total_time="$MAX" -artifact_prefix="$crashes/" >"$log" 2>&1 &
  pid=$!
  # fork mode prints "#N: cov: C ft: F corp: ... exec/s: E oom/timeout/crash: a/b/c time: Ts"
  while kill -0 "$pid" 2>/dev/null; do
    sleep 5
    n=$(grep -E '^#[0-9]+: cov:' "$log" | tail -n 1 | sed -n 's/^#\([0-9]*\):.*/\1/p')
    if [ -n "$n" ] && [ "$n" -ge "$EXECS" ]; then
      kill -TERM "-$pid" 2>/dev/null # the group; SIGINT: a background job of sh ignores it
      break
    fi
  done
  wait "$pid" 2>/dev/null
  secs=$(($(date +%s) - start))
  last=$(grep -E '^#[0-9]+: cov:' "$log" | tail -n 1)
  execs=$(echo "$last" | sed -n 's/^#\([0-9]*\):.*/\1/p')
  cov=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
  oom=$(echo "$last" | sed -n 's|.*oom/timeout/crash: \([0-9/]*\).*|\1|p')
  after=$(ls "$crashes" | wc -l)
  if [ -z "$execs" ]; then
    echo "fuzz_campaign $name: the fuzzer did not run; the end of $log:"
    tail -n 20 "$log"
    exit 2
  fi
  echo "fuzz_campaign $name: $execs executions in $secs s ($JOBS jobs), coverage $cov edges," \
       "oom/timeout/crash ${oom:-0/0/0}, $((after - before)) new crashing inputs;" \
       "saved crashes replayed: $saved, still crashing: $still"
  [ $((after - before)) -gt 0 ] || [ "$still" -gt 0 ] && found=1
  if [ -n "${OUT:-}" ]; then
    mkdir -p "$OUT/crashes/$name"
    cp "$log" "$OUT/"
    cp "$crashes"/* "$OUT/crashes/$name/" 2>/dev/null
  fi
done
exit $found
