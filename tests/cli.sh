#!/bin/sh
# Command-line contract tests: exit codes, messages, --dump-json. Runs from the repo
# root with $GPULEARN = the binary. Without a GPU, the GPU cases check the "no driver"
# path instead. (Simulator-vs-GPU goldens: tests/corpus.sh.)
G=${GPULEARN:?set GPULEARN to the gpulearn binary}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fails=0; n=0
ok()   { n=$((n+1)); echo "ok   $1"; }
bad()  { n=$((n+1)); fails=$((fails+1)); echo "FAIL $1"; [ -f "$T/err" ] && sed 's/^/     stderr: /' "$T/err" | head -20; [ -f "$T/out" ] && sed 's/^/     stdout: /' "$T/out" | head -20; }
# expect NAME RC CMD...: runs CMD, stdout to $T/out, stderr to $T/err, checks the exit code.
expect() { name=$1 want=$2; shift 2; "$@" >"$T/out" 2>"$T/err"; rc=$?
  if [ "$rc" = "$want" ]; then ok "$name (exit $rc)"; else bad "$name: exit $rc, expected $want"; fi; }
has()    { if grep -q -- "$2" "$T/$1"; then ok "$1 has '$2'"; else bad "$1 lacks '$2'"; fi; }

expect "--version" 0 "$G" --version;            has out "gpulearn [0-9]"
expect "--help" 0 "$G" --help;                  has out "gpulearn run SPEC.json"
expect "unknown option" 2 "$G" run --bogus;     has err "unknown option '--bogus'"
expect "run without spec" 2 "$G" run;           has err "exactly one launch spec"
expect "bad --backend" 2 "$G" run tests/cli/saxpy.json --backend tpu; has err "auto, sim or gpu"
expect "missing spec file" 2 "$G" run tests/cli/nope.json; has err "nope.json"
expect "malformed spec" 2 "$G" run tests/cli/malformed.json; has err "malformed.json:"

expect "dump to stdout" 0 "$G" run tests/cli/saxpy.json --backend sim --dump-json -
has out '"buffers"'; has out '"y": \[-1.0, 0.25, 1.5,'

# Outputs never destroy what they land on: not an input of the run (exit 2, the source
# intact), not a device (written into, still a device), not a symbolic link (the file it
# names is replaced, the link stays).
cp tests/cli/saxpy.json tests/cli/saxpy.cu "$T/"
expect "--dump-json onto the kernel's source" 2 "$G" run "$T/saxpy.json" --backend sim --dump-json "$T/saxpy.cu"
has err "would overwrite the run's input"
if cmp -s tests/cli/saxpy.cu "$T/saxpy.cu"; then ok "the source is intact"; else bad "the source was overwritten"; fi
expect "--metrics-json onto the spec" 2 "$G" run "$T/saxpy.json" --backend sim --metrics-json "$T/saxpy.json"
mkfifo "$T/fifo"; (cat "$T/fifo" >"$T/from_fifo" &)
expect "--dump-json into a FIFO" 0 "$G" run tests/cli/saxpy.json --backend sim --dump-json "$T/fifo"
sleep 0.2
if [ -p "$T/fifo" ] && grep -q '"buffers"' "$T/from_fifo"; then ok "the FIFO is still a FIFO and got the JSON"; else bad "the FIFO was replaced or got nothing"; fi
echo '{}' >"$T/target.json"; ln -s target.json "$T/link.json"
expect "--dump-json through a symbolic link" 0 "$G" run tests/cli/saxpy.json --backend sim --dump-json "$T/link.json"
if [ -L "$T/link.json" ] && grep -q '"buffers"' "$T/target.json"; then ok "the link stays and its file got the JSON"; else bad "the link was replaced"; fi

if [ -w /dev/full ]; then
  expect "output to a full disk" 1 sh -c "'$G' run tests/cli/saxpy.json --backend sim >/dev/full"
  has err "cannot write the output"
fi

expect "out-of-bounds write is a fault" 1 "$G" run tests/cli/oob.json --backend sim
has err "oob.cu:6: block (3,0,0) thread (232,0,0)"; has err "out-of-bounds"

# A failed device-side assert() stops the kernel, naming the condition, its line and the
# thread, with every compiler (nvcc and NVRTC call __assertfail; clang through the
# prelude's assert.h); NVRTC, which has no C library headers, finds the prelude's.
for cc in nvrtc nvcc clang; do
  "$G" run tests/cli/assert.json --backend sim --compiler $cc >"$T/out" 2>"$T/err"; rc=$?
  if grep -q "not available\|not on PATH\|not found" "$T/err"; then echo "SKIP assert with $cc: not available"; continue; fi
  if [ $rc = 1 ]; then ok "failed assert with $cc (exit 1)"; else bad "failed assert with $cc: exit $rc, expected 1"; fi
  has err "assert.cu:6: block (0,0,0) thread (40,0,0): assertion \`in\[threadIdx.x\] == 0 || threadIdx.x < 40\` failed in"
done

# An instruction the simulator lacks is named with the learner's line (the no-GPU case
# below checks it under --backend auto too, which used to exit 1 without a word).
expect "unsupported instruction" 1 "$G" run tests/cli/unsupported.json --backend sim
has err "unsupported.cu:5: unsupported instruction 'multimem.red.relaxed.sys.global.add.u32' (PTX line [0-9]*)"

