#!/usr/bin/env bash
# What tracing costs: the same runs with --trace none and --trace MODE
# (default events), N reps each, compared by labstat (mean ± 95% CI,
# ratio to untraced, Welch's t-test) as a Markdown table on stdout.
#
#   bench-tracing.sh [--reps N] [--policy P] [--workload W] [--size S]
#                    [--mode events|bpftrace|perf|all|bpftrace:NAME,...]
#                    [--results DIR] [-- WORKLOAD-OPTIONS]
#
# The runs go through lab/commands/matrix.sh, one matrix per trace mode, so an
# interrupted benchmark resumes; reps alternate between the two modes. labstat groups runs by policy, so the
# table is computed on copies of the result.json files whose policy is
# relabelled "P/trace=none" and "P/trace=MODE"; nothing else is changed.
set -euo pipefail
lab_prog="bench-tracing"
# shellcheck source=../lib/common.sh
source "$(dirname "$0")/../lib/common.sh"

usage() {
	cat <<'USAGE'
usage: lab/make/bench-tracing.sh [--reps N] [--policy P] [--workload W] [--size S]
                            [--mode events|bpftrace|perf|all|bpftrace:NAME,...]
                            [--results DIR] [-- WORKLOAD-OPTIONS]

Runs W under P with --trace none and with --trace MODE, N reps each
(default: vanilla, cyclic-anon, 240M, events, 5 reps; results in
results/bench-tracing/), then prints a Markdown table of wall_s,
majflt, pswpin, pswpout and pgscan_anon: mean ± 95% CI, ratio to the
untraced runs, * for p < 0.05. MODE may combine tracers (events,perf).
USAGE
}

[[ ${1:-} == -h || ${1:-} == --help ]] && {
	usage
	exit 0
}

reps=5 policy=vanilla workload=cyclic-anon size=240M mode=events top=$LAB_RESULTS/bench-tracing
wl_opts=()
while [[ $# -gt 0 ]]; do
	case $1 in
	--reps) need "$@"; reps=$2; shift 2 ;;
	--policy) need "$@"; policy=$2; shift 2 ;;
	--workload) need "$@"; workload=$2; shift 2 ;;
	--size) need "$@"; size=$2; shift 2 ;;
	--mode) need "$@"; mode=$2; shift 2 ;;
	--results) need "$@"; top=$2; shift 2 ;;
	--) shift; wl_opts=("$@"); break ;;
	*) die "$EX_USAGE" "unknown option '$1' (see --help)" ;;
	esac
done
[[ $reps =~ ^[1-9][0-9]*$ ]] || die "$EX_USAGE" "bad --reps '$reps'"
((reps >= 2)) || die "$EX_USAGE" "--reps must be at least 2 for a confidence interval"
[[ $mode != none ]] || die "$EX_USAGE" "bad --mode none (it is what every mode is compared with)"
trace_bpftrace_only "$mode" >/dev/null || exit
labstat=$LAB_BUILD/analysis/labstat
require_tools "$labstat"

# One matrix per mode and set of options, so other options start afresh.
tag=$policy-$workload-$size
((${#wl_opts[@]} == 0)) || tag=$tag-$(printf '%s\n' "${wl_opts[@]}" | sha_stdin | cut -c1-8)
# Reps alternate between the modes (matrix resumes, so --reps i runs rep
# i only): a drift in the host's load hits both sides alike.
status=0
for ((i = 1; i <= reps; i++)); do
	for m in none "$mode"; do
		"$LAB_TOP/lab/commands/matrix.sh" --policies "$policy" --workloads "$workload" --reps "$i" \
			--results "$top" --name "trace-${m//[:,]/-}-$tag" --size "$size" --trace "$m" \
			-- "${wl_opts[@]}" >/dev/null || true
	done
done
# A last pass per mode retries any rep that failed above; its exit says
# whether every rep is now complete.
for m in none "$mode"; do
	"$LAB_TOP/lab/commands/matrix.sh" --policies "$policy" --workloads "$workload" --reps "$reps" \
		--results "$top" --name "trace-${m//[:,]/-}-$tag" --size "$size" --trace "$m" \
		-- "${wl_opts[@]}" >/dev/null || status=$?
done
((status == 0)) || say "some reps still fail (exit $status); the table uses the ones that passed"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for m in none "$mode"; do
	while IFS= read -r -d '' r; do
		d=$tmp/$m-$(basename "$(dirname "$r")")
		mkdir -p "$d"
		# The policy it ended under is relabelled alike, or every run
		# would read as one that fell back to another policy.
		jq --arg p "$policy/trace=$m" \
			'(if .policy_active_end == .policy then .policy_active_end = $p else . end) | .policy = $p' \
			"$r" >"$d/result.json"
	done < <(find "$top/trace-${m//[:,]/-}-$tag" -name result.json -not -path '*/.*' -print0)
done
echo "**Tracing cost: $policy, $workload --size $size ${wl_opts[*]}, --trace none vs --trace $mode, $reps reps each ($(jq -r .accel "$(find "$tmp" -name result.json | head -n1)"))**"
echo
# The tracer is what is compared, in the columns: its settings must not
# split the rows.
"$labstat" --format markdown --baseline "$policy/trace=none" -m wall_s -m majflt \
	-m vmstat.pswpin -m vmstat.pswpout -m vmstat.pgscan_anon \
	--ignore trace --ignore trace_buffer_kb --ignore trace_profile --ignore perf_freq_hz "$tmp"
