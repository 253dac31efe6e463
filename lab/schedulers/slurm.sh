# shellcheck shell=bash disable=SC2154 # cells.sh's and matrix.sh's variables
# lab.sh matrix --engine slurm: the pending cells as one Slurm job array,
# one task per cell. Sourced by matrix.sh after cells.sh.
#
# The batch script (mdir/slurm/job-STAMP.sbatch) runs task I's cell
# through cell-run.sh. Its #SBATCH lines ask for what a cell needs:
#   --array=1-N[%K]     N pending cells, at most K (--jobs) at once
#   --cpus-per-task     the guest's --vcpus
#   --mem               the guest's --mem plus QEMU's own (slurm_overhead)
#   --time              the longest a cell's lab.sh run can take: --timeout
#                       for the boot that runs, --boot-timeout for each of
#                       the two boots that may stall before it, and
#                       SLURM_SLACK_S for making disks and reading results
#   --job-name=lab-NAME, --ntasks=1
# and sbatch's command line adds --partition (when given), --output
# (mdir/logs/slurm-%A_%a.out, the batch script's own output; each cell's
# is in its log) and --chdir. The rest is the user's Slurm: sbatch's
# SBATCH_* variables (SBATCH_ACCOUNT, SBATCH_QOS, SBATCH_TIMELIMIT, ...)
# apply as always and win over the #SBATCH lines, and the job's
# environment is the submitting shell's. Every node needs the lab at the
# same path, built, and the matrix directory on a shared filesystem.
#
# Without --wait, lab.sh matrix submits and returns; the same command run
# again reports the cells then complete and submits the failed and missing
# ones. It refuses while an earlier job of the matrix is still queued or
# running (mdir/slurm/jobs lists them), so no cell runs twice at once.

# QEMU's memory beyond the guest's own (BENCHMARKS.md, "QEMU's memory"):
# the peak RSS (VmHWM) of TCG guests of 256 MiB that touched all their
# memory was 95-107 MiB above it without tracers in the guest, and
# 665-674 MiB above it with bpftrace, whose LLVM fills TCG's translation
# cache (bounded at 1 GiB by QEMU). So 256 MiB on top of the guest, and
# with bpftrace the cache's bound and 128 MiB.
SLURM_QEMU_OVERHEAD_MIB=256
SLURM_QEMU_OVERHEAD_BPFTRACE_MIB=1152
SLURM_SLACK_S=180

# slurm_overhead TRACE: QEMU's memory beyond the guest's, in MiB, for a
# run with --trace TRACE.
slurm_overhead() {
	case $1 in
	all | bpftrace*) echo "$SLURM_QEMU_OVERHEAD_BPFTRACE_MIB" ;;
	*) echo "$SLURM_QEMU_OVERHEAD_MIB" ;;
	esac
}

# engine_slurm_check: Slurm's client tools are here; else exit 2.
engine_slurm_check() {
	local t
	for t in sbatch squeue scancel; do
		command -v "$t" >/dev/null ||
			die "$EX_USAGE" "--engine slurm needs Slurm's $t (not in PATH; lab/make/deps.sh installs slurm-client)"
	done
}

# engine_slurm_busy: exit 2 when a job this matrix submitted is still in
# Slurm's queue (pending or running): its cells would run twice.
engine_slurm_busy() {
	local jobs=$mdir/slurm/jobs id left
	[[ -s $jobs ]] || return 0
	command -v squeue >/dev/null || return 0
	id=$(tail -n 1 "$jobs" | cut -d' ' -f1)
	left=$(squeue -h -j "$id" -o %i 2>/dev/null | wc -l) || return 0
	((left == 0)) ||
		die "$EX_USAGE" "Slurm job $id of this matrix is still queued or running ($left tasks; squeue -j $id); wait for it or scancel $id"
}

# engine_slurm_time TIMEOUT BOOT_TIMEOUT: --time in minutes.
engine_slurm_time() {
	echo $((($1 + 2 * $2 + SLURM_SLACK_S + 59) / 60))
}

