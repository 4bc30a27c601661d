#!/bin/sh
# shard.sh — `grade --batch DIR --shard K/N --seed S` and `grade merge` (no Slurm): the
# four shares of a folder, merged, are the unsharded batch's reports byte for byte (a
# submission named like a spreadsheet formula stays one escaped cell); so are the two
# shares of a one-file folder, one of them empty. merge refuses (exit 2, naming the
# file) a part edited by hand (a verdict in its CSV, a report's "passed" or "verdict" in
# its JSON), a share given twice, a missing share, a part of another seed or number of
# shares, a file name with "../", a part that is not JSON or not a share, and, with
# --batch DIR, a submission changed since it was graded; --shard needs --seed and K < N.
# classroom slurm's scripts (run with a stand-in for gpulearn) pass a folder named with
# a quote and a space as one argument, and its --gpus, --partition and --time.
# Exit: 0 pass, 1 fail.
set -u
G=${GPULEARN:?set GPULEARN to the gpulearn binary}
export GPULEARN_NO_GPU=1 GPULEARN_LESSONS="$(pwd)/lessons"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }

mkdir -p "$T/subs" "$T/one" "$T/out"
for f in pass_01_guard pass_03_grid_stride fail_13_no_guard fail_15_off_by_one \
         fail_22_compile_error fail_16_subtract pass_04_commuted; do
  cp "tests/grade/batch/$f.cu" "$T/subs/"
done
FORMULA="=cmd|' %2FC calc'!A0.cu"
cp tests/grade/batch/pass_02_early_return.cu "$T/subs/$FORMULA"
cp tests/grade/batch/pass_01_guard.cu "$T/one/only.cu"

"$G" grade 1 --batch "$T/subs" --seed 5 --out "$T/out/full" >"$T/full.log" 2>&1
[ $? = 1 ] || { bad "unsharded batch: exit $?"; cat "$T/full.log"; }
for k in 0 1 2 3; do
  "$G" grade 1 --batch "$T/subs" --seed 5 --shard "$k/4" --out "$T/out/p$k" >"$T/p$k.log" 2>&1
  rc=$?
  [ $rc = 1 ] || [ $rc = 0 ] || { bad "share $k: exit $rc"; cat "$T/p$k.log"; }
done
grep -q "share 2 of 4 .* (2 of its 8 submissions)" "$T/p2.log" || bad "share 2: not 2 of 8"
"$G" grade merge "$T/out/m" "$T/out/p0" "$T/out/p1.json" "$T/out/p2.csv" "$T/out/p3" \
  --batch "$T/subs" >"$T/m.log" 2>&1
rc=$?
if [ $rc = 1 ] && cmp -s "$T/out/m.csv" "$T/out/full.csv" && cmp -s "$T/out/m.json" "$T/out/full.json"; then
  ok "4 shares merged = the unsharded batch (CSV and JSON)"
else
  bad "merged reports differ from the unsharded batch's (exit $rc)"; cat "$T/m.log"
  diff "$T/out/full.csv" "$T/out/m.csv"
fi
grep -q "^\"'=cmd|' %2FC calc'!A0.cu\",pass," "$T/out/m.csv" &&
  ok "a formula-like name is one escaped cell" || bad "formula name not escaped in the merged CSV"

# a share may be empty
"$G" grade 1 --batch "$T/one" --seed 9 --out "$T/out/one" >/dev/null 2>&1
"$G" grade 1 --batch "$T/one" --seed 9 --shard 0/2 --out "$T/out/o0" >/dev/null 2>&1
"$G" grade 1 --batch "$T/one" --seed 9 --shard 1/2 --out "$T/out/o1" >"$T/o1.log" 2>&1 ||
  { bad "empty share: exit $?"; cat "$T/o1.log"; }
if "$G" grade merge "$T/out/om" "$T/out/o1" "$T/out/o0" >/dev/null 2>&1 &&
   cmp -s "$T/out/om.csv" "$T/out/one.csv" && cmp -s "$T/out/om.json" "$T/out/one.json"; then
  ok "an empty share merges"
