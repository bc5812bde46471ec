#!/bin/sh
# tests/slurm/class-on-slurm.sh: a lab 01 class graded through a real Slurm cluster (one node on
# this machine: munge, slurmctld and slurmd from Debian's slurm-wlm, configured in a temporary
# folder by cluster.sh and stopped afterwards), then the same class graded locally with the same
# secret: the two gradebooks must be equal. On the way: a task cancelled before it ran leaves its
# students "not graded" (never a zero), `--status` says so, and submitting again grades only them.
# Speaks TAP; "1..0 # SKIP reason" where no cluster can be started (not root, no slurm-wlm).
#   TL_ROOT=. TL_BUILD=build sh tests/slurm/class-on-slurm.sh
# Needs: TL_ROOT (the kit), TL_BUILD (a build folder with grader/tl-grade built).
set -u
root=${TL_ROOT:?set TL_ROOT to the kit}
build=${TL_BUILD:?set TL_BUILD to the build folder}
tg=$build/grader/tl-grade
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$tg" ] || { echo "1..0 # SKIP no $tg (the grader needs libcjson-dev, libarchive-dev, libseccomp-dev)"; exit 0; }
[ "$(id -u)" = 0 ] || { echo "1..0 # SKIP a Slurm node needs root to launch jobs (run ./kit test as root)"; exit 0; }
for t in munged slurmctld slurmd sbatch; do
    command -v $t >/dev/null 2>&1 || [ -x /usr/sbin/$t ] ||
        { echo "1..0 # SKIP $t is missing (Debian: apt-get install slurm-wlm munge; ./kit test installs them as root)"; exit 0; }
done
PATH=$PATH:/usr/sbin:/usr/local/cuda/bin

T=$(mktemp -d /tmp/tl-slurm.XXXXXX) || exit 1
cleanup() { sh "$here/cluster.sh" stop "$T/cluster" >/dev/null 2>&1; rm -rf "$T"; }
trap cleanup EXIT
trap 'exit 1' INT TERM

n=0; failed=0
ok()     { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "# $l"; done; }
show()   { sed 's/^/#   /' "$@"; }

# The class: the solution as a folder and as a .tar.gz, the skeleton, three known-wrong files.
in=$T/in; mkdir -p "$in"
sub() { mkdir -p "$in/$1" && cp "$2" "$in/$1/gmm.c"; }
sub solution "$root/solutions/01-cpu-baseline/gmm.c"
sub skeleton "$root/labs/01-cpu-baseline/gmm.c"
for w in loop_short transposed does_not_compile; do sub "$w" "$root/tests/wrong/01/$w.c"; done
mkdir -p "$T/t/alice" && cp "$root/solutions/01-cpu-baseline/gmm.c" "$T/t/alice/" &&
    tar -czf "$in/alice.tar.gz" -C "$T/t" alice
