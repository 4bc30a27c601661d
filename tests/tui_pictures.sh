#!/bin/sh
# tui_pictures.sh — the pictures a new learner meets first say what the threads did,
# walked under tmux at 80x24 and 200x60:
#  - lesson 2 (a 2D grid of 2D blocks): the thread map colours each thread by the
#    element it wrote, so block (0,0,0) shows rows 0..3 of the row buffer; Down from
#    thread (0,0,0) selects threadIdx (0,1,0), which wrote element 16 (x=0, y=1); blocks
#    are laid out by blockIdx (block (1,0,0) beside block (0,0,0), (0,1,0) under it);
#    threads a guard kept out (step 2, x >= 13) show no value and "untouched";
#  - lesson 2's grid-stride step: thread 3 wrote owner[3], [19] and [35];
#  - lesson 3 step 3 (48 threads): the warp timeline draws the second warp as a partial
#    warp (16 of 32 lanes, the half glyph) and counts its idle lanes;
#  - lesson 2's exercise: grading the starter lists the failed check first, and n at
#    this last step opens lesson 3;
#  - `r` on a kernel that never finishes stops with "endless loop?" within the time limit;
#  - a malformed lesson.json is listed as broken, with its error, and hides no other;
#  - warps that wait at different __syncthreads(): 9 lists each warp's barrier lines;
#  - why a run went to the simulator is said once, not after every run.
#
# Env: GPULEARN = absolute path of the built binary (make check sets it).
# Exit: 0 pass, 1 fail (the captured screen is printed), 77 skip (no tmux).
set -u

NAME=tui_pictures; SESSION=views
. "$(dirname "$0")/lib/tmux.sh"
tui_begin
LESSONS=${GPULEARN_LESSONS:-$(pwd)/lessons}
mkdir -p "$TMP/fix/01-endless" "$TMP/fix/02-barrier" "$TMP/fix/03-ballot"
# Votes (in[i] = i - 8): a ballot where lanes 9-31 vote true, __any_sync where lanes
# 29-31 do, __all_sync where every lane does.
cat >"$TMP/fix/03-ballot/b.cu" <<'EOF'
extern "C" __global__ void vote(const int *in, unsigned *out)
{
    unsigned m = __ballot_sync(0xffffffffu, in[threadIdx.x] > 0);
    int any = __any_sync(0xffffffffu, in[threadIdx.x] > 20);
    int all = __all_sync(0xffffffffu, in[threadIdx.x] > -20);
    out[threadIdx.x] = m + any + 2 * all;
}
EOF
cat >"$TMP/fix/03-ballot/lesson.json" <<'EOF'
{"format": 1, "id": "ballot", "title": "A ballot", "summary": "Fixture for tests/tui_pictures.sh.",
 "steps": [{"title": "Ballot", "text": ["Lanes 9 to 31 vote true."], "kernel": "b.cu", "view": "registers",
   "launch": {"kernel": "vote", "grid": [1, 1, 1], "block": [32, 1, 1],
     "args": [{"name": "in", "type": "i32*", "len": 32, "init": {"iota": {"start": -8, "step": 1}}},
              {"name": "out", "type": "u32*", "len": 32}]}}]}
EOF
FIX="$TMP/fix/01-endless"

# Warp 0 waits at one __syncthreads() (line 5), warp 1 at another (line 7): released
# together, but not synchronised as written.
cat >"$TMP/fix/02-barrier/bar.cu" <<'EOF'
extern "C" __global__ void split(int *out)
{
    __shared__ int s[64];
    if (threadIdx.x < 32) {
        s[threadIdx.x] = 1; __syncthreads();
    } else {
        __syncthreads(); s[threadIdx.x] = 2;
    }
    out[threadIdx.x] = s[threadIdx.x];
}
EOF
cat >"$TMP/fix/02-barrier/lesson.json" <<'EOF'
{
  "format": 1, "id": "barrier", "title": "Barriers in a branch",
  "summary": "Fixture for tests/tui_pictures.sh.",
  "steps": [
    {"title": "Split", "text": ["Two barriers."], "kernel": "bar.cu",
     "launch": {"kernel": "split", "grid": [1, 1, 1], "block": [64, 1, 1],
       "args": [{"name": "out", "type": "i32*", "len": 64}]}}
  ]
}
EOF

