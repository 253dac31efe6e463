#!/usr/bin/env bash
# lab.sh compare: the cover-letter table of runs, via labstat.
#
#   compare.sh [--baseline POLICY|COLUMN] [--format text|markdown|html|csv]
#              [--metric M]... [--ignore PARAM]... [--columns PARAM]...
#              [--by host] [--no-bound] RESULTS...
#
# RESULTS are run directories or any directories holding runs at any
# depth (results/, a matrix directory). Runs are found by their
# result.json; directories being written (.partial) are not runs. When
# some runs recorded their reference string (--refs), a second table
# follows (lab.sh bound --summary): per experiment, OPT's misses and the
# policy's own model's at the runs' size, next to the kernel's. Runs are
# grouped into experiments by labstat's one rule (every parameter that can
# change a count); --ignore merges on purpose.
set -euo pipefail
lab_prog="lab compare"
# shellcheck source=../lib/common.sh
source "$(dirname "$0")/../lib/common.sh"
# shellcheck source=../lib/experiment.sh
source "$LAB_TOP/lab/lib/experiment.sh"

usage() {
	cat <<'USAGE'
usage: lab.sh compare [--baseline POLICY|COLUMN] [--format text|markdown|html|csv]
                      [--metric [LABEL=]PATH[+PATH...]]... [--ignore PARAM]...
                      [--columns PARAM]... [--by host] [--no-bound] RESULTS...
       lab.sh compare --experiment NAME [--series HEX] [--results DIR] [--format F]
                      [--ignore PARAM]...

Rows are workloads (with the parameters that differ between their runs),
columns policies (with the kernel, where runs of one policy or flavour
differ in it): mean ± 95% CI (Student t), n, the ratio to the baseline
and * where Welch's t-test gives p < 0.05; a gmean row summarises the
ratios. Runs are averaged only when every parameter that can change a
count matches (kernel, workload options, memory, vCPUs, accel, trace,
sysctls, boot args, cgroup, switch_at, companion workloads: CONTRACTS.md).
Traced runs that lost more than 0.1% of their trace events, and the cells
with runs that ran beside other lab guests (concurrent_guests > 0, wall
times that shared the host's CPUs), are listed after the tables. Runs
from several hosts (result.json's host) are averaged together, with a
warning when their CPU models or accelerators differ.
RESULTS: run directories or directories holding runs at any depth;
failed runs are left out (a note on stderr says which).

  --baseline P   the policy ratios refer to (default: lru when some run
                 has it, else vanilla when some run has it, else lru),
                 or one column's whole label (with --columns)
  --format F     text (default), markdown, html or csv
  --metric M     a result.json path, repeatable (default: wall_s, majflt,
                 vmstat.pswpin, vmstat.pswpout, refaults, and when some
                 run has a perf profile perf.us_per_reclaimed_page and
                 the reclaim, policy, rmap, lock, fault and idle shares)
  --ignore P     merge runs that differ only in parameter P, e.g.
                 kernel.series_sha or params.sysctl (repeatable); without
                 it, a baseline that ran on two kernels is refused (exit 3)
  --columns P    put parameter P's values in the columns beside the
                 policy, to compare one policy's settings with each other:
                 --columns params.boot_args --baseline \
                 'clockpro boot=page_replace.clockpro_insert=paper'
  --by host      split the rows by host (host.name): each host's runs
                 are averaged and compared on their own
  --no-bound     leave out the OPT/model table of runs recorded with --refs
  --experiment NAME  the runs of experiments/NAME.conf's matrix (lab.sh
                 matrix --experiment NAME) with its baseline, metrics and
                 bound size; with text or markdown, a first line names the
                 experiment, its series and its directory
  --series HEX   with --experiment: the matrix of that series (its first
                 8 hex digits; default this checkout's series)
  --results DIR  with --experiment: the matrix is DIR/NAME-SERIES (as
                 lab.sh matrix --experiment NAME --results DIR made it)
USAGE
}

[[ ${1:-} == -h || ${1:-} == --help ]] && {
	usage
	exit 0
}

baseline="" format=text bound=1 bound_size="" experiment="" series="" results_top=""
metrics=() inputs=() ignore=() columns=() by=()
while [[ $# -gt 0 ]]; do
	case $1 in
	--baseline) need "$@"; baseline=$2; shift 2 ;;
	--format) need "$@"; format=$2; shift 2 ;;
	--metric | -m) need "$@"; metrics+=(--metric "$2"); shift 2 ;;
	--ignore) need "$@"; ignore+=(--ignore "$2"); shift 2 ;;
	--columns) need "$@"; columns+=(--columns "$2"); shift 2 ;;
	--by) need "$@"; by=(--by "$2"); shift 2 ;;
	--no-bound) bound=0; shift ;;
	--experiment) need "$@"; experiment=$2; shift 2 ;;
	--series) need "$@"; series=$2; shift 2 ;;
	--results) need "$@"; results_top=$2; shift 2 ;;
	--) shift; inputs+=("$@"); break ;;
	-*) die "$EX_USAGE" "unknown option '$1' (see lab.sh compare --help)" ;;
	*) inputs+=("$1"); shift ;;
	esac
