#!/bin/sh
# gradebook.sh — `gpulearn gradebook`: two lessons' `grade --batch` results (lesson 1 given
# "points" here; submissions from tests/grade, their times set with touch) become one row
# per student with each exercise's score, the total, late (after --due) and missing (a
# student in one batch and not the other) marked, in the plain, Canvas and Moodle layouts
# (tests/gradebook/*.csv, exact) and as JSON; a student named "=HYPERLINK(...)" is a
# quoted text cell. A forged result (a score its checks do not add up to, points the
# lesson does not give, a name with a '/'), the same lesson twice, a malformed file or a
# bad --due are refused with their place (exit 2), and no output replaces an input.
# Exit: 0 pass, 1 fail.
set -u
G=${GPULEARN:?set GPULEARN to the gpulearn binary}
SRC=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GPULEARN_NO_GPU=1 GPULEARN_LESSONS="$tmp/lessons"
mkdir -p "$tmp/lessons" "$tmp/c1" "$tmp/c2" "$tmp/res"
cp -R lessons/01-threads lessons/02-indexing "$tmp/lessons/"
python3 - "$tmp/lessons/01-threads/lesson.json" <<'PY' || exit 1
import json, sys
p = sys.argv[1]
l = json.load(open(p))
l["exercise"]["points"] = {"compiles": 0, "matches_reference": 6, "no_out_of_bounds": 2}
json.dump(l, open(p, "w"), indent=1)
PY
fail=0
say() { echo "FAIL: $*"; fail=1; }
put() { cp "$1" "$2" && touch -d "$3" "$2"; }
put lessons/01-threads/solution.cu "$tmp/c1/alice.cu" 2026-11-01T10:00:00Z
put tests/grade/01-threads/no_out_of_bounds__no_guard.cu "$tmp/c1/bob.cu" 2026-11-03T00:00:00Z
put tests/grade/01-threads/matches_reference__off_by_one.cu "$tmp/c1/=HYPERLINK(1).cu" 2026-11-01T12:00:00Z
put lessons/02-indexing/solution.cu "$tmp/c2/alice.cu" 2026-11-10T09:30:00Z
put tests/grade/02-indexing/no_races__ignores_blockidx.cu "$tmp/c2/carol.cu" 2026-11-20T00:00:00Z
"$G" grade 1 --batch "$tmp/c1" --seed 11 --out "$tmp/res/grades-threads" >"$tmp/b1" 2>&1
[ $? = 1 ] || say "batch 1: $(cat "$tmp/b1")"
"$G" grade 2 --batch "$tmp/c2" --seed 11 --out "$tmp/res/grades-indexing" >"$tmp/b2" 2>&1
[ $? = 1 ] || say "batch 2: $(cat "$tmp/b2")"
grep -q '^alice.cu,pass,8,8,.*,,13,13$' "$tmp/res/grades-threads.csv" || say "the batch CSV's score columns: $(cat "$tmp/res/grades-threads.csv")"

due="--due threads=2026-11-02T00:00Z --due 2=2026-11-15T00:00Z"
for fmt in plain canvas moodle; do
  "$G" gradebook "$tmp/res" --out "$tmp/$fmt.csv" --format $fmt $due >"$tmp/gb.out" 2>&1 || say "gradebook --format $fmt: $(cat "$tmp/gb.out")"
  [ -n "${GRADEBOOK_RECORD:-}" ] && cp "$tmp/$fmt.csv" "tests/gradebook/$fmt.csv"
  cmp -s "$tmp/$fmt.csv" "tests/gradebook/$fmt.csv" || { say "--format $fmt differs from tests/gradebook/$fmt.csv:"; diff "tests/gradebook/$fmt.csv" "$tmp/$fmt.csv"; }
done
grep -q "^4 students, 2 exercises (2 late, 3 missing): wrote" "$tmp/gb.out" || say "gradebook's summary: $(cat "$tmp/gb.out")"
python3 - "$tmp/plain.json" <<'PY' || fail=1
import json, sys
g = json.load(open(sys.argv[1]))
want = {"lessons": [{"id": "threads", "label": "1", "max_score": 13, "due": "2026-11-02T00:00:00Z"},
                    {"id": "indexing", "label": "2", "max_score": 8, "due": "2026-11-15T00:00:00Z"}]}
bob = {"id": "bob", "total": 0, "max_score": 21, "exercises": {
    "threads": {"status": "graded", "score": 0, "late": True, "submitted": "2026-11-03T00:00:00Z"},
    "indexing": {"status": "missing", "score": 0, "late": False}}}
