#!/bin/sh
# lint.sh — `gpulearn lint`'s exit codes for lessons' "expect" entries: claims a run
# contradicts are problems (exit 1, each named), a lesson.json whose entries do not parse
# is bad input (exit 2, naming the entry), and --speed without a GPU says so (exit 1).
# Runs from the repo root with $GPULEARN = the binary.
G=${GPULEARN:?set GPULEARN to the gpulearn binary}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GPULEARN_NO_GPU=1
fails=0; n=0
ok()   { n=$((n+1)); echo "ok   $1"; }
bad()  { n=$((n+1)); fails=$((fails+1)); echo "FAIL $1"; sed 's/^/     stderr: /' "$T/err" | head -20; sed 's/^/     stdout: /' "$T/out" | head -20; }
expect() { name=$1 want=$2; shift 2; "$@" >"$T/out" 2>"$T/err"; rc=$?
  if [ "$rc" = "$want" ]; then ok "$name (exit $rc)"; else bad "$name: exit $rc, expected $want"; fi; }
has()    { if grep -qF -- "$2" "$T/$1"; then ok "$1 has '$2'"; else bad "$1 lacks '$2'"; fi; }

F=tests/fixtures/lessons/90-expect
expect "claims the run contradicts" 1 "$G" lint "$F"
has out "$F/lesson.json: steps[0].expect[1]: out[3] is 3; expected 4 (the simulator)"
has out "$F: FAILED: 4 problems"

cp -R "$F" "$T/bad"
sed 's/"index": 3, "equals": 4/"index": 3, "equal": 4/' "$F/lesson.json" >"$T/bad/lesson.json"
expect "an entry that does not parse" 2 "$G" lint "$T/bad"
has err "$T/bad/lesson.json: steps[0].expect[1]: unknown key \"equal\""

expect "--speed without a GPU" 1 "$G" lint --speed "$F"
has err "lint --speed times the steps on a GPU; there is none here"

echo "lint: $((n - fails)) of $n passed"
[ "$fails" = 0 ]
