#!/bin/sh
# first_program_gpu_check.sh — lesson 0b ("Your first CUDA program") on an NVIDIA GPU:
# each step's program and the exercise's reference are built with nvcc (the
# real CUDA runtime) and run natively, and their stdout and exit status are compared with
# what tests/first_program.sh holds the simulator to (events.cu's time is the GPU's own:
# printed, not compared); then the exercise's reference is graded with --backend gpu (its
# kernel's matrix on the GPU too) and must pass. Run from the repository root on a
# machine with a GPU and the CUDA Toolkit, after make:
#   sh tools/first_program_gpu_check.sh
# Exit 0 when everything agrees; each difference is printed.
set -u
G=${GPULEARN:-build/release/gpulearn}
[ -x "$G" ] || G=build/debug/gpulearn
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null 2>&1 || NVCC=/usr/local/cuda/bin/nvcc
cd "$(dirname "$0")/.." || exit 1
L=lessons/00b-first-program
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | sed 's/^/GPU: /'
"$NVCC" --version | tail -1
bad=0
native() { # native FILE ARGS...: stdout to $tmp/out, stderr to $tmp/err, status in rc
  f=$1; shift
  "$NVCC" -O2 -arch=native -o "$tmp/prog" "$L/$f" || { echo "$f: nvcc failed"; bad=$((bad+1)); rc=255; return; }
  (cd "$L" && "$tmp/prog" "$@") > "$tmp/out" 2> "$tmp/err"; rc=$?
}
same() { # same FILE STATUS EXPECTED-STDOUT ARGS...
  f=$1; want_rc=$2; want=$3; shift 3
  native "$f" "$@"
  printf '%s\n' "$want" > "$tmp/want"
  if [ "$rc" = "$want_rc" ] && cmp -s "$tmp/out" "$tmp/want"; then
    echo "ok   $f"
  else
    echo "DIFF $f: status $rc (simulator: $want_rc)"; diff "$tmp/want" "$tmp/out"; sed 's/^/  stderr: /' "$tmp/err"
    bad=$((bad+1))
  fi
}
same alloc.cu 0 "0 1.5 3 4.5 6 7.5 9 10.5 "
same launch.cu 0 "4 blocks of 256 threads
x[3] = 9, x[999] = 998001"
same check.cu 1 "launching 1 block of 1025 threads"
grep -q "check.cu:31: invalid argument (cudaErrorInvalidValue)" "$tmp/err" ||
  { echo "DIFF check.cu: stderr: $(cat "$tmp/err")"; bad=$((bad+1)); }
same managed.cu 0 "max error: 0"
native events.cu; echo "GPU  events.cu (status $rc): $(cat "$tmp/out")"
# the exercise's reference: the GPU's output equals the simulator's, seed for seed (not
# the starter's: its out-of-bounds threads stop its kernel on the simulator, while a GPU
# may let them read and write past the arrays unnoticed)
for f in solution.cu; do
  for n in 1000 100003; do
    native "$f" "$n" 7; cp "$tmp/out" "$tmp/gpu"; gpu_rc=$rc
    "$G" run "$L/$f" -- "$n" 7 > "$tmp/sim" 2>/dev/null; sim_rc=$?
    if [ "$gpu_rc" = "$sim_rc" ] && cmp -s "$tmp/gpu" "$tmp/sim"; then
      echo "ok   $f $n 7"
    else
      echo "DIFF $f $n 7: GPU status $gpu_rc, simulator $sim_rc"; diff "$tmp/sim" "$tmp/gpu"; bad=$((bad+1))
    fi
  done
done
"$G" grade 0b "$L/solution.cu" --backend gpu --seed 7 > "$tmp/grade" 2>&1; rc=$?
cat "$tmp/grade"
[ $rc = 0 ] || { echo "DIFF: the reference does not pass with --backend gpu (rc $rc)"; bad=$((bad+1)); }
echo "first_program_gpu_check: $bad differences"
[ $bad = 0 ]
