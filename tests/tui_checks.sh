#!/bin/sh
# tui_checks.sh — what the simulator's checkers find is shown where it happened: a
# kernel with a shared-memory race (a fixture lesson in a temporary folder) runs, the
# result pane lists the race, and the source pane marks both lines, each naming the
# other; a divergent kernel's step opens on the warp timeline, whose rows show
# half-active instructions and whose per-line branch efficiency is 50% on both sides of
# the branch. Under tmux at 80x24 and 200x60.
#
# Env: GPULEARN = absolute path of the built binary (make check sets it).
# Exit: 0 pass, 1 fail (the captured screen is printed), 77 skip (no tmux).
set -u

NAME=tui_checks; SESSION=checks
. "$(dirname "$0")/lib/tmux.sh"
tui_begin
mkdir -p "$TMP/lessons/01-race"
LESSON="$TMP/lessons/01-race"

cat >"$LESSON/race.cu" <<'EOF'
extern "C" __global__ void reverse_racy(const int *in, int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * 64 + t];
    out[blockIdx.x * 64 + t] = s[63 - t];
}
EOF
cat >"$LESSON/diverge.cu" <<'EOF'
extern "C" __global__ void diverge(float *out)
{
    float x = threadIdx.x;
    if (threadIdx.x % 2 == 0) {
        for (int k = 0; k < 16; k++)
            x = x * 0.5f + 1.0f;
    } else {
        for (int k = 0; k < 16; k++)
            x = x * x * 0.25f - 1.0f;
    }
    out[threadIdx.x] = x;
}
EOF
cat >"$LESSON/lesson.json" <<'EOF'
{
  "format": 1,
  "id": "race",
  "title": "A race",
  "summary": "Fixture for tests/tui_checks.sh.",
  "steps": [
    {
      "title": "No barrier",
      "text": ["Threads read what threads of the other warp write, with no barrier between."],
      "kernel": "race.cu",
      "launch": {"kernel": "reverse_racy", "grid": [1, 1, 1], "block": [64, 1, 1],
                 "args": [{"name": "in", "type": "i32*", "len": 64, "init": {"iota": {"start": 0, "step": 1}}},
                          {"name": "out", "type": "i32*", "len": 64}]},
      "map": "warp"
    },
    {
      "title": "Divergence",
      "text": ["Even and odd lanes take different sides of the branch."],
      "kernel": "diverge.cu",
      "launch": {"kernel": "diverge", "grid": [1, 1, 1], "block": [64, 1, 1],
                 "args": [{"name": "out", "type": "f32*", "len": 64}]},
      "view": "warps"
    }
  ]
}
EOF

cat >"$TMP/pane.sh" <<'EOF'
XDG_DATA_HOME="$TUI_TMP/xdg" GPULEARN_LESSONS="$TUI_TMP/lessons" GPULEARN_NO_GPU=1 "$GPULEARN" 1
echo "GPULEARN-EXIT=$?"
sleep 600
EOF

fail_context() { echo " ($SIZE)"; }

walk() {
  SIZE="$1x$2"
  rm -f "$TMP/xdg/gpulearn/progress.json" # a learner who has seen no step (no resume)
  T kill-server >/dev/null 2>&1
  sleep 0.2
  T -f /dev/null new-session -d -s checks -x "$1" -y "$2" \
    "env GPULEARN='$GPULEARN' TUI_TMP='$TMP' sh '$TMP/pane.sh'" || fail "tmux could not start"
  T set-option -t checks status off >/dev/null 2>&1
  wait_for "lesson 1 . step 1/" || fail "the fixture lesson did not open"
  keys r
  wait_for "the checkers found" 600 || fail "the race is not reported"
  wait_for "race" 20 || fail "the finding is not called a race"
  wait_for "checkers: lines 5, 6" 20 || fail "the source pane does not list lines 5 and 6"
  screen | grep -q "race (this write) with line 6" || fail "line 5 does not name line 6"
  screen | grep -q "race (this read) with line 5" || fail "line 6 does not name line 5"
  # A step with view "warps" opens on the warp timeline; the run shows both warps,
  # half their lanes on each side of the branch, and the loops' lines near 50%.
  keys n
  wait_for "lesson 1 . step 2/" 30 || fail "n did not move to step 2"
  wait_for "Warps (w: map)" 20 || fail "the warps step does not open on the timeline"
  keys r
  wait_for "active lanes: kernel" 600 || fail "no branch efficiency after the run"
  wait_for "b0 w1" 20 || fail "the timeline does not show warp 1"
  screen | grep -q "line *6 *5[01]%" || fail "line 6 (one side of the branch) is not near 50% branch efficiency"
  screen | grep -q "▒" || fail "no half-active instruction in the timeline"
  keys w
  wait_for "Threads (w: warps)" 20 || fail "w did not switch back to the thread map"
  keys q
  wait_for "GPULEARN-EXIT=0" || fail "the TUI did not exit cleanly"
  echo "tui_checks: ok at $SIZE"
}

walk 80 24
walk 200 60
exit 0