# engine_slurm_run JOBS WAIT PARTITION VCPUS MEM_MIB TRACE TIMEOUT BOOT_TIMEOUT:
# submit the array; with WAIT=1 block until it ends, reporting each cell
# as it ends, as the local engine does.
slurm_job="" slurm_sbatch_pid=""
engine_slurm_run() {
	local jobs=$1 wait=$2 partition=$3 vcpus=$4 mem_mib=$5 trace=$6 timeout_s=$7 boot_s=$8
	local stamp script n=${#pend_p[@]} k array argv=() res=() out err task_mib
	engine_slurm_busy
	stamp=$(date -u +%Y%m%dT%H%M%S)-$$
	mkdir -p "$mdir/slurm"
	script=$mdir/slurm/job-$stamp.sbatch
	array=1-$n
	[[ -z $jobs ]] || array+="%$jobs"
	task_mib=$((mem_mib + $(slurm_overhead "$trace")))
	res=(--job-name="lab-$name" --array="$array" --ntasks=1 --cpus-per-task="$vcpus"
		--mem="${task_mib}M" --time="$(engine_slurm_time "$timeout_s" "$boot_s")")
	argv=(sbatch --parsable --output="$mdir/logs/slurm-%A_%a.out" --chdir="$LAB_TOP")
	[[ -z $partition ]] || argv+=(--partition="$partition")
	{
		echo '#!/bin/bash'
		printf '#SBATCH %s\n' "${res[@]}"
		echo "# lab.sh matrix $name: $n cells as a Slurm job array, one task a cell,"
		echo "# submitted by lab/schedulers/slurm.sh as:"
		printf '#  '; printf ' %q' "${argv[@]}" "$script"; echo
		echo "# Task I runs cell I through lab/schedulers/cell-run.sh (its log in $mdir/logs/)."
		# shellcheck disable=SC2016 # the batch script's own expansions
		echo 'case ${SLURM_ARRAY_TASK_ID:?not a task of a Slurm job array} in'
		for ((k = 0; k < n; k++)); do
			printf '%s) exec %s;;\n' "$((k + 1))" "$(cell_line "$k")"
		done
		# shellcheck disable=SC2016
		echo '*) echo "lab matrix: no cell $SLURM_ARRAY_TASK_ID in this job" >&2; exit 2 ;;'
		echo 'esac'
	} >"$script.tmp"
	mv "$script.tmp" "$script"
	cells_forget
	out=$mdir/slurm/.sbatch-$stamp.out err=$mdir/slurm/.sbatch-$stamp.err
	((wait)) && argv+=(--wait)
	cells_begin
	lab_on_signals engine_slurm_abort
	"${argv[@]}" "$script" >"$out" 2>"$err" &
	slurm_sbatch_pid=$!
	# The job's id, once sbatch has it (it prints it before --wait blocks).
	while kill -0 "$slurm_sbatch_pid" 2>/dev/null && [[ ! -s $out ]]; do sleep 0.5; done
	slurm_job=$(head -n 1 "$out" | cut -d';' -f1)
	if [[ ! $slurm_job =~ ^[0-9]+$ ]]; then
		wait "$slurm_sbatch_pid" || true
		slurm_sbatch_pid=""
		die "$EX_USAGE" "sbatch refused the job: $(grep -v '^$' "$err" | tail -n 1)"
	fi
	printf '%s %s %s\n' "$slurm_job" "$stamp" "$n" >>"$mdir/slurm/jobs"
	say "Slurm job $slurm_job: $n cells (array $array, $vcpus CPUs and $task_mib MiB a task, partition ${partition:-default}); script ${script#"$PWD"/}"
	if ((!wait)); then
		wait "$slurm_sbatch_pid" || true
		slurm_sbatch_pid=""
		rm -f "$out" "$err"
		say "submitted; squeue -j $slurm_job shows it. Run the same command again when it is done: it reports the cells and retries the failed ones"
		slurm_job=""
		return 0
	fi
	while kill -0 "$slurm_sbatch_pid" 2>/dev/null; do
		cells_poll 1
		sleep 2
	done
	# sbatch --wait exits with the highest exit code of the tasks: the
	# cells' own records say more.
	wait "$slurm_sbatch_pid" || true
	slurm_sbatch_pid=""
	grep -v '^$' "$err" | grep -v '^sbatch: ' >&2 || true
	rm -f "$out" "$err"
	cells_finish 1
}

# engine_slurm_abort: on INT, TERM or HUP while waiting, cancel the job
# (Slurm sends its tasks TERM, which cell-run.sh passes on to lab.sh run)
# and wait for sbatch to see it end.
# shellcheck disable=SC2317 # run by the traps
engine_slurm_abort() {
	[[ -n $slurm_job ]] && scancel "$slurm_job" 2>/dev/null
	[[ -z $slurm_sbatch_pid ]] || wait "$slurm_sbatch_pid" 2>/dev/null || true
}
