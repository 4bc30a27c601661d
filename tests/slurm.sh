#!/bin/sh
# slurm.sh — `gpulearn classroom slurm` on a real one-node Slurm cluster, started here:
# munged with a fresh key, slurmctld and slurmd on this host (their own ports, state,
# spool and logs in a temp folder; no cgroups, no accounting). A class folder of 40
# submissions of lesson 1 (a name with a space among them) is graded by the written job
# array in 4 tasks and merged by the dependent job that submit.sh queues; the merged
# CSV and JSON must be the unsharded `grade 1 --batch DIR --seed S`'s byte for byte.
# Every daemon started is stopped on exit (by the process id it was started with).
# Needs root (slurmd runs jobs as their users) and Debian's slurmctld slurmd
# slurm-client munge; else a visible SKIP (exit 77). Exit: 0 pass, 1 fail, 77 skip.
set -u
G=${GPULEARN:?set GPULEARN to the gpulearn binary}
case $G in /*) ;; *) G="$(pwd)/$G" ;; esac
export GPULEARN="$G" # the jobs inherit the environment: the scripts run this one
export GPULEARN_NO_GPU=1 GPULEARN_LESSONS="$(pwd)/lessons"
PATH=$PATH:/usr/sbin:/sbin
skip() { echo "SKIP: slurm: $1"; exit 77; }
for t in munged slurmctld slurmd sbatch squeue sinfo scancel; do
  command -v "$t" >/dev/null 2>&1 ||
    skip "$t not installed (apt-get install slurmctld slurmd slurm-client munge)"
done
[ "$(id -u)" = 0 ] || skip "slurmd must start as root (it runs each job as its user)"

SRC=$(pwd)
T=$(mktemp -d /tmp/gpulearn-slurm.XXXXXX)
chmod 755 "$T"
pids=""
cleanup() {
  if [ -n "${SLURM_CONF:-}" ] && [ -f "$T/ctld.pid" ]; then
    scancel --quiet --user="$(id -un)" 2>/dev/null
    for _ in 1 2 3 4 5 6 7 8 9 10; do
      [ -z "$(squeue -h 2>/dev/null)" ] && break
      sleep 0.5
    done
  fi
  for f in slurmd ctld munged; do
    [ -f "$T/$f.pid" ] || continue
    p=$(cat "$T/$f.pid")
    kill "$p" 2>/dev/null
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$p" 2>/dev/null || break; sleep 0.3; done
    kill -9 "$p" 2>/dev/null
  done
  rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
fail=0
bad() { echo "FAIL: $1"; fail=1; }
logs() { for f in "$T"/log/*.log "$T"/job/logs/*; do [ -f "$f" ] && { echo "--- $f"; tail -n 20 "$f"; }; done; }

# ports nobody listens on (/proc/net/tcp and tcp6: the port in hex, state 0A listening)
listening() {
  h=$(printf '%04X' "$1")
  cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk -v h=":$h" '$2 ~ h"$" && $4 == "0A"' | grep -q .
}
port=$((20000 + $$ % 20000))
while listening $port || listening $((port + 1)); do port=$((port + 2)); done

mkdir -p "$T/munge" "$T/log" "$T/state" "$T/spool" "$T/subs"
chmod 700 "$T/munge"
head -c 1024 /dev/urandom >"$T/munge/munge.key"
chmod 400 "$T/munge/munge.key"
munged -F --force --key-file="$T/munge/munge.key" --socket="$T/munge/socket" \
  --pid-file="$T/munge/munged.pid" --log-file="$T/log/munged.log" \
  --seed-file="$T/munge/seed" >"$T/log/munged.out" 2>&1 &
echo $! >"$T/munged.pid"

host=$(hostname -s)
node=$(slurmd -C 2>/dev/null | sed -n 's/^\(NodeName=[^ ]* CPUs=[0-9]*\).* RealMemory=\([0-9]*\).*/\1 RealMemory=\2/p')
[ -n "$node" ] || skip "slurmd -C does not describe this host"
export SLURM_CONF="$T/slurm.conf"
cat >"$SLURM_CONF" <<EOF
ClusterName=gpulearn-test
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=$(id -un)
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$T/munge/socket
CredType=cred/munge
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/log/slurmctld.pid
SlurmdPidFile=$T/log/slurmd.pid
SlurmctldLogFile=$T/log/slurmctld.log
SlurmdLogFile=$T/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
SlurmdTimeout=30
$node State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
for _ in $(seq 1 20); do [ -S "$T/munge/socket" ] && break; sleep 0.2; done
[ -S "$T/munge/socket" ] || { cat "$T/log/munged.out" "$T/log/munged.log" 2>/dev/null; skip "munged did not start"; }
slurmctld -D -c -f "$SLURM_CONF" >"$T/log/ctld.out" 2>&1 &
echo $! >"$T/ctld.pid"
slurmd -D -f "$SLURM_CONF" -N "$(echo "$node" | sed 's/NodeName=\([^ ]*\).*/\1/')" \
  >"$T/log/slurmd.out" 2>&1 &
