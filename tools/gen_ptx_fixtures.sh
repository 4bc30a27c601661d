#!/bin/sh
# Regenerates the PTX fixtures the simulator tests use; they are checked in so tests
# need no compiler. Run from the repo root:
#   sh tools/gen_ptx_fixtures.sh            (uses runtime/prelude/gpulearn_prelude.h)
#   PRELUDE=/path/to/prelude.h sh tools/gen_ptx_fixtures.sh
#   ONLY=ops sh tools/gen_ptx_fixtures.sh   (only tests/kernels/ops; ONLY=sim: only sim)
#   ONLY=ops OPS='mma_*' sh tools/gen_ptx_fixtures.sh   (only the ops kernels matching)
#
# tests/kernels/sim/NAME.cu -> tests/fixtures/ptx/NAME.{nvcc,clang}.ptx (sm_75); one whose
#   source says "Fixtures: nvrtc" gets NAME.nvrtc.ptx too: NVRTC with the options gpulearn
#   gives it (runtime/compile_nvrtc.c: compute_75, -lineinfo), through a small C program
#   built here against libnvrtc ($CUDA_HOME/lib64, else /usr/local/cuda/lib64).
# tests/kernels/ops/NAME.cu -> tests/fixtures/ptx/NAME.{nvcc,nvccG,clang}.ptx (sm_80):
#   nvcc -O3, nvcc -G (debug: device functions stay calls, locals on the stack) and
#   clang -O2 with the prelude. A kernel whose source says "Needs CUDA headers (nvcc)"
#   uses intrinsics the prelude lacks and gets no clang fixture; one that says "Needs
#   sm_90" is compiled by nvcc for compute_90 (clang 14 knows no sm_90) and gets none either.
# tests/kernels/ops/NAME.json are launch specs for the same kernels, so that they also
# run on a GPU: gpulearn run tests/kernels/ops/NAME.json --backend gpu|sim --dump-json F
set -eu
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null 2>&1 || NVCC=/usr/local/cuda/bin/nvcc
CLANG=${CLANG:-clang}
PRELUDE=${PRELUDE:-runtime/prelude/gpulearn_prelude.h}
ONLY=${ONLY:-all}
out=tests/fixtures/ptx
mkdir -p "$out"
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# nvrtc_ptx ARCH SRC OUT: SRC compiled by NVRTC (the helper is built on first use)
nvrtc_ptx() {
    if [ ! -x "$tmp/nvrtc_ptx" ]; then
        cat >"$tmp/nvrtc_ptx.c" <<'C'
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
    if (argc != 4)
        return 2;
    FILE *f = fopen(argv[2], "rb");
    if (!f)
        return 2;
    static char src[1 << 20];
    size_t n = fread(src, 1, sizeof src - 1, f);
    fclose(f);
    src[n] = 0;
    nvrtcProgram p;
    const char *opts[] = {argv[1], "-lineinfo"};
    if (nvrtcCreateProgram(&p, src, argv[2], 0, NULL, NULL) != NVRTC_SUCCESS)
        return 1;
    nvrtcResult r = nvrtcCompileProgram(p, 2, opts);
    size_t ln;
    nvrtcGetProgramLogSize(p, &ln);
    char *log = malloc(ln + 1);
    nvrtcGetProgramLog(p, log);
    fputs(log, stderr);
    if (r != NVRTC_SUCCESS)
        return 1;
    nvrtcGetPTXSize(p, &ln);
    char *ptx = malloc(ln);
    nvrtcGetPTX(p, ptx);
    FILE *o = fopen(argv[3], "wb");
    if (!o || fputs(ptx, o) < 0 || fclose(o) != 0)
        return 1;
    return 0;
}
C
        cc -O1 -I "$CUDA_HOME/include" "$tmp/nvrtc_ptx.c" -o "$tmp/nvrtc_ptx" \
            -L "$CUDA_HOME/lib64" -Wl,-rpath,"$CUDA_HOME/lib64" -lnvrtc
    fi
    "$tmp/nvrtc_ptx" "--gpu-architecture=$1" "$2" "$3"
}
if [ "$ONLY" != ops ]; then
    for cu in tests/kernels/sim/*.cu; do
        name=$(basename "$cu" .cu)
        "$NVCC" -ptx -arch=compute_75 -lineinfo -O3 "$cu" -o "$out/$name.nvcc.ptx"
        "$CLANG" --cuda-device-only -nocudainc -nocudalib --cuda-gpu-arch=sm_75 \
            -Wno-unknown-cuda-version -S -O2 -gline-tables-only -include "$PRELUDE" \
            -I "$(dirname "$PRELUDE")/include" \
            "$cu" -o "$out/$name.clang.ptx"
        echo "wrote $out/$name.nvcc.ptx $out/$name.clang.ptx"
        if grep -q "Fixtures: nvrtc" "$cu"; then
            nvrtc_ptx compute_75 "$cu" "$out/$name.nvrtc.ptx"
            echo "wrote $out/$name.nvrtc.ptx"
        fi
    done
fi
if [ "$ONLY" != sim ]; then
    for cu in tests/kernels/ops/${OPS:-*}.cu; do
        name=$(basename "$cu" .cu)
        arch=compute_80
        grep -q "Needs sm_90" "$cu" && arch=compute_90
        "$NVCC" -ptx -arch=$arch -lineinfo -O3 "$cu" -o "$out/$name.nvcc.ptx"
        "$NVCC" -ptx -arch=$arch -G "$cu" -o "$out/$name.nvccG.ptx"
        if grep -q "Needs CUDA headers (nvcc)\|Needs sm_90" "$cu"; then
            rm -f "$out/$name.clang.ptx"
            echo "wrote $out/$name.nvcc.ptx $out/$name.nvccG.ptx"
            continue
        fi
        "$CLANG" --cuda-device-only -nocudainc -nocudalib --cuda-gpu-arch=sm_80 \
            -Wno-unknown-cuda-version -S -O2 -gline-tables-only -include "$PRELUDE" \
            -I "$(dirname "$PRELUDE")/include" \
            "$cu" -o "$out/$name.clang.ptx"
        echo "wrote $out/$name.nvcc.ptx $out/$name.nvccG.ptx $out/$name.clang.ptx"
    done
fi
