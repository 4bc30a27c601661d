#!/bin/sh
# tui_small.sh — the smallest terminal the TUI works in (60x20), and 80x24: pictures
# stay inside their panes (every view of lessons 7 and 9: no row loses its right
# border, no bottom border holds a view's text). Lesson 7's race picture (two accesses, each with its warp, lane and
# line) must not write over its pane's bottom border, and the warp and lane of each
# access come before the block (a narrow pane cuts the end of a line).
#
# Env: GPULEARN = absolute path of the built binary (make check sets it).
# Exit: 0 pass, 1 fail (the captured screen is printed), 77 skip (no tmux).
set -u

NAME=tui_small; SESSION=views
. "$(dirname "$0")/lib/tmux.sh"
tui_begin
LESSONS=$(pwd)/lessons
cat >"$TMP/pane.sh" <<'EOF2'
XDG_DATA_HOME="$TUI_TMP/xdg" GPULEARN_LESSONS="$TUI_LESSONS" GPULEARN_NO_GPU=1 "$GPULEARN" "$TUI_LESSON"
echo "GPULEARN-EXIT=$?"
sleep 600
EOF2

fail_context() { echo " ($SIZE, lesson $LESSON)"; }

open 60 20 "$LESSONS" 7
# the step bar and the help keys stay on a 60-column screen
wait_for "step 1/" 20 || fail "lesson 7 did not open"
screen | head -1 | grep -q "1 *2 *3 *Ex" || fail "the step bar is not in the title line"
screen | tail -1 | grep -q "step 1/[0-9]* .*?:help  q:quit" || fail "the status line lost the help keys"
keys r
wait_for "race on s\[63\]" 600 || fail "the race does not open on its picture, naming the shared element (s[63])"
wait_for "warp 1 lane 31\|w1 lane 31" 20 || fail "the writer's warp and lane are not shown first"
# the verdict and both accesses' lanes fit: A at lane 31 of warp 1, B at lane 0
screen | grep -q "no __syncthreads() between *│" || fail "the verdict is cut"
screen | grep -q "A *│" || fail "A (lane 31) is not in the lanes picture"
# every bottom border is whole: box-drawing characters and a pane's own title only
screen | grep '└' | grep -q 'line [0-9]*:' && fail "the race picture writes over its pane's bottom border"

# every view of lessons 7 and 9 at 60x20: each pane row ends in its right border, and no
# bottom border holds a view's text
borders_whole() {
  s=$(screen)
  bad=$(printf '%s\n' "$s" | grep -E '^(│|┌|└)' | grep -Ev '(│|┐|┘) *$')
  [ -z "$bad" ] || fail "a row does not end in its pane's border ($1): $bad"
  bad=$(printf '%s\n' "$s" | grep -E '^└' | grep -E 'line [0-9]+:|lane [0-9]+|wavefront')
  [ -z "$bad" ] || fail "a bottom border holds a view's text ($1): $bad"
}
for S in "60 20" "80 24"; do
  for L in 7 9; do
    open $S "$LESSONS" $L
    keys r
    wait_for "ran on the simulator" 600 || fail "lesson $L did not run"
    for v in 1 2 3 4 5 6 7 8 9 0; do
      keys "$v"; sleep 0.3
      borders_whole "lesson $L, view $v"
    done
  done
done
echo "tui_small: ok at 60x20 and 80x24"
