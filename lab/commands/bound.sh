#!/usr/bin/env bash
# lab.sh bound: Belady's OPT and the policy models on a run's own
# reference string, next to what the kernel did in that run.
#
#   bound.sh [--format text|markdown|html|csv] [--models LIST] [--plot DIR]
#            [--size available|resident] [--refs FILE] [--summary]
#            [--ignore PARAM]... RUN...
#
# Orchestration only: for every run recorded with --refs (refs.bin beside
# result.json) pagesim replays the string at the run's size,
# mem_available_pages (MemAvailable when the workload started, in 4 KiB
# pages), or with --size resident at the cache the run's data really had
# (workload_result.resident_pages: its mean resident set in the loop, which
# the cyclic workloads measure with mincore()); labstat --bound puts each
# model's misses beside the kernel's majflt, pswpin and refaults, and
# averages the reps of each experiment (labstat's one grouping rule; the
# policy-to-model mapping is labstat's too). Model misses include the
# first touch of every page (`distinct`); the kernel counts a first touch
# of anonymous memory as a minor fault, so compare majflt with misses -
# distinct. --refs FILE replays one string for runs recorded without
# --refs: the workloads' strings depend only on their options and seed,
# so the binary's --emit-refs on the host writes the string a run had.
#
# --plot DIR draws a miss-ratio curve per experiment into
# DIR/mrc-SLUG.png/.svg with analysis/plot/plot.sh bound: every model's
# misses beyond the first touch against the cache size, on the reference
# string of the experiment's first run, and each kernel run as points at
# its size: pswpin and refaults, both in pages (majflt counts faults, and
# a swap-in fault reads ahead several pages).
set -euo pipefail
lab_prog="lab bound"
# shellcheck source=../lib/common.sh
source "$(dirname "$0")/../lib/common.sh"

usage() {
	cat <<'USAGE'
usage: lab.sh bound [--format text|markdown|html|csv] [--models LIST] [--plot DIR]
                    [--size available|resident] [--refs FILE] [--summary]
                    [--ignore PARAM]... RUN...

For each run recorded with --refs: OPT's misses and each model's misses
(pagesim) at the run's size (mem_available_pages), next to the kernel's
majflt, pswpin and refaults for that run, and the pages it read back by
its workload's read_back counter (lab/registry/workloads.tsv:
read_back_counter, read_back). RUN: run directories or
directories holding runs at any depth; runs without refs.bin, or whose
exit is not ok, are left out with a note.

  --format F     text (default), markdown, html or csv
  --models LIST  pagesim models, comma-separated (default: all of
                 pagesim --list-policies)
  --plot DIR     also draw a miss-ratio curve per experiment into DIR
                 (mrc-WORKLOAD[-PARAMS].png and .svg)
  --size S       the cache size the models replay at: available (default,
                 MemAvailable when the workload started) or resident (the
                 mean resident set of the run's data in its loop, which
                 the workloads measure; runs without it are left out
                 with a note)
  --refs FILE    replay FILE (LABREFS1, e.g. the workload's --emit-refs on
                 the host with the run's size and seed) for every run
                 instead of its refs.bin, so that runs recorded without
                 --refs can be compared; all runs must be of one
                 workload, size (workload_result.size_bytes) and seed
  --summary      only the second table (with --format csv, the default
                 is the first table alone): per experiment, OPT, the
                 policy's own model (lru2q for vanilla and lru; none for
                 MGLRU) and the kernel's pswpin, refaults and majflt;
                 opt_refaults and model_refaults are the misses beyond
                 the first touch of each page, comparable with pswpin
                 and refaults; kernel_data_rereads, for runs traced with
                 --trace-profile page-cache, counts only the data
                 disk's pages read back (result.json's data_page_cache),
                 where refaults count the system's files too
  --sweep SIZE   only lab.sh sweep's row per experiment, its size column
                 SIZE: the means of the runs' cache, distinct pages and
                 references, the pages read back (mean, least, most), the
                 model's and OPT's misses beyond the first touch and the
                 kernel's ratio to each
  --ignore P     merge runs that differ only in parameter P (as in
                 lab.sh compare; repeatable)