cat >"$FIX/spin.cu" <<'EOF'
// Waits for a flag nothing sets: it never finishes.
extern "C" __global__ void spin(volatile int *flag, int *out)
{
    int i = threadIdx.x;
    while (flag[0] == 0)
        i = i * 3 + 1;
    out[threadIdx.x] = i;
}
EOF
cat >"$FIX/lesson.json" <<'EOF'
{
  "format": 1, "id": "endless", "title": "A kernel that never finishes",
  "summary": "Fixture for tests/tui_pictures.sh.",
  "steps": [
    {"title": "Spin", "text": ["The flag is never set."], "kernel": "spin.cu",
     "launch": {"kernel": "spin", "grid": [1, 1, 1], "block": [32, 1, 1],
       "args": [{"name": "flag", "type": "i32*", "len": 1}, {"name": "out", "type": "i32*", "len": 32}]}}
  ]
}
EOF

cat >"$TMP/pane.sh" <<'EOF'
XDG_DATA_HOME="$TUI_TMP/xdg" GPULEARN_LESSONS="$TUI_LESSONS" GPULEARN_NO_GPU=1 "$GPULEARN" ${TUI_LESSON:+"$TUI_LESSON"}
echo "GPULEARN-EXIT=$?"
sleep 600
EOF

fail_context() { echo " ($SIZE, lesson $LESSON)"; }


