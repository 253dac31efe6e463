#!/usr/bin/env bash
# lab.sh bound: Belady's OPT and the policy models on a run's own
# reference string, next to what the kernel did in that run.
#
#   bound.sh [--format text|markdown|csv] [--models LIST] [--plot DIR] RUN...
#
# For every run recorded with --refs (refs.bin beside result.json) pagesim
# replays the string at the run's size, mem_available_pages (MemAvailable
# when the workload started, in 4 KiB pages), and the row shows each
# model's misses and the kernel's majflt, pswpin and refaults
# (workingset_refault_anon + _file) of the same run. Model misses include
# the first touch of every page (`distinct`); the kernel counts a first
# touch of anonymous memory as a minor fault, so compare majflt with
# misses - distinct.
#
# --plot DIR draws a miss-ratio curve per workload (and size) into
# DIR/mrc-WORKLOAD[-SIZE].png/.svg with lab/bound-mrc.gp: every model's
# misses beyond the first touch against the cache size, on the reference
# string of the group's first run, and each kernel run as points at its
# size: pswpin and refaults, both in pages (majflt counts faults, and a
# swap-in fault reads ahead several pages).
set -euo pipefail
lab_prog="lab bound"
# shellcheck source=common.sh
source "$(dirname "$0")/common.sh"

usage() {
	cat <<'USAGE'
usage: lab.sh bound [--format text|markdown|csv] [--models LIST] [--plot DIR]
                    [--summary] RUN...

For each run recorded with --refs: OPT's misses and each model's misses
(pagesim) at the run's size (mem_available_pages), next to the kernel's
majflt, pswpin and refaults for that run. RUN: run directories or
directories holding runs at any depth; runs without refs.bin, or whose
exit is not ok, are left out with a note.

  --format F     text (default), markdown or csv
  --models LIST  pagesim models, comma-separated (default: all of
                 pagesim --list-policies)
  --plot DIR     also draw a miss-ratio curve per workload into DIR
                 (mrc-WORKLOAD[-SIZE].png and .svg)
  --summary      only the second table (with --format csv, the default
                 is the first table alone): per workload and policy, OPT, the
                 policy's own model (lru2q for vanilla and lru; none for
                 MGLRU) and the kernel's pswpin, refaults and majflt;
                 opt_refaults and model_refaults are the misses beyond
                 the first touch of each page, comparable with pswpin
                 and refaults
USAGE
}

[[ ${1:-} == -h || ${1:-} == --help ]] && {
	usage
	exit 0
}

format=text models="" plot_dir="" summary_only=0
inputs=()
need() { [[ $# -ge 2 && -n $2 ]] || die "$EX_USAGE" "option $1 needs a value"; }
while [[ $# -gt 0 ]]; do
	case $1 in
	--format) need "$@"; format=$2; shift 2 ;;
	--models) need "$@"; models=$2; shift 2 ;;
	--plot) need "$@"; plot_dir=$2; shift 2 ;;
	--summary) summary_only=1; shift ;;
	--) shift; inputs+=("$@"); break ;;
	-*) die "$EX_USAGE" "unknown option '$1' (see lab.sh bound --help)" ;;
	*) inputs+=("$1"); shift ;;
	esac
