#!/bin/sh
# Runs on a machine with an NVIDIA GPU and no package registry: builds gpulearn against
# Debian packages unpacked from .debs/ (see README), records the corpus goldens on the
# GPU (tests/corpus/*.golden.json, packed into OUTDIR/goldens.tar), and runs the whole
# test suite with the GPU present. Usage: sh tools/gpu_check.sh OUTDIR
out=${1:?usage: tools/gpu_check.sh OUTDIR}
mkdir -p "$out" /tmp/deps /tmp/goldens
for f in .debs/*.deb; do dpkg -x "$f" /tmp/deps; done
# tmux (and its libraries) from .debs, for the TUI tests (tests/tui_gpu.sh needs the GPU)
export PATH="/tmp/deps/usr/bin:$PATH"
export LD_LIBRARY_PATH="/tmp/deps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export TERMINFO_DIRS="/tmp/deps/usr/share/terminfo:/tmp/deps/lib/terminfo:/usr/share/terminfo:/lib/terminfo"
command -v tmux && tmux -V
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
make -j"$(nproc)" check DEPS_PREFIX=/tmp/deps EXTRA_CFLAGS="$EXTRA_CFLAGS" 2>&1 | grep -v '^cc \|^ar ' >"$out/check.log"
grep -E "Checks|passed|FAIL|SKIP|GPU" "$out/check.log"

# GPU back end: faults, timeouts, timing, cache.
$G info --json >"$out/info.json"
$G run tests/gpu/oob_far.json --backend gpu; echo "oob_far: exit $? (expect 1)"
$G run tests/gpu/endless.json --backend gpu --timeout 2; echo "endless: exit $? (expect 1 after ~2 s)"
$G run tests/cli/saxpy.json --backend gpu >/dev/null; echo "next launch: exit $? (expect 0)"
$G run tests/gpu/reduce_big.json --backend gpu --time
$G run tests/cli/saxpy.json --backend gpu --verbose >/dev/null; $G run tests/cli/saxpy.json --backend gpu --verbose >/dev/null

# Lessons on the GPU: every reference passes, every starter fails; every demo runs.
for d in lessons/0[1-9]-* lessons/10-*; do
  n=$(basename "$d" | cut -c1-2); n=${n#0}
  $G grade "$n" "$d/solution.cu" --backend gpu >"$out/grade.tmp" 2>&1; r1=$?
  $G grade "$n" "$d/exercise.cu" --backend gpu >"$out/grade.tmp" 2>&1; r2=$?
  echo "lesson $n on the GPU: reference exit $r1 (expect 0), starter exit $r2 (expect 1)"
  [ $r1 = 0 ] || cat "$out/grade.tmp"
done
rm -f "$out/grade.tmp"
# Lessons 13 and later: the reference passes and the starter fails on the GPU too, and each
# of our wrong submissions fails (exit 1) and each right one passes (exit 0) there.
for d in lessons/1[3-9]-*; do
  n=$(basename "$d" | cut -c1-2)
  $G grade "$n" "$d/solution.cu" --backend gpu --seed 1 >/dev/null 2>&1; r1=$?
  $G grade "$n" "$d/exercise.cu" --backend gpu --seed 1 >/dev/null 2>&1; r2=$?
  echo "lesson $n on the GPU: reference exit $r1 (expect 0), starter exit $r2 (expect 1)"
  for f in tests/grade/$(basename "$d")/*.cu; do
    $G grade "$n" "$f" --backend gpu --seed 1 >"$out/grade.tmp" 2>&1; r=$?
    case $(basename "$f") in pass__*) e=0;; *) e=1;; esac
    [ $r = $e ] || { echo "GPU grade of $f: exit $r, expected $e"; tail -12 "$out/grade.tmp"; }
  done
done
rm -f "$out/grade.tmp"
$G run lessons/17-async/pipeline_2048_sync.json --backend gpu --time | grep -v ' (f32\['
$G run lessons/17-async/pipeline_2048.json --backend gpu --time | grep -v ' (f32\['

# Metrics against Nsight Compute (once, recorded in tests/cli.sh):
#   ncu --target-processes all --metrics l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,...
#   build/debug/gpulearn run tests/kernels/check/{copy_strided,tile_column}.json --backend gpu

# Cases waiting for a golden (put NAME.cu + NAME.json in tests/corpus_new/): record the
# GPU's output twice, compare with the simulator; goldens come back in goldens_new.tar.
mkdir -p /tmp/g
for spec in tests/corpus_new/*.json; do
  case $spec in *.golden.json) continue;; esac
  [ -f "$spec" ] || continue
  n=$(basename "$spec" .json)
  $G run "$spec" --backend gpu --dump-json /tmp/g/$n.golden.json >/dev/null 2>/tmp/g/$n.err || echo "GPU: $n failed: $(head -3 /tmp/g/$n.err)"
  $G run "$spec" --backend gpu --dump-json /tmp/g/$n.again.json >/dev/null 2>&1
  cmp -s /tmp/g/$n.golden.json /tmp/g/$n.again.json && echo "GPU: $n deterministic" || echo "GPU: $n: not deterministic"
  $G run "$spec" --backend sim --dump-json /tmp/g/$n.sim.json >/dev/null 2>&1
  cmp -s /tmp/g/$n.golden.json /tmp/g/$n.sim.json && echo "$n: simulator == GPU" || { echo "$n: simulator != GPU"; diff /tmp/g/$n.golden.json /tmp/g/$n.sim.json | head -8; }
done
ls /tmp/g/*.golden.json >/dev/null 2>&1 && (cd /tmp/g && tar cf "$out/goldens_new.tar" *.golden.json)

# GPU traces from instrumented PTX against the simulator's traces.
make -j"$(nproc)" DEPS_PREFIX=/tmp/deps EXTRA_CFLAGS="$EXTRA_CFLAGS" build/debug/tests/test_instrument >/dev/null 2>&1
CK_RUN_CASE=gpu build/debug/tests/test_instrument 2>&1 | tail -20
$G run tests/kernels/check/tile_column.json --backend gpu --metrics-json /tmp/tc.gpu.json >/dev/null 2>&1
$G run tests/kernels/check/tile_column.json --backend sim --metrics-json /tmp/tc.sim.json >/dev/null 2>&1
grep -m4 "shared_op" /tmp/tc.gpu.json; grep -m4 "shared_op" /tmp/tc.sim.json
$G run tests/corpus/reduce.json --backend gpu --trace-json "$out/reduce.trace.json" >/dev/null && echo "GPU Perfetto trace written"

# Instruction kernels (tests/kernels/ops): GPU vs simulator, nvcc PTX.
mkdir -p /tmp/ops
for s in tests/kernels/ops/*.json; do n=$(basename $s .json)
  $G run $s --backend gpu --compiler nvcc --dump-json /tmp/ops/$n.gpu.json >/dev/null 2>/tmp/ops/err || { echo "ops GPU $n failed: $(head -2 /tmp/ops/err)"; continue; }
  $G run $s --backend sim --compiler nvcc --dump-json /tmp/ops/$n.sim.json >/dev/null 2>&1
  cmp -s /tmp/ops/$n.gpu.json /tmp/ops/$n.sim.json && echo "ops $n: same" || { echo "ops $n: differs"; diff /tmp/ops/$n.gpu.json /tmp/ops/$n.sim.json | head -20; }
done
$G run tests/kernels/ops/cvt_nan_probe.json --backend gpu --dump-json /tmp/probe.gpu.json >/dev/null 2>&1
$G run tests/kernels/ops/cvt_nan_probe.json --backend sim --dump-json /tmp/probe.sim.json >/dev/null 2>&1
cmp -s /tmp/probe.gpu.json /tmp/probe.sim.json && echo "cvt NaN probe: simulator == GPU" || { echo "cvt NaN probe differs:"; diff /tmp/probe.gpu.json /tmp/probe.sim.json; }
