#!/bin/sh
# Runs on a machine with an NVIDIA GPU and no package registry: builds gpulearn against
# Debian packages unpacked from .debs/ (see README), runs the whole test suite with the
# GPU present, records golden outputs from the GPU and compares the simulator with them.
# Usage: sh tools/gpu_check.sh OUTDIR
out=${1:?usage: tools/gpu_check.sh OUTDIR}
mkdir -p "$out" /tmp/deps
for f in .debs/*.deb; do dpkg -x "$f" /tmp/deps; done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
make -j"$(nproc)" DEPS_PREFIX=/tmp/deps EXTRA_CFLAGS="$EXTRA_CFLAGS" all >"$out/build.log" 2>&1 || { tail -50 "$out/build.log"; exit 1; }
grep -i warning "$out/build.log" | head -20
G=build/debug/gpulearn
$G info
$G info --json >"$out/info.json"
for k in saxpy types; do
  $G run tests/cli/$k.json --backend gpu --dump-json "$out/$k.golden.json" >/dev/null || echo "GPU run of $k failed"
  $G run tests/cli/$k.json --backend sim --dump-json "$out/$k.sim.json" >/dev/null
  cmp "$out/$k.golden.json" "$out/$k.sim.json" && echo "$k: simulator == GPU"
done
$G run tests/cli/oob.json --backend gpu; echo "oob on gpu: exit $?"
for f in lessons/01-threads/solution.cu lessons/01-threads/exercise.cu; do
  $G grade 1 $f --backend gpu | tail -3; echo "grade $f on the GPU: exit $?"
done
make check DEPS_PREFIX=/tmp/deps EXTRA_CFLAGS="$EXTRA_CFLAGS" 2>&1 | grep -v '^cc \|^ar ' | tee "$out/check.log" | tail -80
