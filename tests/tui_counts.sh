#!/bin/sh
# tui_counts.sh — views never count silently from a cut trace: a launch of over 2
# million lane-level atomics overflows the TUI's stored trace (2^18 events); at the end
# of the trace the atomics view (6) gives the launch's count from its metrics (which see
# every event) and the barrier view (5) says its count is of the first events. At 80x24.
#
# Env: GPULEARN = absolute path of the built binary (make check sets it).
# Exit: 0 pass, 1 fail (the captured screen is printed), 77 skip (no tmux).
set -u

NAME=tui_counts; SESSION=views
. "$(dirname "$0")/lib/tmux.sh"
tui_begin
mkdir -p "$TMP/fix/01-counts"
FIX="$TMP/fix/01-counts"

# 32 blocks of 256 threads, 256 atomics each on 16 bins: 2,097,152 lane-level atomics
# (65,536 warp instructions), with a barrier per iteration.
cat >"$FIX/hist.cu" <<'EOF2'
extern "C" __global__ void hist(unsigned *bins)
{
    for (int i = 0; i < 256; i++) {
        atomicAdd(&bins[(threadIdx.x + i) % 16], 1u);
        __syncthreads();
    }
}
EOF2
cat >"$FIX/lesson.json" <<'EOF2'
{
  "format": 1, "id": "counts", "title": "Counts",
  "summary": "Fixture for tests/tui_counts.sh.",
  "steps": [
    {"title": "Many atomics", "text": ["Two million atomics."], "kernel": "hist.cu",
     "launch": {"kernel": "hist", "grid": [32, 1, 1], "block": [256, 1, 1],
       "args": [{"name": "bins", "type": "u32*", "len": 16}]}}
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
wait_for "ran on the simulator" 1200 || fail "the fixture did not run"
keys 6 '$'
wait_for "2097152 atomic\\( ops\\|s\\) on 16 addresses" 50 ||
  fail "the atomics view does not count the whole launch at the end of a cut trace"
screen | grep -q "whole launch (trace cut)" || fail "the atomics view does not say it counts the whole launch"
screen | grep -q " 131072" || fail "the busiest bin does not show its 131072 atomics"
keys 5 '$'
wait_for "block 0: [0-9]* barriers\? (trace cut)" 50 ||
  fail "the barrier view does not say its count is of the first events"
keys q
wait_for "GPULEARN-EXIT=0" || fail "the TUI did not exit cleanly"
echo "tui_counts: ok"
exit 0
