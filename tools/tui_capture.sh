#!/bin/sh
# tui_capture.sh — writes every screen of a walk through the TUI to files, for comparing
# the TUI's drawing before and after a change that must not change it (diff -r of two
# output folders). Under tmux, on the simulator (GPULEARN_NO_GPU=1), with temporary
# XDG folders, at each size: the lesson list; then for each lesson every step, on
# entering it, after r, in every view of the view table (keys 1-9, 0, L, F), after the
# views' own keys (Tab and m + Right in the map, [ ] in the buffers view, x ] in the tree
# view, M in the fragment view, . and , in time), with the Result on the whole page
# (Enter), after g on the exercise, and the help overlay; then the demo layout
# (gpulearn demo) of the first lesson, before and after r.
#
# Usage: tools/tui_capture.sh OUTDIR [LESSON...]   (default: every lesson in lessons/)
# Env:   GPULEARN (the binary; default build/debug/gpulearn), SIZES (default
#        "80x24 120x40"), GPULEARN_LESSONS (the lessons folder; default lessons/).
# Files: OUTDIR/WxH/LESSON/NNN-WHAT.txt, one capture-pane each (NNN keeps their order).
# Needs: tmux, perl.
# Exit:  0 done, 1 the TUI did not open or a run did not finish (OUTDIR/errors lists
#        them; the walk goes on), 77 no tmux.
set -u

NAME=tui_capture; SESSION=views
OUT=${1:?usage: tools/tui_capture.sh OUTDIR [LESSON...]}
shift
case $OUT in /*) ;; *) OUT=$(pwd)/$OUT ;; esac
# tests/lib/tmux.sh finds the repository from $0's folder's parent: tools/ works too
. "$(dirname "$0")/../tests/lib/tmux.sh"
tui_begin perl
LESSONS=${GPULEARN_LESSONS:-$ROOT/lessons}
SIZES=${SIZES:-"80x24 120x40"}
mkdir -p "$OUT" "$TMP/cache"
: >"$OUT/errors"

if [ $# -eq 0 ]; then
  set --
  for d in "$LESSONS"/*/; do set -- "$@" "$(basename "$d")"; done
fi

cat >"$TMP/pane.sh" <<'EOF'
XDG_DATA_HOME="$TUI_TMP/xdg" XDG_CACHE_HOME="$TUI_TMP/cache" GPULEARN_LESSONS="$TUI_LESSONS" \
  GPULEARN_NO_GPU=1 GPULEARN_GRADE_SEED=1 "$GPULEARN" $TUI_LESSON
echo "GPULEARN-EXIT=$?"
sleep 600
EOF

# settle: waits until two captures 0.1 s apart are the same (the TUI has drawn the key).
settle() {
  sleep 0.05
  prev=$(screen); n=0
  while [ $n -lt 50 ]; do
    sleep 0.1
    cur=$(screen)
    [ "$cur" = "$prev" ] && return 0
    prev=$cur; n=$((n + 1))
  done
}

# idle: waits (up to 10 minutes) until no run or grading is under way: the status bar
# does not start with the spinner (a narrow one leaves out the cancel key).
SPIN='^ ?(⠋|⠙|⠹|⠸|⠼|⠴|⠦|⠧|⠇|⠏|[|/\\-] )'
idle() {
  sleep 0.2; n=0
  while [ $n -lt 6000 ]; do
    if ! screen | tail -n 1 | grep -Eq "$SPIN"; then
      settle
      screen | tail -n 1 | grep -Eq "$SPIN" || return 0
    fi
    sleep 0.1; n=$((n + 1))
  done
  echo "$SIZE $LESSON: a run did not finish" >>"$OUT/errors"
  return 1
}

