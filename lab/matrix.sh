#!/usr/bin/env bash
# lab.sh matrix: run policies x workloads x reps, resumable.
#
#   matrix.sh [--policies a,b] [--workloads x,y] [--reps N] [--results DIR]
#             [--name NAME] [run options...] [-- WORKLOAD-OPTIONS]
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
# A failed cell keeps its run directory, is reported, and is retried by
# the next invocation; the matrix goes on with the other cells.
# Interrupted (INT, TERM, HUP), it stops the running cell's lab.sh run
# (which stops its guest and removes its partial directory) and exits
# 128 + the signal (130 for Ctrl-C).
set -euo pipefail
lab_prog="lab matrix"
# shellcheck source=common.sh
source "$(dirname "$0")/common.sh"

usage() {
	cat <<'USAGE'
usage: lab.sh matrix [--policies a,b,...] [--workloads x,y,...] [--reps N]
                     [--results DIR] [--name NAME] [run options...]
                     [-- WORKLOAD-OPTIONS]

Runs every (policy, workload, rep) cell with lab.sh run, one boot each,
printing progress and an ETA from the cells finished so far.

  --policies LIST   comma-separated (default: vanilla,lru)
  --workloads LIST  comma-separated (default: cyclic-anon)
  --reps N          reps per policy and workload (default 5)
  --results DIR     top directory (default results/)
  --name NAME       matrix directory under DIR (default m-<hash of the
                    run and workload options>): cells already complete
                    there are skipped, so rerunning resumes
  run options       --mem --vcpus --timeout --boot-timeout --seed
                    --vary-seed --size --trace --refs --sysctl --cgroup
                    --boot-arg --switch-at --kernel --kernel-image, passed
                    to every lab.sh run (see lab.sh run --help); with
                    --vary-seed rep i uses seed+i-1. The workload options
                    after -- may end with --also WORKLOAD2 ... as in run

Results: DIR/NAME/cells/POLICY/WORKLOAD/rI/<run-id>/, logs of each cell's
lab.sh run in DIR/NAME/logs/. The last stdout line is DIR/NAME.
Exit: 0 every cell ok; 2 bad arguments; otherwise the exit code of the
first failed cell (lab.sh run's codes) after all cells were tried;
128+N when killed by signal N (130 for Ctrl-C).
USAGE
}

[[ ${1:-} == -h || ${1:-} == --help ]] && {
	usage
	exit 0
}

policies=vanilla,lru workloads=cyclic-anon reps=5 top=$LAB_RESULTS name=""
seed=1 vary_seed=0
run_opts=() wl_opts=()
need() { [[ $# -ge 2 && -n $2 ]] || die "$EX_USAGE" "option $1 needs a value"; }
while [[ $# -gt 0 ]]; do
	case $1 in
	--policies) need "$@"; policies=$2; shift 2 ;;
	--workloads) need "$@"; workloads=$2; shift 2 ;;
	--reps) need "$@"; reps=$2; shift 2 ;;
	--results) need "$@"; top=$2; shift 2 ;;
	--name) need "$@"; name=$2; shift 2 ;;
	--seed) need "$@"; seed=$2; shift 2 ;;
	--vary-seed) vary_seed=1; shift ;;
	--mem | --vcpus | --timeout | --boot-timeout | --size | --trace | --sysctl | --cgroup | \
		--boot-arg | --switch-at | --kernel | --kernel-image)
		need "$@"
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
for w in "${workload_list[@]}"; do
	in_list "$w" "${LAB_WORKLOADS[@]}" || die "$EX_USAGE" "unknown workload '$w' (lab.sh list shows them)"
done

# The matrix's identity: what every cell shares (not policy, workload, rep).
params_json=$(jq -cn --argjson run "$(printf '%s\n' "${run_opts[@]}" | jq -R . | jq -sc 'map(select(. != ""))')" \
	--argjson wl "$(printf '%s\n' "${wl_opts[@]}" | jq -R . | jq -sc 'map(select(. != ""))')" \
	--argjson seed "$seed" --argjson vary "$vary_seed" \
	'{run_options: $run, workload_options: $wl, seed: $seed, vary_seed: ($vary == 1)}')
[[ -n $name ]] || name=m-$(printf '%s' "$params_json" | sha_stdin | cut -c1-10)

