#!/usr/bin/env bash
# lab.sh compare: the cover-letter table of runs, via labstat.
#
#   compare.sh [--baseline POLICY] [--format text|markdown|csv]
#              [--metric M]... [--no-bound] RESULTS...
#
# RESULTS are run directories or any directories holding runs at any
# depth (results/, a matrix directory). Runs are found by their
# result.json; directories being written (.partial) are not runs. When
# some runs recorded their reference string (--refs), a second table
# follows (lab.sh bound --summary): per workload and policy, OPT's misses
# and the policy's own model's at the runs' size, next to the kernel's.
set -euo pipefail
lab_prog="lab compare"
# shellcheck source=common.sh
source "$(dirname "$0")/common.sh"

usage() {
	cat <<'USAGE'
usage: lab.sh compare [--baseline POLICY] [--format text|markdown|csv]
                      [--metric [LABEL=]PATH[+PATH...]]... [--no-bound]
                      RESULTS...

Rows are workloads (and sizes), columns policies: mean ± 95% CI (Student
t), n, the ratio to the baseline and * where Welch's t-test gives p < 0.05;
a gmean row summarises the ratios. RESULTS: run directories or
directories holding runs at any depth; failed runs are left out (a note
on stderr says which).

  --baseline P   the policy ratios refer to (default: lru when some run
                 has it, else vanilla when some run has it, else lru)
  --format F     text (default), markdown or csv
  --metric M     a result.json path, repeatable (default: wall_s, majflt,
                 vmstat.pswpin, vmstat.pswpout, refaults)
  --no-bound     leave out the OPT/model table of runs recorded with --refs
USAGE
}

[[ ${1:-} == -h || ${1:-} == --help ]] && {
	usage
	exit 0
}

baseline="" format=text bound=1
metrics=() inputs=()
need() { [[ $# -ge 2 && -n $2 ]] || die "$EX_USAGE" "option $1 needs a value"; }
while [[ $# -gt 0 ]]; do
	case $1 in
	--baseline) need "$@"; baseline=$2; shift 2 ;;
	--format) need "$@"; format=$2; shift 2 ;;
	--metric | -m) need "$@"; metrics+=(--metric "$2"); shift 2 ;;
	--no-bound) bound=0; shift ;;
	--) shift; inputs+=("$@"); break ;;
	-*) die "$EX_USAGE" "unknown option '$1' (see lab.sh compare --help)" ;;
	*) inputs+=("$1"); shift ;;
	esac
done
in_list "$format" text markdown csv || die "$EX_USAGE" "bad --format '$format' (text|markdown|csv)"
((${#inputs[@]})) || die "$EX_USAGE" "need at least one results directory (see lab.sh compare --help)"
labstat=$LAB_BUILD/analysis/labstat
[[ -x $labstat ]] || die "$EX_MISSING" "no ${labstat#"$LAB_TOP"/} (run make analysis)"

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

"$labstat" --baseline "$baseline" --format "$format" "${metrics[@]}" "${runs[@]}"

if ((bound)); then
	with_refs=()
	for r in "${runs[@]}"; do
		[[ -s $r/refs.bin ]] && jq -e '.exit == "ok"' "$r/result.json" >/dev/null && with_refs+=("$r")
	done
	if ((${#with_refs[@]})); then
		echo
		"$LAB_TOP/lab/bound.sh" --summary --format "$format" "${with_refs[@]}"
	fi
fi
