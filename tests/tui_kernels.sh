#!/bin/sh
# tui_kernels.sh — f compares like with like, under tmux at 100x40:
#  - lesson 12 step 4 launches matmul_regtile (16 blocks, a 64 x 64 tile each); f runs
#    matmul_naive with its own launch from the lesson (256 blocks: one thread per element
#    of the 256 x 256 C), says so, and the Result calls it the same work in another
#    shape (before, it ran on the register tile's 16 blocks and computed 64 x 64 of C);
#  - a fixture lesson whose second kernel does half the work on the step's launch: the
#    Result says the runs did not do the same work, naming the buffer and the counts.
#
# Env: GPULEARN = absolute path of the built binary (make check sets it).
# Exit: 0 pass, 1 fail (the captured screen is printed), 77 skip (no tmux).
set -u

NAME=tui_kernels; SESSION=views
. "$(dirname "$0")/lib/tmux.sh"
tui_begin
tui_copy_lessons 12

mkdir -p "$TMP/lessons/02-half"
cat >"$TMP/lessons/02-half/k.cu" <<'EOF2'
// full writes every element of out; half only the first half.
extern "C" __global__ void full(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = i + 1.0f;
}

extern "C" __global__ void half(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n / 2)
        out[i] = i + 1.0f;
}
EOF2
cat >"$TMP/lessons/02-half/lesson.json" <<'EOF2'
{"format": 1, "id": "half", "title": "Half the work", "summary": "Fixture for tests/tui_kernels.sh.",
 "steps": [{"title": "Two kernels", "text": "f runs the other one.", "kernel": "k.cu",
            "launch": {"kernel": "full", "grid": [2], "block": [32],
                       "args": [{"name": "out", "type": "f32*", "len": 64},
                                {"name": "n", "type": "i32", "value": 64}]},
            "view": "buffers"},
           {"title": "End", "text": "The end."}]}
EOF2

cat >"$TMP/pane.sh" <<'EOF2'
XDG_DATA_HOME="$TUI_TMP/xdg" GPULEARN_LESSONS="$TUI_LESSONS" GPULEARN_NO_GPU=1 "$GPULEARN" "$TUI_LESSON"
echo "GPULEARN-EXIT=$?"
sleep 600
EOF2
fail_context() { echo " ($PART)"; }

PART="lesson 12 step 4"
open 100 40 "$TMP/lessons" 12
keys n n n
wait_for "step 4/" 20 || fail "no step 4"
keys r
wait_for "ran on the simulator (" 900 || fail "the step did not run"
keys f
wait_for "ran on the simulator: matmul_naive" 900 || fail "f did not run matmul_naive"
wait_for "the same work as the previous run in another shape: matmul_naive ran 65536" 20 ||
  fail "the Result does not call it the same work in another shape"
screen | grep -q "blocks, matmul_regtile 4096 in 16, and each changed 65536 of the 65536" ||
  fail "the Result does not give both launches and the elements each changed"
screen | grep -q "than your previous run (matmul_regtile): warp instructions 1379584 ->" ||
  fail "the counts are not compared with matmul_regtile's"
screen | grep -q "not the same work" && fail "the naive kernel on its own launch is called other work"

PART="half the work"
open 100 40 "$TMP/lessons" 2
keys r
wait_for "ran on the simulator (" 600 || fail "the step did not run"
keys f
wait_for "ran on the simulator: half" 600 || fail "f did not run half"
wait_for "not the same work as the previous run: half changed 32 of the 64 elements of out, full 64" 20 ||
  fail "the Result does not say that the runs did different work"
keys q
wait_for "GPULEARN-EXIT=0" || fail "the TUI did not exit cleanly"
echo "tui_kernels: ok"
exit 0