SEQ=0
# cap WHAT: writes the screen to DIR/NNN-WHAT.txt, with what differs from walk to walk
# masked at the same length (so the layout stays): the temporary folder's random name
# (the exercise's copy lives in it) as XXXXXX, and times measured ("0.081 s") as #.###.
cap() {
  SEQ=$((SEQ + 1))
  screen | normalize >"$DIR/$(printf %03d $SEQ)-$1.txt"
}
normalize() {
  perl -pe 's/tui_capture\.[A-Za-z0-9]{6}/tui_capture.XXXXXX/g;
    s/(?:(?<=simulator \()|(?<=took ))(\d+\.\d+)/"#" x length($1)/ge;
    s/\b(\d+\.\d+)(?= s\b)/"#" x length($1)/ge'
}
# press KEY WHAT: sends the key, waits for the screen to settle and captures it.
press() { keys "$1"; settle; cap "$2"; }

# start W H LESSON|"" [demo]: a fresh TUI (no progress recorded), waiting for its first
# screen.
start() {
  rm -f "$TMP/xdg/gpulearn/progress.json"
  T kill-server >/dev/null 2>&1
  sleep 0.2
  T -f /dev/null new-session -d -s "$SESSION" -x "$1" -y "$2" \
    "env GPULEARN='$GPULEARN' TUI_TMP='$TMP' TUI_LESSONS='$LESSONS' TUI_LESSON='$3' sh '$TMP/pane.sh'" ||
    { echo "tmux could not start" >&2; exit 1; }
  T set-option -t "$SESSION" status off >/dev/null 2>&1
  if [ -n "$3" ] && ! wait_for "step 1/\|  Lesson " 100; then
    echo "$1x$2 $3: the TUI did not open" >>"$OUT/errors"
    return 1
  fi
  [ -n "$3" ] || wait_for "Lessons" 100
  settle
}

# The views of one step, after its run.
walk_views() {
  for v in 1 2 3 4 5 6 7 8 9 0 L F; do
    press "$v" "view$v"
    case $v in
      1) press Tab "map-tab"; press m "map-focus"; press Right "map-right"; press Escape "map-leave" ;;
      7) press ']' "buffers-down"; press '[' "buffers-up" ;;
      8) press ']' "tree-right"; press x "tree-zoom"; press ']' "tree-zoom-right"; press x "tree-unzoom" ;;
      F) press M "frag-mat"; press t "frag-next" ;;
      2) press . "step-fwd"; press , "step-back"; press '<' "bar-back"; press ')' "warp-next" ;;
    esac
  done
}

for size in $SIZES; do
  W=${size%x*}; H=${size#*x}; SIZE=$size
  LESSON=list; DIR="$OUT/$size/list"; mkdir -p "$DIR"; SEQ=0
  start "$W" "$H" "" && { cap list; press j "list-down"; press '?' "list-help"; }
  for LESSON in "$@"; do
    DIR="$OUT/$size/$LESSON"; mkdir -p "$DIR"; SEQ=0
    start "$W" "$H" "$LESSON" || continue
    steps=$(screen | tail -n 1 | sed -n 's/.*step 1\/\([0-9]*\).*/\1/p')
    [ -n "$steps" ] || steps=1
    s=1
    while [ "$s" -le "$steps" ]; do
      cap "s$s-enter"
      keys r; idle; cap "s$s-run"
      walk_views
      press Enter "s$s-result-full"; press Enter "s$s-result-back"
      if [ "$s" -eq "$steps" ]; then
        keys g; idle; cap "s$s-grade"
        press Enter "s$s-grade-back"
      fi
      s=$((s + 1))
      [ "$s" -le "$steps" ] && { keys n; settle; }
    done
    press '?' "help"; press Next "help-down"
  done
done
# the demo layout (draw_demo): one lesson, before and after its first run
for size in $SIZES; do
  W=${size%x*}; H=${size#*x}; SIZE=$size; LESSON="demo $1"
  DIR="$OUT/$size/demo"; mkdir -p "$DIR"; SEQ=0
  start "$W" "$H" "demo $1" && { cap demo; keys r; idle; cap demo-run; press '?' demo-help; }
done
T kill-server >/dev/null 2>&1
find "$OUT" -name '*.txt' | wc -l | sed 's/^/screens: /'
[ -s "$OUT/errors" ] && { cat "$OUT/errors"; exit 1; }
exit 0
