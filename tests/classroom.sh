#!/bin/sh
# classroom.sh — `gpulearn classroom init` writes a GitHub Classroom template for lessons
# 1 and 2 (lesson 1 given "points" here): the workflow is YAML that GitHub's workflow
# schema accepts (SchemaStore's, tests/data/github-workflow.json), with one
# autograding-command-grader step per check and the reporter over all of them;
# autograding.json has the same tests with the lesson's points. Then, in a clone of the
# template, the workflow's grading steps and every test's command run with this gpulearn:
# with the reference solutions every test passes; with a submission that writes past the
# end of its arrays (tests/grade/01-threads) exactly lesson 1's failing checks fail, and
# the report is graded once and read back by the other tests. Re-running init changes
# nothing; a file that differs is kept unless --force; a link in the template's place is
# refused; lint refuses "points" that name no check (exit 2); the text, JSON and JUnit
# reports give each check's points and the score.
# Exit: 0 pass, 1 fail (a visible SKIP without python3's yaml and jsonschema modules).
set -u
G=${GPULEARN:?set GPULEARN to the gpulearn binary}
case $G in /*) ;; *) G="$(pwd)/$G" ;; esac
if ! python3 -c 'import yaml, jsonschema' 2>/dev/null; then
  echo "classroom: SKIP: python3's yaml and jsonschema modules are missing (apt-get install python3-yaml python3-jsonschema)"
  exit 0
fi
SRC=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GPULEARN_NO_GPU=1 GPULEARN_LESSONS="$tmp/lessons"
mkdir -p "$tmp/lessons" "$tmp/bin"
cp -R lessons/01-threads lessons/02-indexing "$tmp/lessons/"
python3 - "$tmp/lessons/01-threads/lesson.json" <<'EOF' || exit 1
import json, sys
p = sys.argv[1]
l = json.load(open(p))
l["exercise"]["points"] = {"compiles": 0, "matches_reference": 6, "no_out_of_bounds": 2}
json.dump(l, open(p, "w"), indent=1)
EOF
ln -s "$G" "$tmp/bin/gpulearn"
fail=0
say() { echo "FAIL: $*"; fail=1; }

tpl="$tmp/tpl"
"$G" classroom init 1 2 --out "$tpl" >"$tmp/init.out" 2>&1 || say "classroom init: exit $? ($(cat "$tmp/init.out"))"
grep -q "^16 autograding tests, 21 points in all" "$tmp/init.out" || say "init's summary: $(tail -n 1 "$tmp/init.out")"

# the files: valid, one test per check, the lesson's points, the same commands
python3 - "$tpl" tests/data/github-workflow.json <<'EOF' || fail=1
import json, sys, yaml, jsonschema
tpl, schema = sys.argv[1], json.load(open(sys.argv[2]))
wf = yaml.safe_load(open(tpl + "/.github/workflows/classroom.yml"))
bad = []
try:
    jsonschema.Draft7Validator(schema).validate(wf)
except jsonschema.ValidationError as e:
    bad.append("the workflow fails GitHub's schema: %s at %s" % (e.message, list(e.path)))
ag = json.load(open(tpl + "/.github/classroom/autograding.json"))
checks = ["compiles", "matches_reference", "no_out_of_bounds", "no_races", "no_deadlock",
          "no_uninitialized_reads", "time_limit", "random_schedule"]
points = {"compiles": 0, "matches_reference": 6, "no_out_of_bounds": 2}
checks2 = ["compiles", "matches_reference", "no_out_of_bounds", "time_limit", "no_races",
           "no_deadlock", "no_uninitialized_reads", "random_schedule"]
want = [("threads: " + c, points.get(c, 1), "threads", c) for c in checks] + \
       [("indexing: " + c, 1, "indexing", c) for c in checks2]
got = [(t["name"], t["points"]) for t in ag["tests"]]
if got != [(n, p) for n, p, _, _ in want]:
    bad.append("autograding.json's tests: %s" % got)
for t in ag["tests"]:
    if sorted(t) != sorted(["name", "setup", "run", "input", "output", "comparison", "timeout", "points"]):
        bad.append("autograding.json test keys: %s" % sorted(t))
steps = wf["jobs"]["run-autograding-tests"]["steps"]
graders = [s for s in steps if s.get("uses", "").startswith("classroom-resources/autograding-command-grader@")]
if [(s["with"]["test-name"], s["with"]["max-score"], s["with"]["command"]) for s in graders] != \
   [(t["name"], t["points"], t["run"]) for t in ag["tests"]]:
    bad.append("the workflow's grader steps differ from autograding.json's tests")
rep = [s for s in steps if s.get("uses", "").startswith("classroom-resources/autograding-grading-reporter@")]
ids = [s["id"] for s in graders]
if len(rep) != 1 or rep[0]["with"]["runners"] != ",".join(ids) or \
   rep[0]["env"] != {i.upper() + "_RESULTS": "${{steps.%s.outputs.result}}" % i for i in ids}:
    bad.append("the reporter does not name every grader step")
for i, (name, pts, lesson, check) in enumerate(want):
    if "--check %s " % check not in ag["tests"][i]["run"] or (" %s " % lesson) not in ag["tests"][i]["run"]:
        bad.append("test %s runs %s" % (name, ag["tests"][i]["run"]))
# what the grading steps and the tests run, for the shell below
with open(tpl + "/../grade_steps", "w") as f:
    for s in steps:
        if s.get("name", "").startswith("Grade "):
            f.write(s["run"] + "\n")
with open(tpl + "/../tests", "w") as f:
    for t in ag["tests"]:
        f.write(t["name"] + "\t" + t["run"] + "\n")
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
EOF
cmp -s "$tpl/01-threads/exercise.cu" lessons/01-threads/exercise.cu || say "the template's lesson 1 starter is not the lesson's"
cmp -s "$tpl/02-indexing/exercise.cu" lessons/02-indexing/exercise.cu || say "the template's lesson 2 starter is not the lesson's"

# a learner's clone of the template; runs the workflow's steps as Actions would (bash,
# in the clone, gpulearn on PATH, RUNNER_TEMP fresh)
git -C "$tpl" init -q && git -C "$tpl" add -A &&
  git -C "$tpl" -c user.name=t -c user.email=t@t commit -qm template &&
  git clone -q "$tpl" "$tmp/learner" || { say "git clone of the template"; exit 1; }
run_tests() { # $1: RUNNER_TEMP; prints "PASS name" / "FAIL name" per test
  mkdir -p "$1"
  while IFS= read -r cmd; do
    (cd "$tmp/learner" && RUNNER_TEMP="$1" PATH="$tmp/bin:$PATH" bash -c "$cmd") >>"$1/log" 2>&1
  done <"$tmp/grade_steps"
  while IFS="$(printf '\t')" read -r name cmd; do
    if (cd "$tmp/learner" && RUNNER_TEMP="$1" PATH="$tmp/bin:$PATH" bash -c "$cmd") >>"$1/log" 2>&1
    then echo "PASS $name"; else echo "FAIL $name"; fi
  done <"$tmp/tests"
}
cp lessons/01-threads/solution.cu "$tmp/learner/01-threads/exercise.cu"
cp lessons/02-indexing/solution.cu "$tmp/learner/02-indexing/exercise.cu"
run_tests "$tmp/run1" >"$tmp/res1"
grep -q '^FAIL' "$tmp/res1" && say "the reference solutions fail tests: $(grep '^FAIL' "$tmp/res1" | tr '\n' ' ')"
[ "$(grep -c '^PASS' "$tmp/res1")" = 16 ] || say "$(grep -c '^PASS' "$tmp/res1") of 16 tests passed"

cp tests/grade/01-threads/no_out_of_bounds__no_guard.cu "$tmp/learner/01-threads/exercise.cu"
run_tests "$tmp/run2" >"$tmp/res2"
got=$(grep '^FAIL' "$tmp/res2" | tr '\n' ' ')
want="FAIL threads: matches_reference FAIL threads: no_out_of_bounds FAIL threads: no_races FAIL threads: no_deadlock FAIL threads: no_uninitialized_reads FAIL threads: time_limit FAIL threads: random_schedule "
[ "$got" = "$want" ] || say "with no guard, the failing tests are: $got"
grep -q "^FAIL     no_out_of_bounds  (0 of 2 points)" "$tmp/run2/log" || say "the no_out_of_bounds test's output: $(grep no_out_of_bounds "$tmp/run2/log" | head -n 2)"

# graded once: the tests read the saved report (a detail put there shows), and a report
# of other bytes is graded again
rep="$tmp/run2/gpulearn-threads.json"
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); r["checks"][2]["detail"]="SAVED REPORT READ"; json.dump(r, open(sys.argv[1],"w"))' "$rep"
(cd "$tmp/learner" && PATH="$tmp/bin:$PATH" gpulearn grade threads 01-threads/exercise.cu --check no_out_of_bounds --report "$rep") >"$tmp/once" 2>&1
[ $? = 1 ] && grep -q "SAVED REPORT READ" "$tmp/once" || say "--check does not read the saved report: $(cat "$tmp/once")"
cp lessons/01-threads/solution.cu "$tmp/learner/01-threads/exercise.cu"
(cd "$tmp/learner" && PATH="$tmp/bin:$PATH" gpulearn grade threads 01-threads/exercise.cu --check no_out_of_bounds --report "$rep") >"$tmp/again" 2>&1 ||
  say "a report of other bytes is not graded again: $(cat "$tmp/again")"

# init again: unchanged; a file that differs is kept without --force; links are refused
"$G" classroom init 1 2 --out "$tpl" >"$tmp/init2" 2>&1 && [ "$(grep -c '^unchanged' "$tmp/init2")" = 4 ] ||
  say "init over its own template: $(cat "$tmp/init2")"
echo "// mine" >>"$tpl/01-threads/exercise.cu"
"$G" classroom init 1 2 --out "$tpl" >"$tmp/init3" 2>&1
[ $? = 2 ] && grep -q "exercise.cu: exists and differs" "$tmp/init3" && grep -q "// mine" "$tpl/01-threads/exercise.cu" ||
  say "a changed file is overwritten without --force: $(cat "$tmp/init3")"
"$G" classroom init 1 2 --out "$tpl" --force >/dev/null 2>&1 && cmp -s "$tpl/01-threads/exercise.cu" lessons/01-threads/exercise.cu ||
  say "--force does not restore the starter"
mkdir -p "$tmp/evil" "$tmp/elsewhere" && ln -s "$tmp/elsewhere" "$tmp/evil/.github"
"$G" classroom init 1 --out "$tmp/evil" >"$tmp/init4" 2>&1
[ $? = 2 ] && grep -q "is a symbolic link" "$tmp/init4" && [ -z "$(ls -A "$tmp/elsewhere")" ] && [ ! -e "$tmp/evil/01-threads" ] ||
  say "a link in the template is followed: $(cat "$tmp/init4")"
"$G" classroom >"$tmp/usage" 2>&1
[ $? = 2 ] && grep -q "init" "$tmp/usage" && grep -q "slurm" "$tmp/usage" || say "classroom without a subcommand: $(cat "$tmp/usage")"

# the reports give the points: text, JSON, JUnit
"$G" grade 1 tests/grade/01-threads/no_out_of_bounds__no_guard.cu --seed 3 >"$tmp/t" 2>&1
tail -n 1 "$tmp/t" | grep -qx "Score: 0 of 13 points" || say "text report's score: $(tail -n 2 "$tmp/t")"
"$G" grade 1 lessons/01-threads/solution.cu --seed 3 --format json 2>/dev/null |
  python3 -c 'import json,sys; r=json.load(sys.stdin); sys.exit(not (r["score"] == 13 and r["max_score"] == 13 and [c["points"] for c in r["checks"]] == [0, 6, 2, 1, 1, 1, 1, 1]))' ||
  say "the JSON report's points"
"$G" grade 1 lessons/01-threads/solution.cu --seed 3 --format junit 2>/dev/null |
  grep -q '<property name="score" value="13"/><property name="max_score" value="13"/>' || say "the JUnit report's score"

# lint: "points" must name the exercise's checks
python3 - "$tmp/lessons/01-threads/lesson.json" <<'EOF'
import json, sys
l = json.load(open(sys.argv[1])); l["exercise"]["points"] = {"no_race": 2}
json.dump(l, open(sys.argv[1], "w"))
EOF
"$G" lint "$tmp/lessons/01-threads" >"$tmp/lint" 2>&1
[ $? = 2 ] && grep -q "lesson.json: exercise.points.no_race: no check of this exercise is named so" "$tmp/lint" ||
  say "lint of points naming no check: $(cat "$tmp/lint")"
cd "$SRC"
[ $fail = 0 ] && echo "classroom: ok"
exit $fail
