#!/bin/sh
# tui_program.sh — the TUI on a whole CUDA program (`gpulearn PROG.cu`, tui/app_program.c)
# at 80x24: the title bar with the launches and the exit status, the launch list (kernel,
# grid, block, the host line of each launch; "!" a refused or faulting one), the selected
# launch in words, the program's output, and the selected launch's views drawn from its
# trace (warps, memory: a coalesced store is 4 sectors) or its fault (the error view of
# oob_write.cu names the thread); o shows the source at the line of the view's cursor
# (the store), q quits with 0. A lesson's program step (lesson 0b step 1, alloc.cu): r
# opens the same screen on it, q comes back to the step, drawn whole. A program that
# does not compile opens at its error's line in the source, marked. About 9 s.
#
# Env: GPULEARN = absolute path of the built binary (make check sets it).
# Exit: 0 pass, 1 fail (the captured screen is printed), 77 skip (no tmux, no compiler).
set -u

NAME=tui_program; SESSION=prog
. "$(dirname "$0")/lib/tmux.sh"
tui_begin
{ command -v clang >/dev/null 2>&1 || ls /usr/bin/clang-1[4-9] >/dev/null 2>&1 ||
  command -v nvcc >/dev/null 2>&1 || [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" ]; } ||
  { echo "$NAME: neither clang nor nvcc: skipping"; exit 77; }
cd "$ROOT" || exit 1

# start PROG: the TUI on tests/programs/PROG.cu, its exit status printed after it
start() {
  T kill-server >/dev/null 2>&1
  sleep 0.2
  T -f /dev/null new-session -d -s "$SESSION" -x 80 -y 24 \
    "cd '$ROOT' && XDG_DATA_HOME='$TMP/xdg' GPULEARN_NO_GPU=1 '$GPULEARN' tests/programs/$1.cu; echo GPULEARN-EXIT=\$?; sleep 600" ||
    fail "tmux could not start"
  T set-option -t "$SESSION" status off >/dev/null 2>&1
}
# row N of the screen (0 = the title bar) must be exactly $2
row() {
  got=$(screen | sed -n "$(($1 + 1))p" | sed 's/ *$//')
  [ "$got" = "$2" ] || fail "row $1 is '$got', expected '$2'"
}

start launch_1025
wait_for "exit status 0" 300 || fail "the program's screen did not open"
row 0 " gpulearn  launch_1025.cu                             2 launches, exit status 0"
row 1 "┌─ launches (2) ───────────────────┐┌─ Warps (w: map) ─────────────────────────┐"
row 2 "│ 1 ! fill<<<1, 1025>>> :13        ││ launch 1 did not run: it returned        │"
row 3 "│ 2   fill<<<1, 1024>>> :17        ││ cudaErrorInvalidValue                    │"
row 5 "│ launch 1 at launch_1025.cu:13    ││                                          │"
row 6 "│ not run: cudaErrorInvalidValue   ││                                          │"
row 11 "│ launch: invalid argument         ││                                          │"
row 15 "│ 1024 threads: no error           ││                                          │"
row 23 " ↑↓ launch  v 1-9 view  , . step  o source  r rerun  q quit"
keys j
wait_for "launch 2 at launch_1025.cu:17" || fail "j did not select launch 2"
screen | grep -q "│ completed: [0-9]* warp instructions *││" || fail "launch 2 is not described"
row 2 "│ 1 ! fill<<<1, 1025>>> :13        ││ warps x instructions                     │"
screen | sed -n 5p | grep -q "││ b0 w0  █* [0-9]* *│$" || fail "launch 2's warps are not shown"
keys 3
wait_for "3 memory (v: next view)" || fail "3 did not show the memory view"
screen | grep -q "4 sectors, ideal 4: coalesced" || fail "the store is not shown coalesced"
keys o
wait_for "launch_1025.cu (o: output)" || fail "o did not show the source"
row 15 "│ 6→     p[threadIdx.x] =          ││                                          │"
keys q
wait_for "GPULEARN-EXIT=0" || fail "q did not quit with 0"

start oob_write
wait_for "exit status 1" 300 || fail "oob_write's screen did not open"
row 2 "│ 1 ! write_past<<<4, 256>>> :18   ││ warps x instructions                     │"
screen | sed -n 5p | grep -q "^│ launch 1 at oob_write.cu:18      ││" || fail "the launch's line is not named"
screen | sed -n 6p | grep -q "^│ fault: out-of-bounds store of 4  ││" || fail "the fault is not named"
keys 9
wait_for "9 error (v: next view)" || fail "9 did not show the error view"
screen | grep -q "store by: thread (1,0,0)" || fail "the error view does not name the thread"
screen | grep -q "'d': 4000 bytes" || fail "the error view does not name the allocation"
keys q
wait_for "GPULEARN-EXIT=0" || fail "q did not quit with 0"

# a program that does not compile: the source pane opens at the error's line (30, below
# the pane's first rows), marked with the compiler's message
start errors/late_error
wait_for "did not run" 300 || fail "late_error's screen did not open"
wait_for "late_error.cu (o: output)" || fail "a compile error did not show the source"
screen | grep -q "^│30▶ { p\[0\] = missing_name; }" || fail "line 30 is not shown marked"
screen | grep -q "error: use of\|error: identifier" || fail "the error's message is not shown"
keys o
wait_for "output (o: source)" || fail "o did not show the output"
keys q
wait_for "GPULEARN-EXIT=0" || fail "q did not quit with 0"

# the lesson TUI on lesson 0b: r on its first step (a program, alloc.cu) opens the
# program's screen; q returns to the step
T kill-server >/dev/null 2>&1
sleep 0.2
T -f /dev/null new-session -d -s "$SESSION" -x 80 -y 24 \
  "cd '$ROOT' && XDG_DATA_HOME='$TMP/xdg' GPULEARN_NO_GPU=1 '$GPULEARN' first-program; echo GPULEARN-EXIT=\$?; sleep 600" ||
  fail "tmux could not start"
T set-option -t "$SESSION" status off >/dev/null 2>&1
wait_for "Step 1/6" || fail "lesson 0b did not open"
keys r
wait_for "exit status 0" 300 || fail "r did not open the program's screen"
row 0 " gpulearn  alloc.cu                                   0 launches, exit status 0"
row 1 "┌─ launches (0) ───────────────────┐┌─ views ──────────────────────────────────┐"
row 2 "│ the program launched no kernel   ││ no launch to show                        │"
row 9 "│ 0 1.5 3 4.5 6 7.5 9 10.5         ││                                          │"
keys q
wait_for "Step 1/6" || fail "q did not return to the lesson"
row 0 " gpulearn — Lesson 0b: Your first CUDA program               1  2  3  4  5  Ex"
row 2 "│ Two memories: the host's and the device's                                    │"
row 10 "┌─ alloc.cu ───────────────────────────────────────────────────────────────────┐"
row 23 " lesson 0b · step 1/6 · simulator (no GPU found)                 ?:help  q:quit"
echo "$NAME: ok"
