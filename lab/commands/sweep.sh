#!/usr/bin/env bash
# lab.sh sweep: the kernel's miss-ratio curve. Policies x workloads x
# reps at several workload sizes, each run with --refs, then each run's
# pages read back beside its policy's model and Belady's OPT replayed on
# that run's own reference string at the memory the run had.
#
#   sweep.sh --sizes S1,S2,... [--policies a,b] [--workloads x,y] [--reps N]
#            [--results DIR] [--name NAME] [--cache available|resident]
#            [run and engine options] [-- WORKLOAD-OPTIONS]
#
# Layout: one lab.sh matrix per size, DIR/NAME/size-LABEL/ (LABEL is the
# size with % written "pct"), so the sweep resumes as matrix does and
# every cell is an ordinary run. The reps are interleaved: rep 1 at every
# size, then rep 2, so a noisy hour does not fall on one size alone.
# The summary is lab.sh bound's on each size's runs: OPT's and the model's
# misses beyond the first touch of each page, and the pages the kernel
# read back, by the workload's read_back counter (lab/registry/
# workloads.tsv: pswpin for anonymous memory, file refaults for the page
# cache), which lab.sh bound reports per run. It is written to
# DIR/NAME/sweep.csv (sweep-resident.csv with --cache resident), printed
# as a markdown table, and drawn per workload and policy into
# DIR/NAME/plots/sweep[-resident]-WORKLOAD-POLICY.png and .svg.
set -euo pipefail
lab_prog="lab sweep"
# shellcheck source=../lib/common.sh
source "$(dirname "$0")/../lib/common.sh"
# shellcheck source=../lib/options.sh
source "$LAB_TOP/lab/lib/options.sh"

usage() {
	cat <<'USAGE'
usage: lab.sh sweep --sizes S1,S2,... [--policies a,b,...] [--workloads x,y,...]
                    [--reps N] [--results DIR] [--name NAME] [--cache available|resident]
                    [run and engine options of lab.sh matrix] [-- WORKLOAD-OPTIONS]

The kernel's miss-ratio curve: every (policy, workload, size, rep) is one
lab.sh run with --refs; for each, the pages the kernel read back (the
workload's read_back counter: pswpin for cyclic-anon, file refaults for
the page-cache workloads) beside
the misses beyond first touch of the policy's own model and of OPT, both
replayed on that run's reference string at its MemAvailable (or, with
--cache resident, at the loop's mean resident set).

  --sizes LIST      workload sizes, comma-separated: N% of the guest's
                    MemTotal (e.g. 110%,130%,150%,200%,300%) or bytes
                    with K/M/G; required
  --policies LIST   comma-separated (default: lru)
  --workloads LIST  comma-separated, workloads with --refs (default:
                    cyclic-anon)
  --reps N          runs per policy, workload and size (default 3)
  --results DIR     top directory (default results/)
  --name NAME       sweep directory under DIR (default sweep-<hash of the
                    options>): complete cells are skipped, so rerunning the
                    same command resumes it, and then only summarises
  --cache C         the cache size the models replay at: available
                    (default: MemAvailable when the workload started) or
                    resident (the loop's mean resident set, which the
                    cyclic workloads measure; lab.sh bound --size)
  other options     lab.sh matrix's run options but --size, --refs and
                    --cgroup (the models replay at the guest's memory), and
                    its engine options (--engine slurm needs --wait)

Writes DIR/NAME/sweep.csv (sweep-resident.csv with --cache resident),
DIR/NAME/plots/sweep[-resident]-WORKLOAD-POLICY.png/.svg,
and prints the table (markdown). For a loop, use the settings the
kernel-vs-model gate uses: --sysctl vm.page-cluster=0 (one page per
swap-in) and, for cyclic-file, -- --readahead off.
Exit: 0 every cell ok; 2 bad arguments (nothing run); otherwise the exit
code of the first failed cell, after every cell was tried and the
complete ones summarised; 128+N when killed by signal N.
USAGE
}

[[ ${1:-} == -h || ${1:-} == --help ]] && {
	usage
	exit 0
}

policies=lru workloads=cyclic-anon reps=3 top=$LAB_RESULTS name="" sizes="" cache=available
engine=local wait=0
pass=() wl_opts=()
while [[ $# -gt 0 ]]; do
	case $1 in
	--sizes) need "$@"; sizes=$2; shift 2 ;;
	--policies) need "$@"; policies=$2; shift 2 ;;
	--workloads) need "$@"; workloads=$2; shift 2 ;;
	--reps) need "$@"; reps=$2; shift 2 ;;
	--results) need "$@"; top=$2; shift 2 ;;
	--name) need "$@"; name=$2; shift 2 ;;
	--cache) need "$@"; cache=$2; shift 2 ;;
	--size | --refs | --cgroup | --list-cells)
		die "$EX_USAGE" "$1 is not an option of sweep (it sets the size and --refs itself)" ;;
	--engine) need "$@"; engine=$2; pass+=("$1" "$2"); shift 2 ;;
	--wait) wait=1; pass+=("$1"); shift ;;
	--vary-seed | --force) pass+=("$1"); shift ;;
	--) shift; wl_opts=("$@"); break ;;
	--*) need "$@"; pass+=("$1" "$2"); shift 2 ;;
	*) die "$EX_USAGE" "unexpected argument '$1' (see lab.sh sweep --help)" ;;
	esac
