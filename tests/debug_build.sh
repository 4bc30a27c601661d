#!/bin/sh
# The debug build (`gpulearn run --debug`: -G with NVRTC and nvcc, the build grading runs
# its memory checks on) of the CUB, libcu++ and cooperative_groups corpus cases runs on
# the simulator and gives the GPU's output (the corpus golden, recorded from the
# optimised build: a correct kernel gives the same output either way). Before, the debug
# builds did not load (libcu++ atomics' indirect call through a .callprototype, the
# %reserved_smem_offset_1 and %envreg registers cooperative_groups reads) or deadlocked
# (cg_coalesced: lanes of both sides of an if issued __activemask() together, in the
# deterministic schedule and in random ones).
#
# Two cases compare their integer buffers only: -G keeps `x * 0.37f + 0.001f` a mul and
# an add where the optimised build fuses them into one fma (PTX ISA §9.7.3.4: mul/add
# without a rounding modifier may be fused), so their float sums (cg_reduce fsum,
# cg_coalesced fout) differ in the last bits from the golden, on a GPU too.
# Needs NVRTC or nvcc (the CUDA Toolkit: CUB and cooperative_groups are its headers);
# without either it prints SKIP and exits 77. NVCC_DEBUG=some limits nvcc to cg_*.
G=${GPULEARN:?set GPULEARN to the gpulearn binary}
export GPULEARN_NO_GPU=1
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
pass=0; fail=0; ran=0
for spec in tests/corpus/cub_*.json tests/corpus/cuda_barrier_*.json \
            tests/corpus/cuda_pipeline_*.json tests/corpus/cg_*.json; do
  case $spec in *.golden.json) continue;; esac
  name=$(basename "$spec" .json); golden=tests/corpus/$name.golden.json
  case $name in
    cg_reduce) floats='"fsum"';;
    cg_coalesced) floats='"fout"';;
    *) floats='"no float buffer"';;
  esac
  # cooperative_groups cases also under a random schedule (grading runs some on the
  # debug build): the sides of a divergent if stay apart in any order
  runs="nvrtc nvcc"; case $name in cg_*) runs="$runs nvrtc:random:3 nvcc:random:7";; esac
  for run in $runs; do
    cc=${run%%:*}; sched=deterministic; [ "$cc" = "$run" ] || sched=${run#*:}
    [ $cc = nvcc ] && [ "${NVCC_DEBUG:-all}" = some ] && case $name in cg_*) ;; *) continue;; esac
    out=$T/$name.$cc.$sched.json; err=$T/$name.$cc.$sched.err
    "$G" run "$spec" --backend sim --compiler $cc --debug --schedule $sched --dump-json "$out" \
      >/dev/null 2>"$err"
    rc=$?
    if [ $rc != 0 ] && grep -q "not available\|no compiler\|not found" "$err"; then
      echo "SKIP $name with $cc: $(head -1 "$err")"; continue
    fi
    ran=$((ran + 1))
    if [ $rc = 0 ] && grep -v "^    $floats:" "$out" >"$out.cmp" &&
       grep -v "^    $floats:" "$golden" | cmp -s - "$out.cmp"; then
      pass=$((pass + 1))
    else
      fail=$((fail + 1)); echo "FAIL $name ($cc, debug build, $sched): exit $rc"; head -3 "$err"
      [ -f "$out" ] && diff "$out" "$golden" | head -4
    fi
  done
done
if [ $ran = 0 ]; then echo "debug_build: SKIP (neither NVRTC nor nvcc available)"; exit 77; fi
echo "debug_build: $pass passed, $fail failed"
[ $fail = 0 ]
