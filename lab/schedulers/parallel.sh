# shellcheck shell=bash disable=SC2154 # cells.sh's and matrix.sh's variables
# lab.sh matrix --engine parallel: the pending cells through GNU parallel,
# on this machine or, with --sshloginfile FILE, on the hosts FILE names
# (GNU parallel's format: one host a line, ":" for this one, "N/host" for
# N jobs there). Sourced by matrix.sh after cells.sh.
#
# Results stay where they are made: every host runs the lab from the
# same path and writes into the matrix directory, which must be on a
# filesystem all hosts share at the same path (README: "Running on a
# cluster"). Nothing is copied back; each cell's lab.sh run renames its
# finished run into place there, so a half-written run is never a result.
#
# parallel reads one command a line, cell-run.sh around the cell's lab.sh
# run; its joblog is mdir/logs/parallel-STAMP.joblog.

# engine_parallel_check SSHLOGINFILE: GNU parallel is there and FILE
# (when given) is readable and names a host; else exit 2.
engine_parallel_check() {
	local file=$1
	command -v parallel >/dev/null ||
		die "$EX_USAGE" "--engine parallel needs GNU parallel (not in PATH; lab/make/deps.sh installs Debian's parallel)"
	parallel --version 2>/dev/null | grep -q '^GNU parallel' ||
		die "$EX_USAGE" "--engine parallel needs GNU parallel; '$(command -v parallel)' is another program"
	[[ -z $file ]] && return 0
	[[ -f $file && -r $file ]] || die "$EX_USAGE" "--sshloginfile $file: no such file"
	grep -qvE '^[[:space:]]*(#|$)' "$file" || die "$EX_USAGE" "--sshloginfile $file names no host"
}

# engine_parallel_run JOBS SSHLOGINFILE: run every pending cell, JOBS per
# host (empty: one per --vcpus cores of each host, GNU parallel's
# percentage of its cores), reporting each as it ends.
parallel_pid=""
engine_parallel_run() {
	local jobs=$1 file=$2 vcpus=$3 stamp cmds k opts=()
	stamp=$(date -u +%Y%m%dT%H%M%S)-$$
	mkdir -p "$mdir/parallel"
	cmds=$mdir/parallel/cells-$stamp.txt
	for ((k = 0; k < ${#pend_p[@]}; k++)); do
		cell_line "$k"
		echo
	done >"$cmds.tmp"
	mv "$cmds.tmp" "$cmds"
	[[ -n $jobs ]] || jobs=$((100 / vcpus))%
	opts=(--will-cite --jobs "$jobs" --joblog "$mdir/logs/parallel-$stamp.joblog")
	[[ -z $file ]] || opts+=(--sshloginfile "$file")
	cells_forget
	cells_begin
	say "GNU parallel: ${#pend_p[@]} cells, --jobs $jobs${file:+ per host of $file}; commands in ${cmds#"$PWD"/}"
	lab_on_signals engine_parallel_abort
	parallel "${opts[@]}" <"$cmds" >&2 &
	parallel_pid=$!
	while kill -0 "$parallel_pid" 2>/dev/null; do
		cells_poll 1
		sleep 2
	done
	local rc=0
	wait "$parallel_pid" || rc=$?
	parallel_pid=""
	# parallel exits with the number of failed jobs (up to 100), 255 on
	# its own errors: those leave no cell run.
	((rc < 101)) || say "GNU parallel exited with status $rc (see its messages above)"
	cells_finish 1
}

# engine_parallel_abort: on INT, TERM or HUP, GNU parallel stops starting
# cells at the first TERM and kills the running ones (TERM, which
# cell-run.sh passes on to lab.sh run) at the second; wait for it.
# shellcheck disable=SC2317 # run by the traps
engine_parallel_abort() {
	[[ -n $parallel_pid ]] || return 0
	kill -TERM "$parallel_pid" 2>/dev/null || true
	sleep 0.2
	kill -TERM "$parallel_pid" 2>/dev/null || true
	wait "$parallel_pid" 2>/dev/null || true
}
