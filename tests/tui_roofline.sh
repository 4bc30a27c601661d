#!/bin/sh
# tui_roofline.sh — the roofline view (L), walked as a learner under tmux:
#  - lesson 18 step 6 opens on it; r runs vec_add on the simulator (sm_90, the H100
#    profile: 3.35 TB/s, 66.9 TFLOP/s FP32, ridge 20 FLOP/B) and the plot is exactly
#    the picture below at 100x30: the roof's slope and ceiling, vec_add as "a" at
#    1/12 FLOP/B, 279 GFLOP/s (the 100G-316G row), with its line down from the roof (no
#    clock on the simulator);
#  - step 7 runs matmul_tiled (3.76 FLOP/B from the trace's sectors: "b"), then f runs
#    matmul_naive (0.496: "c"); the earlier runs stay in the legend;
#  - at 60x20 the legend stands in for the plot; the help lists the view's key.
#
# Env: GPULEARN = absolute path of the built binary (make check sets it).
# Exit: 0 pass, 1 fail (the captured screen is printed), 77 skip (no tmux).
set -u

command -v tmux >/dev/null 2>&1 || { echo "tui_roofline: tmux not found: skipping"; exit 77; }
GPULEARN=${GPULEARN:-$(pwd)/build/debug/gpulearn}
[ -x "$GPULEARN" ] || { echo "tui_roofline: no binary at $GPULEARN"; exit 1; }
LESSONS=${GPULEARN_LESSONS:-$(pwd)/lessons}

SOCK="glroof$$"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/tui_roofline.XXXXXX") || exit 1
cleanup() { tmux -L "$SOCK" kill-server >/dev/null 2>&1; rm -rf "$TMP"; }
trap cleanup EXIT INT TERM
mkdir -p "$TMP/xdg"

cat >"$TMP/pane.sh" <<'EOF2'
XDG_DATA_HOME="$TUI_TMP/xdg" GPULEARN_LESSONS="$TUI_LESSONS" GPULEARN_NO_GPU=1 "$GPULEARN" "$TUI_LESSON"
echo "GPULEARN-EXIT=$?"
sleep 600
EOF2

NAME=tui_roofline; SESSION=views
. "$(dirname "$0")/lib/tmux.sh"
fail_context() { echo " ($SIZE)"; }
# The roofline pane's rows: what lies between the source pane and the right border.
pane() { screen | sed -n 's/^.*││\(.*\)│$/\1/p' | sed 's/ *$//'; }

open 100 30 "$LESSONS" 18
keys n n n n n
wait_for "step 6/" 20 || fail "no step 6"
wait_for "L roofline" 20 || fail "step 6 does not open on the roofline view"
keys r
wait_for "a vec_add: 0.0833 FLOP/B, memory-bound" 600 || fail "vec_add is not placed at 0.0833 FLOP/B"
pane >"$TMP/got"
cat >"$TMP/want" <<'EOF2'
 3.35 TB/s, 66.9 TFLOP/s FP32, ridge 20 FLOP/B:
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
   at most 279 GFLOP/s (bytes: global sectors x
EOF2
diff "$TMP/want" "$TMP/got" >"$TMP/diff" || { cat "$TMP/diff"; fail "the roofline picture differs"; }

keys n
wait_for "step 7/" 20 || fail "no step 7"
keys r
wait_for "b matmul_tiled: 3.76 FLOP/B, memory-bound" 600 || fail "matmul_tiled is not at 3.76 FLOP/B"
screen | grep -q "earlier: a vec_add 0.0833" || fail "vec_add's run is not kept"
keys f
wait_for "c matmul_naive: 0.496 FLOP/B" 600 || fail "f does not place matmul_naive"
screen | grep -q "earlier: a vec_add 0.0833 b matmul_tiled 3.76" || fail "the earlier runs are not listed"

T resize-window -t views -x 60 -y 20
SIZE=60x20
wait_for "at most 1.66 TFLOP/s" 20 || fail "the small window does not show the legend"
T resize-window -t views -x 200 -y 60
SIZE=200x60
keys '?'
wait_for "L .*the roofline" 20 || fail "the help does not list the roofline view"
keys q
wait_for "GPULEARN-EXIT=0" || fail "the TUI did not exit cleanly"
echo "tui_roofline: ok"
exit 0
