#!/usr/bin/env bash
# lab.sh plot: reclaim timelines of runs recorded with --trace events,
# and where reclaim's CPU goes in runs profiled with --trace perf.
#
#   plot.sh [--out DIR] [--interval MS] [--ignore PARAM]... RUN...
#
# Per run with a trace.dat: trace-timeline turns it into a CSV and
# analysis/plot/plot.sh draws timeline.png and .svg (in the run directory,
# or DIR/<run-id>-timeline.* with --out). Runs of one experiment but the
# policy (labstat's grouping: the same workload options, memory, trace
# and the rest), two or more, are also overlaid (one line per run,
# labelled by its column: the policy, with the kernel where it differs)
# into overlay-SLUG.* in DIR, or in the first run's parent directory
# without --out. Runs with a perf profile (result.json's perf), per
# experiment but the policy: a stacked bar per policy of reclaim's guest
# CPU per reclaimed page by part (labstat's means of perf-reclaim's
# reclaim_us_per_page; analysis/plot/plot.sh reclaim-cpu) into
# reclaim-cpu-SLUG.* beside the overlays. Prints every file written on
# stdout.
set -euo pipefail
lab_prog="lab plot"
# shellcheck source=../lib/common.sh
source "$(dirname "$0")/../lib/common.sh"

usage() {
	cat <<'USAGE'
usage: lab.sh plot [--out DIR] [--interval MS] [--ignore PARAM]... RUN...

Draws the reclaim timeline (pages scanned and reclaimed, activations,
refaults, swap and writeback over time) of each run that has a trace.dat
(lab.sh run --trace events|all), and an overlay per workload when several
runs of it are given; for runs profiled with --trace perf, per workload a
stacked bar per policy of where reclaim's CPU goes (policy code, rmap
walks, lock waits, shadow entries, swap-out, other: microseconds of guest
CPU per reclaimed page). RUN: run directories or directories holding runs.

  --out DIR       write the plots here (default: each run's own directory,
                  overlays beside the runs)
  --interval MS   timeline bucket width (default 1000)
  --ignore PARAM  overlay runs that differ in PARAM too (labstat --ignore,
                  e.g. kernel.series_sha or mem_mib); repeatable
USAGE
}

[[ ${1:-} == -h || ${1:-} == --help ]] && {
	usage
	exit 0
}

out_dir="" interval=1000
inputs=() ignore=()
while [[ $# -gt 0 ]]; do
	case $1 in
	--out) need "$@"; out_dir=$2; shift 2 ;;
	--interval) need "$@"; interval=$2; shift 2 ;;
	--ignore) need "$@"; ignore+=(--ignore "$2"); shift 2 ;;
	--) shift; inputs+=("$@"); break ;;
	-*) die "$EX_USAGE" "unknown option '$1' (see lab.sh plot --help)" ;;
	*) inputs+=("$1"); shift ;;
	esac
