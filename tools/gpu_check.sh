#!/bin/sh
# Runs on a machine with an NVIDIA GPU and no package registry: builds gpulearn against
# Debian packages unpacked from .debs/ (see README), records the corpus goldens on the
# GPU (tests/corpus/*.golden.json, packed into OUTDIR/goldens.tar), and runs the whole
# test suite with the GPU present. Usage: sh tools/gpu_check.sh OUTDIR
out=${1:?usage: tools/gpu_check.sh OUTDIR}
mkdir -p "$out" /tmp/deps /tmp/goldens
for f in .debs/*.deb; do dpkg -x "$f" /tmp/deps; done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
make -j"$(nproc)" DEPS_PREFIX=/tmp/deps EXTRA_CFLAGS="$EXTRA_CFLAGS" all >"$out/build.log" 2>&1 || { tail -50 "$out/build.log"; exit 1; }
grep -i warning "$out/build.log" | head -20
G=build/debug/gpulearn
$G info
for spec in tests/corpus/*.json; do
  case $spec in *.golden.json) continue;; esac
  name=$(basename "$spec" .json)
  $G run "$spec" --backend gpu --dump-json "/tmp/goldens/$name.golden.json" >/dev/null || echo "GPU run of $name failed"
  $G run "$spec" --backend sim --dump-json "/tmp/goldens/$name.sim.json" >/dev/null 2>&1
  cmp -s "/tmp/goldens/$name.golden.json" "/tmp/goldens/$name.sim.json" && echo "$name: simulator == GPU" || {
    echo "$name: simulator != GPU"; diff "/tmp/goldens/$name.golden.json" "/tmp/goldens/$name.sim.json" | head -6; }
done
(cd /tmp/goldens && tar cf "$out/goldens.tar" *.golden.json)
$G run tests/cli/oob.json --backend gpu; echo "oob on the GPU: exit $?"
for f in lessons/01-threads/solution.cu lessons/01-threads/exercise.cu; do
  $G grade 1 $f --backend gpu | tail -4; echo "grade $f on the GPU: exit $?"
done
make check DEPS_PREFIX=/tmp/deps EXTRA_CFLAGS="$EXTRA_CFLAGS" 2>&1 | grep -v '^cc \|^ar ' >"$out/check.log"
grep -E "Checks|passed|FAIL|SKIP|GPU" "$out/check.log"
