# shellcheck shell=bash disable=SC2034 # slurm_error is for the caller
# A single-node Slurm on this machine for the tests: munged, slurmctld and
# slurmd started as root with every file (key, sockets, spool, state,
# logs, slurm.conf) in one directory, on loopback ports nothing else
# uses, and stopped by their pids. No system service, file or setting
# changes. Settings: /work/shared/reference/slurm-single-node.md (measured
# on these machines); munge runs on a socket of its own (AuthInfo
# socket=), so a system munged, if any, is left alone.
#
#   slurm_start DIR   start it; exports SLURM_CONF. Returns 1 with the
#                     reason in slurm_error when it cannot start.
#   slurm_stop DIR    cancel every job, stop the daemons, wait for them.

# slurm_port_free PORT: nothing listens on TCP PORT (IPv4 or IPv6).
slurm_port_free() {
	local hex
	hex=$(printf ':%04X ' "$1")
	! grep -qi -- "$hex" /proc/net/tcp /proc/net/tcp6 2>/dev/null
}

# slurm_wait_pidfile FILE SECONDS: until FILE names a live process.
slurm_wait_pidfile() {
	local i
	for ((i = 0; i < $2 * 10; i++)); do
		[[ -s $1 ]] && kill -0 "$(cat "$1")" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

slurm_start() {
	local d=$1 t host port mem i state
	slurm_error=""
	for t in munged mungekey munge unmunge slurmctld slurmd sbatch sinfo squeue scancel; do
		command -v "$t" >/dev/null || {
			slurm_error="$t is not installed (lab/make/deps.sh installs munge, slurmctld, slurmd, slurm-client)"
			return 1
		}
	done
	[[ $(id -u) == 0 ]] || {
		slurm_error="slurmd must run as root (it starts jobs as their user); run the tests as root"
		return 1
	}
	mkdir -p "$d/spool/ctld" "$d/spool/d"
	chmod 700 "$d"
	mungekey -c -k "$d/munge.key" >"$d/mungekey.log" 2>&1 || {
		slurm_error="mungekey -c failed: $(tail -n 1 "$d/mungekey.log")"
		return 1
	}
	munged --force --socket="$d/munge.socket" --key-file="$d/munge.key" --pid-file="$d/munged.pid" \
		--seed-file="$d/munged.seed" --log-file="$d/munged.log" >"$d/munged.out" 2>&1 || {
		slurm_error="munged did not start: $(tail -n 1 "$d/munged.out")"
		return 1
	}
	if ! munge -S "$d/munge.socket" -n 2>"$d/munge.err" | unmunge -S "$d/munge.socket" 2>>"$d/munge.err" |
		grep -q 'STATUS: *Success'; then
		slurm_error="munge -n | unmunge failed: $(tail -n 1 "$d/munge.err")"
		return 1
	fi
	# Two free ports side by side for slurmctld and slurmd.
	for ((port = 16817; port < 17817; port += 2)); do
		slurm_port_free "$port" && slurm_port_free $((port + 1)) && break
	done
	host=$(hostname -s)
	mem=$(awk '/^MemTotal:/ {print int($2 / 1024) - 1024}' /proc/meminfo)
	cat >"$d/slurm.conf" <<CONF
ClusterName=labtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$d/munge.socket
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
SchedulerType=sched/backfill
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
StateSaveLocation=$d/spool/ctld
SlurmdSpoolDir=$d/spool/d
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/slurmctld.log
SlurmdLogFile=$d/slurmd.log
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=$mem State=UNKNOWN
PartitionName=lab Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
	export SLURM_CONF=$d/slurm.conf
	if ! slurmctld -c -f "$SLURM_CONF" >"$d/slurmctld.out" 2>&1 || ! slurm_wait_pidfile "$d/slurmctld.pid" 10; then
		slurm_error="slurmctld did not start: $(tail -n 1 "$d/slurmctld.log" 2>/dev/null || tail -n 1 "$d/slurmctld.out")"
		return 1
	fi
	if ! slurmd -f "$SLURM_CONF" >"$d/slurmd.out" 2>&1 || ! slurm_wait_pidfile "$d/slurmd.pid" 10; then
		slurm_error="slurmd did not start: $(tail -n 1 "$d/slurmd.log" 2>/dev/null || tail -n 1 "$d/slurmd.out")"
		return 1
	fi
	for ((i = 0; i < 60; i++)); do
		state=$(sinfo -h -n "$host" -o %t 2>/dev/null) || true
		[[ $state == idle ]] && return 0
		sleep 0.5
	done
	slurm_error="the node is not idle after 30 s (sinfo: '${state:-no answer}'; $(tail -n 1 "$d/slurmctld.log" 2>/dev/null))"
	return 1
}

slurm_stop() {
	local d=$1 f pid i
	# Jobs still there get TERM, and KillWait (30 s) before KILL.
	if [[ -f $d/slurm.conf && -s $d/slurmctld.pid ]]; then
		SLURM_CONF=$d/slurm.conf scancel --quiet --user="$(id -un)" 2>/dev/null || true
		for ((i = 0; i < 80; i++)); do
			[[ -z $(SLURM_CONF=$d/slurm.conf squeue -h 2>/dev/null) ]] && break
			sleep 0.5
		done
	fi
	for f in slurmd slurmctld munged; do
		[[ -s $d/$f.pid ]] || continue
		pid=$(cat "$d/$f.pid")
		kill -TERM "$pid" 2>/dev/null || continue
		for ((i = 0; i < 100; i++)); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL "$pid" 2>/dev/null || true
	done
}