done
[[ $interval =~ ^[1-9][0-9]*$ ]] || die "$EX_USAGE" "bad --interval '$interval' (milliseconds)"
((${#inputs[@]})) || die "$EX_USAGE" "need at least one run (see lab.sh plot --help)"
timeline=$LAB_BUILD/analysis/trace-timeline
labstat=$LAB_BUILD/analysis/labstat
plot=$LAB_TOP/analysis/plot/plot.sh
require_tools "$timeline" "$labstat"

require_dirs "${inputs[@]}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Every completed run with its experiment (row) and column, from labstat.
"$labstat" --list-runs "${ignore[@]}" "${inputs[@]}" >"$tmp/runs.csv" 2>"$tmp/list.err" ||
	die "$EX_USAGE" "$(grep -v '^labstat: note:' "$tmp/list.err" | head -n1 | sed 's/^labstat: //')"
runs=() profiled=() untraced=()
declare -A row_of column_of
while IFS=, read -r row column _ result; do
	d=$(dirname "$result")
	d=$(cd "$d" && pwd)
	row_of[$d]=$row
	column_of[$d]=$column
	[[ -s $d/trace.dat ]] && runs+=("$d")
	jq -e '.perf | type == "object"' "$d/result.json" >/dev/null && profiled+=("$d")
	[[ -s $d/trace.dat ]] || jq -e '.perf | type == "object"' "$d/result.json" >/dev/null ||
		untraced+=("$d")
done < <(tail -n +2 "$tmp/runs.csv")
((${#runs[@]} + ${#profiled[@]})) ||
	die "$EX_USAGE" "no run with a trace.dat or a perf profile under ${inputs[*]} (record with lab.sh run --trace events or perf)"
for d in "${untraced[@]}"; do
	say "note: ${d#"$PWD"/}: no trace.dat and no perf profile (run without --trace events or perf), skipped"
done
if [[ -n $out_dir ]]; then
	mkdir -p "$out_dir" || die "$EX_HARNESS" "cannot create $out_dir"
	out_dir=$(cd "$out_dir" && pwd)
fi


# One timeline per run; the CSV stays beside the plot.
declare -A csv_of
for d in "${runs[@]}"; do
	id=$(basename "$d")
	if [[ -n $out_dir ]]; then base=$out_dir/$id-timeline; else base=$d/timeline; fi
	if ! "$timeline" --quiet --interval "$interval" -o "$base.csv" "$d/trace.dat" 2>"$tmp/tt.err"; then
		die "$EX_HARNESS" "trace-timeline failed on ${d#"$PWD"/}/trace.dat: $(head -n1 "$tmp/tt.err")"
	fi
	csv_of[$d]=$base.csv
	title="${column_of[$d]}: ${row_of[$d]} ($id)"
	"$plot" timeline -t "$title" -o "$base" "$base.csv" ||
		die "$EX_HARNESS" "plot.sh timeline failed on $base.csv"
	printf '%s\n' "$base.csv" "$base.png" "$base.svg"
done

# Overlays: one per experiment (but the policy) with two or more traced runs.
while IFS= read -r group; do
	members=()
	for d in "${runs[@]}"; do
		[[ ${row_of[$d]} == "$group" ]] && members+=("$d")
	done
	((${#members[@]} >= 2)) || continue
	declare -A seen=()
	pairs=()
	for d in "${members[@]}"; do
		label=$(tr -c 'A-Za-z0-9_.+\n-' '_' <<<"${column_of[$d]}")
		seen[$label]=$((${seen[$label]:-0} + 1))
		((${seen[$label]} == 1)) || label=$label-${seen[$label]}
		# plot.sh overlay takes no spaces in paths: link the CSVs.
		ln -sf "${csv_of[$d]}" "$tmp/$label.csv"
		pairs+=("$label=$tmp/$label.csv")
	done
	unset seen
	slug=$(tr -c 'A-Za-z0-9._-' '-' <<<"${group// /-}" | sed 's/-*$//; s/--*/-/g')
	dest=${out_dir:-$(dirname "${members[0]}")}/overlay-$slug
	"$plot" overlay -t "$group: reclaim by policy" -o "$dest" "${pairs[@]}" ||
		die "$EX_HARNESS" "plot.sh overlay failed for $group"
	rm -f "$tmp"/*.csv
	printf '%s\n' "$dest.png" "$dest.svg"
done < <(for d in "${runs[@]}"; do printf '%s\n' "${row_of[$d]}"; done | sort -u)

# Where reclaim's CPU goes: one chart per experiment (but the policy) with
# profiled runs, the policies' means from labstat.
parts=()
for p in policy rmap lock shadow swapout other; do parts+=(-m "perf.reclaim_us_per_page.$p"); done
while IFS= read -r group; do
	members=()
	for d in "${profiled[@]}"; do
		[[ ${row_of[$d]} == "$group" ]] && members+=("$d")
	done
	slug=$(tr -c 'A-Za-z0-9._-' '-' <<<"${group// /-}" | sed 's/-*$//; s/--*/-/g')
	dest=${out_dir:-$(dirname "${members[0]}")}/reclaim-cpu-$slug
	"$labstat" --csv-long "${ignore[@]}" "${parts[@]}" -m perf.us_per_reclaimed_page "${members[@]}" \
		>"$tmp/perf.csv" 2>"$tmp/perf.err" ||
		die "$EX_HARNESS" "labstat failed on the profiled runs of $group: $(grep -v '^labstat: note:' "$tmp/perf.err" | head -n1)"
	"$plot" reclaim-cpu -t "$group: where reclaim's CPU goes" -o "$dest" "$tmp/perf.csv" ||
		die "$EX_HARNESS" "plot.sh reclaim-cpu failed for $group"
	printf '%s\n' "$dest.png" "$dest.svg"
done < <(for d in "${profiled[@]}"; do printf '%s\n' "${row_of[$d]}"; done | sort -u)