mkdir -p "$top" || die "$EX_HARNESS" "cannot create $top"
mdir=$(cd "$top" && pwd)/$name
mkdir -p "$mdir/cells" "$mdir/logs" || die "$EX_HARNESS" "cannot create $mdir"
if [[ -f $mdir/matrix.json ]]; then
	old=$(jq -c '{run_options, workload_options, seed, vary_seed}' "$mdir/matrix.json")
	[[ $old == "$params_json" ]] ||
		die "$EX_USAGE" "$mdir was made with other options ($old); pick another --name"
else
	jq -n --arg name "$name" --argjson p "$params_json" \
		--arg created "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
		'{name: $name, created_at: $created} + $p' >"$mdir/matrix.json.tmp"
	mv "$mdir/matrix.json.tmp" "$mdir/matrix.json"
fi

# cell_done DIR POLICY WORKLOAD: DIR holds a complete, ok run of that cell.
cell_done() {
	local r
	for r in "$1"/*/result.json; do
		[[ -f $r ]] || continue
		jq -e --arg p "$2" --arg w "$3" \
			'.exit == "ok" and .policy == $p and .workload == $w' "$r" >/dev/null 2>&1 && return 0
	done
	return 1
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

total=$((${#policy_list[@]} * ${#workload_list[@]} * reps))
# Cells still to run, to size the ETA.
todo=0
for p in "${policy_list[@]}"; do
	for w in "${workload_list[@]}"; do
		for ((i = 1; i <= reps; i++)); do
			cell_done "$mdir/cells/$p/$w/r$i" "$p" "$w" || todo=$((todo + 1))
		done
	done
done
say "matrix $name: $total cells, $((total - todo)) already complete, $todo to run"

# The running cell's lab.sh run, stopped with TERM when the matrix is
# interrupted: run cleans up its guest and partial directory itself. (A
# background job of a script ignores SIGINT, so it gets TERM.)
cell_pid="" cell_starting=0
# shellcheck disable=SC2317 # run by the traps
matrix_abort() {
	local pid=$cell_pid
	((cell_starting)) && pid=$!
	[[ -n $pid ]] || return 0
	kill -TERM "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
}
lab_on_signals matrix_abort

n=0 ran=0 ran_s=0 failed=0 first_rc=0
failures=()
for w in "${workload_list[@]}"; do
	for ((i = 1; i <= reps; i++)); do
		for p in "${policy_list[@]}"; do
			n=$((n + 1))
			cell=$mdir/cells/$p/$w/r$i
			tag="[$n/$total] $p $w r$i"
			if cell_done "$cell" "$p" "$w"; then
				say "$tag: complete, skipped"
				continue
			fi
			mkdir -p "$cell"
			cell_seed=$seed
			((vary_seed)) && cell_seed=$((seed + i - 1))
			log=$mdir/logs/$p-$w-r$i.log
			say "$tag: running (log ${log#"$PWD"/})"
			t0=$SECONDS rc=0
			cell_starting=1
			"$LAB_TOP/lab/run.sh" "$p" "$w" --results "$cell" --seed "$cell_seed" \
				"${run_opts[@]}" -- "${wl_opts[@]}" >"$log.out" 2>"$log" &
			cell_pid=$! cell_starting=0
			wait "$cell_pid" || rc=$?
			cell_pid=""
			dt=$((SECONDS - t0))
			if ((rc == EX_USAGE)); then
				tail -n 1 "$log" >&2
				die "$EX_USAGE" "lab.sh run rejected the options; nothing more is run"
			fi
			ran=$((ran + 1)) ran_s=$((ran_s + dt))
			todo=$((todo - 1))
			eta=""
			((todo > 0)) && eta="; ETA $(fmt_s $((ran_s * todo / ran))) for $todo more"
			if ((rc == 0)); then
				say "$tag: ok in $(fmt_s "$dt")$eta"
			else
				failed=$((failed + 1))
				((first_rc)) || first_rc=$rc
				failures+=("$p $w r$i (exit $rc)")
				say "$tag: FAILED with exit $rc in $(fmt_s "$dt"): $(tail -n 1 "$log")$eta"
			fi
		done
	done
done

if ((failed)); then
	say "$failed of $total cells failed: ${failures[*]}; rerun the same command to retry them"
else
	say "all $total cells complete"
fi
printf '%s\n' "$mdir"
exit "$first_rc"
