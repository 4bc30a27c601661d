#!/bin/sh
# tui_small.sh — the smallest terminal the TUI works in (60x20), and 80x24: pictures
# stay inside their panes (every view of lessons 7 and 9: no row loses its right
# border, no bottom border holds a view's text). Lesson 7's race picture (two accesses, each with its warp, lane and
# line) must not write over its pane's bottom border, and the warp and lane of each
# access come before the block (a narrow pane cuts the end of a line).
# At 80x24 every step of lessons 1-18: after r, the picture its text names is on screen
# (the warps' masks, the buffers it names, the tree's levels and how many did not fit,
# the request's sectors or wavefronts, the atomics per address, the race); lesson 16
# step 5's tree shows the 32-bit keys unsigned and apart; a grade report (lesson 1's
# starter) is readable in one screen: the verdict, the failed check, the checks not run
# and the passed one.
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
# ------------------------------------------ every step's picture at 80x24
# LESSON STEP PATTERN: after r on that step (n from the one before), PATTERN (grep) is
# on screen; "-": a step with no launch. Lesson 18's roofline steps: the compact chart's
# one-line verdict (tests/tui_roofline.sh checks the chart itself).
walk_check() {
  L=$1; S=$2; shift 2; PAT="$*"
  if [ "$L" != "$CUR" ]; then
    open 80 24 "$LESSONS" "$L"
    CUR=$L; AT=1
  fi
  while [ "$AT" -lt "$S" ]; do keys n; AT=$((AT + 1)); done
  wait_for "step $S/" 20 || fail "lesson $L has no step $S"
  [ "$PAT" = "-" ] && return 0
  keys r
  wait_for "ran on the simulator (\|ran on the simulator:\|the checkers found" 900 ||
    fail "lesson $L step $S did not run"
  sleep 0.2
  wait_for "$PAT" 20 || fail "lesson $L step $S: its picture ($PAT) is not on screen"
}
CUR=
while read -r L S PAT; do
  [ -n "$L" ] && walk_check "$L" "$S" "$PAT"
done <<'EOF2'
1 1 colour = threadIdx.x
1 2 colour = global index
1 3 colour = blockIdx.x
1 4 %r1 
1 5 colour = out\[element it wrote\]
2 1 colour = row\[element it wrote\]
2 2 colour = col\[element it wrote\]
2 3 out: 83 of 84 changed
2 4 owner: 37 of 40 changed
3 1 b0 w0 ████
3 2 b0 w0 ████
3 3 w1: 16 of 32 lanes exist
4 1 b0 w0 .*▒
4 2 b0 w0 ████
4 3 b0 w0 .*▓
5 1 4 sectors, ideal 4: coalesced
5 2 32 sectors, ideal 4
5 3 5 sectors, ideal 4
6 1 5 sectors, ideal 4
6 2 4 sectors, ideal 4
6 3 2 wavefronts, ideal 1
6 4 1 wavefront (ideal 1)
7 1 race on s\[63\]
7 2 released t=[0-9]* line 17
7 3 -
8 1 race on counter\[0\]
8 2 256 atomics on 1 address
8 3 1024 atomics on 16 addresses
8 4 1088 atomics on 32 addresses
9 1 more rows above (< back)
9 2 4 wavefronts, ideal 1
9 3 L48 
9 4 L64 
9 5 b0 w0 ████
9 6 partial: all 2 elements changed
9 7 sum: its one element changed
10 1 barrier 7/7
10 2 barrier 14/14
10 3 b0 w0 ████
10 4 data: 96 of 128 changed
10 5 out: 16777218 of 16777219
11 1 32 sectors, ideal 4
11 2 32 wavefronts, ideal 1
11 3 1 wavefront (ideal 1)
11 4 b0 w0 .*██
12 1 sectors, ideal 4
12 2 released t=[0-9]* line 39
12 3 %p1 
12 4 b0 w0 .*██
13 1 wmma.load.a
13 2 b0 w0 .*██
13 3 ldmatrix
13 4 C: all 128 elements changed
13 5 b0 w0 .*██
14 1 y: all 1200 elements changed
14 2 released t=[0-9]* line 31
14 3 b0 w0 ████
14 4 b0 w0 .*██
15 1 O: all 3200 elements changed
15 2 b0 w0 ████
15 3 b0 w0 ████
16 1 race on bins\[
16 2 2048 atomics on 16 addresses
16 3 atomics on 32 addresses
16 4 keys_out: 
16 5 released t=[0-9]* line 56
16 6 atomics on 32 addresses
17 1 released t=[0-9]* line 49
17 2 %p1 
17 3 b0 w0 .*██
17 4 b0 w0 ████
17 5 b0 w0 .*██
18 1 b0 w0 .*██
18 2 b0 w0 .*██
18 3 released t=[0-9]* line 24
18 4 b0 w0 ████
18 5 b0 w0 ████
18 6 0.0833 F.*B.* memory-bound
18 7 21.3 F.*B.* compute-bound
18 8 0.0833 F.*B.* memory-bound
EOF2

# lesson 16 step 5's tree: the sorted keys unsigned (none below zero), apart, and the
# barriers that did not fit counted
open 80 24 "$LESSONS" 16
keys n n n n
wait_for "step 5/" 20 || fail "lesson 16 has no step 5"
keys r
wait_for "ran on the simulator (" 900 || fail "lesson 16 step 5 did not run"
keys 8
wait_for "block 0, barrier 32/32" 20 || fail "the tree view does not show the last barrier"
screen | grep -q "more rows above (< back)" || fail "the tree does not say how many rows did not fit"
screen | grep -Eq "L72 +[0-9]+ +[0-9]+ " || fail "the tree does not show the keys as numbers apart"
screen | grep -Eq "L7[02] .*-[0-9]" && fail "the tree shows 32-bit keys as negative numbers"
screen | grep -Eq "L72 +37477679 +44999645" || fail "the sorted keys' first two are not 37477679 and 44999645"

# a grade report in one screen: lesson 1's starter
open 80 24 "$LESSONS" 1
keys g
wait_for "NOT YET" 900 || fail "grading lesson 1's starter did not say NOT YET"
for p in "FAIL no_out_of_bounds" "NOT RUN matches_reference" "exercise.cu:7: block (0,0,0)" "PASS compiles\|Up/Down: more"; do
  screen | grep -q "$p" || fail "the grade report does not show '$p' in its first screen"
done
keys Enter
wait_for "your copy: exercise.cu" 20 || fail "Enter does not go back to the panes"
echo "tui_small: ok at 60x20 and 80x24"
