#!/bin/sh
# tui_buffers.sh — the buffers view at 80x24 (lesson 15 step 1, attention the textbook
# way: S = Q K^T / sqrt(D) and O = P V, 100 x 100 and 100 x 32 floats):
#  - "changed" compares bits: every element of S and O was written, and the view says
#    "all ... changed" (it used to treat a change under about 1e-3 as none: "3171 of 3200");
#  - a line per buffer first, the changed ones first (S, O, then the inputs Q, K, V);
#  - ] and [ scroll it a page: its rows reach O's values, which did not fit.
#
# Env: GPULEARN = absolute path of the built binary (make check sets it).
# Exit: 0 pass, 1 fail (the captured screen is printed), 77 skip (no tmux).
set -u

NAME=tui_buffers; SESSION=views
. "$(dirname "$0")/lib/tmux.sh"
tui_begin
tui_copy_lessons 15
cat >"$TMP/pane.sh" <<'EOF2'
XDG_DATA_HOME="$TUI_TMP/xdg" GPULEARN_LESSONS="$TUI_LESSONS" GPULEARN_NO_GPU=1 "$GPULEARN" "$TUI_LESSON"
echo "GPULEARN-EXIT=$?"
sleep 600
EOF2
fail_context() { echo " ($SIZE, lesson $LESSON)"; }

open 80 24 "$TMP/lessons" 15
wait_for "7 buffers" 20 || fail "step 1 does not open on the buffers view"
keys r
wait_for "ran on the simulator (" 900 || fail "the step did not run"
wait_for "S: all 10000 elements changed" 20 || fail "S is not 'all 10000 elements changed'"
screen | grep -q "O: all 3200 elements changed" || fail "O is not 'all 3200 elements changed' (bits)"
screen | grep -q "Q\[3200\]: unchanged" || fail "the input Q is not listed as unchanged after the outputs"
screen | grep -q "O 100x32" && fail "O's values fit at once: nothing to scroll"
screen | grep -q "\[ \] scroll: rows 1-" || fail "the view does not say it scrolls"
i=0
while ! screen | grep -q "O 100x32: rows 0-7"; do
  [ "$i" -ge 12 ] && fail "] never reaches O's values"
  keys ']'; i=$((i + 1)); sleep 0.2
done
keys '['
sleep 0.3
screen | grep -q "\[ \] scroll: rows 1-" && [ "$i" -gt 1 ] && fail "[ went back to the top from page $i"
keys q
wait_for "GPULEARN-EXIT=0" || fail "the TUI did not exit cleanly"
echo "tui_buffers: ok"
exit 0
