#!/usr/bin/env bash
# A real scheduler runs `batch --shard env` (issue 31 item 5): a one-node Slurm cluster
# (munged, slurmctld, slurmd) started in a temporary folder runs a job array of 3 tasks,
# each `smartstack batch CONFIG --shard env` (shard K/3 from SLURM_ARRAY_TASK_ID); the shards
# are merged and every CSV of the merge must be byte-identical to one unsharded run
# (manifest.json differs by design: it records the run kind and the timing).
#
# Usage: Scripts/slurm-check.sh [CONFIG]   (SMARTSTACK: the binary; default: the release
# build. CONFIG: default Datasets/experiments/default.json.)
#
# Runs as root (through sudo when started by another user: slurmd starts the jobs), and
# installs slurm-wlm and munge with apt-get when they are missing.
# Everything else is private to the run, so a machine's own munge or Slurm is left alone:
# munged runs on its own key (1 KiB random) and socket in the temporary folder (Slurm is
# pointed at it with AuthInfo=socket=...), the daemons listen on two free ports, and the
# state, spool and logs live in the folder. A trap cancels the job, shuts the cluster down
# and stops every daemon it started, by process id, on success, failure or Ctrl-C. Every
# wait has a time limit and a failure prints the tail of the daemons' logs.
#
# The experiment: the bundled default (360 cells; about 7 s in a release build on the
# 2-core machine, so the whole check takes about half a minute); any config can be given.
set -euo pipefail
cd "$(dirname "$0")/.."
# slurmd starts jobs as their user, so the daemons need root: run the whole check as root.
if [ "$(id -u)" -ne 0 ]; then exec sudo -E "$0" "$@"; fi
root="$PWD"
bin="${SMARTSTACK:-$root/.build/release/smartstack}"
config="${1:-Datasets/experiments/default.json}"
tasks=3
case "$bin" in /*) ;; *) bin="$root/$bin" ;; esac
case "$config" in /*) ;; *) config="$root/$config" ;; esac
[ -x "$bin" ] || { echo "slurm-check: no smartstack binary at $bin (swift build -c release, or set SMARTSTACK)"; exit 1; }
[ -f "$config" ] || { echo "slurm-check: no config $config"; exit 1; }
start=$(date +%s)

# --- the packages -------------------------------------------------------------------
sbin_path="$PATH:/usr/sbin:/sbin"
export PATH="$sbin_path"
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null \
  || ! command -v sbatch >/dev/null; then
  echo "slurm-check: installing slurm-wlm and munge"
  DEBIAN_FRONTEND=noninteractive apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends slurm-wlm munge
fi

# --- the cluster's folder, and the cleanup that runs whatever happens ------------------
work="$(mktemp -d /tmp/slurm-check.XXXXXX)"
chmod 755 "$work"
mkdir -p "$work/state" "$work/spool" "$work/log" "$work/munge" "$work/out"
chmod 755 "$work/munge"  # munged wants the socket folder reachable by all
munged_pid="" ctld_pid="" slurmd_pid="" job=""
export SLURM_CONF="$work/slurm.conf"

logs() {
  for f in "$work/log/slurmctld.log" "$work/log/slurmd.log" "$work/log/munged.log" "$work"/out/task-*.out; do
    [ -f "$f" ] || continue
    echo "--- tail of $f"
    tail -n 25 "$f"
  done
}

stop() { # PID: TERM, up to 10 s, then KILL
  local pid="$1" i
  [ -n "$pid" ] || return 0
  kill "$pid" 2>/dev/null || return 0
  for i in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.2; done
  kill -9 "$pid" 2>/dev/null || true
}

cleanup() {
  local status=$?
  trap - EXIT INT TERM
  if [ -n "$job" ] && [ -n "$ctld_pid" ]; then
    scancel "$job" 2>/dev/null || true
    for _ in $(seq 1 50); do
      [ -z "$(squeue -h -j "$job" -o %i 2>/dev/null)" ] && break
      sleep 0.2
    done
  fi
  [ -n "$ctld_pid" ] && scontrol shutdown >/dev/null 2>&1 || true
  stop "$slurmd_pid"
  stop "$ctld_pid"
  stop "$munged_pid"
  # A task still running when the daemons went (a timeout) can outlive them: stop what
  # is left of ours, known by the cluster's folder in its environment.
  for pid in $(pgrep -f "slurmstepd|smartstack" 2>/dev/null || true); do
    [ "$pid" != $$ ] && grep -qs "$work" "/proc/$pid/environ" && stop "$pid"
  done
  if [ "$status" -ne 0 ]; then
    logs
    echo "slurm-check: FAILED (exit $status); the cluster's folder is kept: $work"
  else
    rm -rf "$work"
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

fail() { echo "slurm-check: $*"; exit 1; }

# wait_for SECONDS WHAT COMMAND...: polls COMMAND every half second.
wait_for() {
  local limit="$1" what="$2" deadline
  shift 2
  deadline=$(($(date +%s) + limit))
  until "$@"; do
    [ "$(date +%s)" -lt "$deadline" ] || fail "timed out after ${limit}s waiting for $what"
    sleep 0.5
  done
}

# --- munge: a private key and socket ---------------------------------------------------
head -c 1024 /dev/urandom >"$work/munge/munge.key"
chmod 400 "$work/munge/munge.key"
socket="$work/munge/munge.socket"
munged -F --force --key-file="$work/munge/munge.key" --socket="$socket" \
  --pid-file="$work/munge/munged.pid" --seed-file="$work/munge/munged.seed" \
  --log-file="$work/log/munged.log" >>"$work/log/munged.log" 2>&1 &
munged_pid=$!
wait_for 20 "munged's socket" test -S "$socket"
munge --socket="$socket" -n </dev/null | unmunge --socket="$socket" >/dev/null \
  || fail "munged does not decode its own credential"

# --- slurm.conf: one node, this machine, two free ports --------------------------------
node="$(hostname -s)"
read -r ctld_port slurmd_port < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*(x.getsockname()[1] for x in s))')
cat >"$SLURM_CONF" <<EOF
# Written by Scripts/slurm-check.sh for one run; removed after it.
ClusterName=smartstack-check
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MinJobAge=600
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=check Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF

# --- the daemons, in the foreground of background jobs (so their ids are known) -------
slurmctld -D -c -f "$SLURM_CONF" >>"$work/log/slurmctld.out" 2>&1 &
ctld_pid=$!
wait_for 30 "slurmctld to answer" eval "scontrol ping >/dev/null 2>&1"
slurmd -D -f "$SLURM_CONF" -N "$node" >>"$work/log/slurmd.out" 2>&1 &
slurmd_pid=$!
node_idle() { [ "$(sinfo -h -n "$node" -o %t 2>/dev/null)" = idle ]; }
wait_for 60 "node $node to be idle (sinfo)" node_idle
kill -0 "$ctld_pid" 2>/dev/null && kill -0 "$slurmd_pid" 2>/dev/null || fail "a daemon exited"

# --- the reference: one unsharded run (while the cluster idles) -----------------------
timeout 900 "$bin" batch "$config" --out "$work/out/whole" --quiet \
  || fail "the unsharded run failed or took over 900 s"

# --- the job array: each task's shard comes from its environment ----------------------
cat >"$work/task.sh" <<'EOF'
#!/bin/bash
# One task of the array: shard SLURM_ARRAY_TASK_ID-MIN+1 of SLURM_ARRAY_TASK_COUNT.
set -eu
exec "$SMARTSTACK_CHECK_BIN" batch "$SMARTSTACK_CHECK_CONFIG" --shard env --jobs 1 \
  --out "$SMARTSTACK_CHECK_OUT/shard-$SLURM_ARRAY_TASK_ID"
EOF
chmod +x "$work/task.sh"
export SMARTSTACK_CHECK_BIN="$bin" SMARTSTACK_CHECK_CONFIG="$config" SMARTSTACK_CHECK_OUT="$work/out"
job="$(timeout 60 sbatch --parsable --array=0-$((tasks - 1)) --cpus-per-task=1 --chdir="$work/out" \
  --output="$work/out/task-%a.out" --job-name=smartstack-check "$work/task.sh")"
job="${job%%;*}"
array_done() { [ -z "$(squeue -h -j "$job" -o %i 2>/dev/null)" ]; }
wait_for 600 "job array $job to finish" array_done

shards=()
for id in $(seq 0 $((tasks - 1))); do
  k=$((id + 1))
  state="$(scontrol -o show job "${job}_${id}" 2>/dev/null | grep -o 'JobState=[A-Z_]* .*ExitCode=[0-9:]*' | sed 's/ .* / /' || true)"
  grep -q "shard $k/$tasks from SLURM_ARRAY_TASK_ID=$id of --array=0-$((tasks - 1)) (SLURM_ARRAY_TASK_COUNT=$tasks)" \
    "$work/out/task-$id.out" || fail "task $id did not run shard $k/$tasks from the environment ($state)"
  grep -q "wrote shard $k/$tasks of" "$work/out/task-$id.out" || fail "task $id did not finish ($state)"
  shards+=("$work/out/shard-$id")
done

# --- merge, and compare with the reference byte for byte ------------------------------
timeout 300 "$bin" merge "${shards[@]}" --out "$work/out/merged" --quiet || fail "the merge failed"
compared=()
for f in "$work/out/whole"/*.csv; do
  name="$(basename "$f")"
  cmp "$f" "$work/out/merged/$name" || fail "$name of the merge differs from the unsharded run's"
  compared+=("$name")
done
for f in "$work/out/merged"/*.csv; do
  [ -f "$work/out/whole/$(basename "$f")" ] || fail "the merge wrote $(basename "$f"), the unsharded run did not"
done
[ "${#compared[@]}" -ge 4 ] || fail "only ${#compared[@]} CSVs to compare: ${compared[*]}"
cells="$(($(wc -l <"$work/out/whole/runs.csv") - 1))"
echo "slurm-check: Slurm job $job, $tasks array tasks (--shard env) of $(basename "$config"), $cells cells: merged ${compared[*]} byte-identical to one run ($(($(date +%s) - start)) s)"
