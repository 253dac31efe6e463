# shellcheck shell=bash disable=SC2154,SC2034
# (SC2154: the caller's variables, below; SC2034: variables the engines read)
# The cells of a lab.sh matrix, for the command and its engines: which
# cells there are and which are done, the lab.sh run command of each, and
# what an engine leaves of a finished cell. Sourced by matrix.sh after
# common.sh; the engines (engine-*.sh) read what it sets.
#
# The caller sets: mdir (the matrix directory), policy_list, workload_list,
# reps, seed, vary_seed, run_opts and wl_opts (arrays).
#
# A cell (policy, workload, rep index I) keeps its runs in
# mdir/cells/POLICY/WORKLOAD/rI/ and its records in mdir/logs/:
# POLICY-WORKLOAD-rI.log and .out (lab.sh run's stderr and stdout, the
# last attempt's) and .exit, written by lab/schedulers/cell-run.sh when the attempt
# ends: "EXIT SECONDS HOST", lab.sh run's exit code, its wall time and
# the host it ran on. Engines run each cell through lab/schedulers/cell-run.sh.

# cell_done DIR POLICY WORKLOAD: DIR holds a complete, ok run of that cell;
# with alone=1 (matrix --alone), one that no other lab guest ran beside.
cell_done() {
	local r
	for r in "$1"/*/result.json; do
		[[ -f $r ]] || continue
		jq -e --arg p "$2" --arg w "$3" --argjson alone "${alone:-0}" \
			'.exit == "ok" and .policy == $p and .workload == $w
			 and ($alone == 0 or (.concurrent_guests // 0) == 0)' "$r" >/dev/null 2>&1 && return 0
	done
	return 1
}

# cells_set_aside: with alone=1, move each pending cell's ok runs that
# shared the host with other guests to a hidden .shared-RUN_ID beside them:
# kept, but no command reads hidden directories, and the cell runs again.
cells_set_aside() {
	local k r d
	((${alone:-0})) || return 0
	for ((k = 0; k < ${#pend_p[@]}; k++)); do
		for r in "$mdir/cells/${pend_p[k]}/${pend_w[k]}/r${pend_i[k]}"/*/result.json; do
			[[ -f $r ]] || continue
			jq -e '.exit == "ok" and (.concurrent_guests // 0) > 0' "$r" >/dev/null 2>&1 || continue
			d=$(dirname "$r")
			mv "$d" "$(dirname "$d")/.shared-$(basename "$d")" ||
				die "$EX_HARNESS" "cannot set ${d#"$LAB_TOP"/} aside"
		done
	done
}

# cells_scan: the cells in the order they run (rep by rep, policies
# alternating within a rep, so that a slow hour of the host falls on all
# policies alike). Sets cells_total and, for the cells not done yet,
# the arrays pend_p, pend_w, pend_i and pend_n (the cell's number in the
# whole matrix, 1-based); cells_skipped lists the done ones
# ("N POLICY WORKLOAD I").
cells_scan() {
	local p w i n=0
	pend_p=() pend_w=() pend_i=() pend_n=() cells_skipped=()
	for w in "${workload_list[@]}"; do
		for ((i = 1; i <= reps; i++)); do
			for p in "${policy_list[@]}"; do
				n=$((n + 1))
				if cell_done "$mdir/cells/$p/$w/r$i" "$p" "$w"; then
					cells_skipped+=("$n $p $w $i")
				else
					pend_p+=("$p") pend_w+=("$w") pend_i+=("$i") pend_n+=("$n")
				fi
			done
		done
	done
	cells_total=$n
}

# cell_log K: the log path (without extension) of pending cell K.
cell_log() {
	printf '%s/logs/%s-%s-r%s' "$mdir" "${pend_p[$1]}" "${pend_w[$1]}" "${pend_i[$1]}"
}

# cell_tag K: "[N/TOTAL] POLICY WORKLOAD rI" of pending cell K.
cell_tag() {
	printf '[%s/%s] %s %s r%s' "${pend_n[$1]}" "$cells_total" "${pend_p[$1]}" "${pend_w[$1]}" "${pend_i[$1]}"
}

# cell_argv K: sets the array cell_cmd to pending cell K's lab.sh run
# command (what --list-cells prints): one rep into the cell's directory,
# with rep I's seed under --vary-seed.
cell_argv() {
	local k=$1 s=$seed
	((vary_seed)) && s=$((seed + pend_i[k] - 1))
	local own=("${wl_opts[@]}")
	# shellcheck disable=SC2154 # matrix.sh's
	[[ -z ${wl_opts_for[${pend_w[k]}]+set} ]] || read -r -a own <<<"${wl_opts_for[${pend_w[k]}]}"
	cell_cmd=("$LAB_TOP/lab.sh" run "${pend_p[k]}" "${pend_w[k]}"
		--results "$mdir/cells/${pend_p[k]}/${pend_w[k]}/r${pend_i[k]}" --seed "$s"
		"${run_opts[@]}" -- "${own[@]}")
}

