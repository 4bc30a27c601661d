#!/bin/sh
# regs_gpu_check.sh — on a machine with an NVIDIA GPU (sm_90: H100/H200) and the CUDA
# Toolkit's ptxas: compares the registers per thread gpulearn counts for the simulator's
# sm_90 profile (ptxas on the PTX, read from the cubin: runtime/cubin.h) with the
# driver's CU_FUNC_ATTRIBUTE_NUM_REGS of the same kernels loaded on the GPU, for lesson
# 18's kernels and tests/grade/18-occupancy's window kernel, and the theoretical
# occupancy each side gives. Both come from `gpulearn run --verbose`'s occupancy line:
#   sim: "occupancy (modelled, N registers per thread): T% theoretical ..."
#   GPU: "occupancy: T% theoretical ...; N registers per thread"
# Run from the repository root after `make`: sh tools/regs_gpu_check.sh
# Exit 0 when every kernel's counts and theoretical occupancies agree, 1 when one
# differs, 2 when there is no GPU or no ptxas. The GPU compiles the same PTX (NVRTC's,
# for compute_90) with its driver's compiler, which may be newer than the Toolkit's
# ptxas: a difference is reported with both versions.
set -u
G=${GPULEARN:-build/debug/gpulearn}
[ -x "$G" ] || { echo "regs_gpu_check: no $G: run make first" >&2; exit 2; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export XDG_CACHE_HOME="$T/cache" XDG_DATA_HOME="$T/data"
L=$PWD/lessons/18-occupancy
W=$PWD/tests/grade/18-occupancy/theoretical_occupancy__window_of_40_in_registers.cu

# spec NAME SOURCE KERNEL "GX, GY, GZ" "BX, BY, BZ" DYNAMIC_SHARED ARGS
spec() {
    cat >"$T/$1.json" <<EOF
{"source": "$2", "kernel": "$3", "arch": "sm_90", "grid": [$4], "block": [$5],
 "dynamic_shared_bytes": $6, "args": [$7]}
EOF
}
F='"type": "f32*"'
XY="{\"name\": \"x\", $F, \"len\": 65536, \"init\": {\"fill\": 1}}, {\"name\": \"y\", $F, \"len\": 65536}"
N='{"name": "n", "type": "i32", "value": 65536}'
MM="{\"name\": \"A\", $F, \"len\": 16384, \"init\": {\"fill\": 1}}, {\"name\": \"B\", $F, \"len\": 16384, \"init\": {\"fill\": 1}}, {\"name\": \"C\", $F, \"len\": 16384}, {\"name\": \"M\", \"type\": \"i32\", \"value\": 128}, {\"name\": \"N\", \"type\": \"i32\", \"value\": 128}, {\"name\": \"K\", \"type\": \"i32\", \"value\": 128}"
spec saxpy "$L/occupancy.cu" saxpy "256, 1, 1" "256, 1, 1" 0 "{\"name\": \"a\", \"type\": \"f32\", \"value\": 2}, $XY, $N"
spec reverse_static "$L/occupancy.cu" reverse_static "6, 1, 1" "256, 1, 1" 0 "$XY, $N"
spec reverse_dynamic "$L/occupancy.cu" reverse_dynamic "3, 1, 1" "256, 1, 1" 102400 "$XY, $N, {\"name\": \"seg_len\", \"type\": \"i32\", \"value\": 25600}"
spec many_sums "$L/occupancy.cu" many_sums "256, 1, 1" "256, 1, 1" 0 "$XY, $N"
spec vec_add "$L/roofline.cu" vec_add "256, 1, 1" "256, 1, 1" 0 "{\"name\": \"a\", $F, \"len\": 65536}, {\"name\": \"b\", $F, \"len\": 65536}, {\"name\": \"c\", $F, \"len\": 65536}, $N"
spec matmul_tiled "$L/roofline.cu" matmul_tiled "8, 8, 1" "16, 16, 1" 0 "$MM"
spec matmul_naive "$L/roofline.cu" matmul_naive "8, 8, 1" "16, 16, 1" 0 "$MM"
spec moving_sum_starter "$L/exercise.cu" moving_sum "8, 1, 1" "256, 1, 1" 0 "$XY, $N"
spec moving_sum_reference "$L/solution.cu" moving_sum "8, 1, 1" "256, 1, 1" 0 "$XY, $N"
spec moving_sum_window "$W" moving_sum "8, 1, 1" "256, 1, 1" 0 "$XY, $N"

if ! "$G" info 2>/dev/null | grep -q "compute capability 9.0\|sm_90"; then
    echo "regs_gpu_check: this GPU is not sm_90 (or there is none): $("$G" info 2>&1 | head -3)" >&2
fi
bad=0
for s in saxpy reverse_static reverse_dynamic many_sums vec_add matmul_tiled matmul_naive \
    moving_sum_starter moving_sum_reference moving_sum_window; do
    sim=$("$G" run "$T/$s.json" --backend sim --compiler nvrtc --verbose 2>&1 | grep "occupancy")
    gpu=$("$G" run "$T/$s.json" --backend gpu --compiler nvrtc --verbose 2>&1 | grep "occupancy")
    case $sim in *"modelled, "[0-9]*" registers per thread"*) ;; *)
        echo "regs_gpu_check: $s: gpulearn counted no registers (no ptxas?): $sim" >&2
        exit 2 ;;
    esac
    [ -n "$gpu" ] || { echo "regs_gpu_check: $s: no GPU run: $("$G" run "$T/$s.json" --backend gpu 2>&1 | tail -2)" >&2; exit 2; }
    rs=$(echo "$sim" | sed -n 's/.*modelled, \([0-9]*\) registers per thread.*/\1/p')
    rg=$(echo "$gpu" | sed -n 's/.*; \([0-9]*\) registers per thread.*/\1/p')
    ts=$(echo "$sim" | sed -n 's/.*: \([0-9]*\)% theoretical.*/\1/p')
    tg=$(echo "$gpu" | sed -n 's/.*: \([0-9]*\)% theoretical.*/\1/p')
    if [ "$rs" = "$rg" ] && [ "$ts" = "$tg" ]; then
        echo "ok   $s: $rs registers per thread, $ts% theoretical (sim and GPU)"
    else
        echo "DIFF $s: gpulearn (ptxas) $rs registers, $ts%; GPU driver $rg registers, $tg%"
        echo "     sim: $sim"
        echo "     gpu: $gpu"
        bad=1
    fi
done
if [ $bad -ne 0 ]; then
    echo "ptxas: $(${CUDA_HOME:-/usr/local/cuda}/bin/ptxas --version 2>/dev/null | tail -1)"
    echo "driver: $(nvidia-smi --query-gpu=driver_version,name --format=csv,noheader 2>/dev/null)"
fi
exit $bad