walk() {
  W=$1; H=$2

  # Lesson 2, step 1: 2 x 3 blocks of 8 x 4 threads writing col[] and row[] of a 16 x 12
  # matrix; the map opens coloured by row.
  open "$W" "$H" "$LESSONS" 2
  keys r
  wait_for "ran on the simulator" 600 || fail "lesson 2 step 1 did not run"
  wait_for "colour = row\[element it wrote\]" 20 || fail "the map is not coloured by the element each thread wrote"
  # block (0,0,0): its four rows of threads wrote rows 0, 1, 2 and 3
  for y in 0 1 2 3; do
    screen | grep -Eq "│ ?$y +$y +$y +$y +$y +$y +$y +$y *│" ||
      fail "threadIdx.y = $y of block (0,0,0) does not show row $y"
  done
  keys m Down
  wait_for "threadIdx=(0,1,0)" 20 || fail "Down did not select threadIdx (0,1,0)"
  wait_for "x=0 y=1" 20 || fail "the selected thread's x and y are not shown"
  screen | grep -q "col\[16\]=0" || fail "thread (0,1,0) is not shown with the element it wrote, col[16] = 0"
  screen | grep -q "row\[16\]=1" || fail "thread (0,1,0) is not shown with row[16] = 1"
  keys Down Down Down
  wait_for "blockIdx=(0,1,0)" 20 || fail "Down past the block's last row did not go to block (0,1,0)"
  screen | grep -q "threadIdx=(0,0,0)" || fail "Down past the block's last row did not go to its thread (0,0,0)"
  screen | grep -q "row\[64\]=4" || fail "thread (0,0,0) of block (0,1,0) does not show row[64] = 4"
  if [ "$W" -ge 200 ]; then
    # blocks by blockIdx: x across, y down
    screen | grep -q "block (0,0,0).*block (1,0,0)" || fail "block (1,0,0) is not beside block (0,0,0)"
    screen | grep -q "block (0,1,0).*block (1,1,0)" || fail "block (1,1,0) is not beside block (0,1,0)"
    l00=$(screen | grep -n "block (0,0,0)" | head -1 | cut -d: -f1)
    l01=$(screen | grep -n "block (0,1,0)" | head -1 | cut -d: -f1)
    [ -n "$l00" ] && [ -n "$l01" ] && [ "$l01" -gt "$l00" ] || fail "block (0,1,0) is not under block (0,0,0)"
  fi
  keys Escape
  # the buffers view draws col[] as the 12 x 16 matrix the spec's shape declares
  keys 7
  wait_for "col 12x16: rows 0-7, cols 0-" 20 || fail "the buffers view does not draw col[] as a 12 x 16 matrix"
  screen | grep -Eq "\[0\] +0 +1 +2 +3" || fail "row 0 of col[] is not 0 1 2 3 ..."
  keys 1
  # a legend too wide for the pane still reaches the largest value (192 threads: 191)
  n=0
  while [ "$n" -lt 12 ] && ! screen | grep -q "colour = global linear"; do keys Tab; sleep 0.1; n=$((n + 1)); done
  wait_for "colour = global linear" 20 || fail "Tab never colours the map by the global linear thread id"
  screen | grep -q -- "-191 " || fail "the legend stops below the largest value (191)"

  # Step 2: a 13 x 10 matrix; threads with x >= 13 are guarded out.
  keys n
  wait_for "step 2/" 20 || fail "no step 2"
  keys r
  wait_for "ran on the simulator" 600 || fail "lesson 2 step 2 did not run"
  keys m
  n=0
  while [ "$n" -lt 14 ]; do keys Right; n=$((n + 1)); done
  wait_for "x=14 y=" 20 || fail "Right did not reach x = 14"
  screen | grep -q "col: untouched" || fail "a thread the guard kept out is not shown as untouched"
  keys Escape

  # Step 4: the grid-stride loop; thread 3 owns elements 3, 19 and 35.
  keys n n
  wait_for "step 4/" 20 || fail "no step 4"
  keys r
  wait_for "ran on the simulator" 600 || fail "lesson 2 step 4 did not run"
  keys 1 m
  n=0
  while [ "$n" -lt 16 ]; do keys Left; n=$((n + 1)); done
  wait_for "blockIdx.x=0 threadIdx.x=0" 20 || fail "Left did not reach thread 0"
  keys Right Right Right
  wait_for "owner\[3,19,35\]" 20 || fail "thread 3 is not shown with the three elements it wrote"

  # The exercise: grading the starter lists the failed check before the passed ones.
  keys n
  wait_for "Exercise\|exercise" 20 || fail "n did not move to the exercise"
  keys g
  wait_for "NOT YET" 600 || fail "grading the starter did not say NOT YET"
  first=$(screen | grep -Eo "(PASS|FAIL|NOT RUN) [a-z_]+" | head -1)
  [ "$first" = "FAIL matches_reference" ] || fail "the first check listed is '$first', not the failed matches_reference"
  # the last step leads on: n opens the next lesson
  keys n
  wait_for "Lesson 3: Warps" 20 || fail "n at the last step did not open the next lesson"
  wait_for "step 1/" 20 || fail "the next lesson did not open at its first step"

  # Lesson 3, step 3: 48 threads, the second warp has 16 lanes.
  open "$W" "$H" "$LESSONS" 3
  keys n n
  wait_for "step 3/" 20 || fail "no step 3"
  keys r
  wait_for "ran on the simulator" 600 || fail "lesson 3 step 3 did not run"
  wait_for "w1.*16 of 32 lanes exist" 20 || fail "the partial warp is not named"
  screen | grep -q "b0 w0 ████" || fail "warp 0 is not drawn with all lanes on"
  screen | grep -q "b0 w1 ▒▒▒▒" || fail "warp 1 is not drawn as a half warp"
  screen | grep -q "b0 w1 █" && fail "warp 1 is drawn as a full warp"
  screen | grep -q "active lanes: kernel 75%" || fail "the kernel's active lanes are not 75% of 32"
  screen | grep -q "idle: 25% partial" || fail "the partial warp's idle lanes are not counted"

  # Barriers in divergent code: 9 shows which warp waited at which line.
  open "$W" "$H" "$TMP/fix" 2
  keys r
  wait_for "ran on the simulator" 600 || fail "the barrier fixture did not run"
  keys 9
  wait_for "9 error" 20 || fail "9 does not open the error picture"
  # the picture's heading, whole (wrapped where the pane is narrow), in the right pane
  screen | grep -q "│ threads waited at different __syncthreads() *│\|│ threads waited at different *│" ||
    fail "no barrier-misuse picture heading"
  screen | grep -q "│ __syncthreads() *│\|different __syncthreads() *│" || fail "the picture's heading is cut"
  screen | grep -q "warp 0: 5" || fail "warp 0's barrier line (5) is not shown"
  screen | grep -q "warp 1: 7" || fail "warp 1's barrier line (7) is not shown"
  # why it ran on the simulator: said after the first run, not after every run
  if [ "$W" -ge 200 ]; then
    screen | grep -q "GPU disabled by GPULEARN_NO_GPU" || fail "the first run does not say why it ran on the simulator"
    keys r
    i=0
    while screen | grep -q "GPU disabled by GPULEARN_NO_GPU"; do
      [ "$i" -ge 50 ] && fail "every run repeats why it ran on the simulator"
      i=$((i + 1)); sleep 0.2
    done
  fi

  # A ballot: stepping to the vote shows which lanes voted true.
  open "$W" "$H" "$TMP/fix" 3
  keys r
  wait_for "ran on the simulator" 600 || fail "the ballot fixture did not run"
  keys 0 '^'
  n=0
  while [ "$n" -lt 40 ] && ! screen | grep -q "ballot: 23"; do keys .; sleep 0.15; n=$((n + 1)); done
  screen | grep -q "ballot: 23 .*0xfffffe00" || fail "the ballot is not pictured (23 lanes, 0xfffffe00)"
  screen | grep -q "00000000011111111111111111111111" || fail "the ballot's lanes are not drawn"
  n=0
  while [ "$n" -lt 40 ] && ! screen | grep -q "__any_sync: 3 of 32"; do keys .; sleep 0.15; n=$((n + 1)); done
  screen | grep -q "__any_sync: 3 of 32 voted true" || fail "__any_sync is not pictured (3 of 32 lanes)"
  screen | grep -q "some did -> every lane gets 1" || fail "__any_sync's rule and result are not given"
  screen | grep -q "00000000000000000000000000000111" || fail "__any_sync's lanes are not drawn"
  n=0
  while [ "$n" -lt 40 ] && ! screen | grep -q "__all_sync: 32 of 32"; do keys .; sleep 0.15; n=$((n + 1)); done
  screen | grep -q "__all_sync: 32 of 32 voted true" || fail "__all_sync is not pictured (32 of 32 lanes)"
  screen | grep -q "all did -> every lane gets 1" || fail "__all_sync's rule and result are not given"

  # A kernel that never finishes: r stops it.
  open "$W" "$H" "$TMP/fix" 1
  keys r
  wait_for "endless loop" 400 || fail "r on a kernel that never finishes did not stop within 40 s"
  keys q
  wait_for "GPULEARN-EXIT=0" || fail "the TUI did not exit cleanly"
  echo "tui_pictures: ok at ${W}x${H}"
}

