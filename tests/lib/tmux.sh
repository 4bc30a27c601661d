# tmux.sh — helpers shared by the TUI tests (tests/tui_*.sh), sourced, not run.
# Before sourcing set NAME (the test's name for messages), SOCK (a private tmux socket)
# and SESSION (the tmux session the TUI runs in). A test may redefine fail_context to
# print " (size ...)" after the name in failure messages.

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