done
in_list "$format" text markdown html csv || die "$EX_USAGE" "bad --format '$format' (text|markdown|html|csv)"
[[ -z $series$results_top || -n $experiment ]] || die "$EX_USAGE" "--series and --results go with --experiment"
if [[ -n $experiment ]]; then
	if ((${#inputs[@]} || ${#metrics[@]} || ${#columns[@]})) || [[ -n $baseline ]]; then
		die "$EX_USAGE" "--experiment gives the runs, the baseline and the metrics: no RESULTS, --baseline, --metric or --columns with it"
	fi
	experiment_matrix "$experiment" "$series" "$results_top"
	series=$exp_series dir=$exp_matrix
	inputs=("$dir") baseline=$exp_baseline
	for m in "${exp_metrics[@]}"; do metrics+=(--metric "$m"); done
	if [[ $exp_bound == none ]]; then bound=0; else bound_size=$exp_bound; fi
	if [[ $format == text || $format == markdown ]]; then
		printf 'Experiment %s (experiments/%s.conf: %s), series %s, %s\n\n' \
			"$experiment" "$experiment" "$exp_about" "$series" "${dir#"$LAB_TOP"/}"
	fi
fi
((${#inputs[@]})) || die "$EX_USAGE" "need at least one results directory (see lab.sh compare --help)"
labstat=$LAB_BUILD/analysis/labstat
require_tools "$labstat"

# Every run directory under the inputs, sorted, none twice.
for arg in "${inputs[@]}"; do
	[[ -e $arg ]] || die "$EX_USAGE" "$arg: no such file or directory"
	[[ -d $arg || $(basename "$arg") == result.json ]] || die "$EX_USAGE" "$arg: not a result.json or a directory"
done
runs=()
while IFS= read -r -d '' r; do
	runs+=("$(dirname "$r")")
done < <(
	for arg in "${inputs[@]}"; do
		if [[ -f $arg ]]; then
			printf '%s\0' "$(cd "$(dirname "$arg")" && pwd)/result.json"
		else
			find "$(cd "$arg" && pwd)" -name result.json -type f -not -path '*/.*' -print0
		fi
	done | sort -zu
)
((${#runs[@]})) || die "$EX_USAGE" "no runs (result.json) under ${inputs[*]}"

if [[ -z $baseline ]]; then
	have=$(for r in "${runs[@]}"; do jq -r .policy "$r/result.json"; done | sort -u)
	baseline=lru
	grep -qx lru <<<"$have" || { grep -qx vanilla <<<"$have" && baseline=vanilla; }
fi

rc=0
"$labstat" --baseline "$baseline" --format "$format" "${metrics[@]}" "${ignore[@]}" "${columns[@]}" \
	"${by[@]}" "${runs[@]}" || rc=$?
# labstat said why: 2 bad --metric, --ignore, --columns or --by, 3 the table would mix experiments.
((rc == 0)) || exit "$((rc == 1 ? EX_HARNESS : rc))"

if ((bound)); then
	with_refs=()
	for r in "${runs[@]}"; do
		[[ -s $r/refs.bin ]] && jq -e '.exit == "ok"' "$r/result.json" >/dev/null && with_refs+=("$r")
	done
	if ((${#with_refs[@]})); then
		echo
		"$LAB_TOP/lab/commands/bound.sh" --summary --format "$format" ${bound_size:+--size "$bound_size"} \
			"${ignore[@]}" "${with_refs[@]}"
	fi
fi
