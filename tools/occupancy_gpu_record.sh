#!/bin/sh
# occupancy_gpu_record.sh — records the GPU golden of the occupancy program
# (cudaFuncGetAttributes, cudaOccupancyMaxActiveBlocksPerMultiprocessor,
# cudaOccupancyMaxPotentialBlockSize) on an H100 or H200 (sm_90, 132 SMs: the simulator's
# default profile). Until it is run there, tests/programs/sim/occupancy.stdout holds the
# simulator's own output. Run from the repository root on that GPU with the CUDA Toolkit:
#   sh tools/occupancy_gpu_record.sh
# It compiles tests/programs/sim/occupancy.cu with nvcc and NVIDIA's runtime, runs it,
# prints the differences from the simulator's golden, and moves the program into
# tests/programs/ with the GPU's stdout and status as its golden (git mv; commit it), where
# tests/programs.sh compares every simulated run with it.
set -u
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null 2>&1 || NVCC=/usr/local/cuda/bin/nvcc
cd "$(dirname "$0")/.." || exit 1
src=tests/programs/sim/occupancy.cu
[ -f "$src" ] || { echo "$src: not found (already recorded? see tests/programs/occupancy.cu)"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | sed 's/^/GPU: /'
"$NVCC" --version | tail -1
"$NVCC" -O2 -o "$tmp/occupancy" "$src" || { echo "nvcc failed"; exit 1; }
"$tmp/occupancy" > "$tmp/stdout"; echo $? > "$tmp/status"
echo "status $(cat "$tmp/status"); differences from the simulator's golden (- simulator, + GPU):"
diff tests/programs/sim/occupancy.stdout "$tmp/stdout" && echo "  none"
git mv "$src" tests/programs/occupancy.cu
git rm -q tests/programs/sim/occupancy.stdout tests/programs/sim/occupancy.status
cp "$tmp/stdout" tests/programs/occupancy.stdout
cp "$tmp/status" tests/programs/occupancy.status
git add tests/programs/occupancy.stdout tests/programs/occupancy.status
echo "recorded: tests/programs/occupancy.{cu,stdout,status} (git status shows them; commit)"
