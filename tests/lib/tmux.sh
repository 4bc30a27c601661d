# tmux.sh — helpers shared by the TUI tests (tests/tui_*.sh), sourced, not run.
# Before sourcing set NAME (the test's name, e.g. tui_smoke) and SESSION (the tmux session
# the TUI runs in), then call tui_begin. A test may redefine fail_context to print
# " (size ...)" after the name in failure messages.

# tui_begin [TOOL...]: the common start of a TUI test. Skips (exit 77) without tmux or one
# of the TOOLs; GPULEARN is the built binary (make check sets it; it must exist); sets
# ROOT (the repository), SOCK (a private tmux socket) and TMP (a temporary folder with an
# empty xdg/ for XDG_DATA_HOME), which are removed on exit with the tmux server.
tui_begin() {
  for tool in tmux "$@"; do
    command -v "$tool" >/dev/null 2>&1 || { echo "$NAME: $tool not found: skipping"; exit 77; }
  done
  GPULEARN=${GPULEARN:-$(pwd)/build/debug/gpulearn}
  [ -x "$GPULEARN" ] || { echo "$NAME: no binary at $GPULEARN"; exit 1; }
  ROOT=$(cd "$(dirname "$0")/.." && pwd)
  SOCK="gl$NAME$$"
  TMP=$(mktemp -d "${TMPDIR:-/tmp}/$NAME.XXXXXX") || exit 1
  trap tui_cleanup EXIT INT TERM
  mkdir -p "$TMP/xdg"
}
tui_cleanup() { T kill-server >/dev/null 2>&1; rm -rf "$TMP"; }

# tui_copy_lessons NN...: copies the repository's lessons/NN-* into $TMP/lessons, so the
# test depends on no other lesson's state.
tui_copy_lessons() {
  mkdir -p "$TMP/lessons"
  for n in "$@"; do
    for d in "$ROOT"/lessons/"$n"-*; do [ -d "$d" ] && cp -R "$d" "$TMP/lessons/"; done
  done
}

T() { tmux -L "$SOCK" "$@"; }
screen() { T capture-pane -p -t "$SESSION"; }
keys() { T send-keys -t "$SESSION" "$@"; }
fail_context() { :; }

# fail MESSAGE: prints it with the captured screen and exits 1.
fail() {
  echo "$NAME: FAIL$(fail_context): $1"
  echo "---- screen ----"
  screen
  echo "----------------"
  exit 1
}

# wait_for PATTERN [TENTHS]: polls the screen until grep finds PATTERN (default 5 s).
wait_for() {
  n=0; limit=${2:-50}
  while [ "$n" -lt "$limit" ]; do
    screen | grep -q -- "$1" && return 0
    sleep 0.1; n=$((n + 1))
  done
  return 1
}

# open W H LESSONS_DIR LESSON: a fresh TUI on that lesson (the test's $TMP/pane.sh runs
# it in tmux session "views") for a learner who has seen no step yet (progress.json in
# $TMP/xdg is removed: opening a lesson resumes at its last step); waits for step 1.
open() {
  SIZE="$1x$2"; LESSON="$4"
  rm -f "$TMP/xdg/gpulearn/progress.json"
  T kill-server >/dev/null 2>&1
  sleep 0.2
  T -f /dev/null new-session -d -s views -x "$1" -y "$2" \
    "env GPULEARN='$GPULEARN' TUI_TMP='$TMP' TUI_LESSONS='$3' TUI_LESSON='$4' sh '$TMP/pane.sh'" ||
    fail "tmux could not start"
  T set-option -t views status off >/dev/null 2>&1
  wait_for "step 1/" || fail "the lesson did not open"
}
