#!/bin/sh
# tui_editor.sh — the built-in editor, under tmux at 80x24, with neither $VISUAL nor
# $EDITOR set: e on lesson 1 opens the learner's copy in it (title, line numbers, CUDA
# highlighting, help line); find (Ctrl-F) moves to a line; a change typed and undone
# (Ctrl-Z) leaves the text as it was; another change (Enter auto-indents) saved with
# Ctrl-S and left with Ctrl-Q is exactly what the file on disk holds, and the TUI
# re-runs the kernel. Then quitting without saving (Esc on an unchanged file; Ctrl-Q,
# Esc keeps editing, Ctrl-Q, n) leaves the file untouched and re-runs nothing. The
# terminal is restored at the end. Everything lives in a private XDG_DATA_HOME and HOME
# under a temporary folder. The editor is also resized to 60x20 and back.
#
# Env: GPULEARN = absolute path of the built binary (make check sets it).
# Exit: 0 pass, 1 fail (the captured screen is printed), 77 skip (no tmux).
set -u

NAME=tui_editor; SESSION=ed
. "$(dirname "$0")/lib/tmux.sh"
tui_begin
tui_copy_lessons 00 01
mkdir -p "$TMP/home"

# No editor in the environment (nor a vi or nano to fall back on: the built-in opens).
cat >"$TMP/pane.sh" <<'EOF'
before=$(stty -g)
env -u VISUAL -u EDITOR HOME="$TUI_TMP/home" XDG_DATA_HOME="$TUI_TMP/xdg" \
  GPULEARN_LESSONS="$TUI_LESSONS" GPULEARN_NO_GPU=1 "$GPULEARN" 1
rc=$?
after=$(stty -g)
[ "$before" = "$after" ] && echo "TTY-RESTORED"
echo "GPULEARN-EXIT=$rc"
sleep 600
EOF

# the screen with its colours (SGR escapes) kept
screen_e() { T capture-pane -p -e -t "$SESSION"; }
ESC=$(printf '\033')

T kill-server >/dev/null 2>&1
T -f /dev/null new-session -d -s ed -x 80 -y 24 \
  "env GPULEARN='$GPULEARN' TUI_LESSONS='$TMP/lessons' TUI_TMP='$TMP' sh '$TMP/pane.sh'" || fail "tmux could not start"
T set-option -t ed status off >/dev/null 2>&1
wait_for "lesson 1 . step 1/" 50 || fail "lesson 1 did not open"

