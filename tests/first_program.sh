#!/bin/sh
# Lesson 0b, "Your first CUDA program" (lessons/00b-first-program): each step's program
# prints what its text says and exits with its "status"; its program exercise grades
# the reference PASS and each of tests/grade/00b-first-program's submissions with exactly
# the verdicts of expected.csv (grade --batch, seed 7: every check's pass, fail or
# not_run; a file is named, as in tests/grade, <the check it must fail>__<what>.cu or
# pass__<what>.cu), and the reports say what went wrong where. README "Writing a lesson"
# ("Program exercises"). Time: about 25 s (each grading builds and runs two programs
# twice and grades the kernel inside on the simulator).
G=${GPULEARN:?set GPULEARN to the gpulearn binary}
cd "$(dirname "$0")/.." || exit 1
{ command -v clang >/dev/null 2>&1 || ls /usr/bin/clang-1[4-9] >/dev/null 2>&1 ||
  command -v nvcc >/dev/null 2>&1 || [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" ]; } ||
  { echo "SKIP: neither clang nor nvcc: lesson 0b's programs do not compile here"; exit 77; }
export GPULEARN_NO_GPU=1 GPULEARN_LESSONS=$PWD/lessons
L=lessons/00b-first-program
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL $1"; fails=$((fails+1)); }

# the steps: stdout as their texts state it, exit status as their "status"
step() { # step FILE STATUS EXPECTED-STDOUT
  "$G" run "$L/$1" > "$tmp/out" 2> "$tmp/err"; rc=$?
  printf '%s\n' "$3" > "$tmp/want"
  { [ $rc = "$2" ] && cmp -s "$tmp/out" "$tmp/want"; } ||
    { fail "$1: rc $rc (expected $2)"; diff "$tmp/want" "$tmp/out"; head -5 "$tmp/err"; }
}
step alloc.cu 0 "0 1.5 3 4.5 6 7.5 9 10.5 "
step launch.cu 0 "4 blocks of 256 threads
x[3] = 9, x[999] = 998001"
step check.cu 1 "launching 1 block of 1025 threads"
grep -q "/check.cu:31: invalid argument (cudaErrorInvalidValue)$" "$tmp/err" || fail "check.cu: stderr: $(cat "$tmp/err")"
step managed.cu 0 "max error: 0"
"$G" run "$L/events.cu" > "$tmp/out" 2> "$tmp/err"; rc=$?
{ [ $rc = 0 ] && grep -q "^scale of 65536 floats: [0-9.]* ms ([0-9.]* GB/s)$" "$tmp/out" &&
  grep -q "cudaEventElapsedTime gives modelled time on the simulator" "$tmp/err"; } || fail "events.cu: rc $rc"

# the reference passes every check: the program's five, then the kernel's
"$G" grade 0b "$L/solution.cu" --seed 7 > "$tmp/ref" 2>&1; rc=$?
{ [ $rc = 0 ] && grep -q "^PASSED: 13 of 13 checks passed$" "$tmp/ref" &&
  grep -q "^  PASS     launches_clean$" "$tmp/ref" && grep -q "^  PASS     kernel.no_out_of_bounds$" "$tmp/ref"; } ||
  { fail "reference: rc $rc"; cat "$tmp/ref"; }

# and with clang, the compiler a machine without the CUDA Toolkit has: the kernel
# inside is compiled with cudart's cuda_runtime.h after the prelude (CI's grading
# compiled it with clang, and "-include" was passed as clang's -x language)
if command -v clang >/dev/null 2>&1 || ls /usr/bin/clang-1[4-9] >/dev/null 2>&1; then
  GPULEARN_COMPILER=clang "$G" grade 0b "$L/solution.cu" --seed 7 > "$tmp/ref" 2>&1; rc=$?
  { [ $rc = 0 ] && grep -q "^PASSED: 13 of 13 checks passed$" "$tmp/ref" &&
    grep -q "compiled with clang for sm_" "$tmp/ref"; } ||
    { fail "reference with clang: rc $rc"; cat "$tmp/ref"; }
fi

# every submission's verdict, check by check
"$G" grade 0b --batch tests/grade/00b-first-program --seed 7 --out "$tmp/g" > "$tmp/batch" 2>&1; rc=$?
[ $rc = 1 ] || fail "batch: rc $rc"
cmp -s tests/grade/00b-first-program/expected.csv "$tmp/g.csv" ||
  { fail "batch: grades differ from expected.csv"; diff tests/grade/00b-first-program/expected.csv "$tmp/g.csv"; }

# a program that does not build fails the same checks whichever compiler builds it:
# clang stops at a type only NVIDIA's headers declare, nvcc at the link (CI's grading
# built with clang, this machine's with nvcc, and kernel.* once ran with one only)
for cc in clang nvcc; do
  case $cc in
    clang) command -v clang >/dev/null 2>&1 || ls /usr/bin/clang-1[4-9] >/dev/null 2>&1 || continue ;;
    nvcc) command -v nvcc >/dev/null 2>&1 || [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" ] || continue ;;
  esac
  "$G" grade 0b tests/grade/00b-first-program/compiles__unprovided_api.cu --seed 7 --compiler $cc > "$tmp/r" 2>&1
  case $cc in # what each says is missing: the type (clang) or the function (nvcc)
    clang) want="compiles__unprovided_api.cu does not compile: it uses cudaGraph_t: not provided by gpulearn's CUDA runtime" ;;
    nvcc) want="the program calls cudaGraphCreate: not provided by gpulearn's CUDA runtime" ;;
  esac
  grep -qF "$want" "$tmp/r" || { fail "unprovided_api: $cc's report lacks: $want"; cat "$tmp/r"; }
  { grep -q "^FAILED: 0 of 13 checks passed$" "$tmp/r" &&
    grep -q "^  NOT RUN  kernel.compiles$" "$tmp/r"; } || { fail "unprovided_api with $cc"; cat "$tmp/r"; }
