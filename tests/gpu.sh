#!/bin/sh
# GPU back end on the command line: --time, --timeout, --verbose and the
# compilation cache, `info --json`; with tests/gpu/fake_libcuda.c standing in for the
# driver (GPULEARN_LIBCUDA) where cc and cuda.h exist, a fault, an endless kernel and a
# timed run. Runs from the repo root with $GPULEARN = the binary. Real-GPU cases are in
# tests/test_gpu.c ("real gpu").
G=${GPULEARN:?set GPULEARN to the gpulearn binary}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export XDG_CACHE_HOME="$T/cache"
fails=0; n=0
ok()   { n=$((n+1)); echo "ok   $1"; }
bad()  { n=$((n+1)); fails=$((fails+1)); echo "FAIL $1"; sed 's/^/     stderr: /' "$T/err" | head -10; sed 's/^/     stdout: /' "$T/out" | head -10; }
expect() { name=$1 want=$2; shift 2; "$@" >"$T/out" 2>"$T/err"; rc=$?
  if [ "$rc" = "$want" ]; then ok "$name (exit $rc)"; else bad "$name: exit $rc, expected $want"; fi; }
has()  { if grep -q -- "$2" "$T/$1"; then ok "$1 has '$2'"; else bad "$1 lacks '$2'"; fi; }
lacks() { if grep -q -- "$2" "$T/$1"; then bad "$1 has '$2'"; else ok "$1 lacks '$2'"; fi; }

S=tests/cli/saxpy.json
expect "--time on the simulator" 2 "$G" run $S --backend sim --time
has err "--time needs a GPU"
expect "bad --timeout" 2 "$G" run $S --timeout 0;      has err "--timeout must be a number of seconds"
expect "bad --reps" 2 "$G" run $S --time --reps x;     has err "--reps must be a whole number"
expect "--timeout without value" 2 "$G" run $S --timeout; has err "--timeout needs a value"

expect "first run compiles" 0 env GPULEARN_NO_GPU=1 "$G" run $S --verbose
has err "gpulearn: [a-z]*: "; lacks err "(cached)"
expect "second run is cached" 0 env GPULEARN_NO_GPU=1 "$G" run $S --verbose
has err "(cached)"; has out "cached)"
[ -n "$(ls "$XDG_CACHE_HOME/gpulearn/" 2>/dev/null)" ] && ok "cache folder under XDG_CACHE_HOME" || bad "no cache folder"
expect "--time falling back to the simulator" 0 env GPULEARN_NO_GPU=1 "$G" run $S --time
has err "timing needs a GPU"

expect "info --json on the simulator" 0 "$G" info --backend sim --json
for k in name simulator compute_capability sm_count warp_size max_threads_per_block \
         max_threads_per_sm max_blocks_per_sm max_block_dim max_grid_dim regs_per_block \
         regs_per_sm shared_bytes_per_block shared_bytes_per_block_optin shared_bytes_per_sm \
         global_bytes l2_bytes clock_khz mem_clock_khz mem_bus_bits peak_bandwidth_gbs driver; do
  has out "\"$k\":"
done

expect "--trace-json" 0 "$G" run tests/gpu/reduce_small.json --backend sim --trace-json "$T/trace.json"
if python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert any(e.get('cat')=='block' for e in d['traceEvents'])" "$T/trace.json" 2>/dev/null ||
   { ! command -v python3 >/dev/null && grep -q '"traceEvents"' "$T/trace.json"; }; then ok "trace JSON parses, has blocks"; else bad "trace JSON"; fi

CUDA_INC=${CUDA_HOME:-/usr/local/cuda}/include
if cc -shared -fPIC -isystem "$CUDA_INC" tests/gpu/fake_libcuda.c -o "$T/libcuda-fake.so" 2>/dev/null &&
   GPULEARN_LIBCUDA="$T/libcuda-fake.so" "$G" info --backend gpu >/dev/null 2>&1; then
  export GPULEARN_LIBCUDA="$T/libcuda-fake.so"
  expect "fake GPU info" 0 "$G" info;              has out "Fake GPU"; has out "3352 GB/s"
  expect "fake GPU timed run" 0 "$G" run $S --backend gpu --time --reps 5
  has out "ran on the GPU"; has out "time: median 3 ms (min 1, max 5"; has out "of the Fake GPU's theoretical 3352 GB/s"
  has out "estimated"
  expect "fake GPU fault" 1 env FAKE_CUDA=fault "$G" run $S
  has err "CUDA_ERROR_ILLEGAL_ADDRESS"; has err "gpulearn run tests/cli/saxpy.json --backend sim"
  lacks out "y (f32"
  expect "fake GPU endless kernel" 1 env FAKE_CUDA=hang "$G" run $S --timeout 1
  has err "ran longer than 1 s on the GPU and was stopped: an endless loop?"
  expect "fake GPU next launch" 0 "$G" run $S --backend gpu
  expect "fake GPU trace (instrumented PTX)" 0 "$G" run $S --backend gpu --trace-json "$T/gt.json"
  if grep -q '"traceEvents"' "$T/gt.json"; then ok "GPU trace JSON written"; else bad "GPU trace JSON"; fi
  # a grading on the GPU builds for the GPU beside the simulator's builds (the fake
  # driver runs no kernel: the GPU's outputs differ)
  expect "fake GPU grading" 1 env XDG_DATA_HOME="$T/data" "$G" grade 1 lessons/01-threads/solution.cu --backend gpu --seed 1
  has out "compiled with [a-z]* (sm_[0-9]* for the simulator, compute_[0-9]* for the GPU)"
  has out "n = 1, on the GPU: "
  printf 'extern "C" __global__ void vec_add(const float *a, const float *b, float *c, int n) { c[0] = ; }\n' > "$T/bad.cu"
  expect "fake GPU grading of code that does not compile" 1 env XDG_DATA_HOME="$T/data" "$G" grade 1 "$T/bad.cu" --backend gpu --seed 1
  has out "FAIL     compiles"; has out "bad.cu:1:"
else
  echo "SKIP: fake driver (no cc, no cuda.h, or gpulearn built without cuda.h)"
fi

echo "$n checks, $fails failed"
[ $fails = 0 ]
