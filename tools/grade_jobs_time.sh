#!/bin/sh
# grade_jobs_time.sh — the wall time of grading exercises' references with --jobs 1, 2,
# 4, ... up to the machine's cores (issue 32: every reference graded under 5 s on a
# 16-core host), the median of REPS gradings each, and a check that every --jobs gives
# the report --jobs 1 gives (JSON, byte for byte). Needs no GPU (the simulator grades).
#
#   sh tools/grade_jobs_time.sh [LESSON...]     default: 13 15 (the slowest to grade)
#
# Env: GPULEARN (default build/release/gpulearn: `make MODE=release` first), REPS
# (default 3), JOBS (the --jobs values; default 1 2 4 ... up to the cores, and the
# cores). Prints one line per lesson and --jobs: median seconds and speed-up over 1.
# Exit 1 when a report differs.
G=${GPULEARN:-build/release/gpulearn}
[ -x "$G" ] || { echo "no $G: make MODE=release (or set GPULEARN)"; exit 2; }
REPS=${REPS:-3}
cores=$(getconf _NPROCESSORS_ONLN)
if [ -z "$JOBS" ]; then
  JOBS=1; j=2
  while [ $j -lt "$cores" ]; do JOBS="$JOBS $j"; j=$((j * 2)); done
  JOBS="$JOBS $cores"
fi
[ $# -gt 0 ] || set -- 13 15
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export XDG_CACHE_HOME="$T/cache" XDG_DATA_HOME="$T/data" GPULEARN_NO_GPU=1
bad=0
for les in "$@"; do
  sol=$(ls -d lessons/"$les"-*/solution.cu lessons/0"$les"-*/solution.cu 2>/dev/null | head -1)
  [ -n "$sol" ] || { echo "no lesson $les"; bad=1; continue; }
  "$G" grade "$les" "$sol" --seed 1 --jobs 1 --format json >"$T/ref.json" 2>&1 # warms the cache
  one=
  for j in $JOBS; do
    r=0; : >"$T/times"
    while [ $r -lt "$REPS" ]; do
      s=$(date +%s.%N)
      "$G" grade "$les" "$sol" --seed 1 --jobs "$j" --format json >"$T/out.json" 2>&1
      e=$(date +%s.%N)
      echo "$s $e" | awk '{ printf "%.3f\n", $2 - $1 }' >>"$T/times"
      cmp -s "$T/ref.json" "$T/out.json" || { echo "lesson $les --jobs $j: the report differs"; bad=1; }
      r=$((r + 1))
    done
    med=$(sort -n "$T/times" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
    [ -n "$one" ] || one=$med
    echo "$med $one" | awk -v l="$les" -v j="$j" \
      '{ printf "lesson %s reference, --jobs %-3s %7.2f s  x%.2f\n", l, j, $1, $2 / $1 }'
  done
done
exit $bad