done

# nvcc found on PATH as a wrapper script outside the toolkit (as /usr/local/bin/nvcc is on
# CI's machines, `exec /usr/local/cuda-13.0/bin/nvcc "$@"`): the build's sandbox lets it
# run what it found; a tool that cannot be executed is a tool error naming it and why,
# never "does not compile"
# (the wrapper runs the toolkit's own nvcc, as CI's does: not another wrapper on PATH)
real="${CUDA_HOME:-/usr/local/cuda}/bin/nvcc"
if [ -x "$real" ]; then
  mkdir "$tmp/wrap" && chmod 755 "$tmp" "$tmp/wrap"
  printf '#!/bin/sh\nexec %s "$@"\n' "$real" > "$tmp/wrap/nvcc" && chmod 755 "$tmp/wrap/nvcc"
  PATH="$tmp/wrap:$PATH" "$G" grade 0b tests/grade/00b-first-program/compiles__unprovided_api.cu \
    --seed 7 --compiler nvcc > "$tmp/r" 2>&1
  grep -qF "the program calls cudaGraphCreate: not provided by gpulearn's CUDA runtime" "$tmp/r" ||
    { fail "nvcc as a wrapper script on PATH"; cat "$tmp/r"; }
  PATH="$tmp/wrap:$PATH" "$G" grade 1 lessons/01-*/solution.cu --seed 7 --compiler nvcc > "$tmp/r" 2>&1 ||
    { fail "a kernel compiled by nvcc as a wrapper script on PATH"; cat "$tmp/r"; }
  printf '#!/nonexistent/sh\n' > "$tmp/wrap/nvcc"
  PATH="$tmp/wrap:$PATH" "$G" grade 0b "$L/solution.cu" --seed 7 --compiler nvcc > "$tmp/r" 2>&1; rc=$?
  { [ $rc = 1 ] &&
    grep -qF "cannot start $tmp/wrap/nvcc to compile solution.cu: No such file or directory" "$tmp/r"; } ||
    { fail "an nvcc that cannot be executed: rc $rc"; cat "$tmp/r"; }
fi

# what the reports say
d=tests/grade/00b-first-program
"$G" grade 0b $d/launches_clean__no_guard.cu --seed 7 > "$tmp/r" 2>&1
for want in "run 1 (./exercise 1000 7): launch 1 saxpy(int, float, float const*, float*)<<<(4,1,1), (256,1,1)>>> at launches_clean__no_guard.cu:44: out-of-bounds" \
            "0 bytes past the end of 'dx' (4000 bytes) (launches_clean__no_guard.cu:17, block (3,0,0), thread (232,0,0))" \
            "run 1 (./exercise 1000 7): exit status 1, the reference's 0; its stderr ends:" \
            "launches_clean__no_guard.cu:46: an illegal memory access was encountered"; do
  grep -qF "$want" "$tmp/r" || { fail "no_guard report lacks: $want"; cat "$tmp/r"; }
done
"$G" grade 0b $d/no_leaks__never_frees.cu --seed 7 > "$tmp/r" 2>&1
for want in "run 2 (./exercise 100003 7): 2 device allocations (800024 bytes) never freed with cudaFree:" \
            "'dx' (400012 bytes, no_leaks__never_frees.cu:39)"; do
  grep -qF "$want" "$tmp/r" || { fail "never_frees report lacks: $want"; cat "$tmp/r"; }
done
"$G" grade 0b $d/output_matches_reference__sum_skips_y0.cu --seed 7 > "$tmp/r" 2>&1
grep -q "run 1 (./exercise 1000 7): stdout differs from the reference's: line 2: expected 'sum = [0-9.]*', got 'sum = [0-9.]*'" "$tmp/r" ||
  { fail "sum_skips_y0 report"; cat "$tmp/r"; }
echo "first_program: $fails failed"
[ $fails = 0 ]
