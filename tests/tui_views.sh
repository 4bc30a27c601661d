#!/bin/sh
# tui_views.sh — the trace views, time travel and errors as pictures, walked as a
# learner under tmux at 80x24 and 200x60:
#  - lesson 5 opens on the memory view: the coalesced copy is 4 sectors, the strided
#    one 32 and "not coalesced"; stepping forward changes the screen and stepping
#    back returns it exactly;
#  - lesson 6's bank steps: stride 2 is a 2-way conflict (2 wavefronts), padding none;
#  - lesson 7: the race opens on its picture (the two threads, both lines); the barrier
#    step shows the barrier view, and < / > move between barrier epochs;
#  - lesson 9 opens on the tree view; < goes back one barrier epoch, > forward again;
#    P plays the tree from the start to the end; the registers view (0) steps thread 0 through its load of in[0], marks the
#    register written, and } moves to thread 1;
#  - lesson 1: Tab colours the map by SM; its registers step opens on that view;
#  - lesson 4 (warps): stepping marks the selected warp's line in the source;
#  - a fixture lesson: an out-of-bounds load is drawn against the buffer's bounds, a
#    deadlock as the warps waiting at two different barriers;
#  - the help overlay lists the view keys (generated from the key table).
#
# Env: GPULEARN = absolute path of the built binary (make check sets it).
# Exit: 0 pass, 1 fail (the captured screen is printed), 77 skip (no tmux).
set -u

NAME=tui_views; SESSION=views
. "$(dirname "$0")/lib/tmux.sh"
tui_begin
LESSONS=${GPULEARN_LESSONS:-$(pwd)/lessons}
mkdir -p "$TMP/fix/01-errors"
FIX="$TMP/fix/01-errors"

cat >"$FIX/oob.cu" <<'EOF'
extern "C" __global__ void square(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * in[i];
}
EOF
cat >"$FIX/dead.cu" <<'EOF'
extern "C" __global__ void stuck(int *out)
{
    int t = threadIdx.x;
    if (t < 32)
        asm volatile("bar.sync 1;" ::: "memory");
    else
        asm volatile("bar.sync 2;" ::: "memory");
    out[t] = t;
}
EOF
cat >"$FIX/lesson.json" <<'EOF'
{
  "format": 1, "id": "errors", "title": "Errors as pictures",
  "summary": "Fixture for tests/tui_views.sh.",
  "steps": [
    {"title": "Out of bounds", "text": ["The guard is missing."], "kernel": "oob.cu",
     "launch": {"kernel": "square", "grid": [2, 1, 1], "block": [64, 1, 1],
       "args": [{"name": "in", "type": "f32*", "len": 100, "init": {"iota": {"start": 0, "step": 1}}},
                {"name": "out", "type": "f32*", "len": 100}, {"name": "n", "type": "i32", "value": 100}]}},
    {"title": "Deadlock", "text": ["The two warps wait at different barriers."], "kernel": "dead.cu",
     "launch": {"kernel": "stuck", "grid": [1, 1, 1], "block": [64, 1, 1],
       "args": [{"name": "out", "type": "i32*", "len": 64}]}}
  ]
}
EOF

cat >"$TMP/pane.sh" <<'EOF'
XDG_DATA_HOME="$TUI_TMP/xdg" GPULEARN_LESSONS="$TUI_LESSONS" GPULEARN_NO_GPU=1 "$GPULEARN" "$TUI_LESSON"
echo "GPULEARN-EXIT=$?"
sleep 600
EOF

fail_context() { echo " ($SIZE, lesson $LESSON)"; }
# The screen without its status bar (one-off messages live there).
body() { screen | sed '$d'; }


# Steps forward with $1 and back with $2: the screen must change, then return.
forth_and_back() {
  keys "$1"; keys "$2"; sleep 0.3
  before=$(body)
  keys "$1"; sleep 0.3
  after=$(body)
  [ "$before" != "$after" ] || fail "'$1' did not change the screen"
  keys "$2"; sleep 0.3
  back=$(body)
  [ "$before" = "$back" ] || fail "'$2' after '$1' did not return to the same screen"
}

