# shellcheck shell=bash disable=SC2154 # cells.sh's and matrix.sh's variables
# lab.sh matrix --engine local: the pending cells on this machine, --jobs
# at a time (default 1). Sourced by matrix.sh after cells.sh.
#
# More guest threads than the host has cores stretches every guest's time
# (and the counts that depend on it), so a --jobs above 1 that
# oversubscribes the host is refused unless --force. A KVM guest runs a
# host thread per vCPU; a TCG guest runs all its vCPUs in one
# (lab/lib/guest.sh), so under TCG a guest is one thread whatever its
# --vcpus. Each result.json says how many guests ran beside it
# (concurrent_guests, from lab/lib/guest.sh's registry).

# shellcheck source=../lib/accel.sh
source "$LAB_TOP/lab/lib/accel.sh"

# engine_local_check JOBS VCPUS FORCE: exit 2 before anything runs when
# JOBS guests of VCPUS each oversubscribe this host.
engine_local_check() {
	local jobs=${1:-1} vcpus=$2 force=$3 cores threads=$2 accel
	((jobs > 1 && !force)) || return 0
	cores=$(nproc)
	# quietly: a refusal is one line, also on the host's first probe
	accel=$(accel_choose 2>/dev/null)
	[[ $accel == tcg ]] && threads=1
	((threads * jobs > cores)) || return 0
	die "$EX_USAGE" "--jobs $jobs guests of $threads host thread(s) each (--vcpus $vcpus, $accel) on $cores cores: oversubscribed (use fewer --jobs, or --force)"
}

# engine_local_run JOBS: run every pending cell, JOBS at once, reporting
# each as it ends. A cell that lab.sh run rejects (exit 2) stops the
# matrix: the others would be rejected too.
local_pids=()
engine_local_run() {
	local jobs=${1:-1} next=0 pid
	local -A running=()
	local_starting=0
	lab_on_signals engine_local_abort
	cells_forget
	cells_begin
	while ((next < ${#pend_p[@]} || ${#running[@]} > 0)); do
		while ((next < ${#pend_p[@]} && ${#running[@]} < jobs && !cells_usage)); do
			say "$(cell_tag "$next"): running (log $(cell_log "$next").log)"
			cell_runner "$next"
			local_starting=1
			"${cell_cmd[@]}" &
			running[$!]=$next
			local_pids=("${!running[@]}") local_starting=0
			next=$((next + 1))
		done
		((${#running[@]} > 0)) || break
		wait -n "${!running[@]}" || true
		for pid in "${!running[@]}"; do
			kill -0 "$pid" 2>/dev/null && continue
			unset 'running[$pid]'
			# cell-run.sh recorded its end (cells_finish counts a cell
			# whose cell-run.sh was killed first as failed).
			wait "$pid" 2>/dev/null || true
		done
		local_pids=("${!running[@]}")
		cells_poll
	done
	if ((cells_usage)); then
		tail -n 1 "$cells_usage_log" >&2 || true
		die "$EX_USAGE" "lab.sh run rejected the options; nothing more is run"
	fi
	cells_finish
}

# engine_local_abort: on INT, TERM or HUP, the running cells' cell-run.sh
# get TERM (each passes it on to its lab.sh run, which stops its guest and
# removes its partial directory); wait for them.
# shellcheck disable=SC2317 # run by the traps
engine_local_abort() {
	local pid pids=("${local_pids[@]}")
	((local_starting)) && pids+=("$!")
	for pid in "${pids[@]}"; do
		kill -TERM "$pid" 2>/dev/null || true
	done
	for pid in "${pids[@]}"; do
		wait "$pid" 2>/dev/null || true
	done
}
