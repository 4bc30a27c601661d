#!/bin/sh
# tui_mnemonic.sh — the registers view names each instruction by its full PTX mnemonic
# (the trace's trace_insn.mnemonic, every modifier kept): stepping one warp through a
# cp.async copy shows cp.async.ca.shared.global, cp.async.commit_group and
# cp.async.wait_group (they used to read alike, "cp.shared.b32"), at 80x24.
#
# Env: GPULEARN = absolute path of the built binary (make check sets it).
# Exit: 0 pass, 1 fail (the captured screen is printed), 77 skip (no tmux).
set -u

NAME=tui_mnemonic; SESSION=views
. "$(dirname "$0")/lib/tmux.sh"
tui_begin
mkdir -p "$TMP/fix/01-async"
FIX="$TMP/fix/01-async"

cat >"$FIX/copy.cu" <<'EOF2'
extern "C" __global__ void copy(const int *in, int *out)
{
    __shared__ int buf[32];
    unsigned sa;
    asm("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }" : "=r"(sa) : "l"(&buf[threadIdx.x]));
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(sa), "l"(in + threadIdx.x));
    asm volatile("cp.async.commit_group;");
    asm volatile("cp.async.wait_group 0;" ::: "memory");
    out[threadIdx.x] = buf[threadIdx.x];
}
EOF2
cat >"$FIX/lesson.json" <<'EOF2'
{
  "format": 1, "id": "async", "title": "Async copy",
  "summary": "Fixture for tests/tui_mnemonic.sh.",
  "steps": [
    {"title": "Copy", "text": ["One warp copies through shared memory."], "kernel": "copy.cu",
     "launch": {"kernel": "copy", "grid": [1, 1, 1], "block": [32, 1, 1],
       "args": [{"name": "in", "type": "i32*", "len": 32, "init": {"iota": {"start": 0, "step": 1}}},
                {"name": "out", "type": "i32*", "len": 32}]}}
  ]
}
EOF2

cat >"$TMP/pane.sh" <<'EOF2'
XDG_DATA_HOME="$TUI_TMP/xdg" GPULEARN_LESSONS="$TUI_LESSONS" GPULEARN_NO_GPU=1 "$GPULEARN" "$TUI_LESSON"
echo "GPULEARN-EXIT=$?"
sleep 600
EOF2
fail_context() { echo " ($SIZE)"; }

open 80 24 "$TMP/fix" 1
keys r
wait_for "ran on the simulator" 600 || fail "the fixture did not run"
keys 0 '^'
wait_for "0 registers" 20 || fail "0 does not open the registers view"
: >"$TMP/seen"
n=0
while [ "$n" -lt 60 ]; do
  screen >>"$TMP/seen"
  grep -q "line [0-9]* cp.async.wait_group" "$TMP/seen" && break
  keys .; sleep 0.1; n=$((n + 1))
done
for mn in "cp.async.ca.shared.global" "cp.async.commit_group" "cp.async.wait_group"; do
  grep -q "line [0-9]* $mn" "$TMP/seen" || fail "stepping never names $mn by its full mnemonic"
done
keys q
wait_for "GPULEARN-EXIT=0" || fail "the TUI did not exit cleanly"
echo "tui_mnemonic: ok"
exit 0
