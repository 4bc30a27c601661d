#!/bin/sh
# tui_compare.sh — r on an exercise runs the learner's kernel and then the reference at
# one graded size with the same inputs, and says whether the output matches, under tmux
# at 80x24:
#  - lesson 1 with a wrong kernel (threadIdx.x as the index) in the learner's copy:
#    z / Z pick n = 1000 from the graded sizes; r says "differs ... at 872 of 1000
#    elements" and the buffers view shows expected and actual side by side from the
#    first difference (index 128: the reference's a[128] + b[128], the kernel's 0),
#    differing rows marked; ] scrolls it; the help lists z and [ ];
#  - lesson 1 with the reference solution as the copy: the lesson's first r measures
#    the default size (the largest graded size whose reference run takes under a
#    second: 65537) and says "output matches the reference for n = 65537";
#  - a fixture lesson whose largest graded size loops a billion times: the default
#    is the size below it, and the result says how long the slow one took.
# Everything lives in private XDG_DATA_HOME and HOME folders under a temporary folder.
#
# Env: GPULEARN = absolute path of the built binary (make check sets it).
# Exit: 0 pass, 1 fail (the captured screen is printed), 77 skip (no tmux).
set -u

NAME=tui_compare; SESSION=views
. "$(dirname "$0")/lib/tmux.sh"
tui_begin
tui_copy_lessons 01

# The fixture: an exercise whose largest graded size takes longer than a second.
mkdir -p "$TMP/lessons/02-spin"
cat >"$TMP/lessons/02-spin/spin.cu" <<'EOF'
// Loops n times: the largest graded size takes seconds on the simulator.
extern "C" __global__ void spin(int *out, int n)
{
    int x = 0;
    for (int k = 0; k < n; k++)
        x = x * 3 + k;
    out[threadIdx.x] = x;
}
EOF
cat >"$TMP/lessons/02-spin/lesson.json" <<'EOF'
{
  "format": 1,
  "id": "spin",
  "title": "Sizes that take long",
  "summary": "Fixture for tests/tui_compare.sh.",
  "steps": [{"title": "Spinning", "text": ["The exercise's largest size takes seconds."]}],
  "exercise": {
    "title": "Spin",
    "text": ["Loop n times."],
    "starter": "spin.cu",
    "reference": "spin.cu",
    "launch": {"kernel": "spin", "grid": [1, 1, 1], "block": [1, 1, 1],
               "args": [{"name": "out", "type": "i32*", "len": 1},
                        {"name": "n", "type": "i32", "value": "n"}]},
    "sizes": [10, 1000, 1000000000],
    "checks": [{"kind": "matches_reference"}],
    "hints": ["Loop.", "Loop n times."]
  }
}
EOF

cat >"$TMP/pane.sh" <<'EOF'
HOME="$TUI_TMP/home" XDG_DATA_HOME="$TUI_TMP/xdg" GPULEARN_LESSONS="$TUI_LESSONS" GPULEARN_NO_GPU=1 "$GPULEARN" "$TUI_LESSON"
echo "GPULEARN-EXIT=$?"
sleep 600
EOF

fail_context() { echo " ($PART)"; }

