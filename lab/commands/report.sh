#!/usr/bin/env bash
# lab.sh report: one HTML page with the comparison tables and every plot.
#
#   report.sh [--baseline POLICY] [--metric M]... [--ignore PARAM]... DIR
#
# Writes DIR/report.html and its images in DIR/report-plots/: the
# comparison tables (labstat writes them as HTML, and the long CSV for the
# charts, in one pass), a comparison chart per metric (analysis/plot
# compare), the timelines and overlays of lab.sh plot for runs with a
# trace.dat, where reclaim's CPU goes in runs profiled with --trace perf
# (lab.sh plot's bars, and per experiment each policy's top 15 kernel
# symbols by difference in CPU time against the baseline's, from
# analysis/perf's perf-diff, each linked to its folded stacks in
# report-plots/perf-diff/), and the OPT/model tables (HTML from labstat too) and
# miss-ratio curves of lab.sh bound for runs with refs.bin. The page
# links its images relatively, so DIR can be moved or served as is. Both
# are built under temporary names and renamed when complete.
set -euo pipefail
lab_prog="lab report"
# shellcheck source=../lib/common.sh
source "$(dirname "$0")/../lib/common.sh"
# shellcheck source=../lib/experiment.sh
source "$LAB_TOP/lab/lib/experiment.sh"

usage() {
	cat <<'USAGE'
usage: lab.sh report [--baseline POLICY] [--metric M]... [--ignore PARAM]... DIR
       lab.sh report --experiment NAME [--series HEX] [--results DIR] [--ignore PARAM]...

Writes DIR/report.html (and DIR/report-plots/) from every run under DIR:
the comparison tables (mean ± 95% CI, ratio, Welch's t-test), comparison
charts, reclaim timelines and overlays of traced runs, where reclaim's
CPU goes in profiled runs (--trace perf: per policy, a stacked bar and
the 15 kernel symbols whose CPU time differs most from the baseline's,
each linked to its folded stacks), and Belady/model bounds of runs
recorded with --refs.

  --baseline P   as in lab.sh compare (default: lru, else vanilla)
  --metric M     as in lab.sh compare, repeatable
  --ignore P     as in lab.sh compare, repeatable
  --experiment NAME  the runs of experiments/NAME.conf's matrix with its
                 baseline and metrics (the report goes into the matrix's
                 directory); --series and --results as in lab.sh compare
USAGE
}

[[ ${1:-} == -h || ${1:-} == --help ]] && {
	usage
	exit 0
}

baseline="" metrics=() ignore=() dir="" experiment="" series="" results_top=""
while [[ $# -gt 0 ]]; do
	case $1 in
	--baseline) need "$@"; baseline=$2; shift 2 ;;
	--metric | -m) need "$@"; metrics+=(--metric "$2"); shift 2 ;;
	--ignore) need "$@"; ignore+=(--ignore "$2"); shift 2 ;;
	--experiment) need "$@"; experiment=$2; shift 2 ;;
	--series) need "$@"; series=$2; shift 2 ;;
	--results) need "$@"; results_top=$2; shift 2 ;;
	-*) die "$EX_USAGE" "unknown option '$1' (see lab.sh report --help)" ;;
	*)
		[[ -z $dir ]] || die "$EX_USAGE" "one DIR only (see lab.sh report --help)"
		dir=$1
		shift
		;;
	esac
