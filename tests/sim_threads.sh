#!/bin/sh
# A launch's blocks on worker threads (--sim-threads, sim/sim_par.c) never change results:
#  - every fourth tests/corpus/NAME.json runs with --sim-threads 1, 2, 3 and 8, on the
#    translating tier (--sim-tier jit) with 3, and traced (--metrics-json, --trace-json)
#    with 1 and 8: exit codes, stdout, stderr (findings, faults), --dump-json, metrics and
#    traces must be the same bytes (make check runs every corpus, race_edges and jit case
#    with the default, the machine's cores, against the goldens);
#  - every second race_edges case (tests/kernels/check/race_edges, with its NAME.args)
#    with 1 and with 3 threads;
#  - gradings of lessons 1 and 9 (tests/grade: right and wrong submissions), their JSON
#    reports with GPULEARN_SIM_THREADS=1 and 3;
#  - --sim-threads 0, 257, x and GPULEARN_SIM_THREADS=many are refused (exit 2).
# --verbose says how many threads each launch ran its blocks on: the comparison cannot
# pass with the parallel path silently off (some corpus launches must run on 8 threads;
# others, whose blocks communicate, report or print, run again on one). NVRTC compiles
# (the PTX is cached by a first run); clang where NVRTC is missing. Two cases at a time
# (SIM_THREADS_JOBS, default 2).
G=${GPULEARN:?set GPULEARN to the gpulearn binary}
export GPULEARN_NO_GPU=1
unset GPULEARN_SIM_THREADS

# same NAME A B: files A.* and B.* (rc, out, err without the threads line, json, ...)
# that exist are equal; prints FAIL with the ones that differ
same() {
  bad=
  for f in rc out err json metrics.json trace.json; do
    [ -f "$2.$f" ] || [ -f "$3.$f" ] || continue
    cmp -s "$2.$f" "$3.$f" || bad="$bad $f"
  done
  [ -z "$bad" ] || echo "FAIL $1: differs in$bad"
}

# run OUT ARGS...: gpulearn run ARGS --verbose into OUT.{rc,out,err,json}; the threads
# line goes to OUT.threads
run() {
  o=$1; shift
  "$G" run "$@" --verbose --dump-json "$o.json" >"$o.out" 2>"$o.err.all"
  echo $? >"$o.rc"
  grep "ran the blocks on" "$o.err.all" >"$o.threads"
  grep -v "ran the blocks on" "$o.err.all" >"$o.err"
  rm -f "$o.err.all"
}

if [ "${1:-}" = --one ]; then
  spec=$2; T=$3; cc=$4; k=$5
  name=$(basename "$spec" .json); o=$T/$name
  "$G" run "$spec" --backend sim --compiler $cc >/dev/null 2>&1 # cache the PTX
  set -- "$spec" --backend sim --compiler $cc
  case $spec in *race_edges*) [ -f "${spec%.json}.args" ] && set -- "$@" $(cat "${spec%.json}.args");; esac
  run "$o.t1" "$@" --sim-threads 1
  if [ "$k" = race ]; then
    run "$o.t3" "$@" --sim-threads 3; same "$name (3 threads)" "$o.t1" "$o.t3"
  else
    run "$o.t2" "$@" --sim-threads 2; same "$name (2 threads)" "$o.t1" "$o.t2"
    run "$o.t3" "$@" --sim-threads 3; same "$name (3 threads)" "$o.t1" "$o.t3"
    run "$o.t8" "$@" --sim-threads 8; same "$name (8 threads)" "$o.t1" "$o.t8"
    run "$o.j3" "$@" --sim-threads 3 --sim-tier jit; same "$name (jit, 3 threads)" "$o.t1" "$o.j3"
    run "$o.x1" "$@" --sim-threads 1 --metrics-json "$o.x1.metrics.json" --trace-json "$o.x1.trace.json"
    run "$o.x8" "$@" --sim-threads 8 --metrics-json "$o.x8.metrics.json" --trace-json "$o.x8.trace.json"
    same "$name (traced, 8 threads)" "$o.x1" "$o.x8"
  fi
  cat "$o".*.threads >"$o.threads" 2>/dev/null
  echo "DONE $name"
  exit 0