else
  bad "a folder of one in 2 shares does not merge to its batch"
fi

# refused: exit 2 and a message naming the file and what is wrong
refused() { # what expected-text part...
  what=$1 want=$2; shift 2
  rm -f "$T/out/x.csv" "$T/out/x.json"
  "$G" grade merge "$T/out/x" "$@" >"$T/x.log" 2>&1; rc=$?
  if [ $rc = 2 ] && grep -q -- "$want" "$T/x.log" && [ ! -e "$T/out/x.csv" ]; then ok "refused: $what"
  else bad "$what: exit $rc, not refused with '$want'"; cat "$T/x.log"; fi
}
forge() { # part sed-script: a copy of part as $T/f/part
  mkdir -p "$T/f"
  cp "$T/out/$1.csv" "$T/out/$1.json" "$T/f/"
  [ $# -gt 2 ] && sed -i "$3" "$T/f/$1.$2"
  [ $# -gt 2 ] && cmp -s "$T/f/$1.$2" "$T/out/$1.$2" && bad "forge: '$3' changed nothing"
}
# sorted: =cmd... fail_13 fail_15 fail_16 fail_22 pass_01 pass_03 pass_04, dealt round
# robin: share 0 =cmd... and fail_22, 1 fail_13 and pass_01, 2 fail_15 and pass_03
forge p2 csv 's/^fail_15_off_by_one.cu,fail,7,/fail_15_off_by_one.cu,pass,8,/'
refused "a verdict edited in a part's CSV" "p2.csv: not the CSV" "$T/out/p0" "$T/out/p1" "$T/f/p2" "$T/out/p3"
forge p0 json '0,/"passed":\tfalse/s//"passed":\ttrue/'
refused "a report's passed edited" "p0.json: submission fail_22_compile_error.cu: its report says passed" \
  "$T/f/p0" "$T/out/p1" "$T/out/p2" "$T/out/p3"
# a score changed in the JSON and the CSV alike (the part's bytes stay consistent)
forge p0 json '0,/"score":\t8/s//"score":\t7/'
sed -i '2s/,8,8$/,7,8/' "$T/f/p0.csv"
refused "a score changed" "its score is not the 8 its passed checks are worth" \
  "$T/f/p0" "$T/out/p1" "$T/out/p2" "$T/out/p3"
forge p0 json 's/"verdict":\t"fail"/"verdict":\t"pass"/'
refused "a verdict edited in a part's JSON" "p0.json: not the JSON" "$T/f/p0" "$T/out/p1" "$T/out/p2" "$T/out/p3"
refused "a share twice" "share 0 of 4 again" "$T/out/p0" "$T/out/p0" "$T/out/p2" "$T/out/p3"
refused "a missing share" "share 1 of 4 is missing" "$T/out/p0" "$T/out/p2" "$T/out/p3"
"$G" grade 1 --batch "$T/subs" --seed 6 --shard 1/4 --out "$T/out/s6" >/dev/null 2>&1
refused "a share of another seed" "s6.json: its seed differs" "$T/out/p0" "$T/out/s6" "$T/out/p2" "$T/out/p3"
"$G" grade 1 --batch "$T/subs" --seed 5 --shard 1/3 --out "$T/out/n3" >/dev/null 2>&1
refused "a share of another split" "n3.json: its number of shares differs" "$T/out/p0" "$T/out/n3" "$T/out/p2" "$T/out/p3"
forge p1 json 's|"fail_13_no_guard.cu"|"../../x/fail_13.cu"|g'
refused "a name with ../" "p1.json: its shard's file ../../x/fail_13.cu is not a NAME.cu" \
  "$T/out/p0" "$T/f/p1" "$T/out/p2" "$T/out/p3"
forge p3 json '$d'
refused "a part cut short" "p3.json: not JSON" "$T/out/p0" "$T/out/p1" "$T/out/p2" "$T/f/p3"
refused "a whole batch's reports as a part" "full.json: no \"shard\"" "$T/out/full"
cp "$T/subs/fail_16_subtract.cu" "$T/keep.cu"
echo "// changed" >>"$T/subs/fail_16_subtract.cu"
refused "a submission changed since" "fail_16_subtract.cu: its SHA-256" \
  "$T/out/p0" "$T/out/p1" "$T/out/p2" "$T/out/p3" --batch "$T/subs"
cp "$T/keep.cu" "$T/subs/fail_16_subtract.cu"

# classroom slurm's scripts, run here without Slurm: a folder named with a quote and a
# space reaches gpulearn as one argument; --gpus asks for a GPU and grades on it
mkdir -p "$T/it's here"
cp "$T/one/only.cu" "$T/it's here/"
(cd "$T" && "$G" classroom slurm 1 --batch "it's here" --shards 3 --gpus --partition gpu \
  --time 1:00:00 --seed 77 --out sl >"$T/sl.log" 2>&1) || { bad "classroom slurm: exit $?"; cat "$T/sl.log"; }
printf '#!/bin/sh\nfor a in "$@"; do echo "[$a]"; done\n' >"$T/args"
chmod +x "$T/args"
GPULEARN="$T/args" SLURM_ARRAY_TASK_ID=2 SLURM_CPUS_PER_TASK=3 sh "$T/sl/grade.sbatch" >"$T/sl.args"
printf '[grade] [threads] [--batch] [%s] [--seed] [77] [--shard] [2/3] [--backend] [gpu] [--jobs] [3] [--out] [%s/sl/parts/part-2] ' \
  "it's here" "$(cd "$T" && pwd -P)" >"$T/sl.want"
if [ "$(tr '\n' ' ' <"$T/sl.args")" = "$(cat "$T/sl.want")" ] &&
   grep -qx '#SBATCH --array=0-2' "$T/sl/grade.sbatch" && grep -qx '#SBATCH --gres=gpu:1' "$T/sl/grade.sbatch" &&
   grep -qx '#SBATCH --partition=gpu' "$T/sl/merge.sbatch" && grep -qx '#SBATCH --time=1:00:00' "$T/sl/grade.sbatch" &&
   grep -q 'dependency=afterok:"$array" merge.sbatch' "$T/sl/submit.sh" && grep -q "sh sl/submit.sh" "$T/sl.log"; then
  ok "classroom slurm: the array task's command, #SBATCH lines, the afterok merge"
else
  bad "classroom slurm's scripts"; cat "$T/sl.args" "$T/sl/grade.sbatch"
fi
GPULEARN="$T/args" sh "$T/sl/merge.sbatch" | grep -qx "\[--batch\]" || bad "merge.sbatch passes no --batch"
(cd "$T" && "$G" classroom slurm 1 --batch subs --out subs/sl >"$T/sl.log" 2>&1)
[ $? = 2 ] && grep -q "inside the graded folder" "$T/sl.log" && ok "classroom slurm --out inside the class folder refused" ||
  bad "classroom slurm --out inside the class folder: not refused"
(cd "$T" && "$G" classroom slurm 1 --batch subs --partition 'a b' >"$T/sl.log" 2>&1)
[ $? = 2 ] && ok "classroom slurm --partition 'a b' refused" || bad "classroom slurm --partition 'a b': not refused"

# usage
"$G" grade 1 --batch "$T/subs" --shard 0/4 --out "$T/out/u" >"$T/u.log" 2>&1
[ $? = 2 ] && grep -q "needs --seed" "$T/u.log" && ok "--shard without --seed refused" ||
  bad "--shard without --seed: not refused"
"$G" grade 1 --batch "$T/subs" --seed 1 --shard 4/4 --out "$T/out/u" >"$T/u.log" 2>&1
[ $? = 2 ] && grep -q "share K (0 to N-1" "$T/u.log" && ok "--shard 4/4 refused" ||
  bad "--shard 4/4: not refused"
[ $fail = 0 ] && echo "shard: ok"
exit $fail
