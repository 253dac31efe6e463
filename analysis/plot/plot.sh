#!/usr/bin/env bash
# Drives the gnuplot scripts beside it; writes OUT.png and OUT.svg.
set -euo pipefail

PLOT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PROG=plot.sh

usage() {
	cat <<'USAGE'
usage: plot.sh timeline [-t TITLE] [-i SECONDS] -o OUT TIMELINE.csv
       plot.sh overlay  [-t TITLE] [-i SECONDS] -o OUT LABEL=TIMELINE.csv...
       plot.sh compare  [-t TITLE] [-b BASELINE] -m METRIC -o OUT LABSTAT-LONG.csv
       plot.sh bound    [-t TITLE] -o OUT PAGESIM.csv KERNEL.csv
       plot.sh reclaim-cpu [-t TITLE] -o OUT LABSTAT-LONG.csv
       plot.sh sweep    [-t TITLE] -o OUT SWEEP.csv
timeline: reclaim activity of one run (trace-timeline CSV).
overlay:  several runs of one workload, one line per LABEL (e.g. the policy).
compare:  policies x workloads relative to BASELINE (labstat --csv-long).
bound:    misses vs cache size, one line per pagesim model (pagesim --format
          csv over several sizes), the kernel's runs as points (KERNEL.csv:
          policy,cache_pages,pswpin,refaults).
reclaim-cpu: per policy, a bar of reclaim's guest CPU per reclaimed page
          stacked by part (labstat --csv-long of perf.reclaim_us_per_page.PART
          for the six parts and perf.us_per_reclaimed_page, one workload).
sweep:    the kernel's miss-ratio curve of one policy on one workload:
          lab.sh sweep's sweep.csv rows of that pair, kernel against its
          model and OPT per workload size.
Writes OUT.png and OUT.svg (whole or not at all). -i gives the CSV's
interval when it cannot be read from the first two rows.
USAGE
}

die() {
	echo "$PROG: $*" >&2
	exit 1
}

require_header() {	# require_header FILE COLUMN...
	local file=$1 header col
	shift
	[[ -r $file ]] || die "$file: cannot read"
	IFS= read -r header <"$file" || die "$file: empty"
	for col in "$@"; do
		[[ ",$header," == *",$col,"* ]] || die "$file: no column $col (not the expected CSV)"
	done
}

interval_of() {	# interval_of FILE OVERRIDE
	if [[ -n $2 ]]; then
		echo "$2"
		return
	fi
	local iv
	iv=$(awk -F, 'NR == 2 { a = $1 } NR == 3 { printf "%.9g\n", $1 - a; exit }' "$1")
	[[ -n $iv ]] || die "$1: fewer than two rows, cannot tell the interval (pass -i SECONDS)"
	echo "$iv"
}

# Columns among the given ones that are NA in every row (event not traced).
absent_columns() {	# absent_columns FILE COLUMN...
	local file=$1
	shift
	awk -F, -v want="$*" '
		NR == 1 { n = split(want, w, " "); for (i = 1; i <= NF; i++) idx[$i] = i; next }
		{ for (k = 1; k <= n; k++) if ($(idx[w[k]]) != "NA") seen[w[k]] = 1 }
		END { s = ""; for (k = 1; k <= n; k++) if (!(w[k] in seen)) s = s (s == "" ? "" : " ") w[k]; print s }
	' "$file"
}

# "N events lost in M intervals" when the trace lost events (the CSV's
# lost_events and lost_gaps columns), else nothing.
lost_summary() {	# lost_summary FILE
	awk -F, '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; if (!("lost_gaps" in c)) exit; next }
		$(c["lost_gaps"]) > 0 { n++; lost += $(c["lost_events"]) }
		END { if (n) printf "ring buffer lost %.0f events in %d interval%s (shaded)\n", lost, n, n == 1 ? "" : "s" }
	' "$1"
}

# "N policy switches (M fallbacks to lru)" when the trace has any (the
# CSV's switches and fallbacks columns), else nothing.
switch_summary() {	# switch_summary FILE
	awk -F, '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; if (!("switches" in c)) exit; next }
		$(c["switches"]) != "NA" { n += $(c["switches"]) }
		("fallbacks" in c) && $(c["fallbacks"]) != "NA" { f += $(c["fallbacks"]) }
		END { if (n || f) printf "%d policy switch%s (%d fallback%s to lru), marked\n", n, n == 1 ? "" : "es", f, f == 1 ? "" : "s" }
	' "$1"
}

