#!/usr/bin/env bash
# make bench: the headline experiments behind BENCHMARKS.md and RESULTS.md
# (not part of make test).
#
#   bench.sh [NAME...] [--results DIR] [engine options]
#
# Runs each experiment (experiments/NAME.conf; without NAME, every one
# that says "bench = yes") with lab.sh matrix --experiment, which resumes
# a matrix already begun on this series, then writes its comparison next
# to it (lab.sh compare --experiment: DIR/NAME-SERIES/compare.md).
# Cells are interleaved by the matrix (rep-major), so a noisy minute on a
# shared machine hits every policy alike. --results and the engine
# options (--engine, --jobs, ...) go to every matrix. Exit: 0 when every
# cell of every experiment is ok, else 1 after trying them all; 2 bad
# arguments.
set -euo pipefail
lab_prog="lab bench"
# shellcheck source=../lib/common.sh
source "$(dirname "$0")/../lib/common.sh"
# shellcheck source=../lib/experiment.sh
source "$LAB_TOP/lab/lib/experiment.sh"

names=() opts=() top=""
while [[ $# -gt 0 ]]; do
	case $1 in
	--results) need "$@"; top=$2; opts+=("$1" "$2"); shift 2 ;;
	--engine | --jobs | --sshloginfile | --partition) need "$@"; opts+=("$1" "$2"); shift 2 ;;
	--force | --wait) opts+=("$1"); shift ;;
	-h | --help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) die "$EX_USAGE" "unknown option '$1' (bench.sh --help)" ;;
	*) names+=("$1"); shift ;;
	esac
done
if ((${#names[@]} == 0)); then
	for n in $(experiment_names); do
		experiment_load "$n"
		[[ $exp_bench == yes ]] && names+=("$n")
	done
	((${#names[@]})) || die "$EX_USAGE" "no experiment in $LAB_EXPERIMENTS says bench = yes"
fi
for n in "${names[@]}"; do
	experiment_load "$n" # every name checked before anything runs
done

status=0
for n in "${names[@]}"; do
	say "experiment $n"
	# its last stdout line is the matrix, also when a cell failed
	dir=$("$LAB_TOP/lab/commands/matrix.sh" --experiment "$n" "${opts[@]}" | tail -n 1) || status=1
	[[ -d $dir ]] || continue
	"$LAB_TOP/lab/commands/compare.sh" --experiment "$n" ${top:+--results "$top"} --format markdown |
		tee "$dir/compare.md" || status=1
done
exit "$status"