# A block that needs more registers than an SM gives one (72 per thread from ptxas for
# sm_75, x 1024 threads > 65536): a GPU refuses the launch, and so does the simulator.
# Registers are counted only where a CUDA Toolkit's ptxas is (else the launch runs).
if command -v ptxas >/dev/null 2>&1 || [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/ptxas" ]; then
  expect "too many registers per block" 2 "$G" run tests/cli/regs_too_many.json --backend sim
  has err "regs_too_many.json: too many resources requested for launch: 'moving_sum' needs 72 registers per thread (ptxas, sm_75)"
else
  echo "SKIP too many registers per block: no ptxas (CUDA Toolkit) counts registers here"
fi

# Metrics: the simulator's numbers equal what Nsight Compute measured on an H200
# (ncu --metrics ... on the same kernels, driver 580, see tools/gpu_check.sh).
metric() { grep -m1 "\"$1\"" "$T/out" | sed 's/.*: *\([0-9.]*\).*/\1/'; }
is_metric() { v=$(metric "$1"); if [ "$v" = "$2" ]; then ok "$1 = $2"; else bad "$1 = '$v', Nsight Compute measured $2"; fi; }
expect "metrics of a strided copy" 0 "$G" run tests/kernels/check/copy_strided.json --backend sim --metrics-json -
is_metric l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum 4
is_metric l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum 128
has out '"file": "[^"]*metrics.cu", "line": 12,'
expect "metrics of a column read of a shared tile" 0 "$G" run tests/kernels/check/tile_column.json --backend sim --metrics-json -
is_metric l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum 34
is_metric l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum 31
is_metric l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum 64
is_metric l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum 0
expect "a race is an error" 1 "$G" run tests/kernels/check/reverse_racy.json --backend sim
has err "error: shared-memory race (read after write hazard)"; has err "races.cu:8"; has err "races.cu:7"
expect "random schedule" 0 "$G" run tests/corpus/reduce.json --backend sim --schedule random:7 --dump-json "$T/r7.json"
if cmp -s "$T/r7.json" tests/corpus/reduce.golden.json; then ok "a correct kernel gives the same result under a random schedule"; else bad "reduce differs under --schedule random:7"; fi
expect "bad --schedule" 2 "$G" run tests/cli/saxpy.json --schedule sometimes; has err "deterministic or random:SEED"

expect "list" 0 "$G" list;                      has out "Threads, blocks, grids"
expect "list --json" 0 "$G" list --json;        has out '"id":[[:space:]]*"threads"'; has out '"dir":'
has out '"id":[[:space:]]*"matmul"'
expect "grade the reference" 0 "$G" grade 1 lessons/01-threads/solution.cu; has out "PASSED"
expect "grade the starter" 1 "$G" grade threads; has out "FAIL     no_out_of_bounds"; has out "out-of-bounds"
expect "grade a file that does not compile" 1 "$G" grade 1 tests/cli/bad_compile.cu
has out "bad_compile.cu:[45]:"
expect "grade --format json" 1 "$G" grade 01-threads --format json; has out '"passed":[[:space:]]*false'
expect "grade an unknown lesson" 2 "$G" grade 99; has err "no lesson '99'"
expect "info on the simulator" 0 "$G" info --backend sim; has out "warp size"
has out "^  sm_75  Tesla T4 (Turing) *40 SMs"; has out "^  sm_90  H100 SXM (Hopper) .*(default)$"
expect "info --json lists the targets" 0 "$G" info --backend sim --json
has out '"default_target":[[:space:]]*"sm_90"'; has out '"name":[[:space:]]*"sm_86"'
expect "run --arch with an unknown target" 2 "$G" run tests/cli/saxpy.json --arch sm_70
has err "'sm_70' is not a known target (known: sm_75, sm_80, sm_86, sm_89, sm_90)"
expect "run --arch 7.5" 0 "$G" run tests/cli/saxpy.json --backend sim --arch 7.5 --verbose
has err "compute_75\|sm_75"

if GPULEARN_NO_GPU= "$G" info --backend gpu >/dev/null 2>&1; then
  expect "run on the GPU" 0 "$G" run tests/cli/saxpy.json --backend gpu --dump-json "$T/gpu.json"
  "$G" run tests/cli/saxpy.json --backend sim --dump-json "$T/sim.json"
  if cmp -s "$T/gpu.json" "$T/sim.json"; then ok "saxpy: GPU output equals the simulator's"
  else bad "saxpy: GPU output differs from the simulator's"; fi
  expect "auto runs on the GPU" 0 "$G" run tests/cli/saxpy.json; has out "ran on the GPU"
  expect "a failed assert on the GPU" 1 "$G" run tests/cli/assert.json --backend gpu
  if grep -q "assert.cu:6: .*thread: \[40,0,0\] Assertion" "$T/out" "$T/err"; then
    ok "the GPU names the failing threads"; else bad "the GPU's assert messages are missing"; fi
  has err "an assert() failed"
  echo "GPU: ran the GPU cases"
else
  expect "--backend gpu without a GPU" 1 "$G" run tests/cli/saxpy.json --backend gpu
  has err "no NVIDIA driver found\|no CUDA device\|without cuda.h"
  expect "auto falls back to the simulator" 0 "$G" run tests/cli/saxpy.json
  has err "running on the simulator"; has out "ran on the simulator"
  expect "auto: an instruction the simulator lacks" 1 "$G" run tests/cli/unsupported.json
  has err "unsupported.cu:5: unsupported instruction 'multimem.red.relaxed"
  echo "SKIP: no GPU: the GPU cases were not run"
fi
echo "cli: $((n-fails)) passed, $fails failed"
[ $fails = 0 ]
