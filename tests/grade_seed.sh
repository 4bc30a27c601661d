#!/bin/sh
# grade_seed.sh — GPULEARN_GRADE_SEED is the seed of a grading without --seed (the TUI's
# g included, so that tools/tui_capture.sh's grade screens repeat); --seed wins over it,
# and a value that is not a whole number below 2^32 is ignored (a fresh seed).
# Exit: 0 pass, 1 fail.
set -u
G=${GPULEARN:?set GPULEARN to the gpulearn binary}
export GPULEARN_NO_GPU=1 GPULEARN_LESSONS="$(pwd)/lessons"
SOL=lessons/01-threads/solution.cu
fail=0
seed_of() { sed -n 's/.*random inputs from seed \([0-9]*\).*/\1/p' | head -n 1; }
got=$(GPULEARN_GRADE_SEED=4242 "$G" grade 1 "$SOL" | seed_of)
[ "$got" = 4242 ] || { echo "FAIL: GPULEARN_GRADE_SEED=4242 graded with seed '$got'"; fail=1; }
got=$(GPULEARN_GRADE_SEED=4242 "$G" grade 1 "$SOL" --seed 7 | seed_of)
[ "$got" = 7 ] || { echo "FAIL: --seed 7 under GPULEARN_GRADE_SEED graded with seed '$got'"; fail=1; }
got=$(GPULEARN_GRADE_SEED=4294967296 "$G" grade 1 "$SOL" | seed_of)
[ -n "$got" ] && [ "$got" != 4294967296 ] ||
  { echo "FAIL: GPULEARN_GRADE_SEED=2^32 graded with seed '$got'"; fail=1; }
[ $fail = 0 ] && echo "grade_seed: ok"
exit $fail
