#!/bin/sh
# Registers in cudaFuncGetAttributes and the occupancy calls of whole programs
# (docs/architecture.md "Whole programs"): a kernel that keeps 64 floats live uses about
# 72-80 registers a thread, which limit its occupancy. With nvcc its numRegs must equal
# what `nvcc -arch=sm_90 -Xptxas -v` reports for it (the registers a GPU runs it with);
# with either compiler the occupancy figures must be the CUDA Occupancy Calculator's for
# that count (a warp's registers rounded up to 256, in one of 4 sub-partitions of 16 K):
# recomputed here. Without ptxas (GPULEARN_PTXAS=none) registers are not counted: said
# once on stderr, numRegs 0, no register limit. About 1 s a compiler.
G=${GPULEARN:?set GPULEARN to the gpulearn binary}
cd "$(dirname "$0")/.." || exit 1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
have_clang=0; have_nvcc=0
{ command -v clang >/dev/null 2>&1 || ls /usr/bin/clang-1[4-9] >/dev/null 2>&1; } && have_clang=1
NVCC=$(command -v nvcc || echo "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc")
[ -x "$NVCC" ] && have_nvcc=1
[ $have_clang = 1 ] || [ $have_nvcc = 1 ] || { echo "SKIP programs_occupancy: neither clang nor nvcc"; exit 77; }
cat > "$tmp/heavy.cu" <<'CU'
#include <cstdio>
__global__ void heavy(float *x, int n)
{
    float a[64];
#pragma unroll
    for (int k = 0; k < 64; k++)
        a[k] = x[threadIdx.x + k * n];
    float s = 0;
#pragma unroll
    for (int k = 0; k < 64; k++)
        s += a[k] * a[63 - k] + a[(k * 7) % 64] * s;
    x[threadIdx.x] = s;
}
int main()
{
    cudaFuncAttributes a;
    cudaFuncGetAttributes(&a, heavy);
    int b256 = -1, b1024 = -1, g = -1, bs = -1;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b256, heavy, 256, 0);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b1024, heavy, 1024, 0);
    cudaOccupancyMaxPotentialBlockSize(&g, &bs, heavy);
    printf("%d %d %d %d %d %d\n", a.numRegs, a.maxThreadsPerBlock, b256, b1024, bs, g);
    return 0;
}
CU
fails=0
# what the CUDA Occupancy Calculator gives for r registers on sm_90 (132 SMs): the most
# threads a block, blocks of 256 and of 1024 threads, the potential block size, its grid
expect() {
  r=$1
  w=$(( (r * 32 + 255) / 256 * 256 ))          # registers of a warp
  per_part=$(( 16384 / w ))                     # warps in a sub-partition
  maxw=$(( 65536 / w / 4 * 4 )); [ $maxw -gt 32 ] && maxw=32
  b() { bw=$1; rw=$(( (bw + 3) / 4 * 4 )); [ $((w * rw)) -gt 65536 ] && { echo 0; return; }
        n=$(( per_part * 4 / bw )); t=$(( 64 / bw )); [ $t -lt $n ] && n=$t; echo $n; }
  best=0; bestb=0
  k=$maxw; while [ $k -gt 0 ]; do n=$(b $k); [ $((n * k)) -gt $((bestb * best)) ] && { best=$k; bestb=$n; }; k=$((k - 1)); done
  echo "$r $((maxw * 32)) $(b 8) $(b 32) $((best * 32)) $((bestb * 132))"
}
for cc in clang nvcc; do
  eval "[ \$have_$cc = 1 ]" || { echo "SKIP $cc: not installed"; continue; }
  out=$("$G" run --compiler $cc "$tmp/heavy.cu" 2> "$tmp/err"); r=${out%% *}
  want=$(expect "$r")
  if [ "$r" -lt 40 ] 2>/dev/null || [ "$out" != "$want" ]; then
    echo "FAIL heavy ($cc): '$out', expected '$want' (the calculator's for its registers)"; cat "$tmp/err"; fails=$((fails+1))
  elif [ $cc = nvcc ]; then
    ptxas=$("$NVCC" -arch=sm_90 -Xptxas -v -c -o "$tmp/h.o" "$tmp/heavy.cu" 2>&1 | sed -n 's/.*Used \([0-9]*\) registers.*/\1/p' | head -1)
    [ "$r" = "$ptxas" ] && echo "PASS heavy ($cc): $out ($r registers, as ptxas -v says)" ||
      { echo "FAIL heavy ($cc): $r registers, ptxas -v says '$ptxas'"; fails=$((fails+1)); }
  else
    echo "PASS heavy ($cc): $out"
  fi
done
# no ptxas: not counted, said once, no register limit
cc=clang; [ $have_clang = 1 ] || cc=nvcc
out=$(GPULEARN_PTXAS=none "$G" run --compiler $cc "$tmp/heavy.cu" 2> "$tmp/err")
if [ "$out" = "0 1024 8 2 1024 264" ] && [ "$(grep -c 'registers per thread are not counted' "$tmp/err")" = 1 ]; then
  echo "PASS no ptxas ($cc)"
else
  echo "FAIL no ptxas ($cc): '$out'"; cat "$tmp/err"; fails=$((fails+1))
fi
[ $fails = 0 ]