fi

T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export XDG_CACHE_HOME="$T/cache" XDG_DATA_HOME="$T/data"
cc=nvrtc
"$G" info --backend sim 2>/dev/null | grep -qi "nvrtc.*not" && cc=clang
i=0
for spec in tests/corpus/*.json; do
  case $spec in *.golden.json) continue;; esac
  [ $((i % 4)) = 0 ] && echo "$spec 0"; i=$((i + 1))
done >"$T/list"
for spec in tests/kernels/check/race_edges/*.json; do
  case $spec in *.golden.json) continue;; esac
  grep -q "^clang:" "${spec%.json}.skip" 2>/dev/null && [ $cc = clang ] && continue
  [ $((i % 2)) = 0 ] && echo "$spec race"; i=$((i + 1))
done >>"$T/list"
mkdir "$T/c"
xargs -P "${SIM_THREADS_JOBS:-2}" -L 1 \
  sh -c 'sh "$0" --one "$3" "$1" "$2" "$4" >"$1/$(basename "$3" .json).log" 2>&1' "$0" "$T/c" "$cc" <"$T/list"
fails=$(cat "$T"/c/*.log | grep -c "^FAIL")
cat "$T"/c/*.log | grep "^FAIL"
n=$(cat "$T"/c/*.log | grep -c "^DONE")
par=$(cat "$T"/c/*.threads | grep -c "on [2-8] threads")
one=$(cat "$T"/c/*.threads | grep -c "on 1 thread$")
eight=$(cat "$T"/c/*.threads | grep -c "on 8 threads")
echo "sim_threads: $n cases, $fails differences; $par launches ran on several threads ($eight on 8), $one on one"
[ "$eight" -gt 0 ] || { echo "FAIL: no launch ran on 8 threads (the parallel path is off?)"; fails=$((fails + 1)); }
[ "$one" -gt 0 ] || { echo "FAIL: every launch ran on several threads (no case falls back?)"; fails=$((fails + 1)); }

# grading: the reports with one and three threads per launch
for sub in tests/grade/01-threads/pass__grid_stride.cu tests/grade/01-threads/matches_reference__off_by_one.cu \
           tests/grade/09-reduction/matches_reference__shfl_up.cu; do
  [ -f "$sub" ] || continue
  les=$(basename "$(dirname "$sub")" | sed 's/^0*//; s/-.*//')
  GPULEARN_SIM_THREADS=1 "$G" grade "$les" "$sub" --seed 5 --jobs 1 --format json >"$T/g1" 2>&1; r1=$?
  GPULEARN_SIM_THREADS=3 "$G" grade "$les" "$sub" --seed 5 --jobs 1 --format json >"$T/g3" 2>&1; r3=$?
  if [ $r1 = $r3 ] && cmp -s "$T/g1" "$T/g3"; then echo "ok   grade $les $(basename "$sub"): 3 threads = 1 (exit $r1)"
  else echo "FAIL grade $les $(basename "$sub"): 3 threads differ (exit $r3, $r1)"; diff "$T/g1" "$T/g3" | head -10; fails=$((fails + 1)); fi
done
# bad counts are refused, naming the option or variable (exit 2)
for v in 0 257 x; do
  "$G" run tests/corpus/vec_add.json --sim-threads "$v" >"$T/out" 2>"$T/err"
  if [ $? = 2 ] && grep -q -- "--sim-threads must be a whole number" "$T/err"; then echo "ok   --sim-threads $v refused"
  else echo "FAIL --sim-threads $v"; fails=$((fails + 1)); fi
done
GPULEARN_SIM_THREADS=many "$G" run tests/corpus/vec_add.json >"$T/out" 2>"$T/err"
if [ $? = 2 ] && grep -q "GPULEARN_SIM_THREADS must be" "$T/err"; then echo "ok   GPULEARN_SIM_THREADS=many refused"
else echo "FAIL GPULEARN_SIM_THREADS=many"; fails=$((fails + 1)); fi
[ "$fails" = 0 ]
