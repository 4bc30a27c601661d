#!/bin/sh
# tui_demo.sh — `gpulearn demo 1` as an instructor uses it, under tmux at 80x24 and at
# 200x60: the large title and the text without pane borders, Space runs the step's
# kernel then moves on, p goes back, the step bar is clickable, resizing redraws; then
# --auto 1 advancing on its own, and the fallbacks: NO_COLOR and an ASCII locale
# (LANG=C: ASCII borders, no UTF-8 glyphs); lesson 0's device table. Bad usage exits 2.
#
# Env: GPULEARN = absolute path of the built binary (make check sets it).
# Exit: 0 pass, 1 fail (the captured screen is printed), 77 skip (no tmux).
set -u

NAME=tui_demo; SESSION=demo
. "$(dirname "$0")/lib/tmux.sh"
tui_begin
# Only lessons 0 and 1 (copied): the test does not depend on the other lessons' state.
tui_copy_lessons 00 01

cat >"$TMP/pane.sh" <<'EOF'
before=$(stty -g)
XDG_DATA_HOME="$TUI_TMP/xdg" GPULEARN_LESSONS="$TUI_LESSONS" GPULEARN_NO_GPU=1 "$GPULEARN" demo "${DEMO_LESSON:-1}" $DEMO_ARGS
rc=$?
after=$(stty -g)
[ "$before" = "$after" ] && echo "TTY-RESTORED"
echo "GPULEARN-EXIT=$rc"
sleep 600
EOF

fail_context() { echo " ($WHAT)"; }
click() {
  x=$(printf '%x' $(($1 + 33))); y=$(printf '%x' $(($2 + 33)))
  T send-keys -t demo -H 1b 5b 4d 20 "$x" "$y"
  T send-keys -t demo -H 1b 5b 4d 23 "$x" "$y"
}

# start W H ENV...: a fresh tmux server running the demo.
start() {
  W=$1; H=$2; shift 2
  T kill-server >/dev/null 2>&1
  sleep 0.2 # let a previous server finish exiting
  T -f /dev/null new-session -d -s demo -x "$W" -y "$H" \
    "env GPULEARN='$GPULEARN' TUI_LESSONS='$TMP/lessons' TUI_TMP='$TMP' $* sh '$TMP/pane.sh'" || fail "tmux could not start"
  T set-option -t demo status off >/dev/null 2>&1
}

quit_ok() {
  keys q
  wait_for "GPULEARN-EXIT=" || fail "the demo did not exit on q"
  screen | grep -q "GPULEARN-EXIT=0" || fail "nonzero exit status"
  screen | grep -q "TTY-RESTORED" || fail "terminal settings not restored"
}

walk() {
  W=$1; H=$2; WHAT="${W}x$H"
  start "$W" "$H" "DEMO_ARGS=''"
  wait_for "Lesson 1 . Threads, blocks, grids" || fail "no demo header"
  wait_for "Hello from every thread" || fail "no step title"
  screen | grep -q "Space: run the kernel" || fail "no presenter hint"
  # uncluttered: no pane borders around the text or the source
  screen | grep -q "┌─\|+-" && screen | grep -q "Step 1/" && fail "pane borders in demo mode"
  screen | grep -q "hello.cu" || fail "the kernel source is not shown"
  # the title is centred: it starts well right of the left margin
  col=$(screen | grep -m1 "Hello from every thread" | awk '{ print index($0, "Hello") }')
  [ "$col" -gt $((W / 5)) ] || fail "the title is not centred (column $col)"
  keys Space
  wait_for "ran on the simulator" 600 || fail "Space did not run the kernel"
  wait_for "global index [0-7]" 20 || fail "the printf output is not shown"
  keys Space
  wait_for "The global index" 30 || fail "Space did not move to step 2"
  keys p
  wait_for "Hello from every thread" 30 || fail "p did not go back"
  # the step bar is clickable: click "3"
  r=$(screen | grep -n " 1  2  3" | head -1 | cut -d: -f1)
  # the column in characters (the header holds multibyte glyphs): strip to the match
  c=$(screen | sed -n "${r}p" | sed 's/ 3  4.*//' | LC_ALL=C.UTF-8 wc -m)
  if [ -n "$r" ] && [ "$c" -gt 0 ]; then
    click "$c" $((r - 1))
    wait_for "Blocks" 30 || fail "clicking step 3 did not open it"
  fi
  T resize-window -t demo -x $((W + 20)) -y $((H + 4))
  sleep 0.3
  keys n
  wait_for "Every thread has its own registers" 30 || fail "no redraw or n after resizing"
  quit_ok
  echo "tui_demo: ok at $WHAT"
}

walk 80 24
walk 200 60

# --auto 1: advances on its own (runs the kernel, then the next step).
WHAT="--auto 1"
start 100 30 "DEMO_ARGS='--auto 1'"
wait_for "Hello from every thread" || fail "no first step"
wait_for "auto 1 s" 20 || fail "the status line does not show auto-advance"
wait_for "The global index" 100 || fail "auto-advance did not reach step 2"
keys a
wait_for "paused" 20 || fail "a did not pause auto-advance"
quit_ok
echo "tui_demo: ok with --auto"

# NO_COLOR and an ASCII locale: still readable, ASCII borders.
WHAT="NO_COLOR LANG=C"
start 100 30 "DEMO_ARGS='' NO_COLOR=1 LANG=C LC_ALL=C"
wait_for "Hello from every thread" || fail "no demo without colours"
wait_for "Lesson 1 . Threads" || fail "no header"
screen | grep -q "─\|│\|·\|↪" && fail "UTF-8 glyphs in an ASCII locale"
keys Space
wait_for "ran on the simulator" 600 || fail "no run without colours"
screen | grep -q "+-" || fail "no ASCII box in the map"
quit_ok
echo "tui_demo: ok with NO_COLOR and LANG=C"

# Lesson 0's device table in the demo layout.
WHAT="lesson 0"
start 80 24 "DEMO_ARGS='' DEMO_LESSON=0"
wait_for "warp size" 50 || fail "no device table in demo mode"
quit_ok
echo "tui_demo: ok with lesson 0"

# Bad usage: exit 2 with a message, no terminal needed.
"$GPULEARN" demo >/dev/null 2>&1; [ $? -eq 2 ] || { echo "tui_demo: FAIL: 'demo' without a lesson should exit 2"; exit 1; }
"$GPULEARN" demo 1 --auto 0 >/dev/null 2>&1; [ $? -eq 2 ] || { echo "tui_demo: FAIL: '--auto 0' should exit 2"; exit 1; }
"$GPULEARN" demo 1 --bogus >/dev/null 2>&1; [ $? -eq 2 ] || { echo "tui_demo: FAIL: an unknown option should exit 2"; exit 1; }
echo "tui_demo: ok"
exit 0
