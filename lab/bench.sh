#!/usr/bin/env bash
# make bench: the measurements behind BENCHMARKS.md (not part of make test).
#
#   bench.sh [zero-cost|workloads|all] [--reps N] [--results DIR]
#
# zero-cost: cyclic-anon under vanilla, lru, vanilla-mglru and mglru, N=5:
#            the framework must not cost the default policies anything.
# workloads: every workload under every policy the lab kernel offers, N=3.
# Cells are interleaved by the matrix (rep-major), so a noisy minute on a
# shared machine hits every policy alike; compare.sh prints the tables.
set -euo pipefail
lab_prog="lab bench"
# shellcheck source=common.sh
source "$(dirname "$0")/common.sh"

what=all reps="" results=$LAB_RESULTS/bench
while [[ $# -gt 0 ]]; do
	case $1 in
	zero-cost | workloads | all) what=$1; shift ;;
	--reps) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "$EX_USAGE" "bad --reps '${2:-}'"; reps=$2; shift 2 ;;
	--results) [[ -n ${2:-} ]] || die "$EX_USAGE" "--results needs a directory"; results=$2; shift 2 ;;
	-h | --help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "$EX_USAGE" "unknown argument '$1' (bench.sh --help)" ;;
	esac
done

status=0
if [[ $what == zero-cost || $what == all ]]; then
	"$LAB_TOP/lab/matrix.sh" --policies vanilla,lru,vanilla-mglru,mglru \
		--workloads cyclic-anon --reps "${reps:-5}" --results "$results/zero-cost" || status=1
	"$LAB_TOP/lab/compare.sh" --baseline vanilla --format markdown "$results/zero-cost" |
		tee "$results/zero-cost/compare.md"
fi
if [[ $what == workloads || $what == all ]]; then
	pols=$(kernel_policies lab | paste -sd,)
	[[ -n $pols ]] || die "$EX_MISSING" "no lab kernel built (run $(build_hint lab))"
	"$LAB_TOP/lab/matrix.sh" --policies "vanilla,$pols" \
		--workloads cyclic-anon,cyclic-file,webtrace,mdb-bench --reps "${reps:-3}" \
		--results "$results/workloads" || status=1
	"$LAB_TOP/lab/compare.sh" --baseline vanilla --format markdown "$results/workloads" |
		tee "$results/workloads/compare.md"
fi
exit "$status"
