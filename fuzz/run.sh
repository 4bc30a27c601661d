#!/bin/sh
# run.sh — one libFuzzer campaign for `make fuzz`.
#   sh fuzz/run.sh BINARY NAME SECONDS BUILD_DIR [DICT]
# 1. Replays every saved crash in fuzz/crashes/NAME/ (regression seeds) and says which
#    still crash. 2. Fuzzes for SECONDS with the seeds of fuzz/corpus/NAME/ (new corpus
#    entries go to BUILD_DIR/corpus/NAME/, new crashes to BUILD_DIR/crashes/NAME/),
#    in fork mode (FUZZ_JOBS processes, default 1) so that one crash does not end the
#    campaign. 3. Prints executions and
#    crashes. Exit status 0 unless the fuzzer could not run: crashes are reported.
set -u
bin=$1 name=$2 secs=$3 build=$4 dict=${5:-}
corpus=$build/corpus/$name crashes=$build/crashes/$name log=$build/fuzz_$name.log
mkdir -p "$corpus" "$crashes"
export ASAN_OPTIONS="${ASAN_OPTIONS:-allocator_may_return_null=1:detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

still=0 saved=0
for f in fuzz/crashes/"$name"/*; do
    [ -f "$f" ] || continue
    case $f in *.txt|*.md) continue ;; esac
    saved=$((saved + 1))
    if ! "$bin" -timeout=5 -rss_limit_mb=2048 "$f" >"$build/replay_$name.log" 2>&1; then
        still=$((still + 1))
        echo "fuzz $name: saved input still crashes or hangs: $f"
    fi
done

before=$(ls "$crashes" | wc -l)
"$bin" "$corpus" "fuzz/corpus/$name" ${dict:+-dict="$dict"} -max_total_time="$secs" \
    -fork="${FUZZ_JOBS:-1}" -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1 -timeout=10 \
    -rss_limit_mb=2048 -max_len=65536 -artifact_prefix="$crashes/" >"$log" 2>&1
rc=$?
after=$(ls "$crashes" | wc -l)
# Fork mode's status lines: "#N: cov: C ft: F corp: .. exec/s: E oom/timeout/crash: a/b/c time: Ts"
last=$(grep -E '^#[0-9]+: cov:' "$log" | tail -n 1)
execs=$(echo "$last" | sed -n 's/^#\([0-9]*\):.*/\1/p')
cov=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
oom=$(echo "$last" | sed -n 's|.*oom/timeout/crash: \([0-9/]*\).*|\1|p')
if [ -z "$execs" ]; then
    echo "fuzz $name: the fuzzer did not run (exit $rc); see $log"
    tail -n 20 "$log"
    exit 1
fi
echo "fuzz $name: $execs executions in ${secs}s, coverage $cov edges," \
     "oom/timeout/crash ${oom:-0/0/0}, $((after - before)) new crashing inputs in $crashes/" \
     "($after in all); saved crashes: $saved, still crashing: $still"
exit 0
