#!/bin/sh
# tui_resume.sh — continue where you left off: the TUI records the step a learner sees
# last in progress.json (keeping keys it does not know), the lesson list reopens at
# that lesson, Enter resumes at that step and says so, and the last step of a lesson
# leads to the next lesson's first step.
#
# Env: GPULEARN = absolute path of the built binary (make check sets it).
# Exit: 0 pass, 1 fail (the captured screen is printed), 77 skip (no tmux).
set -u

NAME=tui_resume; SESSION=resume
. "$(dirname "$0")/lib/tmux.sh"
tui_begin
LESSONS=$(pwd)/lessons
mkdir -p "$TMP/xdg/gpulearn"
PROGRESS="$TMP/xdg/gpulearn/progress.json"
# a key a later version might write: kept through every update
printf '%s\n' '{"format": 1, "lessons": {}, "future": {"kept": true}}' > "$PROGRESS"

cat >"$TMP/pane.sh" <<'EOF2'
XDG_DATA_HOME="$TUI_TMP/xdg" GPULEARN_LESSONS="$TUI_LESSONS" GPULEARN_NO_GPU=1 "$GPULEARN" $TUI_ARGS
echo "GPULEARN-EXIT=$?"
sleep 600
EOF2

start() { # start ARGS: a fresh TUI at 80x24 with those arguments
  T kill-server >/dev/null 2>&1
  sleep 0.2
  T -f /dev/null new-session -d -s resume -x 80 -y 24 \
    "env GPULEARN='$GPULEARN' TUI_TMP='$TMP' TUI_LESSONS='$LESSONS' TUI_ARGS='$1' sh '$TMP/pane.sh'" ||
    fail "tmux could not start"
  T set-option -t resume status off >/dev/null 2>&1
}
quit() {
  keys q
  wait_for "GPULEARN-EXIT=0" 50 || fail "q did not quit"
}

# Lesson 3, step 2, then quit: progress.json holds the position and the unknown key.
start 3
wait_for "lesson 3 . step 1/4" || fail "lesson 3 did not open at step 1"
keys n
wait_for "lesson 3 . step 2/4" || fail "n did not go to step 2"
quit
grep -q '"last_lesson":[[:space:]]*"warps"' "$PROGRESS" || { cat "$PROGRESS"; fail "progress.json does not name lesson 3 as the last one"; }
grep -q '"last_step":[[:space:]]*1' "$PROGRESS" || { cat "$PROGRESS"; fail "progress.json does not hold step 2 as lesson 3's last"; }
grep -q '"kept":[[:space:]]*true' "$PROGRESS" || { cat "$PROGRESS"; fail "progress.json lost a key this version does not know"; }

# gpulearn with no lesson: the list opens at lesson 3; Enter resumes at step 2.
start ""
wait_for "Your GPU" || fail "the lesson list did not open"
keys Enter
wait_for "Lesson 3: Warps" || fail "Enter did not open lesson 3"
wait_for "Step 2/4" || fail "Enter did not resume lesson 3 at step 2"
wait_for "back at step 2 of 4, where you left off" || fail "resuming did not say so"

# The last step (the exercise, step 4) leads on to lesson 4's first step.
keys n
wait_for "lesson 3 . step 3/4" || fail "n did not go to step 3"
keys n
wait_for "lesson 3 . step 4/4" || fail "n did not go to step 4"
keys n
wait_for "lesson 4 . step 1/" || fail "the last step did not lead to lesson 4"
quit
grep -q '"last_lesson":[[:space:]]*"divergence"' "$PROGRESS" || { cat "$PROGRESS"; fail "lesson 4 is not the last one after n"; }
echo "tui_resume: ok"
