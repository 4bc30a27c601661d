#!/bin/sh
# tui_roofline.sh — the roofline view (L), walked as a learner under tmux:
#  - lesson 18 step 6 opens on it; r runs vec_add on the simulator (sm_90, the H100
#    profile: 3.35 TB/s, 66.9 TFLOP/s FP32, ridge 20 FLOP/B) and the plot is exactly
#    the picture below at 100x30: the roof's slope and ceiling, vec_add as "a" at
#    1/12 FLOP/B (65536 additions over 786432 bytes of DRAM: a and b read once, c
#    written back once), 279 GFLOP/s (the 100G-316G row), with its line down from the
#    roof (no clock on the simulator);
#  - step 7 runs matmul_tiled: A, B and C (192 KiB) stay in the L2, so DRAM moves each
#    byte once: 4194304 FLOPs / 196608 bytes = 21.3 FLOP/B, compute-bound, where its
#    global sectors give 3.76; f runs matmul_naive: the same DRAM bytes, 0.496 FLOP/B of
#    sectors; the earlier runs stay in the legend;
#  - only the current lesson's points on the current device: lesson 12's matmul_naive is
#    not on lesson 18's chart (lessons 12 and 18 alone, n from 12's exercise opens 18);
#  - lesson 13 step 5 (sm_80, the A100 profile): the tensor-core GEMM wmma_gemm64 is
#    judged against the f16 tensor roof, 312 TFLOP/s, not FP32's 19.5: 33.5 MFLOP over
#    768 KiB of DRAM (A and B read, C written once) is 42.7 FLOP/B, memory-bound under
#    its ridge of 201 (and compute-bound under FP32's 12.5);
#  - a kernel doing FP32 and tensor-core arithmetic is judged on the roof of the kind
#    whose FLOPs take longest at its peak, and the legend gives the mix;
#  - at 80x24 and 120x40 the chart (axes, roof, point, verdict) is on screen for lesson
#    18 step 6 and lesson 13 step 5; at 60x20 a compact chart and its verdict; the help
#    lists the view's key.
#
# Env: GPULEARN = absolute path of the built binary (make check sets it).
# Exit: 0 pass, 1 fail (the captured screen is printed), 77 skip (no tmux).
set -u

NAME=tui_roofline; SESSION=views
. "$(dirname "$0")/lib/tmux.sh"
tui_begin
LESSONS=${GPULEARN_LESSONS:-$ROOT/lessons}
cat >"$TMP/pane.sh" <<'EOF2'
XDG_DATA_HOME="$TUI_TMP/xdg" GPULEARN_LESSONS="$TUI_LESSONS" GPULEARN_NO_GPU=1 "$GPULEARN" "$TUI_LESSON"
echo "GPULEARN-EXIT=$?"
sleep 600
EOF2
fail_context() { echo " ($SIZE, lesson $LESSON)"; }
# The roofline pane's rows: what lies between the source pane and the right border.
pane() { screen | sed -n 's/^.*││\(.*\)│$/\1/p' | sed 's/ *$//'; }
# has TEXT: the roofline pane's rows, joined, hold TEXT (the legend wraps at spaces).
has() { pane | tr '\n' ' ' | tr -s ' ' | grep -q -- "$1"; }
# steps N: presses n N times (one step each).
steps() { i=0; while [ "$i" -lt "$1" ]; do keys n; sleep 0.2; i=$((i + 1)); done; }
# chart_on_screen VERDICT: the chart's parts are on screen: a y axis, the x axis with
# its decades, the bandwidth slope, the ridge and ceiling, and the verdict line.
chart_on_screen() {
  s=$(screen)
  printf '%s\n' "$s" | grep -q '[0-9][GT]|' || fail "no y axis labels"
  printf '%s\n' "$s" | grep -Eq 'F(LOP)?/B +[+]?0\.01.*0\.1.*10' || fail "no x axis with its decades"
  printf '%s\n' "$s" | grep -q '//' || fail "no bandwidth slope"
  printf '%s\n' "$s" | grep -q '+---' || fail "no ridge and ceiling"
  printf '%s\n' "$s" | grep -q -- "$1" || fail "no verdict '$1'"
}

open 100 30 "$LESSONS" 18
steps 5
wait_for "step 6/" 20 || fail "no step 6"
wait_for "L roofline" 20 || fail "step 6 does not open on the roofline view"
keys r
wait_for "a vec_add: 0.0833 FLOP/B, memory-bound" 600 || fail "vec_add is not placed at 0.0833 FLOP/B"
pane >"$TMP/got"
cat >"$TMP/want" <<'EOF2'
 FP32 66.9 TFLOP/s, 3.35 TB/s, ridge 20 FLOP/B
        |                       //+------------
     10T|                   ////
        |               ////
      1T|           ////
        |       ////
    100G|    //a
        |////  |
     10G|      |
        +--------------------------------------
 FLOP/B  0.01   0.1     1      10      100 1000
 a vec_add: 0.0833 FLOP/B, memory-bound
   at most 279 GFLOP/s under the FP32 roof; byt
EOF2
diff "$TMP/want" "$TMP/got" >"$TMP/diff" || { cat "$TMP/diff"; fail "the roofline picture differs"; }