USAGE
}

[[ ${1:-} == -h || ${1:-} == --help ]] && {
	usage
	exit 0
}

format=text models="" plot_dir="" summary_only=0 size_from=available refs_file="" sweep_size=""
inputs=() ignore=()
while [[ $# -gt 0 ]]; do
	case $1 in
	--format) need "$@"; format=$2; shift 2 ;;
	--models) need "$@"; models=$2; shift 2 ;;
	--plot) need "$@"; plot_dir=$2; shift 2 ;;
	--size) need "$@"; size_from=$2; shift 2 ;;
	--refs) need "$@"; refs_file=$2; shift 2 ;;
	--summary) summary_only=1; shift ;;
	--sweep) need "$@"; sweep_size=$2; shift 2 ;;
	--ignore) need "$@"; ignore+=(--ignore "$2"); shift 2 ;;
	--) shift; inputs+=("$@"); break ;;
	-*) die "$EX_USAGE" "unknown option '$1' (see lab.sh bound --help)" ;;
	*) inputs+=("$1"); shift ;;
	esac
done
in_list "$format" text markdown html csv || die "$EX_USAGE" "bad --format '$format' (text|markdown|html|csv)"
in_list "$size_from" available resident || die "$EX_USAGE" "bad --size '$size_from' (available|resident)"
((${#inputs[@]})) || die "$EX_USAGE" "need at least one run (see lab.sh bound --help)"
[[ -z $refs_file || -s $refs_file ]] || die "$EX_USAGE" "--refs: no such reference string: $refs_file"
pagesim=$LAB_BUILD/analysis/pagesim
labstat=$LAB_BUILD/analysis/labstat
require_tools "$pagesim" "$labstat"
known=$("$pagesim" --list-policies | awk '{print $1}' | paste -sd,)
# Every model, and clockpro with the 2006 port's insertion, the model of
# the kernel's clockpro under page_replace.clockpro_insert=port.
[[ -n $models ]] || models=$known,clockpro:insert=port
IFS=, read -r -a model_list <<<"$models"
IFS=, read -r -a known_list <<<"$known"
for m in "${model_list[@]}"; do
	# NAME or NAME:OPTION=VALUE (pagesim checks the option)
	in_list "${m%%:*}" "${known_list[@]}" || die "$EX_USAGE" "unknown model '$m' (pagesim --list-policies: $known)"
done
require_dirs "${inputs[@]}"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# labstat's notes (runs left out) as ours; its first other line as the error.
relay_notes() { sed -n 's/^labstat: \(note: .*\)/\1/p' "$1" | while IFS= read -r n; do say "$n"; done; }
first_error() { grep -v '^labstat: note:' "$1" | head -n1 | sed 's/^labstat: //'; }

# The runs with refs.bin, and each one's row (experiment) from labstat.
"$labstat" --list-runs "${ignore[@]}" "${inputs[@]}" >"$tmp/runs.csv" 2>"$tmp/list.err" ||
	die "$EX_USAGE" "$(first_error "$tmp/list.err")"
relay_notes "$tmp/list.err"
runs=() rows=() notes=() refs_key=""
while IFS=, read -r row _ _ result; do
	d=$(dirname "$result")
	if [[ -n $refs_file ]]; then
		# one string fits only runs of one workload, size and seed
		key=$(jq -r '"\(.workload) \(.workload_result.size_bytes // "?") \(.seed)"' "$result")
		[[ -z $refs_key || $key == "$refs_key" ]] ||
			die "$EX_USAGE" "--refs: ${d#"$PWD"/} is workload, size, seed $key, not $refs_key like the first run"
		refs_key=$key
	elif [[ ! -s $d/refs.bin ]]; then
		notes+=("note: ${d#"$PWD"/}: no refs.bin (run without --refs), left out")
		continue
	fi
	if [[ $size_from == resident ]] && ! jq -e '.workload_result.resident_pages > 0' "$d/result.json" >/dev/null; then
		notes+=("note: ${d#"$PWD"/}: no resident_pages (a workload that does not measure it), left out")
		continue
	fi
	runs+=("$d")
	rows+=("$row")
done < <(tail -n +2 "$tmp/runs.csv")
((${#runs[@]})) || die "$EX_USAGE" "no run with a refs.bin (lab.sh run --refs)$([[ $size_from == available ]] || echo ", resident_pages") and exit ok under ${inputs[*]}"
for n in "${notes[@]}"; do say "$n"; done

# Each run's string at its own size.
size_key=.mem_available_pages
[[ $size_from == resident ]] && size_key=.workload_result.resident_pages
mkdir -p "$tmp/sim"
for d in "${runs[@]}"; do
	read -r id size < <(jq -r "\"\\(.run_id) \\($size_key // 0)\"" "$d/result.json")
	((size > 0)) || continue	# labstat names it
	"$pagesim" --sizes "$size" --policies "$models" --format csv "${refs_file:-$d/refs.bin}" >"$tmp/sim/$id.csv" ||
		die "$EX_HARNESS" "pagesim failed on ${refs_file:-${d#"$PWD"/}/refs.bin}"
done

tables=both
if [[ -n $sweep_size ]]; then tables=sweep:$sweep_size; elif ((summary_only)); then tables=summary
elif [[ $format == csv ]]; then tables=runs; fi
"$labstat" --bound "$tmp/sim" --models "$models" --bound-table "$tables" --format "$format" \
	"${ignore[@]}" "${runs[@]}" 2>"$tmp/bound.err" || {
	rc=$?
	die "$((rc == 2 ? EX_USAGE : EX_HARNESS))" "$(first_error "$tmp/bound.err")"
}
relay_notes "$tmp/bound.err"

[[ -n $plot_dir ]] || exit 0
mkdir -p "$plot_dir" || die "$EX_HARNESS" "cannot create $plot_dir"
"$labstat" --bound "$tmp/sim" --models "$models" --bound-table runs --format csv \
	"${ignore[@]}" "${runs[@]}" >"$tmp/table.csv" 2>/dev/null
# One curve per experiment (labstat's row), on its first run's string.
while IFS= read -r group; do
	first=""
	for i in "${!runs[@]}"; do
		[[ ${rows[i]} == "$group" ]] && { first=${runs[i]}; break; }
	done
	# The kernel's points: policy, cache_pages, pswpin, refaults.
	awk -F, -v g="$group" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print "policy,cache_pages,pswpin,refaults"; next }
		$1 == g { print $2 "," $(c["cache_pages"]) "," $(c["pswpin"]) "," $(c["refaults"]) }
	' "$tmp/table.csv" >"$tmp/kernel.csv"
	string=${refs_file:-$first/refs.bin}
	distinct=$("$pagesim" --sizes 1 --policies opt --format csv "$string" | awk -F, 'NR == 2 {print $4}')
	lo=$((distinct / 10 > 0 ? distinct / 10 : 1))
	hi=$((distinct * 6 / 5))
	step=$(((hi - lo) / 40 > 0 ? (hi - lo) / 40 : 1))
	sizes="$lo:$hi:$step"
	for s in $(tail -n +2 "$tmp/kernel.csv" | cut -d, -f2 | sort -un); do sizes="$sizes,$s"; done
	"$pagesim" --sizes "$sizes" --policies "$models" --format csv "$string" >"$tmp/mrc.csv" ||
		die "$EX_HARNESS" "pagesim failed on ${string#"$PWD"/}"
	slug=$(tr -c 'A-Za-z0-9._-' '-' <<<"${group// /-}" | sed 's/-*$//; s/--*/-/g')
	out=$plot_dir/mrc-$slug
	"$LAB_TOP/analysis/plot/plot.sh" bound -t "$group ($distinct distinct pages): misses vs cache size" \
		-o "$out" "$tmp/mrc.csv" "$tmp/kernel.csv" 2>"$tmp/plot.err" ||
		die "$EX_HARNESS" "plot.sh bound failed: $(head -n1 "$tmp/plot.err")"
	say "miss-ratio curve: $out.png, $out.svg"
done < <(printf '%s\n' "${rows[@]}" | sort -u)