done
[[ -z $series$results_top || -n $experiment ]] || die "$EX_USAGE" "--series and --results go with --experiment"
if [[ -n $experiment ]]; then
	[[ -z $dir && -z $baseline && ${#metrics[@]} == 0 ]] ||
		die "$EX_USAGE" "--experiment gives the runs, the baseline and the metrics: no DIR, --baseline or --metric with it"
	experiment_matrix "$experiment" "$series" "$results_top"
	dir=$exp_matrix baseline=$exp_baseline
	for m in "${exp_metrics[@]}"; do metrics+=(--metric "$m"); done
fi
[[ -n $dir ]] || die "$EX_USAGE" "need a results directory (see lab.sh report --help)"
[[ -d $dir ]] || die "$EX_USAGE" "$dir: not a directory"
dir=$(cd "$dir" && pwd)
labstat=$LAB_BUILD/analysis/labstat
require_tools "$labstat"

mapfile -d '' results < <(find "$dir" -name result.json -type f -not -path '*/.*' -print0 | sort -z)
((${#results[@]})) || die "$EX_USAGE" "no runs (result.json) under $dir"
if [[ -z $baseline ]]; then
	have=$(jq -r .policy "${results[@]}" | sort -u)
	baseline=lru
	grep -qx lru <<<"$have" || { grep -qx vanilla <<<"$have" && baseline=vanilla; }
fi

work=$(mktemp -d "$dir/.report.XXXXXX")
trap 'rm -rf "$work"' EXIT
plots=$work/report-plots
mkdir -p "$plots"

# Tables: HTML for the page and the long CSV for the charts, in one pass.
rc=0
"$labstat" --baseline "$baseline" --format html --long-csv "$work/long.csv" "${metrics[@]}" \
	"${ignore[@]}" "${results[@]%/result.json}" >"$work/compare.html" 2>"$work/compare.err" || rc=$?
if ((rc != 0)); then
	die "$((rc == 1 ? EX_HARNESS : rc))" "$(grep -v '^labstat: \(note\|warning\):' "$work/compare.err" | tail -n1)"
fi

# Comparison charts: one per metric, when some policy is not the baseline
# and has a ratio to it (none when the baseline's mean is 0, as OOM kills
# mostly are).
charts=()
while IFS= read -r metric; do
	slug=$(tr -c 'A-Za-z0-9._-' '-' <<<"$metric" | sed 's/-*$//')
	if "$LAB_TOP/analysis/plot/plot.sh" compare -b "$baseline" -m "$metric" \
		-o "$plots/compare-$slug" "$work/long.csv" 2>"$work/plot.err"; then
		charts+=("compare-$slug")
	else
		say "note: no comparison chart for $metric: $(tail -n1 "$work/plot.err")"
	fi
done < <(awk -F, -v b="$baseline" 'NR > 1 && $4 != b && $10 != "NA" {print $1}' "$work/long.csv" | awk '!seen[$0]++')

html_escape() { sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g'; }

# Timelines and overlays of traced runs, reclaim CPU bars of profiled ones.
traced=0 profiled=0
for r in "${results[@]}"; do
	[[ -s $(dirname "$r")/trace.dat ]] && traced=1
	jq -e '.perf | type == "object"' "$r" >/dev/null && profiled=1
done
if ((traced || profiled)); then
	"$LAB_TOP/lab/commands/plot.sh" --out "$plots" "$dir" >/dev/null 2>"$work/plot.err" ||
		die "$EX_HARNESS" "lab.sh plot failed: $(tail -n1 "$work/plot.err")"
fi

# Profiled runs: per experiment, each column against the baseline's, the
# 15 kernel symbols whose CPU time differs most (perf-diff), with the
# folded stacks through each in report-plots/perf-diff/.
slug() { tr -c 'A-Za-z0-9_.+-' '-' <<<"$1" | sed 's/-*$//; s/--*/-/g'; }
if ((profiled)); then
	"$labstat" --list-runs "${ignore[@]}" "${results[@]%/result.json}" >"$work/runs.csv" 2>"$work/list.err" ||
		die "$EX_HARNESS" "labstat --list-runs failed: $(grep -v '^labstat: note:' "$work/list.err" | head -n1)"
	declare -A perf_runs=() base_col=()
	while IFS=, read -r row column policy result; do
		jq -e '.perf | type == "object"' "$result" >/dev/null || continue
		perf_runs[$row$'\t'$column]+="$(dirname "$result")"$'\n'
		[[ $policy != "$baseline" || -n ${base_col[$row]:-} ]] || base_col[$row]=$column
	done < <(tail -n +2 "$work/runs.csv")
	: >"$work/perf-diff.html"
	for key in "${!perf_runs[@]}"; do printf '%s\n' "$key"; done | sort | while IFS=$'\t' read -r row column; do
		base=${base_col[$row]:-}
		[[ -n $base && $column != "$base" ]] || continue
		sub=perf-diff/$(slug "$row")-$(slug "$column")
		mkdir -p "$plots/$sub"
		args=(--label-a "$(slug "$column")" --label-b "$(slug "$base")")
		while IFS= read -r d; do [[ -n $d ]] && args+=(-a "$d"); done <<<"${perf_runs[$row$'\t'$column]}"
		while IFS= read -r d; do [[ -n $d ]] && args+=(-b "$d"); done <<<"${perf_runs[$row$'\t'$base]}"
		printf '<h3>%s: %s against %s</h3>\n' "$(html_escape <<<"$row")" "$(html_escape <<<"$column")" \
			"$(html_escape <<<"$base")" >>"$work/perf-diff.html"
		"$LAB_BUILD/analysis/perf-diff" --top 15 --format html --stacks "$plots/$sub" \
			--link-prefix "report-plots/$sub/" "${args[@]}" >>"$work/perf-diff.html" 2>"$work/diff.err" ||
			die "$EX_HARNESS" "perf-diff failed on $row, $column: $(tail -n1 "$work/diff.err")"
	done
fi

# Bounds of runs with reference strings.
with_refs=0
for r in "${results[@]}"; do [[ -s $(dirname "$r")/refs.bin ]] && with_refs=1; done
if ((with_refs)); then
	"$LAB_TOP/lab/commands/bound.sh" --format html --plot "$plots" "${ignore[@]}" "$dir" >"$work/bound.html" 2>"$work/bound.err" ||
		die "$EX_HARNESS" "lab.sh bound failed: $(tail -n1 "$work/bound.err")"
fi

figure() {	# figure NAME CAPTION
	printf '<figure><img src="report-plots/%s.png" alt="%s"><figcaption>%s (<a href="report-plots/%s.svg">SVG</a>)</figcaption></figure>\n' \
		"$1" "$2" "$2" "$1"
}

{
	cat <<HEAD
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>pgrep-lab report: $(basename "$dir" | html_escape)</title>
<style>
body { font-family: sans-serif; margin: 2em; max-width: 1200px; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid #bbb; padding: 0.2em 0.6em; text-align: right; }
th.l, td.l { text-align: left; }
caption { font-weight: bold; text-align: left; padding: 0.3em 0; }
.trace-loss { color: #b00; }
figure { margin: 1em 0; } img { max-width: 100%; border: 1px solid #ddd; }
figcaption { font-size: 0.9em; color: #444; }
</style></head><body>
<h1>pgrep-lab report</h1>
HEAD
	printf '<p>%s runs under <code>%s</code>; baseline <b>%s</b>; generated %s.</p>\n' \
		"${#results[@]}" "$(html_escape <<<"$dir")" "$(html_escape <<<"$baseline")" "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "<h2>Comparison</h2>"
	cat "$work/compare.html"
	if ((${#charts[@]})); then
		echo "<h2>Comparison charts</h2>"
		for c in "${charts[@]}"; do figure "$c" "${c#compare-} relative to $baseline, 95% CI, * p &lt; 0.05"; done
	fi
	if ((with_refs)); then
		echo "<h2>Belady's OPT and the models on the runs' reference strings</h2>"
		cat "$work/bound.html"
		for f in "$plots"/mrc-*.png; do
			[[ -e $f ]] || continue
			n=$(basename "$f" .png)
			figure "$n" "miss-ratio curve: ${n#mrc-}"
		done
	fi
	if ((profiled)); then
		echo "<h2>Where reclaim's CPU goes (--trace perf)</h2>"
		for f in "$plots"/reclaim-cpu-*.png; do
			[[ -e $f ]] || continue
			n=$(basename "$f" .png)
			figure "$n" "${n#reclaim-cpu-}: guest CPU per reclaimed page by part, mean over the runs"
		done
		if [[ -s $work/perf-diff.html ]]; then
			echo "<h2>Kernel symbols whose CPU time differs most from $(html_escape <<<"$baseline")'s</h2>"
			echo "<p>Self: the symbol's own code; children: with what it calls. Each set's folded stacks through a symbol are linked (flamegraph.pl, speedscope).</p>"
			cat "$work/perf-diff.html"
		fi
	fi
	if ((traced)); then
		echo "<h2>Reclaim overlays</h2>"
		for f in "$plots"/overlay-*.png; do
			[[ -e $f ]] || continue
			n=$(basename "$f" .png)
			figure "$n" "${n#overlay-}: all traced runs"
		done
		echo "<h2>Reclaim timelines</h2>"
		for f in "$plots"/*-timeline.png; do
			[[ -e $f ]] || continue
			n=$(basename "$f" .png)
			figure "$n" "${n%-timeline}"
		done
	fi
	echo "</body></html>"
} >"$work/report.html"

# Swap in the new plots, then the page that links them.
rm -rf "$dir/report-plots.old"
[[ -d $dir/report-plots ]] && mv "$dir/report-plots" "$dir/report-plots.old"
mv "$plots" "$dir/report-plots"
rm -rf "$dir/report-plots.old"
mv "$work/report.html" "$dir/report.html"
printf '%s\n' "$dir/report.html"
