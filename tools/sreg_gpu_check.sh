#!/bin/sh
# sreg_gpu_check.sh — on a machine with an NVIDIA GPU (sm_80 or later): records the
# special registers the simulator models from the driver rather than from the PTX ISA,
# %reserved_smem_offset_{begin,end,cap,0,1} (cooperative_groups' scratch space,
# cooperative_groups/details/memory.h) and %envreg0..3 (driver_abi.h: envreg1:2 a
# cooperative launch's grid workspace), with %total_smem_size and %dynamic_smem_size, for
# a kernel of 100 bytes of static and 24 of dynamic shared memory, on the GPU and on the
# simulator, and prints both. The simulator puts the 1 KiB window after the kernel's own
# shared memory (begin 144, end 1168, cap 1024, offset_0 144, offset_1 656) and reads the
# envregs as 0 (no cooperative launch); the GPU's layout may differ (sim/exec.h sreg):
# what matters is that offset_1 has cooperative_groups' 288 bytes inside [begin, end).
# Run from the repository root after `make`: sh tools/sreg_gpu_check.sh
# Exit 0 when the GPU's window holds 288 bytes at offset_1 and its envregs are 0, 1
# otherwise, 2 when there is no GPU.
set -u
G=${GPULEARN:-build/debug/gpulearn}
[ -x "$G" ] || { echo "sreg_gpu_check: no $G: run make first" >&2; exit 2; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export XDG_CACHE_HOME="$T/cache" XDG_DATA_HOME="$T/data"
cat >"$T/k.cu" <<'CU'
#define SREG(i, name) asm volatile("mov.u32 %0, %%" name ";" : "=r"(v[i]))
extern "C" __global__ void k(unsigned *out)
{
    __shared__ unsigned char s[100];
    extern __shared__ unsigned char dyn[];
    unsigned v[11];
    SREG(0, "reserved_smem_offset_begin");
    SREG(1, "reserved_smem_offset_end");
    SREG(2, "reserved_smem_offset_cap");
    SREG(3, "reserved_smem_offset_0");
    SREG(4, "reserved_smem_offset_1");
    SREG(5, "envreg0");
    SREG(6, "envreg1");
    SREG(7, "envreg2");
    SREG(8, "envreg3");
    SREG(9, "total_smem_size");
    SREG(10, "dynamic_smem_size");
    s[threadIdx.x] = 1;
    dyn[threadIdx.x] = 2;
    for (int i = 0; i < 11; i++)
        out[i] = v[i] + (s[0] + dyn[0] - 3);
}
CU
cat >"$T/k.json" <<'JS'
{"source": "k.cu", "kernel": "k", "arch": "sm_90", "grid": [1], "block": [1],
 "dynamic_shared_bytes": 24, "args": [{"name": "out", "type": "u32*", "len": 11}]}
JS
echo "      begin, end, cap, offset_0, offset_1, envreg0..3, total_smem_size, dynamic_smem_size"
"$G" run "$T/k.json" --backend sim --dump-json "$T/sim.json" >/dev/null || exit 1
echo "sim: $(grep '"out"' "$T/sim.json")"
"$G" run "$T/k.json" --backend gpu --dump-json "$T/gpu.json" >/dev/null 2>"$T/err" ||
    { echo "sreg_gpu_check: no GPU run: $(head -1 "$T/err")" >&2; exit 2; }
echo "GPU: $(grep '"out"' "$T/gpu.json")"
set -- $(grep '"out"' "$T/gpu.json" | tr -dc '0-9 ,' | tr ',' ' ')
begin=$1 end=$2 off1=$5
[ "$off1" -ge "$begin" ] && [ $((off1 + 288)) -le "$end" ] && [ "$7" = 0 ] && [ "$8" = 0 ]