# cell_runner K: sets the array cell_cmd to what an engine runs for
# pending cell K: cell-run.sh, which keeps the log and the exit, around
# the cell's lab.sh run command.
cell_runner() {
	local log
	log=$(cell_log "$1")
	cell_argv "$1"
	cell_cmd=("$LAB_TOP/lab/schedulers/cell-run.sh" "$log" "${cell_cmd[@]}")
}

# cell_line K: cell_runner's command as one line of shell, for the
# engines that take commands as text (GNU parallel, a Slurm batch script).
cell_line() {
	cell_runner "$1"
	printf '%q ' "${cell_cmd[@]}"
}

# cells_forget: remove the .exit records of every pending cell, before an
# engine starts them, so that only this attempt's count.
cells_forget() {
	local k
	for ((k = 0; k < ${#pend_p[@]}; k++)); do
		rm -f "$(cell_log "$k").exit"
	done
}

fmt_s() {
	local s=$1
	if ((s >= 3600)); then
		printf '%dh%02dm' $((s / 3600)) $((s % 3600 / 60))
	elif ((s >= 60)); then
		printf '%dm%02ds' $((s / 60)) $((s % 60))
	else
		printf '%ds' "$s"
	fi
}

# --- What the engines report as cells finish. cells_begin starts the
# clock; cells_poll reports each pending cell whose .exit appeared since
# (with an ETA from the wall time so far, whatever the concurrency);
# cells_finish reports the matrix and sets cells_rc (its exit code).

cells_begin() {
	cells_t0=$SECONDS cells_done=0 cells_failed=0 cells_usage=0 cells_usage_log=""
	cell_reported=() cells_failures=()
	local k
	for ((k = 0; k < ${#pend_p[@]}; k++)); do cell_reported[k]=0; done
}

# cells_poll [SHOW_HOST]: report the cells that ended since the last call;
# with SHOW_HOST=1 each line names the host the cell ran on.
cells_poll() {
	local show_host=${1:-0} k rc secs host log left eta where
	for ((k = 0; k < ${#pend_p[@]}; k++)); do
		((cell_reported[k] == 0)) || continue
		log=$(cell_log "$k")
		[[ -f $log.exit ]] || continue
		read -r rc secs host <"$log.exit" || continue
		cell_reported[k]=1
		cells_done=$((cells_done + 1))
		left=$((${#pend_p[@]} - cells_done))
		eta=""
		((left > 0)) && eta="; ETA $(fmt_s $(((SECONDS - cells_t0) * left / cells_done))) for $left more"
		where=""
		((show_host)) && where=" on $host"
		if ((rc == 0)); then
			say "$(cell_tag "$k"): ok in $(fmt_s "$secs")$where$eta"
		else
			cell_failed "$k" "$rc"
			say "$(cell_tag "$k"): FAILED with exit $rc in $(fmt_s "$secs")$where: $(tail -n 1 "$log.log" 2>/dev/null)$eta"
		fi
	done
}

# cell_failed K RC: count pending cell K as failed with exit RC.
cell_failed() {
	cells_failed=$((cells_failed + 1))
	cells_failures+=("${pend_p[$1]} ${pend_w[$1]} r${pend_i[$1]} (exit $2)")
	if (($2 == EX_USAGE)); then
		cells_usage=1 cells_usage_log=$(cell_log "$1").log
	fi
}

# cells_finish: a cell that never recorded its end (its task was killed,
# or never started) is failed with exit 1; then the summary. cells_rc is
# the first failed cell's exit code in the matrix's order, 0 if none.
cells_finish() {
	local k first=0
	cells_poll "${1:-0}"
	for ((k = 0; k < ${#pend_p[@]}; k++)); do
		((cell_reported[k] == 0)) || continue
		cell_failed "$k" "$EX_HARNESS"
		say "$(cell_tag "$k"): FAILED: no exit recorded (the task was killed or never started; see $(cell_log "$k").log)"
	done
	# The first failure in the matrix's order (cells end in any order).
	for ((k = 0; k < ${#pend_p[@]}; k++)); do
		local log rc
		log=$(cell_log "$k")
		rc=$EX_HARNESS
		[[ -f $log.exit ]] && read -r rc _ <"$log.exit"
		if ((rc != 0)); then
			first=$rc
			break
		fi
	done
	if ((cells_failed)); then
		say "$cells_failed of $cells_total cells failed: ${cells_failures[*]}; rerun the same command to retry them"
	else
		say "all $cells_total cells complete"
	fi
	cells_rc=$first
	if ((cells_usage)); then
		say "lab.sh run rejected the options (exit 2); see the failed cells' logs"
		cells_rc=$EX_USAGE
	fi
}