keys n
wait_for "step 7/" 20 || fail "no step 7"
keys r
wait_for "b matmul_tiled: 21.3 FLOP/B, compute-bound" 600 ||
  fail "matmul_tiled is not at 21.3 FLOP/B of DRAM"
T resize-window -t views -x 120 -y 40
SIZE=120x40
wait_for "ridge 20 FLOP/B: H100 SXM *│" 20 || fail "the wider pane does not name the device"
has "DRAM, modelled (a 50 MiB L2), 3.76 FLOP/B of global sectors" ||
  fail "the legend does not name the DRAM model's bytes and the sectors' 3.76"
screen | grep -q "earlier: a vec_add 0.0833" || fail "vec_add's run is not kept"
keys f
wait_for "c matmul_naive: 21.3 FLOP/B" 600 || fail "f does not place matmul_naive at 21.3 FLOP/B"
has "0.496 FLOP/B of global sectors" || fail "matmul_naive's sectors are not 0.496 FLOP/B"
screen | grep -q "earlier: a vec_add 0.0833 b matmul_tiled 21.3" || fail "the earlier runs are not listed"

T resize-window -t views -x 60 -y 20
SIZE=60x20
wait_for "c 21.3 F/B: compute-bound" 20 || fail "the small window has no compact chart's verdict"
T resize-window -t views -x 200 -y 60
SIZE=200x60
keys '?'
wait_for "L .*the roofline" 20 || fail "the help does not list the roofline view"
keys q
wait_for "GPULEARN-EXIT=0" || fail "the TUI did not exit cleanly"

# the chart at 80x24 and 120x40: lesson 18 step 6 (vec_add), lesson 13 step 5 (the
# tensor-core GEMM on the A100 profile, judged against the f16 tensor roof)
for S in "80 24" "120 40"; do
  open $S "$LESSONS" 18
  steps 5
  wait_for "step 6/" 20 || fail "no step 6"
  keys r
  wait_for "a vec_add.* 0.0833 F.*B.* memory-bound" 600 || fail "vec_add gives no verdict"
  chart_on_screen "vec_add"
  screen | grep -q "66.9" || fail "the FP32 roof's 66.9 TFLOP/s is not named"
  open $S "$LESSONS" 13
  steps 4
  wait_for "step 5/" 20 || fail "no step 5"
  keys L
  wait_for "L roofline" 20 || fail "L does not open the roofline view"
  keys r
  wait_for "a wmma_gemm64.* 42.7 F.*B.* memory-bound" 600 ||
    fail "wmma_gemm64 is not memory-bound at 42.7 FLOP/B under its roof"
  chart_on_screen "wmma_gemm64"
  screen | grep -q "f16 tensor.*312 *T" || fail "the chart does not name the f16 tensor roof, 312 TFLOP/s"
done
# at 120x40 the legend says which roof, and FP32's is drawn beside it
has "under the f16 tensor roof" || fail "the legend does not judge on the f16 tensor roof"
screen | grep -q "[.]FP32 19.5T" || fail "the chart does not draw the FP32 roof, 19.5T, beside it"

# a kernel doing two kinds of arithmetic (tests/kernels/roofline/90-mixed, sm_80): one
# mma.sync (4096 f16 tensor FLOPs) and 1000 FP32 fma a lane (64000 FLOPs, + 96 adds) is
# judged on the FP32 roof, 68192 FLOPs over 256 bytes of DRAM (x read, out written);
# with 1 fma a lane (160 FP32 FLOPs: 8 ps at 19.5 TFLOP/s, the mma 13 ps at 312) on the
# f16 tensor roof, 4256 / 256 = 16.6 FLOP/B
open 120 40 "$ROOT/tests/kernels/roofline" 90
keys r
wait_for "a mixed: 266 FLOP/B, compute-bound" 600 || fail "the FP32-heavy kernel is not at 266 FLOP/B"
has "FLOPs: 94% FP32, 6% f16 tensor; judged on the FP32 roof" || fail "the mix and its roof are not named"
keys n
wait_for "step 2/" 20 || fail "no step 2"
keys r
wait_for "b mixed: 16.6 FLOP/B, memory-bound" 600 || fail "the tensor-heavy kernel is not at 16.6 FLOP/B"
has "under the f16 tensor roof" || fail "the tensor-heavy kernel is not judged on the f16 tensor roof"
has "FLOPs: 4% FP32, 96% f16 tensor" || fail "the mix is not named"

# lesson 12's point is not on lesson 18's chart: a folder with lessons 12 and 18 only
tui_copy_lessons 12 18
open 100 30 "$TMP/lessons" 12
keys L
wait_for "L roofline" 20 || fail "L does not open the roofline view"
keys r
wait_for "a matmul_naive: 8.43 FLOP/B" 600 || fail "lesson 12's matmul_naive is not placed"
steps 4
wait_for "Ex" 20
keys n
wait_for "Lesson 18" 20 || fail "n at lesson 12's exercise does not open lesson 18"
steps 5
wait_for "step 6/" 20 || fail "no step 6 of lesson 18"
keys r
wait_for "a vec_add: 0.0833 FLOP/B" 600 || fail "vec_add is not the first point of lesson 18"
screen | grep -q "matmul_naive" && fail "lesson 12's matmul_naive is on lesson 18's chart"
echo "tui_roofline: ok"
exit 0
