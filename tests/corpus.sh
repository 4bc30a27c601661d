#!/bin/sh
# Ground truth: every tests/corpus/NAME.json is run on the simulator and its
# --dump-json output must equal NAME.golden.json byte for byte. The goldens were
# recorded on a real GPU (`gpulearn run NAME.json --backend gpu --dump-json
# NAME.golden.json`, NVIDIA H200 for the first cases and H100 for later ones, driver 580,
# CUDA 13.0, NVRTC; tools/gpu_check.sh, which re-records every golden on the GPU and has
# found all of them equal on both GPUs; nvcc's
# PTX gave the same GPU output for every case, and every case was deterministic over two
# GPU runs). Each kernel is compiled by every compiler present (NVRTC, nvcc, clang), so
# the PTX each emits is checked too; on a GPU machine the GPU's output is compared with
# the golden as well. Approximate instructions are compared within their error bounds by
# tests/test_approx_compare.c (tests/corpus/approx/), not here.
#
# NAME.skip (optional) lists compilers that cannot compile a case, one per line with the
# reason ("clang: uses cuda_fp16.h"); they are printed as SKIP. A compiler that is not
# installed is skipped too ("not available").
#
# Time: the cases run two at a time (CORPUS_JOBS, default 2): about 35 s for 90 cases
# with all three compilers on 2 cores and a cold PTX cache (debug build). nvcc is the
# slowest compiler (about 0.6 s a kernel); CORPUS_NVCC=some limits it to the cases in
# NVCC_CASES below (the original corpus, device calls, half types, barriers, atomics,
# conversions), about 20 s in all: NVRTC, the same front end, still runs on every case.
G=${GPULEARN:?set GPULEARN to the gpulearn binary}
NVCC_CASES="bar_divergent devfunc diverge hello mat_add reduce saxpy types vec_add
  devfunc_many recursion half_types named_barriers syncthreads_reduce_ops atomics_ull
  atomics_shared_float cvt_double cvt_float_int float_special float_rounding vector_loads
  local_array scan_multiblock_chained matrix_mul_template printf_formats"

# one case: prints PASS/FAIL/SKIP lines (called by the loop below through xargs)
if [ "${1:-}" = --one ]; then
  spec=$2; T=$3; gpu=$4
  name=$(basename "$spec" .json); dir=$(dirname "$spec"); golden=$dir/$name.golden.json
  if [ ! -f "$golden" ]; then echo "FAIL $name: no golden ($golden)"; exit 0; fi
  backends=sim; [ "$gpu" = 1 ] && backends="sim gpu"
  for cc in nvrtc nvcc clang; do
    if [ -f "$dir/$name.skip" ] && grep -q "^$cc:" "$dir/$name.skip"; then
      echo "SKIP $name with $cc: $(grep "^$cc:" "$dir/$name.skip" | head -1 | cut -d: -f2- | sed 's/^ *//')"
      continue
    fi
    if [ $cc = nvcc ] && [ "${CORPUS_NVCC:-all}" = some ]; then
      case " $(echo $NVCC_CASES) " in *" $name "*) ;; *) continue;; esac
    fi
    for be in $backends; do
      out="$T/$name.$cc.$be.json"; err="$T/$name.$cc.$be.err"
      "$G" run "$spec" --backend $be --compiler $cc --dump-json "$out" >/dev/null 2>"$err"; rc=$?
      if [ $rc != 0 ] && grep -q "not available\|no compiler\|not found" "$err"; then
        [ $be = sim ] && echo "SKIP $name with $cc: $(head -1 "$err")"; continue
      fi
      if [ $rc = 0 ] && cmp -s "$out" "$golden"; then echo "PASS $name ($cc, $be)"
      else echo "FAIL $name ($cc, $be): exit $rc"; head -5 "$err"
           [ -f "$out" ] && diff "$out" "$golden" | head -6; fi
    done
  done
  exit 0
fi

T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
gpu=0; GPULEARN_NO_GPU= "$G" info --backend gpu >/dev/null 2>&1 && gpu=1
for spec in tests/corpus/*.json; do
  case $spec in *.golden.json) continue;; esac
  echo "$spec"
done | xargs -P "${CORPUS_JOBS:-2}" -I{} sh -c 'sh "$0" --one "$1" "$2" "$3" > "$2/$(basename "$1" .json).log" 2>&1' "$0" {} "$T" "$gpu"
cat "$T"/*.log | grep -v "^PASS"
pass=$(cat "$T"/*.log | grep -c "^PASS"); fail=$(cat "$T"/*.log | grep -c "^FAIL")
[ $gpu = 1 ] && echo "GPU: compared the GPU's outputs too" || echo "SKIP: no GPU: compared the simulator with the recorded goldens only"
[ "${CORPUS_NVCC:-all}" = all ] || echo "nvcc: only the cases in NVCC_CASES (CORPUS_NVCC=some)"
echo "corpus: $pass passed, $fail failed"
[ "$fail" = 0 ]