quote() {	# a gnuplot string literal
	local s=${1//\\/\\\\}
	printf '"%s"' "${s//\"/\\\"}"
}

render() {	# render OUT SCRIPT GNUPLOT-ASSIGNMENTS
	local out=$1 script=$2 vars=$3 fmt tmp
	for fmt in png svg; do
		tmp=$(mktemp "$out.XXXXXX.tmp")
		if ! gnuplot -e "$vars; fmt=\"$fmt\"; out=$(quote "$tmp")" "$PLOT_DIR/$script" 2>"$tmp.err" ||
			[[ ! -s $tmp ]]; then
			local why
			why=$(grep -v 'Skipping data file with no valid points' "$tmp.err" | tr '\n' ' ')
			rm -f "$tmp" "$tmp.err"
			die "gnuplot failed on $script: ${why:-no output}"
		fi
		rm -f "$tmp.err"
		mv "$tmp" "$out.$fmt"
	done
}

SCAN_COLUMNS="scanned_anon scanned_file reclaimed_anon reclaimed_file"
STATE_COLUMNS="activated_anon activated_file deactivated_anon deactivated_file remembered_anon
remembered_file refaulted_anon refaulted_file"
IO_COLUMNS="swapin swapout file_writes"
TIMELINE_COLUMNS="$SCAN_COLUMNS $STATE_COLUMNS $IO_COLUMNS"

present_columns() {	# present_columns ABSENT COLUMN...: those not in ABSENT
	local absent=" $1 " col list=""
	shift
	for col in "$@"; do
		[[ $absent == *" $col "* ]] || list+=" $col"
	done
	echo "${list# }"
}

# The policy's own gauges (trace-timeline's POLICY_EVENT.FIELD[.anon|.file]
# columns) that the trace gave a value other than 0, without the hands'
# running totals, which dwarf the targets: a policy that did not run (its
# event is in every lab trace's formats) gets no lines.
policy_columns() {	# policy_columns CSV
	awk -F, '
		NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /^page_replace_[a-z_]+\./ && $i !~ /_hand/) want[i] = $i; next }
		{ for (i in want) if ($i != "NA" && $i != "" && $i + 0 != 0) seen[i] = 1 }
		END { for (i = 1; i <= NF; i++) if (i in seen) printf "%s ", want[i] }
	' "$1"
}

cmd_timeline() {
	local file=$1 iv absent
	# shellcheck disable=SC2086 # the column list is meant to split
	require_header "$file" t_s $TIMELINE_COLUMNS
	iv=$(interval_of "$file" "$interval")
	# shellcheck disable=SC2086
	absent=$(absent_columns "$file" $TIMELINE_COLUMNS)
	# shellcheck disable=SC2086
	render "$out" timeline.gp "data=$(quote "$file"); interval=$iv; \
title_text=$(quote "${title:-reclaim timeline: $file}"); absent_note=$(quote "$absent"); \
scan_cols=$(quote "$(present_columns "$absent" $SCAN_COLUMNS)"); \
state_cols=$(quote "$(present_columns "$absent" $STATE_COLUMNS)"); \
io_cols=$(quote "$(present_columns "$absent" $IO_COLUMNS)"); \
policy_cols=$(quote "$(policy_columns "$file")"); lost_note=$(quote "$(lost_summary "$file")"); \
switch_note=$(quote "$(switch_summary "$file")")"
}

