#!/bin/sh
# tui_cancel.sh — a launch that takes long (a kernel looping two billion times on the
# simulator) runs in a worker process: the TUI keeps answering, Ctrl-C cancels the run
# instead of quitting (and the worker is gone), Esc cancels too, leaving the step
# cancels with a message, q during a run quits
# cleanly, and Ctrl-C with nothing running asks for a second one, which quits with the
# terminal restored. The lesson
# is a fixture written to a temporary folder (GPULEARN_LESSONS points there).
#
# Env: GPULEARN = absolute path of the built binary (make check sets it).
# Exit: 0 pass, 1 fail (the captured screen is printed), 77 skip (no tmux or pgrep).
set -u

NAME=tui_cancel; SESSION=cancel
. "$(dirname "$0")/lib/tmux.sh"
tui_begin pgrep
mkdir -p "$TMP/lessons/01-spin"
LESSON="$TMP/lessons/01-spin"

cat >"$LESSON/spin.cu" <<'EOF'
// Loops n times: long enough to cancel (the simulator's step limit ends it eventually).
extern "C" __global__ void spin(int *out, int n)
{
    int x = 0;
    for (int k = 0; k < n; k++)
        x = x * 3 + k;
    out[threadIdx.x] = x;
}
EOF
cat >"$LESSON/lesson.json" <<'EOF'
{
  "format": 1,
  "id": "spin",
  "title": "A kernel that takes long",
  "summary": "Fixture for tests/tui_cancel.sh.",
  "steps": [
    {
      "title": "Spinning",
      "text": ["This kernel loops two billion times; Ctrl-C cancels the run."],
      "kernel": "spin.cu",
      "launch": {"kernel": "spin", "grid": [1, 1, 1], "block": [1, 1, 1],
                 "args": [{"name": "out", "type": "i32*", "len": 1},
                          {"name": "n", "type": "i32", "value": 2000000000}]},
      "map": "thread"
    },
    {
      "title": "Spinning again",
      "text": ["Moving to another step during a run cancels it, and says so."],
      "kernel": "spin.cu",
      "launch": {"kernel": "spin", "grid": [1, 1, 1], "block": [1, 1, 1],
                 "args": [{"name": "out", "type": "i32*", "len": 1},
                          {"name": "n", "type": "i32", "value": 2000000000}]}
    }
  ]
}
EOF

# The pane's shell must outlive a Ctrl-C meant for the TUI (dash exits on a SIGINT it
# received while waiting), so it catches SIGINT; the TUI gets the default action back.
cat >"$TMP/pane.sh" <<'EOF'
trap : INT
before=$(stty -g)
XDG_DATA_HOME="$TUI_TMP/xdg" GPULEARN_LESSONS="$TUI_TMP/lessons" GPULEARN_NO_GPU=1 "$GPULEARN" "$TUI_TMP/lessons/01-spin"
rc=$?
after=$(stty -g)
[ "$before" = "$after" ] && echo "TTY-RESTORED"
echo "GPULEARN-EXIT=$rc"
sleep 600
EOF

# processes running the TUI (its worker is a fork: same command line)
nproc_tui() { pgrep -f -- "$GPULEARN $LESSON" | wc -l; }
wait_nproc() {
  n=0
  while [ "$n" -lt 50 ]; do
    [ "$(nproc_tui)" -eq "$1" ] && return 0
    sleep 0.1; n=$((n + 1))
  done
  return 1
}

start() {
  T kill-server >/dev/null 2>&1
  sleep 0.2 # let a previous server finish exiting
  T -f /dev/null new-session -d -s cancel -x 80 -y 24 \
    "env GPULEARN='$GPULEARN' TUI_TMP='$TMP' sh '$TMP/pane.sh'" || fail "tmux could not start"
  T set-option -t cancel status off >/dev/null 2>&1
  wait_for "lesson 1 . step 1/" || fail "the fixture lesson did not open"
}

start
# Ctrl-C during a run cancels it; the TUI stays.
keys r
wait_for "compiling and running" 30 || fail "no busy indicator after r"
wait_nproc 2 || fail "no worker process while running"
sleep 1
screen | grep -q "compiling and running" || fail "the run ended too soon to cancel"
keys C-c
wait_for "run cancelled" 30 || fail "Ctrl-C did not cancel the run"
screen | grep -q "GPULEARN-EXIT=" && fail "Ctrl-C quit the TUI instead of cancelling"
wait_nproc 1 || fail "the worker process is still there after cancelling"

# The TUI still answers: the help overlay opens and closes.
keys '?'
wait_for "Help: keys" 20 || fail "the TUI does not answer after cancelling"
wait_for "kernel (Ctrl-C cancels)" 20 || fail "the help does not say how to cancel"
keys '?'

# Esc cancels as well.
keys r
wait_for "compiling and running" 30 || fail "no second run"
sleep 0.5
keys Escape
wait_for "run cancelled" 30 || fail "Esc did not cancel the run"
wait_nproc 1 || fail "the worker is still there after Esc"

# Leaving the step during a run cancels it and says so (n, then p back).
keys r
wait_for "compiling and running" 30 || fail "no run before leaving the step"
sleep 0.5
keys n
wait_for "run cancelled: you left its step" 30 || fail "leaving the step cancelled the run without a word"
wait_nproc 1 || fail "the worker is still there after leaving the step"
keys p
wait_for "step 1/" 20 || fail "p did not go back to step 1"

# q during a run quits cleanly, leaving no worker behind.
keys r
wait_for "compiling and running" 30 || fail "no third run"
sleep 0.5
keys q
wait_for "GPULEARN-EXIT=" 50 || fail "q during a run did not quit"
screen | grep -q "GPULEARN-EXIT=0" || fail "nonzero exit after q during a run"
screen | grep -q "TTY-RESTORED" || fail "terminal settings not restored after q during a run"
wait_nproc 0 || fail "a worker outlived the TUI"

# Ctrl-C with nothing running asks for a second one, which quits, terminal restored.
start
keys C-c
wait_for "press Ctrl-C again to quit" 20 || fail "a first Ctrl-C with nothing running did not ask"
screen | grep -q "GPULEARN-EXIT=" && fail "a first Ctrl-C with nothing running quit at once"
keys C-c
wait_for "GPULEARN-EXIT=" 50 || fail "a second Ctrl-C did not quit"
screen | grep -q "TTY-RESTORED" || fail "terminal settings not restored after Ctrl-C"
echo "tui_cancel: ok"
exit 0