done
in_list "$format" text markdown csv || die "$EX_USAGE" "bad --format '$format' (text|markdown|csv)"
((${#inputs[@]})) || die "$EX_USAGE" "need at least one run (see lab.sh bound --help)"
pagesim=$LAB_BUILD/analysis/pagesim
[[ -x $pagesim ]] || die "$EX_MISSING" "no ${pagesim#"$LAB_TOP"/} (run make analysis)"
known=$("$pagesim" --list-policies | awk '{print $1}' | paste -sd,)
[[ -n $models ]] || models=$known
IFS=, read -r -a model_list <<<"$models"
IFS=, read -r -a known_list <<<"$known"
for m in "${model_list[@]}"; do
	in_list "$m" "${known_list[@]}" || die "$EX_USAGE" "unknown model '$m' (pagesim --list-policies: $known)"
done

for arg in "${inputs[@]}"; do
	[[ -e $arg ]] || die "$EX_USAGE" "$arg: no such file or directory"
	[[ -d $arg ]] || die "$EX_USAGE" "$arg: not a directory (a run directory or one holding runs)"
done
runs=() notes=()
while IFS= read -r -d '' r; do
	d=$(dirname "$r")
	if ! jq -e '.exit == "ok"' "$r" >/dev/null 2>&1; then
		notes+=("${d#"$PWD"/}: exit is not ok, left out")
	elif [[ ! -s $d/refs.bin ]]; then
		notes+=("${d#"$PWD"/}: no refs.bin (run without --refs), left out")
	elif ! jq -e '.mem_available_pages > 0' "$r" >/dev/null 2>&1; then
		notes+=("${d#"$PWD"/}: no mem_available_pages in result.json, left out")
	else
		runs+=("$d")
	fi
done < <(
	for arg in "${inputs[@]}"; do
		[[ -e $arg ]] || die "$EX_USAGE" "$arg: no such file or directory"
		[[ -d $arg ]] || die "$EX_USAGE" "$arg: not a directory"
		find "$(cd "$arg" && pwd)" -name result.json -type f -not -path '*/.*' -print0
	done | sort -zu
)
((${#runs[@]})) || die "$EX_USAGE" "no run with a refs.bin (lab.sh run --refs) and exit ok under ${inputs[*]}"
for n in "${notes[@]}"; do say "note: $n"; done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The table, as CSV first; the other formats are made from it.
{
	printf 'workload,policy,run_id,cache_pages,refs,distinct'
	printf ',%s' "${model_list[@]}"
	printf ',majflt,pswpin,refaults\n'
	for d in "${runs[@]}"; do
		r=$d/result.json
		size=$(jq -r .mem_available_pages "$r")
		"$pagesim" --sizes "$size" --policies "$models" --format csv "$d/refs.bin" >"$tmp/sim.csv" ||
			die "$EX_HARNESS" "pagesim failed on ${d#"$PWD"/}/refs.bin"
		jq -r '[(.workload + (if (.params.size // "") != "" then " size=" + .params.size else "" end)),
			.policy, .run_id] | @csv' "$r" | tr -d '"' | tr -d '\n'
		awk -F, -v want="$models" '
			NR == 1 { next }
			{ misses[$1] = $5; refs = $3; distinct = $4; pages = $2 }
			END {
				printf ",%s,%s,%s", pages, refs, distinct
				n = split(want, w, ",")
				for (i = 1; i <= n; i++) printf ",%s", (w[i] in misses) ? misses[w[i]] : "NA"
			}' "$tmp/sim.csv"
		jq -r '[.majflt, .vmstat.pswpin,
			(if .vmstat.workingset_refault_anon == null then null
			 else .vmstat.workingset_refault_anon + (.vmstat.workingset_refault_file // 0) end)]
			| map(if . == null then "NA" else tostring end) | "," + join(",")' "$r"
	done
} >"$tmp/table.csv"

# Per workload and policy: OPT, the policy's own model (the kernel
# policy's user-space counterpart; none for MGLRU) and the kernel, means
# over the runs.
awk -F, '
	function model_of(p) {
		if (p == "vanilla" || p == "lru") return "lru2q"
		if (p == "clockpro" || p == "cart" || p == "cart-r" || p == "random") return p
		return ""
	}
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	{
		k = $1 SUBSEP $2
		if (!(k in n)) order[++keys] = k
		n[k]++; opt[k] += $col["opt"]
		m = model_of($2); name[k] = m
		if (m != "" && (m in col)) model[k] += $col[m]; else name[k] = ""
		sw[k] += $col["pswpin"]; rf[k] += $col["refaults"]; mf[k] += $col["majflt"]
		ds[k] += $col["distinct"]
	}
	# *_refaults: misses beyond the first touch of each page, the part
	# the kernel counts as swap-ins or refaults.
	END {
		print "workload,policy,runs,opt,model,model_misses,kernel_pswpin,kernel_refaults,kernel_majflt,opt_refaults,model_refaults"
		for (i = 1; i <= keys; i++) {
			k = order[i]; split(k, a, SUBSEP)
			printf "%s,%s,%d,%.0f,%s,%s,%.0f,%.0f,%.0f,%.0f,%s\n", a[1], a[2], n[k], opt[k] / n[k],
				(name[k] == "" ? "none" : name[k]),
				(name[k] == "" ? "NA" : sprintf("%.0f", model[k] / n[k])),
				sw[k] / n[k], rf[k] / n[k], mf[k] / n[k], (opt[k] - ds[k]) / n[k],
				(name[k] == "" ? "NA" : sprintf("%.0f", (model[k] - ds[k]) / n[k]))
		}
	}' "$tmp/table.csv" >"$tmp/summary.csv"

# emit CAPTION CSV in the chosen format.
emit() {
	case $format in
	csv) cat "$2" ;;
	text)
		echo "$1"
		column -t -s, "$2"
		;;
	markdown)
		echo "**$1**"
		echo
		awk -F, '
			{ line = "|"; for (i = 1; i <= NF; i++) line = line " " $i " |"; print line }
			NR == 1 { line = "|"; for (i = 1; i <= NF; i++) line = line (i <= 2 ? ":---|" : "---:|"); print line }
		' "$2"
		;;
	esac
}
# CSV is one table: the runs, or with --summary the summary.
if [[ $format == csv ]]; then
	if ((summary_only)); then cat "$tmp/summary.csv"; else cat "$tmp/table.csv"; fi
elif ((!summary_only)); then
	emit "Misses at the run's size (pages; models include the first touch of each page) and the kernel's counts" "$tmp/table.csv"
	echo
	emit "OPT and the policy's model at the runs' size vs the kernel (means over runs; pages, majflt in faults)" "$tmp/summary.csv"
else
	emit "OPT and the policy's model at the runs' size vs the kernel (means over runs; pages, majflt in faults)" "$tmp/summary.csv"
fi

[[ -n $plot_dir ]] || exit 0
mkdir -p "$plot_dir" || die "$EX_HARNESS" "cannot create $plot_dir"
script=$LAB_TOP/lab/bound-mrc.gp
# Groups: workload and size, the table's first column.
while IFS= read -r group; do
	slug=$(tr -c 'A-Za-z0-9._-' '-' <<<"${group/ size=/-}" | sed 's/-*$//')
	first=""
	: >"$tmp/kernel.csv"
	echo "policy,cache_pages,pswpin,refaults" >"$tmp/kernel.csv"
	for d in "${runs[@]}"; do
		g=$(jq -r '.workload + (if (.params.size // "") != "" then " size=" + .params.size else "" end)' "$d/result.json")
		[[ $g == "$group" ]] || continue
		[[ -n $first ]] || first=$d
		jq -r '[.policy, .mem_available_pages, .vmstat.pswpin,
			(if .vmstat.workingset_refault_anon == null then null
			 else .vmstat.workingset_refault_anon + (.vmstat.workingset_refault_file // 0) end)]
			| map(if . == null then "NA" else tostring end) | join(",")' "$d/result.json" >>"$tmp/kernel.csv"
	done
	distinct=$("$pagesim" --sizes 1 --policies opt --format csv "$first/refs.bin" | awk -F, 'NR == 2 {print $4}')
	lo=$((distinct / 10 > 0 ? distinct / 10 : 1))
	hi=$((distinct * 6 / 5))
	step=$(((hi - lo) / 40 > 0 ? (hi - lo) / 40 : 1))
	sizes="$lo:$hi:$step"
	for s in $(tail -n +2 "$tmp/kernel.csv" | cut -d, -f2 | sort -un); do sizes="$sizes,$s"; done
	"$pagesim" --sizes "$sizes" --policies "$models" --format csv "$first/refs.bin" >"$tmp/mrc.csv" ||
		die "$EX_HARNESS" "pagesim failed on ${first#"$PWD"/}/refs.bin"
	sort -t, -k1,1 -s -k2,2n "$tmp/mrc.csv" | awk 'NR == 1 || !/^policy,/' >"$tmp/mrc.sorted"
	{ head -n1 "$tmp/mrc.csv"; grep -v '^policy,' "$tmp/mrc.sorted"; } >"$tmp/mrc.csv.s"
	kernel_list=$(tail -n +2 "$tmp/kernel.csv" | cut -d, -f1 | sort -u | paste -sd' ')
	title="$group ($distinct distinct pages): misses vs cache size"
	out=$plot_dir/mrc-$slug
	for fmt in png svg; do
		part=$(mktemp "$out.XXXXXX.tmp")
		if ! gnuplot -e "models='$tmp/mrc.csv.s'; kernel='$tmp/kernel.csv'; model_list='${model_list[*]}'; kernel_list='$kernel_list'; out='$part'; fmt='$fmt'; title_text='${title//\'/}'" \
			"$script" 2>"$tmp/gp.err" || [[ ! -s $part ]]; then
			rm -f "$part"
			die "$EX_HARNESS" "gnuplot failed on $script: $(grep -v 'no valid points' "$tmp/gp.err" | head -n 2 | tr '\n' ' ')"
		fi
		mv "$part" "$out.$fmt"
	done
	say "miss-ratio curve: $out.png, $out.svg"
done < <(tail -n +2 "$tmp/table.csv" | cut -d, -f1 | sort -u)