cmd_overlay() {
	local files="" intervals="" arg label file panel absent lost_runs="" lost_keys="" i=0
	local -A keys=([scanned]="" [reclaimed]="" [refaulted]="" [swapout]="")
	local -A panel_columns=([scanned]="scanned_anon scanned_file"
		[reclaimed]="reclaimed_anon reclaimed_file"
		[refaulted]="refaulted_anon refaulted_file" [swapout]="swapout")
	for arg in "$@"; do
		[[ $arg == *=* ]] || die "overlay wants LABEL=TIMELINE.csv, got '$arg'"
		label=${arg%%=*}
		file=${arg#*=}
		[[ $label =~ ^[A-Za-z0-9_.+-]+$ ]] || die "label '$label': letters, digits, _ . + - only"
		[[ $file != *" "* ]] || die "$file: paths with spaces are not supported"
		require_header "$file" t_s scanned_anon scanned_file reclaimed_anon reclaimed_file \
			refaulted_anon refaulted_file swapout
		files+=" $file"
		for panel in "${!panel_columns[@]}"; do
			# shellcheck disable=SC2086
			absent=$(absent_columns "$file" ${panel_columns[$panel]})
			if [[ -n $absent ]]; then
				keys[$panel]+=" \"$label (not traced)\""
			else
				keys[$panel]+=" \"$label\""
			fi
		done
		intervals+=" $(interval_of "$file" "$interval")"
		i=$((i + 1))
		if [[ -n $(lost_summary "$file") ]]; then
			lost_runs+=" $i"
			lost_keys+=" \"$label: events lost\""
		fi
	done
	render "$out" overlay.gp "files=$(quote "${files# }"); intervals=$(quote "${intervals# }"); \
keys_scanned=$(quote "${keys[scanned]# }"); keys_reclaimed=$(quote "${keys[reclaimed]# }"); \
keys_refaulted=$(quote "${keys[refaulted]# }"); keys_swapout=$(quote "${keys[swapout]# }"); \
lost_runs=$(quote "${lost_runs# }"); lost_keys=$(quote "${lost_keys# }"); \
title_text=$(quote "${title:-reclaim activity by policy}")"
}

cmd_compare() {
	local file=$1 policies xtics ymax
	[[ -n $metric ]] || die "compare needs -m METRIC"
	require_header "$file" metric workload workload_idx policy policy_idx ratio ratio_lo ratio_hi significant
	# Policies in policy_idx order and one tic per workload, for this metric.
	policies=$(awk -F, -v m="$metric" 'NR > 1 && $1 == m { name[$5] = $4; if ($5 > max) max = $5; any = 1 }
		END { if (any) for (i = 0; i <= max; i++) printf "%s%s", (i ? " " : ""), (i in name ? name[i] : "-") }' "$file")
	[[ -n $policies ]] || die "$file: no rows for metric $metric"
	xtics=$(awk -F, -v m="$metric" 'NR > 1 && $1 == m && !($3 in seen) { seen[$3] = 1
		gsub(/"/, "", $2); s = s (s == "" ? "" : ", ") "\"" $2 "\" " $3 }
		END { print "set xtics (" s ")" }' "$file")
	ymax=$(awk -F, -v m="$metric" 'NR > 1 && $1 == m { for (i = 10; i <= 12; i++) if ($i != "NA" && $i > y) y = $i }
		END { printf "%.6g\n", (y > 0 ? y : 1) * 1.12 }' "$file")
	render "$out" compare.gp "data=$(quote "$file"); metric=$(quote "$metric"); ymax=$ymax; \
policies=$(quote "$policies"); xtics_cmd=$(quote "$xtics"); baseline=$(quote "$baseline"); \
title_text=$(quote "${title:-$metric relative to $baseline}")"
}

cmd_bound() {
	local sim=$1 kernel=$2 model_list kernel_list sorted
	require_header "$sim" policy cache_pages refs distinct misses
	require_header "$kernel" policy cache_pages pswpin refaults
	# Each model's points in size order, models in the order pagesim gave.
	model_list=$(awk -F, 'NR > 1 && !seen[$1]++ { printf "%s%s", (n++ ? " " : ""), $1 }' "$sim")
	[[ -n $model_list ]] || die "$sim: no rows"
	kernel_list=$(awk -F, 'NR > 1 && !seen[$1]++ { printf "%s%s", (n++ ? " " : ""), $1 }' "$kernel")
	sorted=$(mktemp)
	# shellcheck disable=SC2064 # the name is fixed now
	trap "rm -f '$sorted'" EXIT
	{ head -n1 "$sim"; tail -n +2 "$sim" | sort -t, -k1,1 -s -k2,2n; } >"$sorted"
	render "$out" bound.gp "models=$(quote "$sorted"); kernel=$(quote "$kernel"); \
model_list=$(quote "$model_list"); kernel_list=$(quote "$kernel_list"); \
title_text=$(quote "${title:-misses vs cache size}")"
}

# The parts of perf-reclaim's reclaim_us_per_page, in the bars' order.
RECLAIM_PARTS="policy rmap lock shadow swapout other"

cmd_reclaim_cpu() {
	local file=$1 wide part metrics="perf.us_per_reclaimed_page"
	require_header "$file" metric workload policy policy_idx mean ci95
	for part in $RECLAIM_PARTS; do metrics+=" perf.reclaim_us_per_page.$part"; done
	# One row per policy (policy_idx order): its part means, the total's
	# mean and CI; a workload's rows only (labstat's gmean rows left out).
	wide=$(mktemp "$out.XXXXXX.csv")
	# shellcheck disable=SC2064 # the name is fixed now
	trap "rm -f '$wide'" EXIT
	awk -F, -v metrics="$metrics" '
		BEGIN { n = split(metrics, m, " "); for (i = 1; i <= n; i++) col[m[i]] = i }
		NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
		$(h["workload"]) == "gmean" || !($(h["metric"]) in col) { next }
		{
			w[$(h["workload"])] = 1
			p = $(h["policy_idx"]); name[p] = $(h["policy"]); if (p > max) max = p
			v[p, col[$(h["metric"])]] = $(h["mean"])
			if ($(h["metric"]) == m[1]) ci[p] = $(h["ci95"])
		}
		END {
			k = 0; for (x in w) k++
			if (k != 1) { print "one workload per plot, got " k > "/dev/stderr"; exit 1 }
			printf "policy"; for (i = 2; i <= n; i++) { s = m[i]; sub(/.*\./, "", s); printf ",%s", s }
			print ",total,total_ci95"
			for (p = 0; p <= max; p++) {
				if (!(p in name) || !((p, 1) in v)) continue
				printf "%s", name[p]
				for (i = 2; i <= n; i++) printf ",%s", ((p, i) in v ? v[p, i] : "NA")
				printf ",%s,%s\n", v[p, 1], (p in ci ? ci[p] : "NA")
			}
		}' "$file" >"$wide" || die "$file: not one workload's reclaim CPU (labstat --csv-long of the perf metrics)"
	[[ $(wc -l <"$wide") -gt 1 ]] || die "$file: no rows of perf.us_per_reclaimed_page"
	render "$out" reclaim_cpu.gp "data=$(quote "$wide"); \
title_text=$(quote "${title:-reclaim CPU per reclaimed page}")"
}

cmd_sweep() {
	local file=$1 has_model
	require_header "$file" workload policy size_pct refs kernel kernel_min kernel_max \
		model_beyond opt_beyond
	[[ $(awk -F, 'NR > 1 { print $1 "," $2 }' "$file" | sort -u | wc -l) == 1 ]] ||
		die "$file: not the rows of one workload and policy"
	has_model=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "model_beyond") c = i; next }
		$c != "NA" && $c != "" { h = 1 } END { print h + 0 }' "$file")
	render "$out" sweep.gp "data=$(quote "$file"); has_model=$has_model; \
title_text=$(quote "${title:-pages read back against workload size}")"
}

main() {
	[[ $# -ge 1 ]] || { usage >&2; exit 2; }
	local mode=$1
	shift
	case $mode in
	-h | --help) usage; exit 0 ;;
	timeline | overlay | compare | bound | reclaim-cpu | sweep) ;;
	*) echo "$PROG: unknown mode '$mode' (timeline, overlay, compare, bound, reclaim-cpu, sweep)" >&2; exit 2 ;;
	esac
	out="" title="" interval="" metric="" baseline=lru
	local opt
	OPTIND=1
	while getopts "o:t:i:m:b:h" opt; do
		case $opt in
		o) out=$OPTARG ;;
		t) title=$OPTARG ;;
		i) interval=$OPTARG ;;
		m) metric=$OPTARG ;;
		b) baseline=$OPTARG ;;
		h) usage; exit 0 ;;
		*) echo "$PROG: bad arguments (see plot.sh --help)" >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	[[ -n $out ]] || { echo "$PROG: -o OUT is required" >&2; exit 2; }
	[[ -z $interval || $interval =~ ^[0-9]*\.?[0-9]+$ ]] || die "bad -i '$interval'"
	case $mode in
	timeline)
		[[ $# -eq 1 ]] || { echo "$PROG: timeline takes one CSV" >&2; exit 2; }
		cmd_timeline "$1" ;;
	overlay)
		[[ $# -ge 1 ]] || { echo "$PROG: overlay takes LABEL=CSV arguments" >&2; exit 2; }
		cmd_overlay "$@" ;;
	compare)
		[[ $# -eq 1 ]] || { echo "$PROG: compare takes one labstat --csv-long file" >&2; exit 2; }
		cmd_compare "$1" ;;
	bound)
		[[ $# -eq 2 ]] || { echo "$PROG: bound takes a pagesim CSV and a kernel CSV" >&2; exit 2; }
		cmd_bound "$1" "$2" ;;
	reclaim-cpu)
		[[ $# -eq 1 ]] || { echo "$PROG: reclaim-cpu takes one labstat --csv-long file" >&2; exit 2; }
		cmd_reclaim_cpu "$1" ;;
	sweep)
		[[ $# -eq 1 ]] || { echo "$PROG: sweep takes one sweep.csv" >&2; exit 2; }
		cmd_sweep "$1" ;;
	esac
}

main "$@"