echo $! >"$T/slurmd.pid"
state=""
for _ in $(seq 1 60); do
  state=$(sinfo -h -o %t 2>/dev/null)
  [ "$state" = idle ] && break
  sleep 0.5
done
if [ "$state" != idle ]; then
  logs
  tail -n 5 "$T/log/ctld.out" "$T/log/slurmd.out"
  skip "the one-node cluster did not come up (node state '$state'; logs above)"
fi
echo "ok: slurmctld and slurmd up on $host (ports $port, $((port + 1)))"

# 40 submissions: a few that compile (pass and fail), the rest quick failures, each
# file its own (a line of its own appended)
B=tests/grade/batch
i=0
for f in pass_01_guard pass_04_commuted fail_13_no_guard fail_15_off_by_one; do
  i=$((i + 1)); cp "$SRC/$B/$f.cu" "$T/subs/s$i-$f.cu"
done
cp "$SRC/tests/grade/01-threads/matches_reference__off_by_one.cu" "$T/subs/student 05.cu"
while [ $i -lt 39 ]; do
  for f in fail_22_compile_error fail_32_garbage fail_23_undeclared fail_30_renamed_kernel; do
    [ $i -lt 39 ] || break
    i=$((i + 1))
    { cat "$SRC/$B/$f.cu"; echo "// submission $i"; } >"$T/subs/s$(printf %02d $i)-$f.cu"
  done
done
[ "$(ls "$T/subs" | wc -l)" = 40 ] || bad "the folder holds $(ls "$T/subs" | wc -l), not 40"

cd "$T" || exit 1
"$G" classroom slurm 1 --batch subs --shards 4 --cpus 1 --seed 4242 --out job >"$T/gen.log" 2>&1 ||
  { bad "classroom slurm: exit $?"; cat "$T/gen.log"; }
grep -q "sh job/submit.sh" "$T/gen.log" || bad "classroom slurm did not say how to submit"
grep -q '^#SBATCH --array=0-3$' job/grade.sbatch || bad "grade.sbatch: no --array=0-3"
sh job/submit.sh >"$T/submit.log" 2>&1 || { bad "submit.sh: exit $?"; cat "$T/submit.log"; }
read -r array merge <job/jobs 2>/dev/null || { array=""; merge=""; }
echo "ok: submitted job array $array and merge job $merge"
# the unsharded batch, while the cluster works
GPULEARN_JOBS=1 "$G" grade 1 --batch subs --seed 4242 --out "$T/full" >"$T/full.log" 2>&1
[ $? = 1 ] || { bad "unsharded batch: exit $?"; cat "$T/full.log"; }
st=""
for _ in $(seq 1 360); do
  st=$(squeue -h -j "$merge" -o "%T %r" 2>/dev/null)
  case $st in "" | COMPLETED* | FAILED* | CANCELLED* | TIMEOUT* | *DependencyNeverSatisfied*) break ;; esac
  sleep 0.5
done
case $st in "" | COMPLETED*) ;; *) bad "the merge job ended '$st'" ;; esac
if [ -f job/grades-threads.csv ] && cmp -s job/grades-threads.csv full.csv &&
   cmp -s job/grades-threads.json full.json; then
  echo "ok: the job array's merged grades = the unsharded batch's (CSV and JSON, 40 submissions)"
else
  bad "merged grades missing or different from the unsharded batch's"
  [ -f job/grades-threads.csv ] && diff full.csv job/grades-threads.csv | head -20
  logs
fi
[ "$(ls job/parts | wc -l)" = 8 ] || bad "job/parts holds $(ls job/parts | wc -l) files, not 4 CSV and 4 JSON"
[ $fail = 0 ] && echo "slurm: ok"
exit $fail
