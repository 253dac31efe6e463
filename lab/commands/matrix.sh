#!/usr/bin/env bash
# lab.sh matrix: run policies x workloads x reps, resumable, on this
# machine or through GNU parallel or Slurm.
#
#   matrix.sh [--policies a,b] [--workloads x,y] [--reps N] [--results DIR]
#             [--name NAME] [--engine local|parallel|slurm] [engine options]
#             [--list-cells] [--workload-options W=OPTIONS]...
#             [run options...] [-- WORKLOAD-OPTIONS]
#
# Layout: every cell (policy, workload, rep index) gets its own results
# directory DIR/NAME/cells/POLICY/WORKLOAD/rI/, handed to lab.sh run as
# --results with --reps 1; the rep index is the directory, not the run's
# own `rep` field (always 1 there). NAME defaults to "m-" and 10 hex
# digits of the sha256 of the run options and workload options, so the
# same command finds its earlier cells and a different one starts a new
# matrix beside it. DIR/NAME/matrix.json records the options.
#
# A cell is done when its directory holds a run whose result.json has
# exit "ok" and the cell's policy and workload; done cells are skipped.
# The pending cells are one list (cells.sh; --list-cells prints each
# one's lab.sh run command) that an engine runs: local (engine-local.sh,
# --jobs at once), parallel (engine-parallel.sh, GNU parallel, over ssh
# with --sshloginfile) or slurm (engine-slurm.sh, one job array). Each
# runs a cell through cell-run.sh, which keeps its log and exit code in
# DIR/NAME/logs/, so every engine reports alike. A failed cell keeps its
# run directory, is reported, and is retried by the next invocation; the
# matrix goes on with the other cells. Interrupted (INT, TERM, HUP), it
# stops the running cells (local, parallel) or cancels the job (slurm
# --wait), whose lab.sh run stop their guests and remove their partial
# directories, and exits 128 + the signal (130 for Ctrl-C).
set -euo pipefail
lab_prog="lab matrix"
# shellcheck source=../lib/common.sh
source "$(dirname "$0")/../lib/common.sh"
# shellcheck source=../lib/options.sh
source "$LAB_TOP/lab/lib/options.sh"
# shellcheck source=../lib/cells.sh
source "$LAB_TOP/lab/lib/cells.sh"
# shellcheck source=../schedulers/local.sh
source "$LAB_TOP/lab/schedulers/local.sh"
# shellcheck source=../schedulers/parallel.sh
source "$LAB_TOP/lab/schedulers/parallel.sh"
# shellcheck source=../schedulers/slurm.sh
source "$LAB_TOP/lab/schedulers/slurm.sh"
# shellcheck source=../lib/experiment.sh
source "$LAB_TOP/lab/lib/experiment.sh"