done

in_list "$cache" available resident || die "$EX_USAGE" "bad --cache '$cache' (available|resident)"
[[ -n $sizes ]] || die "$EX_USAGE" "--sizes is required (e.g. --sizes 110%,150%,200%)"
[[ $reps =~ ^[1-9][0-9]*$ ]] || die "$EX_USAGE" "bad --reps '$reps' (a positive number)"
[[ -z $name || $name =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]] ||
	die "$EX_USAGE" "bad --name '$name' (letters, digits, . _ -)"
[[ $engine != slurm || $wait == 1 ]] ||
	die "$EX_USAGE" "--engine slurm needs --wait here (each rep waits for the one before)"
IFS=, read -r -a size_list <<<"$sizes"
((${#size_list[@]})) || die "$EX_USAGE" "--sizes is empty"
declare -A seen=()
for s in "${size_list[@]}"; do
	opt_size --sizes "$s"
	[[ -z ${seen[$s]:-} ]] || die "$EX_USAGE" "size '$s' given twice in --sizes"
	seen[$s]=1
done
[[ -n $name ]] || name=sweep-$(printf '%s\0' "$policies" "$workloads" "$sizes" "${pass[@]}" -- "${wl_opts[@]}" |
	sha_stdin | cut -c1-10)
sdir=$(realpath -m "$top")/$name

size_label() { # 150% -> size-150pct, 300M -> size-300M
	local s=${1/\%/pct}
	echo "size-$s"
}

# matrix_of SIZE REPS [MORE...]: lab.sh matrix of one size.
matrix_of() {
	local size=$1 r=$2
	shift 2
	"$LAB_TOP/lab/commands/matrix.sh" --policies "$policies" --workloads "$workloads" --reps "$r" \
		--results "$sdir" --name "$(size_label "$size")" --size "$size" --refs \
		"${pass[@]}" "$@" -- "${wl_opts[@]}"
}

# Every size's matrix checks its arguments before anything runs.
for s in "${size_list[@]}"; do
	matrix_of "$s" "$reps" --list-cells >/dev/null
done

# Rep-major: rep r at every size before rep r + 1.
first_rc=0
for ((r = 1; r <= reps; r++)); do
	for s in "${size_list[@]}"; do
		rc=0
		matrix_of "$s" "$r" >/dev/null || rc=$?
		((rc < 128)) || exit "$rc"
		((rc == 0 || first_rc != 0)) || first_rc=$rc
		((rc != EX_USAGE)) || exit "$rc"
	done
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
stem=sweep
[[ $cache == available ]] || stem=sweep-$cache
table=$sdir/$stem.csv
# Each size's row per workload and policy, from lab.sh bound (labstat).
have=0
for s in "${size_list[@]}"; do
	d=$sdir/$(size_label "$s")
	[[ -d $d/cells ]] || continue
	"$LAB_TOP/lab/commands/bound.sh" --format csv --size "$cache" --sweep "$s" "$d/cells" >"$tmp/size.csv" 2>"$tmp/err" || {
		say "note: size $s: $(tail -n1 "$tmp/err" | sed 's/^lab bound: //'), left out"
		continue
	}
	[[ -s $tmp/rows.csv ]] || head -n1 "$tmp/size.csv" >"$tmp/header.csv"
	tail -n +2 "$tmp/size.csv" >>"$tmp/rows.csv"
	have=1
done
((have)) || die "$EX_HARNESS" "no size of $sdir has a complete run to summarise$([[ $cache == available ]] || echo " with a measured resident set")"

# Grouped by workload and policy, sizes in the order given.
{
	cat "$tmp/header.csv"
	awk -F, '{ printf "%s\t%s\t%06d\t%s\n", $1, $2, NR, $0 }' "$tmp/rows.csv" |
		sort -t$'\t' -k1,1 -k2,2 -k3,3 | cut -f4
} >"$table.tmp"
mv "$table.tmp" "$table"

# One chart per workload and policy.
mkdir -p "$sdir/plots" || die "$EX_HARNESS" "cannot create $sdir/plots"
while IFS=, read -r w p; do
	awk -F, -v w="$w" -v p="$p" 'NR == 1 || ($1 == w && $2 == p)' "$table" >"$tmp/one.csv"
	"$LAB_TOP/analysis/plot/plot.sh" sweep -t "$w under $p: pages read back against workload size" \
		-o "$sdir/plots/$stem-$w-$p" "$tmp/one.csv" 2>"$tmp/plot.err" ||
		die "$EX_HARNESS" "plot.sh sweep failed: $(head -n1 "$tmp/plot.err")"
done < <(tail -n +2 "$table" | cut -d, -f1,2 | sort -u)
say "table: $table; curves: $sdir/plots/$stem-*.png"

# The table, markdown.
awk -F, '
	NR == 1 { print "| workload | policy | size | workload / memory | runs | kernel read back (min-max) | model | model beyond first touch | OPT beyond first touch | kernel / model | kernel / OPT |"
	          print "|---|---|---|---:|---:|---:|---|---:|---:|---:|---:|"; next }
	{ printf "| %s | %s | %s | %s%% | %s | %s (%s-%s) %s | %s | %s | %s | %s | %s |\n",
		$1, $2, $3, $8, $4, $10, $11, $12, $9, $13, $14, $15, $16, $17 }' "$table"
exit "$first_rc"