ok = g["lessons"] == want["lessons"] and [s["id"] for s in g["students"]] == ["=HYPERLINK(1)", "alice", "bob", "carol"] and g["students"][2] == bob
if not ok:
    print("FAIL: grades.json: " + json.dumps(g)[:600])
sys.exit(0 if ok else 1)
PY
# a folder or the files themselves: the same gradebook
"$G" gradebook "$tmp/res/grades-indexing.json" "$tmp/res/grades-threads.json" --out "$tmp/files.csv" $due >/dev/null 2>&1 &&
  cmp -s "$tmp/files.csv" tests/gradebook/plain.csv || say "results named one by one give another gradebook"

# refused: forged or malformed results, a lesson twice, bad --due; outputs never replace inputs
forge() { # $1: name, $2: python editing r (the threads results); expects exit 2 and $3 in the message
  python3 - "$tmp/res/grades-threads.json" "$tmp/f/grades-threads.json" "$2" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(r, open(sys.argv[2], "w"))
PY
  "$G" gradebook "$tmp/f" --out "$tmp/forged.csv" >"$tmp/forged" 2>&1
  rc=$?
  [ $rc = 2 ] && grep -qF -- "$3" "$tmp/forged" || say "$1: exit $rc: $(cat "$tmp/forged")"
  [ ! -e "$tmp/forged.csv" ] || say "$1: a gradebook was written"
}
mkdir -p "$tmp/f"
forge "a raised score" 'r["submissions"][2]["score"] = 12' "grades-threads.json: submissions[2].score: is 12, but its passed checks are worth 0"
forge "a check's points raised" 'r["submissions"][1]["checks"][0]["points"] = 9' "submissions[1].checks[0].points: must be 0, as the lesson gives"
forge "a max_score changed" 'r["max_score"] = 100' "max_score: must be 13"
forge "a path as a name" 'r["submissions"][0]["file"] = "../../etc/passwd.cu"' "submissions[0].file: must be a submission's file name (NAME.cu)"
forge "a passed verdict with a failed check" 'r["submissions"][2]["verdict"] = "pass"' "submissions[2].verdict: \"pass\" with a check failed"
forge "a student twice" 'r["submissions"].append(r["submissions"][0])' "submissions[3].file: a second submission of the same name"
forge "no lesson" 'r["lesson"] = "nope"' "lesson: no lesson with an exercise has the id 'nope' here"
forge "a bad time" 'r["submissions"][0]["submitted"] = "yesterday"' "submissions[0].submitted: must be a time"
printf '{"lesson": "threads", "submissions": [' >"$tmp/f/grades-threads.json"
"$G" gradebook "$tmp/f" >"$tmp/forged" 2>&1
[ $? = 2 ] && grep -q "grades-threads.json: not a JSON object" "$tmp/forged" || say "malformed JSON: $(cat "$tmp/forged")"
"$G" gradebook "$tmp/res" "$tmp/res/grades-threads.json" --out "$tmp/x.csv" >"$tmp/twice" 2>&1
[ $? = 2 ] && grep -q "lesson 'threads' is in .* already" "$tmp/twice" || say "a lesson twice: $(cat "$tmp/twice")"
"$G" gradebook "$tmp/res" --due threads=2026-02-30T00:00Z --out "$tmp/x.csv" >"$tmp/due" 2>&1
[ $? = 2 ] && grep -q "not a time YYYY-MM-DDTHH:MMZ" "$tmp/due" || say "February 30th: $(cat "$tmp/due")"
"$G" gradebook "$tmp/res" --due "threads=2026-11- 2T00:00Z" --out "$tmp/x.csv" >"$tmp/due" 2>&1
[ $? = 2 ] && grep -q "not a time YYYY-MM-DDTHH:MMZ" "$tmp/due" || say "a time with a space: $(cat "$tmp/due")"
"$G" gradebook "$tmp/res" --due 3=2026-02-01T00:00Z --out "$tmp/x.csv" >"$tmp/due" 2>&1
[ $? = 2 ] && grep -q "no results of that lesson" "$tmp/due" || say "--due of another lesson: $(cat "$tmp/due")"
cp "$tmp/res/grades-threads.json" "$tmp/keep.json"
"$G" gradebook "$tmp/res" --out "$tmp/res/grades-threads.csv" >"$tmp/over" 2>&1
[ $? = 2 ] && grep -q "is one of the results read" "$tmp/over" && cmp -s "$tmp/keep.json" "$tmp/res/grades-threads.json" ||
  say "the gradebook's JSON replaced an input: $(cat "$tmp/over")"
cd "$SRC"
[ $fail = 0 ] && echo "gradebook: ok"
exit $fail
