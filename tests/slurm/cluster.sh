#!/bin/sh
# tests/slurm/cluster.sh: a single-node Slurm cluster in a temporary folder, for the grader's tests.
#   sh tests/slurm/cluster.sh start DIR   munged, slurmctld and slurmd (Debian's slurm-wlm 22.05),
#                                          configured under DIR with one GRES gpu (no device file);
#                                          prints SLURM_CONF=DIR/slurm.conf
#   sh tests/slurm/cluster.sh stop DIR    stops the three daemons it started (by their pid files)
# Needs root (slurmd launches jobs as the submitting user). Nothing is written outside DIR: the
# munge key, socket and logs, the state and spool folders and the pid files all live there; the
# ports are chosen free at start. Exit 0 ok, 77 not possible here (the reason on stderr), 1 failed.
set -u
cmd=${1:-}; D=${2:-}
[ -n "$cmd" ] && [ -n "$D" ] || { echo "usage: cluster.sh start|stop DIR" >&2; exit 2; }

stop() {
    for f in "$D/slurmd.pid" "$D/slurmctld.pid" "$D/munged.pid"; do
        [ -s "$f" ] || continue
        p=$(cat "$f")
        kill "$p" 2>/dev/null
        i=0
        while kill -0 "$p" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
        kill -9 "$p" 2>/dev/null
        rm -f "$f"
    done
}

if [ "$cmd" = stop ]; then stop; exit 0; fi
[ "$cmd" = start ] || { echo "usage: cluster.sh start|stop DIR" >&2; exit 2; }

[ "$(id -u)" = 0 ] || { echo "cluster.sh: skipped: a Slurm node needs root to launch jobs" >&2; exit 77; }
for t in munged slurmctld slurmd sbatch squeue sinfo; do
    command -v $t >/dev/null 2>&1 || [ -x /usr/sbin/$t ] ||
        { echo "cluster.sh: skipped: $t is missing (Debian: apt-get install slurm-wlm munge)" >&2; exit 77; }
done
PATH=$PATH:/usr/sbin
mkdir -p "$D/state" "$D/spool" "$D/munge" || exit 1
chmod 700 "$D/munge"

# Free TCP ports for slurmctld and slurmd (bash-free: ask the kernel through a listening probe).
port_free() { ! (ss -ltn 2>/dev/null | awk '{print $4}' | grep -q ":$1\$"); }
pick() { p=$1; while ! port_free $p; do p=$((p + 1)); done; echo $p; }
base=$(( 20000 + $$ % 20000 ))
cport=$(pick $base); dport=$(pick $((cport + 1)))

dd if=/dev/urandom of="$D/munge/munge.key" bs=1024 count=1 2>/dev/null && chmod 400 "$D/munge/munge.key" || exit 1
munged --force --key-file="$D/munge/munge.key" --socket="$D/munge/munge.socket" \
       --pid-file="$D/munged.pid" --log-file="$D/munged.log" --seed-file="$D/munge/seed" || {
    echo "cluster.sh: munged did not start; see $D/munged.log" >&2; exit 1; }

cpus=$(nproc)
mem=$(awk '/MemTotal/ {printf "%d", $2 / 1024 / 2}' /proc/meminfo)
cat >"$D/slurm.conf" <<CONF
# A one-node test cluster made by tests/slurm/cluster.sh
ClusterName=tltest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$cport
SlurmdPort=$dport
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$D/munge/munge.socket
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd.pid
SlurmctldLogFile=$D/slurmctld.log
SlurmdLogFile=$D/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
MaxArraySize=10001
SlurmdTimeout=60
InactiveLimit=0
KillWait=5
GresTypes=gpu
NodeName=tlnode NodeHostname=$(hostname) NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem Gres=gpu:1 State=UNKNOWN
PartitionName=tltest Nodes=tlnode Default=YES MaxTime=INFINITE State=UP
CONF
# One GRES "gpu" without a device file: enough for Slurm to schedule --gpus-per-task and --gres
# requests (the grader's batch scripts ask for them), no GPU needed. gres.conf sits beside slurm.conf.
cat >"$D/gres.conf" <<GRES
NodeName=tlnode Name=gpu File=/dev/null
GRES
export SLURM_CONF="$D/slurm.conf"
slurmctld -f "$SLURM_CONF" -i || { echo "cluster.sh: slurmctld did not start; see $D/slurmctld.log" >&2; stop; exit 1; }
slurmd -f "$SLURM_CONF" -N tlnode || { echo "cluster.sh: slurmd did not start; see $D/slurmd.log" >&2; stop; exit 1; }
i=0
while [ $i -lt 60 ]; do
    st=$(sinfo -h -N -o %t 2>/dev/null)
    case $st in idle*|mix*|alloc*) echo "SLURM_CONF=$SLURM_CONF"; exit 0 ;; esac
    sleep 0.5; i=$((i + 1))
done
echo "cluster.sh: the node did not come up (state '$st'); see $D/slurmctld.log and $D/slurmd.log" >&2
stop
exit 1
