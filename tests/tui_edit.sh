#!/bin/sh
# tui_edit.sh — the TUI as a learner uses it on an exercise, under tmux at 80x24:
# open lesson 1 with a mouse click, pick a thread in the map with a click and with the
# keyboard, switch the map colouring, run the starter (its out-of-bounds access marked
# at its line), grade the starter (NOT YET), edit it with EDITOR
# set to a script that inserts the guard (the TUI recompiles and re-runs it), grade it
# (PASSED), see the lesson marked passed in the list, introduce a compile error (marked
# at its line in the source), an editor that fails, and restoring the starter (asks
# first: n keeps the copy, y restores it). Everything lives in a private XDG_DATA_HOME
# and HOME under a temporary folder.
#
# Env: GPULEARN = absolute path of the built binary (make check sets it).
# Exit: 0 pass, 1 fail (the captured screen is printed), 77 skip (no tmux).
set -u

NAME=tui_edit; SESSION=edit
. "$(dirname "$0")/lib/tmux.sh"
tui_begin
# Only lessons 0 and 1 (copied): the test does not depend on the other lessons' state.
tui_copy_lessons 00 01
mkdir -p "$TMP/home"

# The "editors": each changes the file it is given, as a learner would.
cat >"$TMP/fix.sh" <<'EOF'
#!/bin/sh
# inserts the guard before the line that writes c[i]
sed -i 's/^\( *\)\(c\[i\] = .*\)$/\1if (i < n)\n\1    \2/' "$1"
EOF
cat >"$TMP/break.sh" <<'EOF'
#!/bin/sh
sed -i 's/\(c\[i\] = [^;]*\);/\1 + undefined_thing;/' "$1"
EOF
cat >"$TMP/slow.sh" <<'EOF'
#!/bin/sh
# the same result, written three times: more warp instructions
sed -i 's/^\( *\)\(c\[i\] = [^;]*;\)/\1for (int k = 0; k < 3; k++) \2/' "$1"
EOF
chmod +x "$TMP/fix.sh" "$TMP/break.sh" "$TMP/slow.sh"

# The pane runs this: the editor is taken from the file $TMP/editor at each start.
cat >"$TMP/pane.sh" <<'EOF'
before=$(stty -g)
HOME="$TUI_TMP/home" XDG_DATA_HOME="$TUI_TMP/xdg" GPULEARN_LESSONS="$TUI_LESSONS" GPULEARN_NO_GPU=1 EDITOR="$TUI_TMP/editor.sh" "$GPULEARN"
rc=$?
after=$(stty -g)
[ "$before" = "$after" ] && echo "TTY-RESTORED"
echo "GPULEARN-EXIT=$rc"
sleep 600
EOF
use_editor() { cp "$TMP/$1" "$TMP/editor.sh"; chmod +x "$TMP/editor.sh"; }

# click X Y: a left-button press and release at column X, row Y (0-based), in the X10
# mouse encoding the terminal's kmous capability names.
click() {
  x=$(printf '%x' $(($1 + 33))); y=$(printf '%x' $(($2 + 33)))
  T send-keys -t edit -H 1b 5b 4d 20 "$x" "$y"
  T send-keys -t edit -H 1b 5b 4d 23 "$x" "$y"
}
# col_of ROW TEXT: the column (0-based, in characters) where TEXT starts on ROW (1-based).
col_of() {
  screen | sed -n "${1}p" | python3 -c "import sys; s=sys.stdin.read(); i=s.find(sys.argv[1]); print(i if i>=0 else '')" "$2" 2>/dev/null
}
row_of() { screen | grep -n -- "$1" | head -1 | cut -d: -f1; }

use_editor fix.sh
T kill-server >/dev/null 2>&1
T -f /dev/null new-session -d -s edit -x 80 -y 24 \
  "env GPULEARN='$GPULEARN' TUI_LESSONS='$TMP/lessons' TUI_TMP='$TMP' sh '$TMP/pane.sh'" || fail "tmux could not start"
T set-option -t edit status off >/dev/null 2>&1

wait_for "Threads, blocks" || fail "no lesson 1 in the list"

# Mouse: click lesson 1's title in the list to open it.
if command -v python3 >/dev/null 2>&1; then
  r=$(row_of "Threads, blocks"); c=$(col_of "$r" "Threads, blocks")
  click "$c" $((r - 1))
  wait_for "lesson 1 . step 1/" 30 || fail "clicking lesson 1 did not open it"
  MOUSE=1
else
  r=$(row_of "Threads, blocks"); first=$(row_of " 0  ")
  i=${first:-$r}; while [ "$i" -lt "$r" ]; do keys Down; i=$((i + 1)); done
  keys Enter
  wait_for "lesson 1 . step 1/" || fail "lesson 1 did not open"
  MOUSE=0
fi

# A step with a map: select a thread with the keyboard (m, Right), then with a click.
k=1
while ! screen | grep -q "colour = global index"; do
  [ "$k" -ge 8 ] && fail "no step with a global-index map"
  keys n; k=$((k + 1)); wait_for "step $k/" 20 || fail "n did not move to step $k"