usage() {
	cat <<'USAGE'
usage: lab.sh matrix [--policies a,b,...] [--workloads x,y,...] [--reps N]
                     [--results DIR] [--name NAME] | --experiment NAME
                     [--engine local|parallel|slurm] [--jobs N] [--force]
                     [--sshloginfile FILE] [--partition P] [--wait]
                     [--list-cells] [--workload-options W=OPTIONS]... [--alone]
                     [run options...] [-- WORKLOAD-OPTIONS]

Runs every (policy, workload, rep) cell with lab.sh run, one boot each,
printing progress and an ETA from the cells finished so far.

  --policies LIST   comma-separated (default: vanilla,lru)
  --workloads LIST  comma-separated (default: cyclic-anon)
  --reps N          reps per policy and workload (default 5)
  --alone           a cell is done only when its run had the host to
                    itself (result.json's concurrent_guests 0): seconds,
                    rates and latencies then compare. A run that shared it
                    is set aside as a hidden .shared-RUN_ID and the cell
                    runs again. Not with --jobs above 1
  --workload-options W=OPTIONS
                    workload W's own options (words split at blanks) in
                    place of those after --, e.g. ycsb-leveldb='--workload
                    abce --ops 20000'; repeatable, one per workload
  --results DIR     top directory (default results/)
  --name NAME       matrix directory under DIR (default m-<hash of the
                    run and workload options>): cells already complete
                    there are skipped, so rerunning resumes
  --experiment NAME the policies, workloads, reps and options of
                    experiments/NAME.conf (lab/lib/experiment.sh says what a
                    .conf holds), in DIR/NAME-SERIES (SERIES: the first 8
                    hex digits of this checkout's series; DIR: --results,
                    default the .conf's results under results/); only
                    engine options, --results and --list-cells may join it
  --list-cells      print the lab.sh run command of each pending cell,
                    one a line, and run nothing
  run options       --mem --vcpus --numa --numa-dimm --swap --thp --fs
                    --timeout --boot-timeout --seed --vary-seed --size
                    --trace --trace-buffer --trace-profile --perf-hz
                    --refs --sysctl --cgroup --boot-arg --switch-at
                    --kernel --kernel-image, passed to every lab.sh run
                    (see lab.sh run --help); with --vary-seed rep i uses
                    seed+i-1. The workload options after -- may end with
                    --also WORKLOAD2 ... as in run

Engines (README: "Running on a cluster"):
  --engine local    this machine (the default)
  --engine parallel GNU parallel; with --sshloginfile FILE on the hosts
                    FILE names (one a line, ":" for this one), each with
                    the lab at the same path, built, and DIR on a shared
                    filesystem
  --engine slurm    one Slurm job array, a task per pending cell, with
                    --cpus-per-task from --vcpus, --mem from --mem plus
                    QEMU's own, --time from --timeout and --boot-timeout
  --jobs N          cells at once: on this machine (local, default 1), on
                    each host (parallel, default one per --vcpus cores),
                    tasks at once (slurm's --array=...%N, default no cap)
  --force           local: run --jobs that give the guests more vCPUs
                    than the host has cores (refused otherwise)
  --partition P     slurm: the partition (default: Slurm's)
  --wait            slurm: wait for the job and report like local;
                    without it, submit and return (run the same command
                    again to report, and to retry failed cells)

Results: DIR/NAME/cells/POLICY/WORKLOAD/rI/<run-id>/, logs of each cell's
lab.sh run in DIR/NAME/logs/ (.log stderr, .out stdout, .exit its exit
code, seconds and host). The last stdout line is DIR/NAME.
Exit: 0 every cell ok (or, slurm without --wait, submitted); 2 bad
arguments or a missing engine (nothing run); otherwise the exit code of
the first failed cell (lab.sh run's codes) after all cells were tried;
128+N when killed by signal N (130 for Ctrl-C).
USAGE
}

[[ ${1:-} == -h || ${1:-} == --help ]] && {
	usage
	exit 0
}

# --experiment NAME: experiments/NAME.conf gives the policies, workloads,
# reps, run and workload options and the matrix directory; the command
# line adds only where and how to run (engine options, --results,
# --list-cells).
args=() experiment=""
while [[ $# -gt 0 ]]; do
	case $1 in
	--experiment) need "$@"; experiment=$2; shift 2 ;;
	--) args+=("$@"); break ;;
	*) args+=("$1"); shift ;;
	esac
done
if [[ -n $experiment ]]; then
	experiment_load "$experiment"
	exp_top="" k=0
	while ((k < ${#args[@]})); do
		case ${args[k]} in
		--engine | --jobs | --sshloginfile | --partition) ((k += 2)) ;;
		--results) exp_top=${args[k + 1]:-}; ((k += 2)) ;;
		--force | --wait | --list-cells | --alone) ((k += 1)) ;;
		*) die "$EX_USAGE" "${args[k]}: with --experiment, only engine options, --results and --list-cells (the rest is $exp_file's)" ;;
		esac
	done
	rest=("${args[@]}")
	mdir_exp=$(experiment_dir "$(experiment_series)")
	[[ -z $exp_top ]] || mdir_exp=$exp_top/$(basename "$mdir_exp")
	args=(--policies "$exp_policies" --workloads "$exp_workloads" --reps "$exp_reps"
		--results "$(dirname "$mdir_exp")" --name "$(basename "$mdir_exp")")
	for w in "${!exp_workload_options_for[@]}"; do
		args+=(--workload-options "$w=${exp_workload_options_for[$w]}")
	done
	args+=("${exp_run_options[@]}" "${rest[@]}" -- "${exp_workload_options[@]}")
fi
set -- "${args[@]}"

policies=vanilla,lru workloads=cyclic-anon reps=5 top=$LAB_RESULTS name=""
seed=1 vary_seed=0 list_cells=0
engine=local jobs="" force=0 sshloginfile="" partition="" wait=0 alone=0
# What the engines size a cell by (lab.sh run's defaults).
vcpus=2 mem=256M timeout_s=900 boot_s=300 trace=none
run_opts=() wl_opts=()
declare -A wl_opts_for=()
while [[ $# -gt 0 ]]; do
	case $1 in
	--policies) need "$@"; policies=$2; shift 2 ;;
	--workloads) need "$@"; workloads=$2; shift 2 ;;
	--reps) need "$@"; reps=$2; shift 2 ;;
	--results) need "$@"; top=$2; shift 2 ;;
	--name) need "$@"; name=$2; shift 2 ;;
	--seed) need "$@"; seed=$2; shift 2 ;;
	--vary-seed) vary_seed=1; shift ;;
	--list-cells) list_cells=1; shift ;;
	--engine) need "$@"; engine=$2; shift 2 ;;
	--jobs) need "$@"; jobs=$2; shift 2 ;;
	--force) force=1; shift ;;
	--sshloginfile) need "$@"; sshloginfile=$2; shift 2 ;;
	--partition) need "$@"; partition=$2; shift 2 ;;
	--wait) wait=1; shift ;;
	--alone) alone=1; shift ;;
	--workload-options)
		need "$@"
		[[ $2 =~ ^([a-z0-9-]+)=(.*)$ ]] || die "$EX_USAGE" "bad --workload-options '$2' (WORKLOAD=OPTIONS)"
		[[ -z ${wl_opts_for[${BASH_REMATCH[1]}]+set} ]] ||
			die "$EX_USAGE" "--workload-options ${BASH_REMATCH[1]} is given twice"
		wl_opts_for[${BASH_REMATCH[1]}]=${BASH_REMATCH[2]}
		shift 2
		;;
	--mem | --vcpus | --timeout | --boot-timeout | --size | --trace | --trace-buffer | \
		--trace-profile | --perf-hz | --sysctl | --cgroup | --boot-arg | --switch-at | \
		--kernel | --kernel-image | --numa | --numa-dimm | --swap | --thp | --fs)
		need "$@"
		shape_take "$1" "$2" || true
		case $1 in
		--mem) mem=$2 ;;
		--vcpus) vcpus=$2 ;;
		--timeout) timeout_s=$2 ;;
		--boot-timeout) boot_s=$2 ;;
		--trace) trace=$2 ;;
		esac
		run_opts+=("$1" "$2")
		shift 2
		;;
	--refs) run_opts+=("$1"); shift ;;
	--) shift; wl_opts=("$@"); break ;;
	*) die "$EX_USAGE" "unknown option '$1' (see lab.sh matrix --help)" ;;
	esac
