#!/bin/sh
# tui_gpu.sh — the TUI on a real GPU ("SM on GPU runs"), under tmux at
# 120x40: lesson 5's coalesced copy runs on the GPU and its memory view shows the GPU's
# own request (4 sectors, from the instrumented PTX); the map colours blocks by the SM
# the GPU ran them on (%smid); views the GPU cannot record say so, and S replays the
# launch on the simulator, after which the warp timeline and registers are there.
#
# Env: GPULEARN = absolute path of the built binary (make check sets it).
# Exit: 0 pass, 1 fail (the captured screen is printed), 77 skip (no tmux or no GPU).
set -u

NAME=tui_gpu; SESSION=gpu
. "$(dirname "$0")/lib/tmux.sh"
tui_begin
if "$GPULEARN" info --json 2>/dev/null | grep -q '"simulator":[[:space:]]*true'; then
  echo "tui_gpu: SKIP: no GPU"
  exit 77
fi
LESSONS=${GPULEARN_LESSONS:-$(pwd)/lessons}

cat >"$TMP/pane.sh" <<'EOF'
XDG_DATA_HOME="$TUI_TMP/xdg" GPULEARN_LESSONS="$TUI_LESSONS" "$GPULEARN" "$TUI_LESSON"
echo "GPULEARN-EXIT=$?"
sleep 600
EOF

T -f /dev/null new-session -d -s gpu -x 120 -y 40 \
  "env GPULEARN='$GPULEARN' TUI_TMP='$TMP' TUI_LESSONS='$LESSONS' TUI_LESSON=5 sh '$TMP/pane.sh'" ||
  fail "tmux could not start"
T set-option -t gpu status off >/dev/null 2>&1
wait_for "step 1/" || fail "lesson 5 did not open"
wait_for "GPU: " 100 || fail "the status bar does not name the GPU"
keys r
wait_for "ideal 4): coalesced\|ideal 4: coalesced" 600 || fail "the GPU's coalesced request is not 4 sectors"
screen | grep -q "fell back\|replayed" && fail "the run did not stay on the GPU"
keys 1
n=0
while [ "$n" -lt 12 ] && ! screen | grep -q "colour = SM"; do keys Tab; sleep 0.1; n=$((n + 1)); done
wait_for "colour = SM the block ran on (%smid)" 20 || fail "Tab never colours the map by the GPU's SM ids"
keys 2
wait_for "the GPU traces memory requests, not issues" 20 || fail "the warp view does not say the GPU records no issues"
keys S
wait_for "replayed on the simulator (" 600 || fail "S did not replay the launch on the simulator"
wait_for "active lanes: kernel" 600 || fail "after S the warp timeline is empty"
keys 0
wait_for "thread (0,0,0) of block (0,0,0)\|t(0,0,0) b(0,0,0)" 20 || fail "after S the registers view shows no thread"
screen | grep -q "%rd[0-9]* *0x" || fail "after S the registers view shows no 64-bit address register"
keys q
wait_for "GPULEARN-EXIT=0" || fail "the TUI did not exit cleanly"

# Lesson 11 step 4 on the GPU: the Result gives the bandwidth (the step declares the
# bytes it moves) and the driver's occupancy; f times the file's next kernel against it.
T kill-server >/dev/null 2>&1; sleep 0.2
T -f /dev/null new-session -d -s gpu -x 120 -y 40 \
  "env GPULEARN='$GPULEARN' TUI_TMP='$TMP' TUI_LESSONS='$LESSONS' TUI_LESSON=11 sh '$TMP/pane.sh'" ||
  fail "tmux could not start"
T set-option -t gpu status off >/dev/null 2>&1
wait_for "step 1/" || fail "lesson 11 did not open"
keys n n n
wait_for "step 4/" 20 || fail "lesson 11 has no step 4"
keys r
wait_for "ms: [0-9]* GB/s, [0-9]*% of the [0-9]* GB/s peak" 600 || fail "the GPU run does not give its bandwidth"
screen | grep -q "occupancy: [0-9]*% theoretical (limit: " || fail "the GPU run does not give the driver's occupancy"
keys f
wait_for "transpose_naive in [0-9.]* ms" 600 || fail "f did not run the next kernel on the GPU"
wait_for "than your previous run (transpose_padded): time (ms)" 20 || fail "the next kernel's time is not compared with the previous run's"
keys q
wait_for "GPULEARN-EXIT=0" || fail "the TUI did not exit cleanly"
echo "tui_gpu: ok"
exit 0
