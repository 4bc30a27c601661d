#!/bin/sh
# grade_race.sh — a submission swapped with a link while it is graded.
# A learner who can write to the submissions folder exchanges their file with a symbolic
# link in a loop (renameat2 RENAME_EXCHANGE): to the hidden reference (a PASS they did
# not write) and to a secret file (its lines quoted in a compile error). gpulearn reads
# each submission once (O_NOFOLLOW, one link) and compiles those bytes, so every grading
# sees either the file or the link, never a mix: 0 passes and 0 disclosures, single
# gradings and batches alike.
#
# GPULEARN_RACE_GRADES (default 100) single gradings, half of them with the link to the
# reference and half with the link to the secret, and a tenth as many batches of 4
# submissions; GPULEARN_RACE_GRADES=200 for a longer run (20 s here).
# Exit: 0 pass, 1 fail, 77 skip (no python3 or no renameat2).
set -u
G=${GPULEARN:?set GPULEARN to the gpulearn binary}
ROOT=$(pwd)
N=${GPULEARN_RACE_GRADES:-100}
command -v python3 >/dev/null 2>&1 || { echo "grade_race: SKIP (no python3)"; exit 77; }
export GPULEARN_NO_GPU=1 GPULEARN_LESSONS="$ROOT/lessons"
T=$(mktemp -d)
chmod 755 "$T"
racer=
cleanup() { [ -n "$racer" ] && kill "$racer" 2>/dev/null; wait 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
mkdir "$T/subs" "$T/out"
chmod 777 "$T/subs" "$T/out"
# the learner's own file: it does not compile (a quick FAIL)
printf '#error "my own attempt"\n' >"$T/own.cu"
# what the link names: the hidden reference, or a secret no report may quote
cp "$ROOT/lessons/01-threads/solution.cu" "$T/reference.cu"
printf 'SECRET_TOKEN_51f2 the contents of a file only the grader may read\n' >"$T/secret.txt"
chmod 600 "$T/secret.txt"

# Swaps a and b (RENAME_EXCHANGE) until killed, yielding now and then.
cat >"$T/racer.py" <<'EOF'
import ctypes, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
a, b = (p.encode() for p in sys.argv[1:3])
AT_FDCWD, RENAME_EXCHANGE = -100, 2
if libc.renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) != 0:
    sys.exit(3)
open(sys.argv[3], "w").close()
n = 0
while True:
    libc.renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE)
    n += 1
    if n % 64 == 0:
        time.sleep(0.0002)
EOF

passes=0; leaks=0; links=0; graded=0
# One phase: sub.cu and a link to $1 swapped by the racer while sub.cu is graded N/2
# times alone and N/20 times in a batch.
phase() {
  rm -f "$T/subs"/* "$T/ready"
  cp "$T/own.cu" "$T/subs/sub.cu"
  for i in 1 2 3; do cp "$T/own.cu" "$T/subs/other$i.cu"; done
  ln -s "$1" "$T/subs/link"
  python3 "$T/racer.py" "$T/subs/sub.cu" "$T/subs/link" "$T/ready" &
  racer=$!
  for _ in 1 2 3 4 5 6 7 8 9 10; do [ -f "$T/ready" ] && break; sleep 0.2; done
  [ -f "$T/ready" ] || { echo "grade_race: SKIP (no renameat2 here)"; exit 77; }
  i=0
  while [ $i -lt $((N / 2)) ]; do
    out=$("$G" grade 01 "$T/subs/sub.cu" --seed 1 2>&1); rc=$?
    graded=$((graded + 1))
    [ $rc = 0 ] && { passes=$((passes + 1)); echo "PASSED with the swapped file: $out" | head -3; }
    case $out in *SECRET_TOKEN*) leaks=$((leaks + 1)); echo "DISCLOSED: $out" | head -3 ;; esac
    case $out in *"symbolic link"*) links=$((links + 1)) ;; esac
    i=$((i + 1))
  done
  i=0
  while [ $i -lt $((N / 20 > 0 ? N / 20 : 1)) ]; do
    out=$("$G" grade 01 --batch "$T/subs" --out "$T/out/grades" --seed 1 2>&1); rc=$?
    graded=$((graded + 4))
    res=$(cat "$T/out/grades.csv" "$T/out/grades.json" 2>/dev/null)
    case $res in *,pass,*) passes=$((passes + 1)); echo "a batch PASSED a swapped file" ;; esac
    case "$out$res" in *SECRET_TOKEN*) leaks=$((leaks + 1)); echo "a batch DISCLOSED" ;; esac
    i=$((i + 1))
  done
  kill "$racer" 2>/dev/null; wait "$racer" 2>/dev/null; racer=
}
phase "$T/reference.cu"
phase "$T/secret.txt"
echo "grade_race: $graded gradings raced against a link swap: $passes passed, $leaks disclosed," \
  "$links refused the link"
[ $passes = 0 ] && [ $leaks = 0 ] || exit 1
# the race was run: some gradings met the link
[ $links -gt 0 ] || { echo "grade_race: FAIL: no grading met the link (the race did not run)"; exit 1; }