# e: the exercise's copy is made, and opens in the built-in editor.
keys e
wait_for " edit: exercise.cu" 50 || fail "e did not open the built-in editor"
FILE=$(ls "$TMP"/xdg/gpulearn/*/exercise.cu 2>/dev/null | head -1)
[ -f "$FILE" ] || fail "no copy of the exercise under XDG_DATA_HOME"
cp "$FILE" "$TMP/starter.cu"
screen | head -1 | grep -q "line 1:1 *$" || fail "the title does not show line 1:1"
screen | head -1 | grep -q "modified" && fail "an unchanged file is marked modified"
screen | grep -q "^  4 extern \"C\" __global__ void vec_add" || fail "the file is not shown with line numbers"
screen | grep -q "^  7     c\[i\] = a\[i\] + b\[i\];" || fail "line 7 is not shown"
screen | grep -q "^~" || fail "no ~ below the end of the file"
screen | tail -1 | grep -q "\^S save.*\^Z undo.*\^Y redo.*\^F find.*\^Q/Esc quit" || fail "no help line"
# highlighting: keywords, built-ins and comments are drawn with colours
screen_e | grep -q "${ESC}\[[0-9;]*m__global__" || fail "__global__ is not highlighted"
screen_e | grep -q "${ESC}\[[0-9;]*mthreadIdx" || fail "threadIdx is not highlighted"
screen_e | grep -q "${ESC}\[[0-9;]*m// Exercise" || fail "the comment is not highlighted"

# Ctrl-F finds threadIdx.x; (line 6), Esc leaves the cursor there.
keys C-f
wait_for "find: " 20 || fail "Ctrl-F did not ask what to find"
keys -l "threadIdx.x"
wait_for "line 6:39 *$" 20 || fail "find did not move to threadIdx.x on line 6"
keys Escape
sleep 0.3

# A change typed and undone: the text and the modified flag are back.
keys End
keys -l " /* oops */"
wait_for "threadIdx.x; /\* oops \*/" 20 || fail "typing did not show"
screen | head -1 | grep -q "\[modified\]" || fail "the title does not say modified"
keys C-z
wait_for "^  6     int i = blockIdx.x \* blockDim.x + threadIdx.x; *$" 20 || fail "Ctrl-Z did not undo the typing"
screen | head -1 | grep -q "modified" && fail "still modified after undoing the only change"

# Resizing to 60x20 and back: the title, the text and the help line follow.
# help_on ROW: waits until the help line is on that row (the resize has been drawn).
help_on() {
  n=0
  while [ "$n" -lt 50 ]; do
    screen | sed -n "${1}p" | grep -q "\^S save.*\^Q/Esc quit" && return 0
    sleep 0.1; n=$((n + 1))
  done
  return 1
}
T resize-window -t ed -x 60 -y 20
help_on 20 || fail "no help line on the last row at 60x20"
screen | head -1 | grep -q "^ edit: exercise.cu  *line 6:51 *$" || fail "the title did not follow a resize to 60x20"
[ "$(screen | wc -L)" -le 60 ] || fail "a row is wider than 60 columns"
screen | grep -q "^  6     int i = blockIdx.x \* blockDim.x + threadIdx.x; *$" || fail "line 6 is not whole at 60x20"
screen | grep -q "^  2 // The launch uses blocks of 128 threads and (n + 127) /$" || fail "line 2 is not cut at 60 columns"
T resize-window -t ed -x 80 -y 24
help_on 24 || fail "no help line on the last row back at 80x24"
screen | head -1 | grep -q "^ edit: exercise.cu  *line 6:51 *$" || fail "the title did not follow a resize back to 80x24"
screen | grep -q "blocks, so when$" || fail "line 2 is not shown to 80 columns again"

# Another: Enter auto-indents, then the guard; Ctrl-S saves, Ctrl-Q leaves.
keys End Enter
wait_for "line 7:5 *$" 20 || fail "Enter did not indent the new line"
keys -l "if (i >= n) return"
keys '\;'
wait_for "^  7     if (i >= n) return;" 20 || fail "the guard did not show"
keys C-s
wait_for "saved exercise.cu" 20 || fail "Ctrl-S did not save"
screen | head -1 | grep -q "modified" && fail "still modified after saving"
sed '6a\    if (i >= n) return;' "$TMP/starter.cu" >"$TMP/want.cu"
cmp -s "$FILE" "$TMP/want.cu" || { diff "$TMP/want.cu" "$FILE"; fail "the file on disk is not exactly the change"; }
keys C-q
wait_for "ran on the simulator" 600 || fail "no re-run after saving in the editor"
screen | grep -q "if (i >= n) return;" || fail "the source pane does not show the saved change"
cmp -s "$FILE" "$TMP/want.cu" || fail "the file changed after quitting"

# Esc on an unchanged file: out at once, nothing re-run.
keys e
wait_for " edit: exercise.cu" 50 || fail "e did not open the editor again"
keys Escape
wait_for "not saved: nothing changed" 30 || fail "Esc on an unchanged file did not say nothing changed"
screen | grep -q "ran on the simulator" || fail "the last run's result was dropped"

# Unsaved changes: Ctrl-Q asks; Esc keeps editing; Ctrl-Q, n quits without saving.
keys e
wait_for " edit: exercise.cu" 50 || fail "e did not open the editor a third time"
keys -l "zzz"
keys C-q
wait_for "save changes? (y/n/esc)" 20 || fail "Ctrl-Q on a modified file did not ask"
keys Escape
wait_for "still editing" 20 || fail "Esc at the question did not go back to editing"
screen | grep -q "zzz" || fail "the typing is gone after Esc at the question"
keys C-q
wait_for "save changes? (y/n/esc)" 20 || fail "Ctrl-Q did not ask again"
keys n
wait_for "not saved: nothing changed" 30 || fail "n did not leave with 'not saved: nothing changed'"
cmp -s "$FILE" "$TMP/want.cu" || fail "quitting without saving changed the file"
screen | grep -q "zzz" && fail "the source pane shows the unsaved typing"
screen | grep -q "ran on the simulator" || fail "quitting without saving dropped the last result"

keys q
wait_for "GPULEARN-EXIT=" 50 || fail "the TUI did not exit on q"
screen | grep -q "GPULEARN-EXIT=0" || fail "nonzero exit status"
screen | grep -q "TTY-RESTORED" || fail "terminal settings not restored"
echo "tui_editor: ok"
exit 0
