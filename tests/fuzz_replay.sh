#!/bin/sh
# fuzz_replay.sh — the fuzz targets, built by `make check` with a stub driver in place of
# libFuzzer (fuzz/stub_main.c, against this build's libraries), replay their seeds
# (fuzz/corpus/NAME) and the inputs that once crashed them (fuzz/crashes/NAME): they
# link against today's sources and none of those inputs crashes, hangs or leaks a
# sanitizer finding (make check MODE=asan|ubsan). The campaigns themselves run with
# libFuzzer: `make fuzz`, tools/fuzz_campaign.sh.
# Env: BUILD = the build folder (make check sets it). Exit: 0 pass, 1 fail, 77 skip.
set -u
B=${BUILD:-build/debug}
[ -x "$B/fuzz/fuzz_ptx" ] || { echo "fuzz_replay: SKIP ($B/fuzz/fuzz_ptx not built: make check builds it)"; exit 77; }
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export TMPDIR="$T"
bad=0
for src in fuzz/fuzz_*.c; do
  n=${src#fuzz/fuzz_}; n=${n%.c}
  dirs="fuzz/corpus/$n"
  [ -d "fuzz/crashes/$n" ] && dirs="$dirs fuzz/crashes/$n"
  # shellcheck disable=SC2086
  if ! out=$(timeout 300 "$B/fuzz/fuzz_$n" $dirs 2>&1); then
    echo "FAIL fuzz_$n: $(printf '%s\n' "$out" | tail -5)"
    bad=$((bad + 1))
  else
    printf '%s\n' "$out" | tail -1
  fi
done
[ $bad = 0 ] || exit 1
echo "fuzz_replay: every target links and replays its seeds and saved crashes"
