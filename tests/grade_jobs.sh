#!/bin/sh
# grade_jobs.sh — grading in worker processes (--jobs, GPULEARN_JOBS) gives the report
# one process gives, byte for byte: a right and a wrong submission of lesson 1 (text and
# JSON; the wrong one also at --jobs 8, more workers than runs of a size), and a batch
# (reports, CSV, JSON and what it prints) with --jobs 2 as with --jobs 1. A SIGTERM to a
# grade leaves none of its workers running. Exit: 0 pass, 1 fail, 77 skip (no compiler).
G=${GPULEARN:?set GPULEARN to the gpulearn binary}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GPULEARN_NO_GPU=1
fails=0
ok()  { echo "ok   $1"; }
bad() { fails=$((fails+1)); echo "FAIL $1"; }
RIGHT=tests/grade/01-threads/pass__grid_stride.cu
WRONG=tests/grade/01-threads/matches_reference__off_by_one.cu

"$G" grade 1 "$RIGHT" --seed 7 --jobs 1 >"$T/probe" 2>&1
if grep -q "no CUDA compiler" "$T/probe"; then
  echo "grade_jobs: SKIP (no CUDA compiler)"; exit 77
fi

# same NAME ARGS...: the grade with --jobs 1 and with --jobs N (N from $J) are equal
same() {
  name=$1; shift
  "$G" grade "$@" --jobs 1 >"$T/one" 2>&1; rc1=$?
  "$G" grade "$@" --jobs "$J" >"$T/many" 2>&1; rcn=$?
  if [ $rc1 -le 1 ] && [ $rc1 = $rcn ] && cmp -s "$T/one" "$T/many"; then ok "$name: --jobs $J = --jobs 1 (exit $rc1)"
  else bad "$name: --jobs $J differs from --jobs 1 (exit $rcn, $rc1)"; diff "$T/one" "$T/many" | head -20; fi
}
J=3
same "right, text" 1 "$RIGHT" --seed 7
same "right, JSON" 1 "$RIGHT" --seed 7 --format json
same "wrong, text" 1 "$WRONG" --seed 7
grep -q "FAIL     matches_reference" "$T/many" || bad "the wrong submission did not fail matches_reference"
same "wrong, JSON" 1 "$WRONG" --seed 7 --format json
J=8
same "wrong, JSON" 1 "$WRONG" --seed 7 --format json

# a batch: submissions in parallel, the same reports and lines
mkdir "$T/subs" "$T/b1" "$T/b2"
cp "$RIGHT" "$T/subs/a_right.cu"; cp "$WRONG" "$T/subs/b_wrong.cu"
cp tests/grade/batch/fail_20_endless_loop.cu "$T/subs/c_loop.cu"
"$G" grade 1 --batch "$T/subs" --seed 3 --jobs 1 --out "$T/b1/g" >"$T/b1/out" 2>"$T/b1/err"; rc1=$?
"$G" grade 1 --batch "$T/subs" --seed 3 --jobs 2 --out "$T/b2/g" >"$T/b2/out" 2>"$T/b2/err"; rc2=$?
sed "s#$T/b[12]/#OUT/#g" "$T/b1/out" >"$T/b1/shown"; sed "s#$T/b[12]/#OUT/#g" "$T/b2/out" >"$T/b2/shown"
if [ $rc1 = 1 ] && [ $rc2 = 1 ] && cmp -s "$T/b1/g.csv" "$T/b2/g.csv" && cmp -s "$T/b1/g.json" "$T/b2/g.json" &&
   cmp -s "$T/b1/shown" "$T/b2/shown"; then ok "batch: --jobs 2 = --jobs 1"
else bad "batch: --jobs 2 differs from --jobs 1 (exit $rc2, $rc1)"; diff "$T/b1/shown" "$T/b2/shown"; fi
# not a terminal: no progress line
if [ -s "$T/b2/err" ]; then bad "batch wrote to stderr, not a terminal"; cat "$T/b2/err"; else ok "batch: nothing on stderr"; fi

for v in 0 -1 x 1025; do
  "$G" grade 1 "$RIGHT" --jobs "$v" >"$T/out" 2>"$T/err"
  if [ $? = 2 ] && grep -q -- "--jobs must be a whole number" "$T/err"; then ok "--jobs $v refused"; else bad "--jobs $v"; fi
done
GPULEARN_JOBS=many "$G" grade 1 "$RIGHT" >"$T/out" 2>"$T/err"
if [ $? = 2 ] && grep -q "GPULEARN_JOBS must be" "$T/err"; then ok "GPULEARN_JOBS=many refused"; else bad "GPULEARN_JOBS=many"; fi

# A SIGTERM to the grade (3 workers from GPULEARN_JOBS) ends its workers and what they started (process groups of
# their own, each killed when its parent dies).
if command -v ps >/dev/null 2>&1; then
  # descendants of pid $1, one per line
  tree() { ps -e -o pid= -o ppid= 2>/dev/null | awk -v root="$1" '
    { parent[$1] = $2 } END { n = 1; want[root] = 1; while (n) { n = 0
      for (p in parent) if (!(p in want) && (parent[p] in want)) { want[p] = 1; n = 1 } }
      for (p in want) if (p != root) print p }'; }
  GPULEARN_JOBS=3 "$G" grade 13 lessons/13-tensor-cores/solution.cu --seed 1 >/dev/null 2>&1 &
  pid=$!
  i=0; kids=
  while [ $i -lt 200 ]; do   # until the workers run: 2 children at once (a compile is one)
    kids=$(tree $pid)
    [ "$(ps -e -o ppid= | awk -v p=$pid '$1 == p' | wc -l)" -ge 2 ] && break
    sleep 0.05; i=$((i+1))
  done
  if [ $i -ge 200 ]; then bad "kill: no workers seen"; else
    kill -TERM $pid; wait $pid 2>/dev/null
    i=0; left=$kids
    while [ $i -lt 40 ] && [ -n "$left" ]; do
      left=
      for k in $kids; do
        s=$(ps -o stat= -p "$k" 2>/dev/null)
        case "$s" in ""|Z*) ;; *) left="$left $k" ;; esac
      done
      [ -n "$left" ] && sleep 0.05; i=$((i+1))
    done
    if [ -z "$left" ]; then ok "SIGTERM to the grade: its $(echo $kids | wc -w) workers and their children are gone"
    else bad "SIGTERM to the grade left processes:$left"; ps -o pid,ppid,stat,args -p "$(echo $left | tr ' ' ,)"; fi
  fi
fi
[ $fails = 0 ]
