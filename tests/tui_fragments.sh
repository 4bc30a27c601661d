#!/bin/sh
# tui_fragments.sh — the fragment view (F) of lesson 13 (tensor cores) under tmux, at
# 200x60, 80x24 and 60x20: step 1 opens on it at the warp's first tensor-core instruction,
# wmma.load.a of a 16 x 16 row-major f16 A, whose grid's first rows are exactly the
# lanes of the simulator's layout (mma.m16n8k16's A tiled, PTX ISA §9.7.14.5.8: row r
# holds lanes 4r .. 4r+3 twice over, rows 8-15 the same lanes again); t steps to the
# next tensor-core instruction (B), T back; at 200x60 the selected lane's values show;
# step 3 opens on the first ldmatrix, its rows marked with the lanes giving their
# addresses, and M shows its next matrix.
#
# Env: GPULEARN = absolute path of the built binary (make check sets it).
# Exit: 0 pass, 1 fail (the captured screen is printed), 77 skip (no tmux).
set -u

NAME=tui_fragments; SESSION=views
. "$(dirname "$0")/lib/tmux.sh"
tui_begin
tui_copy_lessons 13
cat >"$TMP/pane.sh" <<'EOF'
XDG_DATA_HOME="$TUI_TMP/xdg" GPULEARN_LESSONS="$TUI_LESSONS" GPULEARN_NO_GPU=1 "$GPULEARN" "$TUI_LESSON"
echo "GPULEARN-EXIT=$?"
sleep 600
EOF
fail_context() { echo " ($SIZE, lesson $LESSON)"; }

# row N of the A grid as the view draws it (3-column cells, row label of 3)
arow() { screen | grep -o -- "$1" | head -1; }

for size in "200 60" "80 24" "60 20"; do
  set -- $size
  open "$1" "$2" "$TMP/lessons" tensor-cores
  wait_for "F fragments" 20 || fail "step 1 does not open on the fragment view"
  keys r
  wait_for "wmma.load.a.sync" 900 || fail "the view does not open at the first wmma.load.a"
  wait_for "A 16x16 f16" 20 || fail "no A 16x16 f16 heading"
  if [ "$1" = 200 ]; then
    screen | grep -q -- "A 16x16 f16 row-major: cell = lane" || fail "no row-major A heading"
    # the header and rows 0, 1, 8 and 15 of the lane grid, exactly
    screen | grep -q -- "   0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15" ||
      fail "no column header 0 .. 15"
    screen | grep -q -- " 0  0  0  1  1  2  2  3  3  0  0  1  1  2  2  3  3" || fail "A row 0 is not lanes 0 0 1 1 2 2 3 3 0 0 1 1 2 2 3 3"
    screen | grep -q -- " 1  4  4  5  5  6  6  7  7  4  4  5  5  6  6  7  7" || fail "A row 1 is not lanes 4 4 5 5 .."
    screen | grep -q -- " 8  0  0  1  1  2  2  3  3  0  0  1  1  2  2  3  3" || fail "A row 8 is not lanes 0 0 1 1 .. again"
    screen | grep -q -- "15 28 28 29 29 30 30 31 31 28 28 29 29 30 30 31 31" || fail "A row 15 is not lanes 28 .. 31"
    wait_for "lane 0 (after): A\[0\]=" 20 || fail "no values of lane 0's A registers"
    wait_for "values:" 20 || fail "no values grid"
  elif [ "$1" = 80 ]; then
    # two columns a cell: one character a lane with a gap, 10 .. 31 as a .. v (a lane
    # number cut to its first digit would read as lane 1)
    screen | grep -q -- "A 16x16 f16: lane (a-v = 10-31)" || fail "no a-v key in the heading"
    screen | grep -q -- " 2 8 8 9 9 a a b b 8 8 9 9 a a b b" || fail "A row 2 is not lanes 8 8 9 9 a a b b .."
  else
    # compact: one character a lane (base 32: 28 .. 31 are s t u v)
    screen | grep -q -- " 0 0011223300112233" || fail "A row 0 (compact) is not lanes 0011223300112233"
    screen | grep -q -- " 1 4455667744556677" || fail "A row 1 (compact) is not lanes 4455667744556677"
  fi
  keys t
  wait_for "wmma.load.b.sync" 20 || fail "t did not step to wmma.load.b"
  wait_for "B 16x16 f16" 20 || fail "no B grid after t"
  keys T
  wait_for "wmma.load.a.sync" 20 || fail "T did not step back to wmma.load.a"
  if [ "$1" = 200 ]; then
    keys n
    wait_for "step 2/" 20 || fail "no step 2"
    keys n
    wait_for "step 3/" 20 || fail "no step 3"
    wait_for "F fragments" 20 || fail "step 3 does not open on the fragment view"
    keys r
    wait_for "ldmatrix.sync.aligned.m8n8.x4" 900 || fail "step 3 does not open at ldmatrix.x4"
    wait_for "m0 8x8 b16: cell = lane  M: \[m0\] m1 m2 m3" 20 || fail "no m0 grid with M's list"
    screen | grep -q -- " 0  0  0  1  1  2  2  3  3 <lane 0" || fail "ldmatrix m0 row 0 is not lanes 0 0 1 1 2 2 3 3, address from lane 0"
    screen | grep -q -- " 7 28 28 29 29 30 30 31 31 <lane 7" || fail "ldmatrix m0 row 7 is not lanes 28 .. 31, address from lane 7"
    keys M
    wait_for "M: m0 \[m1\]" 20 || fail "M did not show m1"
    screen | grep -q -- " 0  0  0  1  1  2  2  3  3 <lane 8" || fail "ldmatrix m1 row 0's address is not from lane 8"
  fi
done
echo "ok   $NAME"