# One malformed lesson.json hides no other lesson: the list shows it as broken with its
# error, and the rest open.
mkdir -p "$TMP/broken"
cp -r "$LESSONS/01-threads" "$LESSONS/02-indexing" "$TMP/broken/"
mkdir -p "$TMP/broken/03-warps"; echo '{ "format": 1, "id": "warps", oops' >"$TMP/broken/03-warps/lesson.json"
SIZE=80x24; LESSON=list
T kill-server >/dev/null 2>&1; sleep 0.2
T -f /dev/null new-session -d -s views -x 80 -y 24 \
  "env GPULEARN='$GPULEARN' TUI_TMP='$TMP' TUI_LESSONS='$TMP/broken' TUI_LESSON='' sh '$TMP/pane.sh'" ||
  fail "tmux could not start"
wait_for "Threads, blocks, grids" || fail "the lesson list does not show the lessons that load"
screen | grep -q "3 *(broken: this lesson does not load)" || fail "the broken lesson is not listed as broken"
keys Down Down
wait_for "malformed JSON" 20 || fail "the broken lesson's error is not shown"
keys Enter
wait_for "does not load" 20 || fail "opening the broken lesson says nothing"
keys Up Enter
wait_for "step 1/" 20 || fail "a lesson next to the broken one does not open"

walk 80 24
walk 200 60
exit 0
