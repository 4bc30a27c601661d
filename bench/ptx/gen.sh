#!/bin/sh
# gen.sh — regenerates the checked-in bench PTX from the .cu sources beside it:
#   sh bench/ptx/gen.sh   (needs nvcc; the PTX is checked in so `make bench` does not)
set -e
cd "$(dirname "$0")"
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null 2>&1 || NVCC=/usr/local/cuda/bin/nvcc
for k in vec_add reduce sgemm scan; do
    "$NVCC" -O3 -arch=compute_75 -lineinfo -ptx "$k.cu" -o "$k.ptx"
done
