# shellcheck shell=bash
# Experiments as data: experiments/NAME.conf, read by lab.sh matrix
# --experiment, lab.sh compare --experiment, lab.sh results and make
# bench. Sourced after common.sh; never run.
#
# A .conf is "key = value" lines ('#' starts a comment line); values are
# one line, lists comma- or space-separated as below:
#   about             one line: what it measures (required)
#   policies          comma-separated registry policies (required)
#   workloads         comma-separated registry workloads (required)
#   reps              reps per cell (required)
#   run_options       lab.sh run options for every cell, as words
#   workload_options  the workload's options (after --), as words
#   workload_options.W  workload W's own, as words, in place of those
#   results           its directory under results/ (default: results/
#                     itself); its matrix is results/RESULTS/NAME-SERIES,
#                     SERIES the first 8 hex digits of the series' hash
#   baseline          the policy the comparison's ratios refer to (lru)
#   metrics           lab.sh compare --metric specs, as words (default:
#                     compare's own)
#   bound             available or resident: compare replays each run's
#                     references (run_options has --refs) at that cache
#                     size beside OPT and the policy's model; none: no
#   bench             yes: make bench runs it (a headline experiment)
# Words are split at blanks: no option value holds one.
# shellcheck disable=SC2034 # the exp_* variables are the callers'

LAB_EXPERIMENTS=${LAB_EXPERIMENTS:-$LAB_TOP/experiments}

# experiment_names: every experiment, one a line, sorted.
experiment_names() {
	local f
	for f in "$LAB_EXPERIMENTS"/*.conf; do
		[[ -e $f ]] || continue
		f=${f##*/}
		echo "${f%.conf}"
	done
}

# experiment_load NAME: reads experiments/NAME.conf into exp_name,
# exp_file, exp_about, exp_policies, exp_workloads (comma-separated),
# exp_reps, exp_run_options, exp_workload_options, exp_metrics (arrays),
# exp_workload_options_for (workload -> its options, one string),
# exp_results, exp_baseline, exp_bound, exp_bench. Exits 2 with one line
# on an unknown experiment or a bad file.
experiment_load() {
	local name=$1 line key value n=0 p
	[[ $name =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]] || die "$EX_USAGE" "bad experiment name '$name' (letters, digits, . _ -)"
	exp_file=$LAB_EXPERIMENTS/$name.conf
	[[ -f $exp_file ]] ||
		die "$EX_USAGE" "unknown experiment '$name' (one of: $(experiment_names | paste -sd' '))"
	exp_name=$name exp_about="" exp_policies="" exp_workloads="" exp_reps="" exp_results=""
	exp_baseline=lru exp_bound=none exp_bench=no
	exp_run_options=() exp_workload_options=() exp_metrics=()
	declare -gA exp_workload_options_for=()
	while IFS= read -r line || [[ -n $line ]]; do
		n=$((n + 1))
		[[ $line =~ ^[[:space:]]*(#|$) ]] && continue
		[[ $line =~ ^([a-z_]+(\.[a-z0-9-]+)?)[[:space:]]*=[[:space:]]*(.*[^[:space:]])?[[:space:]]*$ ]] ||
			die "$EX_USAGE" "$exp_file:$n: not 'key = value'"
		key=${BASH_REMATCH[1]} value=${BASH_REMATCH[3]}
		case $key in
		about) exp_about=$value ;;
		policies) exp_policies=$value ;;
		workloads) exp_workloads=$value ;;
		reps) exp_reps=$value ;;
		results) exp_results=$value ;;
		baseline) exp_baseline=$value ;;
		bound) exp_bound=$value ;;
		bench) exp_bench=$value ;;
		run_options) read -r -a exp_run_options <<<"$value" ;;
		workload_options) read -r -a exp_workload_options <<<"$value" ;;
		metrics) read -r -a exp_metrics <<<"$value" ;;
		workload_options.*) exp_workload_options_for[${key#workload_options.}]=$value ;;
		*) die "$EX_USAGE" "$exp_file:$n: unknown key '$key' (lab/lib/experiment.sh lists them)" ;;
		esac
	done <"$exp_file"
	for key in about policies workloads reps; do
		value=exp_$key
		[[ -n ${!value} ]] || die "$EX_USAGE" "$exp_file: no '$key'"
	done
	[[ $exp_reps =~ ^[1-9][0-9]*$ ]] || die "$EX_USAGE" "$exp_file: bad reps '$exp_reps' (a positive number)"
	[[ -z $exp_results || $exp_results =~ ^[A-Za-z0-9][A-Za-z0-9._/-]*$ && $exp_results != *..* ]] ||
		die "$EX_USAGE" "$exp_file: bad results '$exp_results' (a directory under results/)"
	in_list "$exp_bound" none available resident ||
		die "$EX_USAGE" "$exp_file: bad bound '$exp_bound' (none, available, resident)"
	in_list "$exp_bench" yes no || die "$EX_USAGE" "$exp_file: bad bench '$exp_bench' (yes, no)"
	IFS=, read -r -a p <<<"$exp_policies"
	for key in "${p[@]}"; do
		policy_known "$key" || die "$EX_USAGE" "$exp_file: unknown policy '$key' (lab.sh list shows them)"
	done
	policy_known "$exp_baseline" || die "$EX_USAGE" "$exp_file: unknown baseline '$exp_baseline'"
	IFS=, read -r -a p <<<"$exp_workloads"
	for key in "${p[@]}"; do
		in_list "$key" "${LAB_WORKLOADS[@]}" || die "$EX_USAGE" "$exp_file: unknown workload '$key' (lab.sh list shows them)"
	done
	for key in "${!exp_workload_options_for[@]}"; do
		in_list "$key" "${p[@]}" || die "$EX_USAGE" "$exp_file: workload_options.$key: not one of its workloads"
	done
}

# experiment_series: the first 8 hex digits of the series' hash, which
# name an experiment's matrix (NAME-SERIES).
experiment_series() {
	series_sha | cut -c1-8
}

# experiment_dir SERIES: the loaded experiment's matrix directory for
# SERIES (experiment_series: this checkout's).
experiment_dir() {
	echo "$LAB_RESULTS${exp_results:+/$exp_results}/$exp_name-$1"
}

# experiment_matrix NAME SERIES RESULTS_TOP: load experiment NAME and find
# the runs of its matrix for SERIES (8 hex digits, or empty: this
# checkout's) under RESULTS_TOP (empty: where its .conf says), for the
# commands that read them (compare, report): sets exp_series and
# exp_matrix. Exits 2 with one line when there is none.
experiment_matrix() {
	experiment_load "$1"
	[[ -z $2 || $2 =~ ^([0-9a-f]{8}|none)$ ]] || die "$EX_USAGE" "bad --series '$2' (8 hex digits)"
	exp_series=${2:-$(experiment_series)}
	exp_matrix=$(experiment_dir "$exp_series")
	[[ -z $3 ]] || exp_matrix=$3/$(basename "$exp_matrix")
	[[ -d $exp_matrix ]] ||
		die "$EX_USAGE" "no runs of experiment $1 on series $exp_series: no $exp_matrix (lab.sh matrix --experiment $1)"
}
