#!/bin/sh
# progress_race.sh — graders of different lessons on one workspace at once lose no
# progress: each grades the learner's copy (the lesson's solution)
# and marks the lesson passed in progress.json; every round starts from an empty file
# and must end with all 8 marks. progress.json is read, changed and replaced under a
# lock (progress.lock, flock), so no grader's write undoes another's.
#
# GPULEARN_PROGRESS_ROUNDS rounds of 8 graders at once (default 3; 50 for a long run:
# about 3 minutes here). Exit: 0 pass, 1 fail.
set -u
G=${GPULEARN:?set GPULEARN to the gpulearn binary}
ROOT=$(pwd)
ROUNDS=${GPULEARN_PROGRESS_ROUNDS:-3}
export GPULEARN_NO_GPU=1 GPULEARN_LESSONS="$ROOT/lessons"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export XDG_DATA_HOME="$T/data"
LESSONS="02 03 05 07 08 11 14 01"
for l in $LESSONS; do
  out=$("$G" reset "$l" --yes) || { echo "progress_race: FAIL: reset $l: $out"; exit 1; }
  copy=${out%% is the starter*}
  cp "$ROOT"/lessons/"$l"-*/solution.cu "$copy"
done
lost=0; r=0
while [ $r -lt "$ROUNDS" ]; do
  printf '{"format": 1, "lessons": {}}\n' >"$XDG_DATA_HOME/gpulearn/progress.json"
  pids=
  for l in $LESSONS; do
    "$G" grade "$l" --seed 1 >"$T/out.$l" 2>&1 &
    pids="$pids $!"
  done
  failed=0
  for p in $pids; do wait "$p" || failed=1; done
  if [ $failed = 1 ]; then
    echo "progress_race: FAIL: a grading of a solution failed:"; tail -3 "$T"/out.*; exit 1
  fi
  n=$(grep -c '"passed":[[:space:]]*true' "$XDG_DATA_HOME/gpulearn/progress.json")
  [ "$n" = 8 ] || { lost=$((lost + 8 - n)); echo "round $r: $n of 8 passed marks kept"; }
  r=$((r + 1))
done
echo "progress_race: $ROUNDS rounds of 8 graders at once: $lost passed marks lost"
[ $lost = 0 ]
