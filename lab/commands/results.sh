#!/usr/bin/env bash
# lab.sh results: RESULTS.md, what the lab found, from the recorded runs of
# the headline experiments (experiments/*.conf with bench = yes).
#
#   results.sh [--series HEX] [--results DIR] [--output FILE]
#
# For each headline experiment (those without a bound first, each part in
# name order), its matrix on the series (DIR/NAME-SERIES, as lab.sh
# matrix --experiment NAME made it; without --series, this checkout's if
# it is recorded, else the newest recorded, by its matrix.json): a
# section with labstat --headline's table (each policy on each workload:
# pages read back against the baseline, time and rate), or for an
# experiment that replays its references (bound = available|resident)
# lab.sh bound --summary's table (the kernel against its model and OPT).
# An experiment without runs on the series gets the commands that make
# them. The numbers are labstat's; this script only lays out sections.
# shellcheck disable=SC2016 # Markdown's backquotes, in printf formats
set -euo pipefail
lab_prog="lab results"
# shellcheck source=../lib/common.sh
source "$(dirname "$0")/../lib/common.sh"
# shellcheck source=../lib/experiment.sh
source "$LAB_TOP/lab/lib/experiment.sh"

usage() {
	cat <<'USAGE'
usage: lab.sh results [--series HEX] [--results DIR] [--output FILE]

Renders RESULTS.md from the recorded runs of the headline experiments
(experiments/*.conf with bench = yes; make bench runs them): per
experiment, each policy on each workload (pages read back, the
workload's own counter in lab/registry/workloads.tsv, mean ± 95% CI, the
ratio to the experiment's baseline with Welch's p, time and rate
ratios), or for the experiments that replay their references the
kernel against its model and OPT (lab.sh bound --summary).

  --series HEX   the series whose matrices are read (first 8 hex digits;
                 default: for each experiment this checkout's series
                 (kernel/patches) if it is recorded, else the newest
                 series recorded for it, which its section names)
  --results DIR  read DIR/NAME-SERIES (default: results/ and each
                 experiment's own results directory under it)
  --output FILE  write FILE (default RESULTS.md at the top of the lab;
                 - for stdout)
USAGE
}

series="" top="" output=$LAB_TOP/RESULTS.md
while [[ $# -gt 0 ]]; do
	case $1 in
	--series) need "$@"; series=$2; shift 2 ;;
	--results) need "$@"; top=$2; shift 2 ;;
	--output) need "$@"; output=$2; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	*) die "$EX_USAGE" "unknown argument '$1' (see lab.sh results --help)" ;;
	esac
done
[[ -z $series || $series =~ ^[0-9a-f]{8}$ ]] || die "$EX_USAGE" "bad --series '$series' (8 hex digits)"
fixed_series=$series
series=${series:-$(experiment_series)}
labstat=$LAB_BUILD/analysis/labstat
require_tools "$labstat"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The policies on the workloads first, then the kernel against its model.
names=() bound_names=()
for n in $(experiment_names); do
	experiment_load "$n"
	[[ $exp_bench == yes ]] || continue
	if [[ $exp_bound == none ]]; then names+=("$n"); else bound_names+=("$n"); fi
done
names+=("${bound_names[@]}")
((${#names[@]})) || die "$EX_USAGE" "no experiment in $LAB_EXPERIMENTS says bench = yes"

# newest_matrix DIR: the matrix directory of the loaded experiment whose
# matrix.json was created last, beside DIR (DIR's siblings NAME-SERIES);
# nothing when there is none.
newest_matrix() {
	local d best="" best_t="" t
	for d in "$(dirname "$1")/$exp_name"-*/; do
		[[ -f $d/matrix.json && $(basename "$d") =~ ^$exp_name-[0-9a-f]{8}$ ]] || continue
		t=$(jq -r '.created_at // ""' "$d/matrix.json")
		[[ $t > $best_t ]] && best=${d%/} best_t=$t
	done
	[[ -z $best ]] || echo "$best"
}

# section NAME: the experiment's section of the document.
section() {
	local dir rel s=$series newest
	experiment_load "$1"
	dir=$(experiment_dir "$series")
	[[ -z $top ]] || dir=$top/$(basename "$dir")
	if [[ ! -d $dir && -z $fixed_series ]] && newest=$(newest_matrix "$dir") && [[ -n $newest ]]; then
		dir=$newest s=${newest##*-}
	fi
	rel=${dir#"$LAB_TOP"/}
	printf '## %s: %s\n\n' "$exp_name" "$exp_about"
	if [[ ! -d $dir ]]; then
		printf 'Not recorded on series `%s` here (no `%s`): `./lab.sh matrix --experiment %s`,\n' \
			"$series" "$rel" "$exp_name"
		printf 'then `./lab.sh results`.\n\n'
		return
	fi
	printf 'Experiment `%s` ([experiments/%s.conf](experiments/%s.conf)), series `%s`%s, runs in `%s`;\n' \
		"$exp_name" "$exp_name" "$exp_name" "$s" \
		"$([[ $s == "$series" ]] || echo " (the newest recorded; this checkout's is \`$series\`)")" "$rel"
	printf 'rerun with `./lab.sh matrix --experiment %s`, compare with `./lab.sh compare --experiment %s`.\n\n' \
		"$exp_name" "$exp_name"
	if [[ $exp_bound == none ]]; then
		"$labstat" --headline --baseline "$exp_baseline" --format markdown "$dir" 2>"$tmp/err" ||
			die "$EX_HARNESS" "labstat on $rel failed: $(tail -n 1 "$tmp/err")"
	else
		"$LAB_TOP/lab/commands/bound.sh" --summary --size "$exp_bound" --format markdown "$dir" 2>"$tmp/err" ||
			die "$EX_HARNESS" "lab.sh bound on $rel failed: $(tail -n 1 "$tmp/err")"
	fi
	echo
}

{
	printf '# Results\n\n'
	printf 'What the lab found, rendered by `./lab.sh results` from the recorded runs of the\n'
	printf 'headline experiments (`experiments/*.conf` with `bench = yes`, which `make bench`\n'
	if [[ -n $fixed_series ]]; then
		printf 'runs) on the kernel series `%s`. Do not edit: rerun it. BENCHMARKS.md has every\n' "$series"
	else
		printf 'runs), each on the series its section names: this checkout'"'"'s (`%s`) where it\n' "$series"
		printf 'is recorded, else the newest recorded. Do not edit: rerun it. BENCHMARKS.md has every\n'
	fi
	printf 'table with the conditions it ran in, and the investigations behind them.\n\n'
	for n in "${names[@]}"; do
		section "$n"
	done
} >"$tmp/out"
if [[ $output == - ]]; then
	cat "$tmp/out"
else
	{ cp "$tmp/out" "$output.tmp" && mv "$output.tmp" "$output"; } || die "$EX_HARNESS" "cannot write $output"
	printf '%s\n' "$output"
fi
