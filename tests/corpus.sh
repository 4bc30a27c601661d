#!/bin/sh
# Ground truth: every tests/corpus/NAME.json is run on the simulator and its
# --dump-json output must equal NAME.golden.json byte for byte. The goldens were
# recorded on a real GPU (tools/gpu_check.sh: `gpulearn run NAME.json --backend gpu
# --dump-json NAME.golden.json`, NVIDIA H200, driver 580, CUDA 13.0 NVRTC). Each kernel
# is compiled by every compiler present (NVRTC, nvcc, clang), so the PTX each emits is
# checked too. On a GPU machine the GPU's output is compared with the golden as well.
G=${GPULEARN:?set GPULEARN to the gpulearn binary}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
pass=0; fail=0
gpu=0; GPULEARN_NO_GPU= "$G" info --backend gpu >/dev/null 2>&1 && gpu=1
compilers="nvrtc nvcc clang"
for spec in tests/corpus/*.json; do
  case $spec in *.golden.json) continue;; esac
  name=$(basename "$spec" .json); golden=tests/corpus/$name.golden.json
  if [ ! -f "$golden" ]; then echo "FAIL $name: no golden ($golden)"; fail=$((fail+1)); continue; fi
  backends=sim; [ $gpu = 1 ] && backends="sim gpu"
  for cc in $compilers; do
    for be in $backends; do
      out="$T/$name.$cc.$be.json"
      "$G" run "$spec" --backend $be --compiler $cc --dump-json "$out" >/dev/null 2>"$T/err"; rc=$?
      if [ $rc != 0 ] && grep -q "not available\|no compiler\|not found" "$T/err"; then
        [ $be = sim ] && echo "SKIP $name with $cc: $(head -1 "$T/err")"; continue
      fi
      if [ $rc = 0 ] && cmp -s "$out" "$golden"; then pass=$((pass+1))
      else fail=$((fail+1)); echo "FAIL $name ($cc, $be): exit $rc"; head -5 "$T/err"
           [ -f "$out" ] && diff "$out" "$golden" | head -6; fi
    done
  done
done
[ $gpu = 1 ] && echo "GPU: compared the GPU's outputs too" || echo "SKIP: no GPU: compared the simulator with the recorded goldens only"
echo "corpus: $pass passed, $fail failed"
[ $fail = 0 ]