od -An -tu8 -N8 /dev/urandom | tr -d ' \n' > "$T/secret"; echo >> "$T/secret"
subs=$(ls -d "$in"/*)
nsubs=$(echo "$subs" | wc -l)

echo "1..11"
start=$(date +%s)
if out=$(sh "$here/cluster.sh" start "$T/cluster" 2>&1); then
    export SLURM_CONF="$T/cluster/slurm.conf"
    ok "a one-node Slurm cluster starts in a temporary folder"
else
    not_ok "a one-node Slurm cluster starts in a temporary folder" "$out"
    exit 1
fi

# Wait until nothing of this run is queued (at most $1 seconds).
wait_run() {
    i=0
    while [ $i -lt "$1" ]; do
        "$tg" --status "$T/out" > "$T/status.txt" 2>&1
        grep -q "nothing of this run is queued" "$T/status.txt" && return 0
        sleep 2; i=$((i + 2))
    done
    return 1
}

# One task at a time, two students a task: cancel the second task while it waits its turn.
# Every request an #SBATCH line an admin can read: time, memory, account and the cluster's GRES gpu.
"$tg" --kit "$root" --slurm --max-parallel 1 --per-task 2 --time 00:30:00 --mem 3G --account tltest \
    --gpus-per-task 1 --lab 01 --out "$T/out" --secret "$T/secret" $subs > "$T/submit.txt" 2> "$T/submit.err"
rc=$?
arr=$(cut -d' ' -f1 "$T/submit.txt")
script=$T/out/.state/slurm/task.1.sh
scontrol show job "${arr}_0" > "$T/job.txt" 2>&1
if [ -f "$script" ] && grep -q '^#SBATCH --time=00:30:00$' "$script" && grep -q '^#SBATCH --mem=3G$' "$script" &&
   grep -q '^#SBATCH --account=tltest$' "$script" && grep -q '^#SBATCH --gpus-per-task=1$' "$script" &&
   grep -q '^#SBATCH --array=0-2%1$' "$script" && grep -q 'TimeLimit=00:30:00' "$T/job.txt" &&
   grep -q 'Account=tltest' "$T/job.txt" && grep -q 'MinMemoryNode=3G' "$T/job.txt" && grep -q 'gpu:1' "$T/job.txt"; then
    ok "the batch script kept in DIR carries --time, --mem, --account, --gpus-per-task as #SBATCH lines, and Slurm applies them"
else
    not_ok "the batch script kept in DIR carries --time, --mem, --account, --gpus-per-task as #SBATCH lines, and Slurm applies them"
    [ -f "$script" ] && show "$script"; show "$T/job.txt" "$T/submit.err"
fi
if [ $rc = 0 ] && [ -n "$arr" ] && scancel "${arr}_1" && grep -q "submitted $nsubs student(s) in 3 task(s)" "$T/submit.err"; then
    ok "tl-grade --slurm submits $nsubs students as a job array of 3 tasks and a gradebook job (array $arr)"
else
    not_ok "tl-grade --slurm submits $nsubs students as a job array of 3 tasks and a gradebook job" "exit $rc"
    show "$T/submit.err"
    exit 1
fi
if wait_run 400 && [ -f "$T/out/gradebook.csv" ]; then
    ok "the array and the gradebook job finish; --status says nothing is queued"
else
    not_ok "the array and the gradebook job finish; --status says nothing is queued"
    show "$T/status.txt"; for f in "$T"/out/.state/slurm/logs/*; do echo "# $f"; show "$f"; done
    exit 1
fi
cancelled=$(sed -n 2p "$T/out/.state/slurm/tasks.1.tsv")
names=""
for i in $cancelled; do names="$names $(awk -F '\t' -v i="$i" '$1 == i {print $2}' "$T/out/.state/students.tsv")"; done
bad=""
for s in $names; do
    grep -q "^$s,,.*not graded: " "$T/out/gradebook.csv" || bad="$bad $s"
    [ -e "$T/out/$s/.done" ] && bad="$bad $s(.done)"
done
if [ -n "$names" ] && [ -z "$bad" ] && grep -q "2 not graded" "$T/status.txt"; then
    ok "the cancelled task's students ($names ) are 'not graded' rows, never zeros, and --status counts them"
else
    not_ok "the cancelled task's students ($names ) are 'not graded' rows, never zeros, and --status counts them" "wrong:$bad"
    show "$T/out/gradebook.csv" "$T/status.txt"
fi

# Submitting again grades only those two.
"$tg" --kit "$root" --slurm --lab 01 --out "$T/out" --secret "$T/secret" $subs > "$T/submit2.txt" 2> "$T/submit2.err"
rc=$?
if [ $rc = 0 ] && grep -q "submitted 2 student(s) in 2 task(s)" "$T/submit2.err" &&
   grep -q "$((nsubs - 2)) student(s) graded earlier from the same files, rubric and cases are not submitted" "$T/submit2.err"; then
    ok "submitting again sends only the 2 students not graded"
else
    not_ok "submitting again sends only the 2 students not graded" "exit $rc"; show "$T/submit2.err"
fi
script=$T/out/.state/slurm/task.2.sh
if grep -q '^#SBATCH --time=00:0[0-9]:00$' "$script" && grep -q '^#SBATCH --mem=4G$' "$script" &&
   ! grep -q 'gpus-per-task\|--account' "$script" && grep -q '^#SBATCH --time=00:10:00$' "$T/out/.state/slurm/finish.2.sh"; then
    ok "without --time and --mem the script asks for the lab table's: minutes from the case limits, the sandbox's memory"
else
    not_ok "without --time and --mem the script asks for the lab table's: minutes from the case limits, the sandbox's memory"
    show "$script"
fi
if wait_run 300 && grep -q "$nsubs of $nsubs graded" "$T/status.txt"; then
    ok "after the second submission every student is graded"
else
    not_ok "after the second submission every student is graded"; show "$T/status.txt"
fi
slurm_s=$(( $(date +%s) - start ))

# The same class graded here, with the same secret.
t0=$(date +%s)
"$tg" --kit "$root" --lab 01 --out "$T/local" --secret "$T/secret" $subs > "$T/local.txt" 2>&1
rc=$?
local_s=$(( $(date +%s) - t0 ))
if [ $rc = 0 ] && cmp -s "$T/local/gradebook.csv" "$T/out/gradebook.csv"; then
    ok "the gradebook from Slurm equals a local run's with the same secret ($nsubs students)"
else
    not_ok "the gradebook from Slurm equals a local run's with the same secret" "local exit $rc"
    diff "$T/local/gradebook.csv" "$T/out/gradebook.csv" | sed 's/^/#   /'
fi
if grep -q "^solution,100.00,100.00" "$T/out/gradebook.csv" && grep -q "^alice,100.00,100.00" "$T/out/gradebook.csv" &&
   grep -q "^loop_short,[0-9]" "$T/out/gradebook.csv" && ! grep -q "^loop_short,100" "$T/out/gradebook.csv"; then
    ok "the grades themselves are right: the solution (folder and archive) full marks, a wrong file less"
else
    not_ok "the grades themselves are right: the solution (folder and archive) full marks, a wrong file less"
    show "$T/out/gradebook.csv"
fi
# A resubmission (issue 23): loop_short hands in the solution; submitting again regrades it alone,
# by the files' identity as a local run does, and the gradebook then has its new grade.
cp "$root/solutions/01-cpu-baseline/gmm.c" "$in/loop_short/gmm.c"
"$tg" --kit "$root" --slurm --lab 01 --out "$T/out" --secret "$T/secret" $subs > "$T/submit3.txt" 2> "$T/submit3.err"
rc=$?
if [ $rc = 0 ] && grep -q "submitted 1 student(s) in 1 task(s)" "$T/submit3.err" &&
   grep -q "loop_short: its files changed since it was graded (a resubmission): graded again" "$T/submit3.err" &&
   wait_run 300 && grep -q "^loop_short,100.00,100.00" "$T/out/gradebook.csv"; then
    ok "a resubmission whose files changed is submitted again alone and regraded (100 with the solution's file)"
else
    not_ok "a resubmission whose files changed is submitted again alone and regraded" "exit $rc"
    show "$T/submit3.err" "$T/out/gradebook.csv"
fi
echo "# Slurm run (two submissions, cluster start included): ${slurm_s} s; the same class locally: ${local_s} s"
sed 's/^/# gradebook: /' "$T/out/gradebook.csv" | cut -c1-100
[ $failed = 0 ]
