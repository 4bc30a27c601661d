#!/bin/sh
# programs_gpu_record.sh — records the goldens of tests/programs/*.cu on an NVIDIA GPU:
# each program is compiled with nvcc (the real CUDA runtime) and run natively; its stdout
# is written to NAME.stdout and its exit status to NAME.status, which tests/programs.sh
# compares gpulearn's simulator runs with. Run from the repository root on a machine with
# a GPU and the CUDA Toolkit:
#   sh tools/programs_gpu_record.sh [OUTDIR]    (default: tests/programs, in place)
# Prints each program's status and any stderr; `git diff tests/programs` then shows what
# differs from the simulator's goldens.
set -u
out=${1:-tests/programs}
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null 2>&1 || NVCC=/usr/local/cuda/bin/nvcc
cd "$(dirname "$0")/.." || exit 1
mkdir -p "$out"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | sed 's/^/GPU: /'
"$NVCC" --version | tail -1
for src in tests/programs/*.cu; do
  name=$(basename "$src" .cu)
  if ! "$NVCC" -O2 -o "$tmp/$name" "$src"; then
    echo "$name: nvcc failed"; continue
  fi
  "$tmp/$name" > "$out/$name.stdout" 2> "$tmp/$name.err"
  echo $? > "$out/$name.status"
  echo "$name: status $(cat "$out/$name.status")"
  sed 's/^/  stderr: /' "$tmp/$name.err"
done
