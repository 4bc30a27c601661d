#!/bin/sh
# Regenerates tests/fixtures/ptx/NAME.{nvcc,clang}.ptx from tests/kernels/sim/NAME.cu.
# The fixtures are checked in so tests need no compiler. Run from the repo root:
#   sh tools/gen_ptx_fixtures.sh            (uses runtime/prelude/gpulearn_prelude.h)
#   PRELUDE=/path/to/prelude.h sh tools/gen_ptx_fixtures.sh
set -eu
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null 2>&1 || NVCC=/usr/local/cuda/bin/nvcc
CLANG=${CLANG:-clang}
PRELUDE=${PRELUDE:-runtime/prelude/gpulearn_prelude.h}
out=tests/fixtures/ptx
mkdir -p "$out"
for cu in tests/kernels/sim/*.cu; do
    name=$(basename "$cu" .cu)
    "$NVCC" -ptx -arch=compute_75 -lineinfo -O3 "$cu" -o "$out/$name.nvcc.ptx"
    "$CLANG" --cuda-device-only -nocudainc -nocudalib --cuda-gpu-arch=sm_75 \
        -Wno-unknown-cuda-version -S -O2 -gline-tables-only -include "$PRELUDE" \
        "$cu" -o "$out/$name.clang.ptx"
    echo "wrote $out/$name.nvcc.ptx $out/$name.clang.ptx"
done