done

[[ $reps =~ ^[1-9][0-9]*$ ]] || die "$EX_USAGE" "bad --reps '$reps' (a positive number)"
[[ $seed =~ ^(0|[1-9][0-9]{0,17})$ ]] || die "$EX_USAGE" "bad --seed '$seed' (a number without leading zeros)"
[[ -z $name || $name =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]] ||
	die "$EX_USAGE" "bad --name '$name' (letters, digits, . _ -)"
IFS=, read -r -a policy_list <<<"$policies"
IFS=, read -r -a workload_list <<<"$workloads"
((${#policy_list[@]})) || die "$EX_USAGE" "--policies is empty"
((${#workload_list[@]})) || die "$EX_USAGE" "--workloads is empty"
for p in "${policy_list[@]}"; do
	policy_check "$p"
done
for w in "${!wl_opts_for[@]}"; do
	in_list "$w" "${workload_list[@]}" || die "$EX_USAGE" "--workload-options $w: not one of --workloads"
done
((!alone)) || [[ ${jobs:-1} == 1 ]] || die "$EX_USAGE" "--alone runs one guest at a time: not with --jobs $jobs"
for w in "${workload_list[@]}"; do
	in_list "$w" "${LAB_WORKLOADS[@]}" || die "$EX_USAGE" "unknown workload '$w' (lab.sh list shows them)"
done
# The options the engines size cells by, checked as lab.sh run does.
mem_mib=$(opt_mem "$mem") || exit
[[ $vcpus =~ ^[1-8]$ ]] || die "$EX_USAGE" "bad --vcpus '$vcpus' (1 to 8)"
shape_check "$mem_mib" "$vcpus"
opt_seconds --timeout "$timeout_s"
opt_seconds --boot-timeout "$boot_s"
trace_bpftrace_only "$trace" >/dev/null || exit

# The engine and its options, checked before anything runs.
in_list "$engine" local parallel slurm || die "$EX_USAGE" "unknown --engine '$engine' (local|parallel|slurm)"
[[ -z $jobs || $jobs =~ ^[1-9][0-9]{0,3}$ ]] || die "$EX_USAGE" "bad --jobs '$jobs' (a positive number)"
only() { # only ENGINE OPTION SET: OPTION belongs to ENGINE
	[[ $3 == 0 || -z $3 || $engine == "$1" ]] || die "$EX_USAGE" "$2 is an option of --engine $1"
}
only local --force "$force"
only parallel --sshloginfile "$sshloginfile"
only slurm --partition "$partition"
only slurm --wait "$wait"
[[ -z $partition || $partition =~ ^[A-Za-z0-9._,-]+$ ]] || die "$EX_USAGE" "bad --partition '$partition'"
if ((!list_cells)); then
	case $engine in
	local) engine_local_check "${jobs:-1}" "$vcpus" "$force" ;;
	parallel) engine_parallel_check "$sshloginfile" ;;
	slurm) engine_slurm_check ;;
	esac
fi

# The matrix's identity: what every cell shares (not policy, workload, rep).
params_json=$(jq -cn --argjson run "$(printf '%s\n' "${run_opts[@]}" | jq -R . | jq -sc 'map(select(. != ""))')" \
	--argjson wl "$(printf '%s\n' "${wl_opts[@]}" | jq -R . | jq -sc 'map(select(. != ""))')" \
	--argjson seed "$seed" --argjson vary "$vary_seed" --argjson for "$(
		for w in "${!wl_opts_for[@]}"; do
			jq -cn --arg w "$w" --arg o "${wl_opts_for[$w]}" '{($w): ($o | split(" ") | map(select(. != "")))}'
		done | jq -sc 'add // {}')" \
	'{run_options: $run, workload_options: $wl, seed: $seed, vary_seed: ($vary == 1)}
	 + (if $for == {} then {} else {workload_options_for: $for} end)')
[[ -n $name ]] || name=m-$(printf '%s' "$params_json" | sha_stdin | cut -c1-10)

mdir=$(realpath -m "$top")/$name
if [[ -f $mdir/matrix.json ]]; then
	base='{run_options, workload_options, seed, vary_seed}'
	old=$(jq -c "$base" "$mdir/matrix.json")
	[[ $old == "$(jq -c "$base" <<<"$params_json")" ]] ||
		die "$EX_USAGE" "$mdir was made with other options ($old); pick another --name"
	# A workload's own options: a workload whose cells ran must keep them;
	# one new to the matrix brings its own (matrix.json then records both).
	for w in "${workload_list[@]}"; do
		was=$(jq -c --arg w "$w" '.workload_options_for[$w] // null' "$mdir/matrix.json")
		now=$(jq -c --arg w "$w" '.workload_options_for[$w] // null' <<<"$params_json")
		[[ $was == "$now" ]] || { [[ $was == null ]] && ! compgen -G "$mdir/cells/*/$w" >/dev/null; } ||
			die "$EX_USAGE" "$mdir ran $w with other options ($was); pick another --name"
	done
	params_json=$(jq -c --argjson new "$params_json" \
		'{run_options, workload_options, seed, vary_seed}
		 + ((.workload_options_for // {}) + ($new.workload_options_for // {})
		    | if . == {} then {} else {workload_options_for: .} end)' "$mdir/matrix.json")
fi
cells_scan

# --list-cells: the commands, nothing run or written.
if ((list_cells)); then
	for ((k = 0; k < ${#pend_p[@]}; k++)); do
		cell_argv "$k"
		printf '%q ' "${cell_cmd[@]}"
		echo
	done
	exit 0
fi

mkdir -p "$mdir/cells" "$mdir/logs" || die "$EX_HARNESS" "cannot create $mdir"
cells_set_aside
if [[ ! -f $mdir/matrix.json ]]; then
	jq -n --arg name "$name" --argjson p "$params_json" \
		--arg created "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
		'{name: $name, created_at: $created} + $p' >"$mdir/matrix.json.tmp"
	mv "$mdir/matrix.json.tmp" "$mdir/matrix.json"
elif [[ $(jq -c '.workload_options_for // {}' "$mdir/matrix.json") != "$(jq -c '.workload_options_for // {}' <<<"$params_json")" ]]; then
	jq --argjson p "$params_json" '. + {workload_options_for: $p.workload_options_for}' \
		"$mdir/matrix.json" >"$mdir/matrix.json.tmp"
	mv "$mdir/matrix.json.tmp" "$mdir/matrix.json"
fi
# A Slurm job of this matrix still in the queue would run cells twice,
# whatever engine runs them now.
engine_slurm_busy

todo=${#pend_p[@]}
say "matrix $name: $cells_total cells, $((cells_total - todo)) already complete, $todo to run (engine $engine)"
for c in "${cells_skipped[@]}"; do
	read -r n p w i <<<"$c"
	say "[$n/$cells_total] $p $w r$i: complete, skipped"
done

cells_rc=0
if ((todo == 0)); then
	say "all $cells_total cells complete"
else
	for ((k = 0; k < todo; k++)); do
		mkdir -p "$mdir/cells/${pend_p[k]}/${pend_w[k]}/r${pend_i[k]}"
	done
	case $engine in
	local) engine_local_run "${jobs:-1}" ;;
	parallel) engine_parallel_run "$jobs" "$sshloginfile" "$vcpus" ;;
	slurm) engine_slurm_run "$jobs" "$wait" "$partition" "$vcpus" "$mem_mib" "$trace" "$timeout_s" "$boot_s" ;;
	esac
fi
printf '%s\n' "$mdir"
exit "$cells_rc"
