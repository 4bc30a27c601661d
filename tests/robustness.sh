#!/bin/sh
# robustness.sh — the catalogue of bad inputs and faults (tests/robustness/cases): each
# case runs one gpulearn command in a fresh temporary folder holding the files of
# tests/robustness/files, and must exit with the expected code and print the expected
# words (stdout and stderr together). make check runs it (and the ASan/UBSan builds in
# .ci/run run make check).
#
# A case is four lines, then a blank line:
#   name:  what it is
#   exit:  the expected exit code (0 ok, 1 the kernel or a check failed, 2 bad input)
#   want:  words the output must contain (a fixed string)
#   run:   the command, run by sh in the temporary folder with $G = gpulearn
#
# Env: GPULEARN = absolute path of the built binary (make check sets it).
set -u
G=${GPULEARN:?set GPULEARN to the gpulearn binary}
ROOT=$(pwd)
CASES=$ROOT/tests/robustness/cases
FILES=$ROOT/tests/robustness/files
export GPULEARN_NO_GPU=1 GPULEARN_LESSONS="$ROOT/lessons"
pass=0; fail=0
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
run_case() {
  d="$T/case"; rm -rf "$d"; mkdir -p "$d"; cp -r "$FILES"/. "$d"/
  out=$(cd "$d" && G="$G" timeout 120 sh -c "$run" 2>&1 </dev/null); rc=$?
  if [ "$rc" = "$exit" ] && printf '%s' "$out" | grep -qF -- "$want"; then
    pass=$((pass+1))
  else
    fail=$((fail+1))
    echo "FAIL $name: exit $rc (expected $exit), output:"
    printf '%s\n' "$out" | head -8 | sed 's/^/     /'
    echo "     (expected words: $want)"
  fi
}
name=; exit=; want=; run=
while IFS= read -r line || [ -n "$line" ]; do
  case $line in
    name:*) name=${line#name: } ;;
    exit:*) exit=${line#exit: } ;;
    want:*) want=${line#want: } ;;
    run:*)  run=${line#run: } ;;
    '#'*) ;;
    '') [ -n "$name" ] && run_case; name=; exit=; want=; run= ;;
  esac
done <"$CASES"
[ -n "$name" ] && run_case
echo "robustness: $pass passed, $fail failed"
[ $fail = 0 ]