done
keys m Right
wait_for "threadIdx.x=1\|b0 t1 i=1" 20 || fail "m + Right did not select thread 1"
keys Tab
wait_for "colour = blockIdx.x" 20 || fail "Tab did not switch the map to blockIdx.x"
keys BTab
wait_for "colour = global index" 20 || fail "Shift-Tab did not switch the map back"
keys Escape
if [ "$MOUSE" = 1 ]; then
  # block 1's cells show 8 9 10 ... (the global index): click the cell "10"
  r=$(row_of " 8  9 10 11")
  [ -n "$r" ] || fail "cannot find block 1's cells in the map"
  c=$(col_of "$r" " 10 ")
  [ -n "$c" ] || fail "cannot find the cell 10"
  click $((c + 1)) $((r - 1))
  wait_for "threadIdx.x=2 | i=10\|b1 t2 i=10" 20 || fail "clicking a thread did not select block 1 thread 2"
fi

# The exercise: the learner's copy is made in the private data folder.
keys n n n n n n
wait_for "your copy: " 30 || fail "the exercise does not show the learner's copy"
ls "$TMP"/xdg/gpulearn/*/* >/dev/null 2>&1 || fail "no copy of the exercise under XDG_DATA_HOME"
[ -z "$(ls -A "$TMP/home")" ] || fail "something was written under HOME"

# r runs the starter at the first size: it faults; the line is marked and the faulting
# thread is selected in the map.
keys r
wait_for "out-of-bounds" 600 || fail "running the starter did not report an out-of-bounds access"
wait_for "checkers: line\|fault at line" 20 || fail "the faulting line is not marked in the source"

keys g
wait_for "NOT YET" 600 || fail "grading the starter did not say NOT YET"
keys o
wait_for "pass the exercise first" 20 || fail "o shows the reference solution before the exercise passed"

# e: the "editor" inserts the guard; gpulearn re-runs the kernel on return.
keys e
wait_for "ran on the simulator" 600 || fail "no re-run after the edit"
screen | grep -q "if (i < n)" || fail "the source pane does not show the edited kernel"
keys g
wait_for "PASSED" 600 || fail "grading the fixed kernel did not pass"

# Once passed, o shows the lesson's reference solution, and o again the learner's copy.
keys o
wait_for "reference solution: solution.cu" 20 || fail "o does not show the reference solution after passing"
keys o
wait_for "your copy: " 20 || fail "o again does not go back to the learner's copy"

# A correct but slower edit: the Result compares the run with the previous one.
use_editor slow.sh
keys e
wait_for "than your previous run: warp instructions [0-9]* -> [0-9]* (+" 600 ||
  fail "the Result does not compare the run with the previous run"

# The list marks the lesson passed; steps seen were recorded; Enter resumes at the
# exercise, where the learner left the lesson.
keys Escape
wait_for "passed" 30 || fail "the lesson list does not mark lesson 1 passed"
keys Enter
wait_for "back at step 6 of 6" 30 || fail "lesson 1 did not open again at the exercise"

# A compile error: marked at its line, with the message.
use_editor break.sh
keys e
wait_for "did not compile" 600 || fail "no compile error after a broken edit"
# line:col come from the compiler's parsed diagnostic (runtime/compile's gl_diag, carried
# to the TUI as a record): NVRTC, nvcc and clang all place it at undefined_thing.
src=$(grep -l undefined_thing "$TMP"/xdg/gpulearn/*/*.cu | head -n 1)
[ -n "$src" ] || fail "break.sh did not change the learner's copy"
at=$(awk '/undefined_thing/ { print NR ":" index($0, "undefined_thing"); exit }' "$src")
wait_for "1 compile error: line $at " 20 ||
  fail "the source pane does not mark the error at line:col $at"
screen | grep -q "undefined_thing\" is undefined\|undefined_thing.*undeclared\|use of undeclared" ||
  fail "the error message is not shown"

# An editor that fails: reported, nothing re-run.
cp "$TMP/editor.sh" "$TMP/editor.bak"
printf '#!/bin/sh\nexit 3\n' >"$TMP/editor.sh"
keys e
wait_for "editor exited with status 3" 50 || fail "a failing editor was not reported"
cp "$TMP/editor.bak" "$TMP/editor.sh"

# Restore the starter: asks first; n keeps the copy, y restores it.
keys R
wait_for "Restore the starter?" 20 || fail "R did not ask for confirmation"
keys n
wait_for "kept your version" 20 || fail "n did not keep the copy"
screen | grep -q "undefined_thing" || fail "the copy changed although n was answered"
keys R
wait_for "Restore the starter?" 20 || fail "R did not ask again"
keys y
wait_for "restored the starter" 20 || fail "y did not restore the starter"
screen | grep -q "undefined_thing" && fail "the source still shows the learner's broken line"
ls "$TMP"/xdg/gpulearn/*/*.bak >/dev/null 2>&1 || fail "no .bak of the learner's version"

keys q
wait_for "GPULEARN-EXIT=" || fail "the TUI did not exit on q"
screen | grep -q "GPULEARN-EXIT=0" || fail "nonzero exit status"
screen | grep -q "TTY-RESTORED" || fail "terminal settings not restored"
echo "tui_edit: ok (mouse: $MOUSE)"
exit 0