# fresh LESSON [COPY]: a new TUI (empty data folders; COPY, if given, is the learner's
# copy of the exercise) on LESSON's exercise.
fresh() {
  rm -rf "$TMP/xdg" "$TMP/home"
  mkdir -p "$TMP/xdg" "$TMP/home"
  if [ $# -ge 2 ]; then mkdir -p "$TMP/xdg/gpulearn/$3"; cp "$2" "$TMP/xdg/gpulearn/$3/$(basename "$4")"; fi
  open 80 24 "$TMP/lessons" "$1"
  i=0
  while ! screen | grep -q "Result / grade"; do
    [ "$i" -ge 10 ] && fail "no exercise after 10 steps"
    keys n; i=$((i + 1)); sleep 0.3
  done
}

# -------------------------------------------------- a wrong kernel, n picked with z
PART="wrong kernel"
cat >"$TMP/wrong.cu" <<'EOF'
extern "C" __global__ void vec_add(const float *a, const float *b, float *c, int n)
{
    int i = threadIdx.x; // forgot blockIdx.x * blockDim.x
    if (i < n)
        c[i] = a[i] + b[i];
}
EOF
fresh 1 "$TMP/wrong.cu" threads exercise.cu
wait_for "n = auto . z size" || fail "the result pane does not offer z before the first run"
# z from the provisional 65537 wraps to the smallest size; Z goes back
keys z
wait_for "n = 1 . z size" || fail "z did not pick n = 1 (the smallest graded size) after the largest"
keys Z
wait_for "n = 65537 . z size" || fail "Z did not go back to n = 65537"
for s in 1 31 33 128 1000; do
  keys z
  wait_for "n = $s . z size" || fail "z did not step to n = $s"
done
wait_for "the default is not measured yet" || fail "z does not say the default is not measured"
keys r
wait_for "output differs from the reference for n = 1000 at 872 of 1000" 600 ||
  fail "no 'output differs' message for the wrong kernel"
screen | grep -q "7 buffers" || fail "the buffers view did not open on the difference"
screen | grep -q "n = 1000: reference vs yours, exact" || fail "no heading over the side-by-side table (compared exactly)"
screen | grep -Eq "index +expected +actual" || fail "no index / expected / actual columns"
screen | grep -q "c: 872 of 1000 differ" || fail "the table does not count the differing elements"
screen | grep -q "127 equal (0..126)" || fail "the equal elements before the first difference are not folded"
# element 127 is right (context), 128 and on are wrong: the reference's a[i] + b[i], the kernel's 0
screen | grep -Eq "│ +127 +-25.0398293 +-25.0398293 " || fail "no equal context row for index 127"
screen | grep -Eq "(≠|!) +128 +-60.5306396 +0 " || fail "no marked row: index 128 expected -60.5306396 actual 0"
screen | grep -Eq "(≠|!) +129 +-47.3363495 +0 " || fail "no marked row: index 129 expected -47.3363495 actual 0"
wait_for "scroll: 1-6 of 875 rows" || fail "the table does not say how far it scrolls"
keys ']'
wait_for "scroll: 6-11 of 875 rows" || fail "] did not scroll the table a page"
screen | grep -Eq "(≠|!) +134 +-38.0408287 +0 " || fail "no row for index 134 after scrolling"
keys '['
wait_for "scroll: 1-6 of 875 rows" || fail "[ did not scroll the table back"
keys '?'
wait_for "Help: keys" || fail "no help overlay"
screen | grep -q "z / Z .*graded size" || fail "the help does not list z / Z"
i=0
while ! screen | grep -q "\[ / \] .*scroll: the buffers view (7)"; do
  [ "$i" -ge 6 ] && fail "the help does not list [ / ]"
  keys NPage; i=$((i + 1)); sleep 0.2
done
keys Escape

# ------------------------------------------ the right kernel at the measured default
PART="right kernel"
fresh 1 "$ROOT/lessons/01-threads/solution.cu" threads exercise.cu
keys r
wait_for "output matches the reference for n = 65537" 600 || fail "no 'output matches' message for the solution"
screen | grep -q "n = 65537 . z size" || fail "the result pane's title does not show n = 65537"
screen | grep -q "n = 65537, the default: the largest of the graded sizes 1 31 33 128 1000" ||
  fail "the result does not say why n = 65537 is the default"

# ------------------------------------------------- a size that takes over a second
PART="slow size"
fresh 2
keys r
wait_for "output matches the reference for n = 1000" 600 || fail "the default is not the size below the slow one"
keys J J
# (the line wraps after the size at 80 columns)
wait_for "took [0-9.]* s); z picks another" 20 || fail "the result does not say how long the slow size took"
screen | grep -q "(0.[0-9]* s; 1000000000" || fail "the slow size is not the one named"
keys q
wait_for "GPULEARN-EXIT=0" || fail "the TUI did not exit cleanly"
echo "tui_compare: ok"
exit 0
