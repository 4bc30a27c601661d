#!/bin/sh
# tui_smoke.sh — drives the TUI under tmux: lesson list, lesson 1, a run on the
# simulator, the help overlay, resizes (including "terminal too small"), quit, and
# checks that the terminal settings were restored. Runs at 80x24 and at 200x60, with a
# private XDG_DATA_HOME (the learner's real files are never touched).
#
# Env: GPULEARN = absolute path of the built binary (make check sets it).
# Exit: 0 pass, 1 fail (the captured screen is printed), 77 skip (no tmux).
set -u

NAME=tui_smoke; SESSION=smoke
. "$(dirname "$0")/lib/tmux.sh"
tui_begin
# Only lessons 0 and 1 (copied): the test does not depend on the other lessons' state.
tui_copy_lessons 00 01

# The pane runs this: record the tty settings, run the TUI, compare them after.
cat >"$TMP/pane.sh" <<'EOF'
before=$(stty -g)
XDG_DATA_HOME="$TUI_XDG" GPULEARN_LESSONS="$TUI_LESSONS" GPULEARN_NO_GPU=1 "$GPULEARN"
rc=$?
after=$(stty -g)
[ "$before" = "$after" ] && echo "TTY-RESTORED"
echo "GPULEARN-EXIT=$rc"
sleep 600
EOF

fail_context() { echo " ($SIZE)"; }

smoke() {
  W=$1; H=$2; SIZE="${W}x$H"
  T kill-server >/dev/null 2>&1
  sleep 0.2 # let a previous server finish exiting
  T -f /dev/null new-session -d -s smoke -x "$W" -y "$H" \
    "env GPULEARN='$GPULEARN' TUI_LESSONS='$TMP/lessons' TUI_XDG='$TMP/xdg' sh '$TMP/pane.sh'" || fail "tmux could not start"
  T set-option -t smoke status off >/dev/null 2>&1

  wait_for "Lessons" || fail "no lesson list"
  wait_for "Threads, blocks" || fail "lesson 1 not in the list"

  # Move the selection to lesson 1 (rows are sorted by number).
  first=$(screen | grep -n '^. *[0-9][0-9]*  [A-Z]' | head -1 | cut -d: -f1)
  target=$(screen | grep -n '^. *1  Threads' | head -1 | cut -d: -f1)
  [ -n "$first" ] && [ -n "$target" ] || fail "cannot find lesson rows"
  i=$first
  while [ "$i" -lt "$target" ]; do keys Down; i=$((i + 1)); done
  keys Enter
  wait_for "lesson 1 . step 1/" || fail "lesson 1 did not open"

  # Find a step with a kernel to run.
  k=1
  while ! screen | grep -q "press r to run"; do
    [ "$k" -ge 10 ] && fail "no step with a kernel"
    keys n; k=$((k + 1))
    wait_for "step $k/" 20 || fail "n did not move to step $k"
  done

  keys r
  wait_for "ran on the simulator" 600 || fail "no run result"
  wait_for "printf output" 20 || fail "no printf output shown"
  screen | grep -q "Hello\|hello\|thread" || fail "no printf line"

  keys '?'
  wait_for "Help: keys" || fail "no help overlay"
  wait_for "next step" || fail "help overlay lacks the key table"
  # every description is whole: a long one wraps onto a row of its own, never cut
  n=0
  while [ $n -lt 40 ] && ! screen | grep -q "registers)"; do keys Down; sleep 0.2; n=$((n + 1)); done
  screen | grep -q "registers)" || fail "the help cuts S's description (it must wrap)"

  T resize-window -t smoke -x 50 -y 12
  wait_for "terminal too small" || fail "no 'terminal too small' at 50x12"
  T resize-window -t smoke -x $((W + 10)) -y $((H + 6))
  n=0
  while [ $n -lt 50 ]; do
    last=$(screen | sed -n "$((H + 6))p")
    case "$last" in *"lesson 1 "*) break ;; esac
    sleep 0.1; n=$((n + 1))
  done
  [ $n -lt 50 ] || fail "did not redraw after resizing to $((W + 10))x$((H + 6))"
  screen | grep -q "terminal too small" && fail "stale 'too small' message after growing"

  keys q
  wait_for "GPULEARN-EXIT=" || fail "the TUI did not exit on q"
  screen | grep -q "GPULEARN-EXIT=0" || fail "nonzero exit status"
  screen | grep -q "TTY-RESTORED" || fail "terminal settings not restored"
  screen | grep -q "Help: keys\|Lessons" && fail "the TUI's screen was left behind"
  T kill-server >/dev/null 2>&1
  echo "tui_smoke: ok at $SIZE"
}

smoke 80 24
smoke 200 60
exit 0