walk() {
  W=$1; H=$2

  # Lesson 5: the memory view, coalesced and strided.
  open "$W" "$H" "$LESSONS" 5
  wait_for "3 memory" 20 || fail "the coalescing step does not open on the memory view"
  keys r
  wait_for "ideal 4): coalesced\|ideal 4: coalesced" 600 || fail "the coalesced copy is not 4 sectors, coalesced"
  screen | grep -q "\[0: 8\] \[1: 8\] \[2: 8\] \[3: 8\]" || fail "the 128-byte line does not show 4 sectors of 8 lanes"
  screen | grep -q "lane 0 reads in\[0\]" || fail "the selected lane's access is not named by its buffer element (in[0])"
  screen | grep -Eq "after [0-9]+ warp instr|t=[0-9]+ ev [0-9]+/[0-9]+" || fail "the trace cursor line does not say what its numbers are"
  forth_and_back . ,
  keys n
  wait_for "step 2/" 20 || fail "n did not move to step 2"
  keys r
  wait_for "32 sectors.*not coalesced" 600 || fail "the strided copy is not 32 sectors, not coalesced"

  # Lesson 6: banks, a 2-way conflict, then padding.
  open "$W" "$H" "$LESSONS" 6
  keys n n
  wait_for "step 3/" 20 || fail "no step 3"
  wait_for "4 banks" 20 || fail "the bank step does not open on the bank view"
  keys r
  wait_for "2 wavefronts.*ideal 1.*conflict" 600 || fail "stride 2 is not a 2-way conflict"
  wait_for "lanes 0 16" 20 || fail "bank 0 does not list lanes 0 and 16"
  # one row per word a bank delivers: both wavefronts' rows, at every size
  screen | grep -q "│ *2 *[█#]" || fail "the banks view does not draw the second word's row"
  screen | grep -q "│ *1 *[█#]" || fail "the banks view does not draw the first word's row"
  keys n
  wait_for "step 4/" 20 || fail "no step 4"
  keys r
  wait_for "1 wavefront (ideal 1): no conflict" 600 || fail "the padded tile has a conflict"

  # Lesson 7: the race as a picture, then the barrier view.
  open "$W" "$H" "$LESSONS" 7
  keys r
  wait_for "race on s\[63\]" 600 || fail "the race does not open on its picture, naming the shared element (s[63])"
  screen | grep -q "A writes: .*(63,0,0)" || fail "the writing thread is not shown"
  screen | grep -q "B reads: .*(0,0,0)" || fail "the reading thread is not shown"
  screen | grep -q "warp 1 lane 31\|w1 lane 31" || fail "the writer's warp and lane are not shown"
  # the lanes picture: both warps' rows, A (lane 31 of warp 1) and B (lane 0 of warp 0)
  screen | grep -q "[·.]A *│" || fail "the lanes picture does not show A at lane 31"
  screen | grep -q "B[·.]" || fail "the lanes picture does not show B at lane 0"
  screen | grep -q "line 8: s\[t\]" || fail "the write's line is not shown"
  screen | grep -q "line 9: out" || fail "the read's line is not shown"
  keys n
  wait_for "step 2/" 20 || fail "no step 2"
  wait_for "5 barriers" 20 || fail "the barrier step does not open on the barrier view"
  keys r
  wait_for "released t=" 600 || fail "the barrier view lists no release"
  keys '<'
  wait_for "later .*line 17" 20 || fail "< did not go back before the barrier's release"
  keys '>'
  wait_for "released t=.*line 17" 20 || fail "> did not come back to the release"
  forth_and_back '>' '<'

  # Lesson 8: a global-memory race pictured by its buffer element, and the Result lists
  # it without repeating its kind.
  open "$W" "$H" "$LESSONS" 8
  keys r
  wait_for "race on counter\[0\]" 600 || fail "the global race is not named by its buffer element (counter[0])"
  screen | grep -q "global-memory race: global-memory race" && fail "the Result repeats the finding's kind"
  screen | grep -q "global-memory race (write after read hazard)" || fail "the Result does not list the race"

  # Lesson 9: the tree view, one barrier epoch back and forth.
  open "$W" "$H" "$LESSONS" 9
  wait_for "8 tree" 20 || fail "the reduction step does not open on the tree view"
  keys r
  wait_for "barrier 8/8" 600 || fail "the tree view does not show the last of 8 barriers"
  # performance feedback: 8 blocks of 4 warps on the default sm_90 model (132 SMs of 64
  # warp slots): 8 SMs busy, each with 4 of its 64 warp slots
  screen | tr -s ' \n│' ' ' | grep -q "100% theoretical (limit: threads), about 6% achieved" ||
    fail "the Result does not give the occupancy (100% theoretical, 6% achieved)"
  keys '<'
  wait_for "barrier 7/8" 20 || fail "< did not step back one barrier epoch"
  keys '>'
  wait_for "barrier 8/8" 20 || fail "> did not step forward again"
  forth_and_back '<' '>'
  # sideways: ] pages on through the 128 elements; x zooms out to all of them as a
  # strip with a cursor whose values are listed; x again goes back
  keys ']'
  wait_for "\[[1-9][0-9]*\.\.[0-9]*\] of 128" 20 || fail "] did not page the tree view sideways"
  keys x
  wait_for "all 128, [0-9]* *\(per \)\?\/\?cell" 20 || fail "x did not zoom the tree view out to all 128 elements"
  screen | grep -q "L[0-9]* *[█#][█#·.]*" || fail "the zoomed tree view draws no strip"
  keys x
  wait_for "of 128" 20 || fail "x did not go back to the values"
  keys '^'
  wait_for "barrier 0/8" 20 || fail "Home (^) did not go to the start"
  keys '$'
  wait_for "barrier 8/8" 20 || fail "End ($) did not run to the end"
  # Playback: from the start, P plays the tree one barrier at a time to the end.
  keys '^' P
  wait_for "playing: one barrier every" 20 || fail "P did not start playback"
  keys + + +
  wait_for "barrier 8/8" 150 || fail "playback did not reach the last barrier"
  wait_for "playback: end of the launch" 50 || fail "playback did not stop at the end"
  # The registers view: thread 0's registers as its warp steps, the one just written
  # marked; its load of in[0] = 11, then thread 1's of in[1] = -31 at the same point.
  keys 0 '^'
  wait_for "0 registers" 20 || fail "0 does not open the registers view"
  wait_for "nothing ran yet" 20 || fail "Home does not show the registers before the launch"
  n=0
  while [ "$n" -lt 60 ] && ! screen | grep -Eq "wrote: [^ ]+ = 11( |$)"; do keys .; sleep 0.1; n=$((n + 1)); done
  screen | grep -Eq "wrote: [^ ]+ = 11( |$)" || fail "stepping thread 0 never shows its load of in[0] = 11"
  [ "$H" -lt 60 ] || screen | grep -Eq ">%[a-z]+[0-9]+ +11( |$)" || fail "the register just written is not marked"
  keys '}'
  wait_for "wrote: [^ ]* = -31" 20 || fail "} did not select thread 1 (its load of in[1] = -31)"
  forth_and_back . ,
  # f runs the next kernel of the step's file (with the step's launch: the lesson gives
  # reduce_strided none of its own), and says which
  keys f
  wait_for "ran on the simulator: reduce_strided" 600 || fail "f did not run the file's next kernel (reduce_strided)"
  screen | grep -q "than your previous run (reduce_interleaved): warp instructions 2440 -> 1976" ||
    fail "the run of reduce_strided is not compared with the step's kernel"

  # Lesson 9, step 5: the registers view pictures a shuffle: the first one is down 16.
  keys n n n n
  wait_for "step 5/" 20 || fail "no step 5"
  keys r
  wait_for "ran on the simulator" 600 || fail "lesson 9 step 5 did not run"
  keys 0 '^'
  n=0
  pat="shuffle: lane l reads lane l + 16 (down)\|shfl: l reads l + 16 (down)"
  while [ "$n" -lt 200 ] && ! screen | grep -q "$pat"; do keys .; sleep 0.15; n=$((n + 1)); done
  screen | grep -q "$pat" || fail "stepping to the first shuffle does not picture it (down 16)"
  screen | grep -q "lanes 16-31: out of range\|lanes 16-31 keep their value" ||
    fail "the shuffle picture does not name the lanes that keep their value"
  screen | grep -q "lane 0 read lane 16\|lane 1 read lane 17" || fail "the shuffle picture does not say which lane the selected lane read"

  # Lesson 1: the map coloured by SM; the registers step opens on the registers view.
  open "$W" "$H" "$LESSONS" 1
  keys n
  wait_for "step 2/" 20 || fail "no step 2"
  keys r
  wait_for "ran on the simulator" 600 || fail "lesson 1 step 2 did not run"
  n=0
  while [ "$n" -lt 10 ] && ! screen | grep -q "colour = SM"; do keys Tab; sleep 0.1; n=$((n + 1)); done
  wait_for "colour = SM (simulated" 20 || fail "Tab never colours the map by SM"
  keys n n
  wait_for "step 4/" 20 || fail "no step 4"
  wait_for "0 registers" 20 || fail "the registers step does not open on the registers view"
  keys r
  wait_for "thread (0,0,0) of block (0,0,0)\|t(0,0,0) b(0,0,0)" 600 || fail "the registers view shows no thread"
  keys '^' . . .
  wait_for "wrote: [^ ]* = " 20 || fail "stepping shows no register written"

  # Lesson 4: the warp timeline; stepping marks the warp's line in the source.
  open "$W" "$H" "$LESSONS" 4
  keys r
  wait_for "active lanes: kernel" 600 || fail "the warp timeline has no branch efficiency"
  keys '^' .
  sleep 0.3
  screen | grep -q "[0-9]→" || fail "stepping does not mark the selected warp's line"
  forth_and_back . ,

  # The fixture: out of bounds against the buffer's bounds; a deadlock.
  open "$W" "$H" "$TMP/fix" 1
  keys r
  wait_for "out-of-bounds access" 600 || fail "no out-of-bounds picture"
  wait_for "'in': 400 bytes" 20 || fail "the buffer's bounds are not shown"
  screen | grep -q "element \[100\] of 100" || fail "the faulting index is not set against the bounds"
  screen | grep -q "byte 400" || fail "the access is not marked at byte 400"
  screen | grep -q "warp 1 lane 4" || fail "the faulting lane is not named"
  keys n r
  wait_for "deadlock: warps wait" 600 || fail "no deadlock picture"
  wait_for "warp 0: wait at line 5" 20 || fail "warp 0 is not shown waiting at line 5"
  screen | grep -q "warp 1: wait at line 7" || fail "warp 1 is not shown waiting at line 7"
  screen | grep -q "checkers: lines 5, 7" || fail "both barriers are not marked in the source"

  # Help lists the views.
  keys '?'
  wait_for "views: 1 threads 2 warps 3 memory" 20 || fail "the help does not list the view keys"
  screen | grep -q "selected thread.s registers" || fail "the help does not list the registers view"
  keys q
  wait_for "GPULEARN-EXIT=0" || fail "the TUI did not exit cleanly"
  echo "tui_views: ok at ${W}x${H}"
}

walk 80 24
walk 200 60
exit 0
