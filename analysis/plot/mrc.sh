#!/usr/bin/env bash
# mrc.sh: miss-ratio curves of pagesim's models on reference strings, one
# chart per string (mrc.gp), OPT as the floor, and a table of misses
# beyond the first touch at chosen sizes.
set -euo pipefail

PLOT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PROG=mrc.sh

usage() {
	cat <<'USAGE'
usage: mrc.sh [--policies LIST] [--percents LIST] [--table LIST]
              [--at NAME=PAGES]... -o DIR NAME=FILE...
For each reference string FILE (LABREFS1 or LIRS text), runs pagesim at
cache sizes given in percent of the string's distinct pages (rounded to
the nearest page) and writes DIR/NAME.csv (policy,percent,cache_pages,
refs,distinct,misses,beyond: beyond = misses - distinct, the misses
beyond each page's first touch) and DIR/mrc-NAME.png and .svg.
  --policies LIST  pagesim models, OPT first (default: opt, then every
                   other model of pagesim --list-policies)
  --percents LIST  sizes of the curves (default 10:100:5)
  --table LIST     also print a markdown table on stdout: beyond for each
                   string (rows) and model (columns) at each percent of
                   LIST
  --at NAME=PAGES  add the size PAGES (pages, not percent) to string
                   NAME's curve and table (e.g. the kernel run's memory);
                   its percent column shows the size as a percent
Exit: 0 ok, 1 a tool failed, 2 bad arguments.
USAGE
}

die() {
	local code=$1
	shift
	echo "$PROG: $*" >&2
	exit "$code"
}

top=$(cd "$PLOT_DIR/../.." && pwd)
pagesim=${PAGESIM:-$top/build/analysis/pagesim}
policies="" percents="10:100:5" table="" out=""
declare -A at=()
inputs=()
while [[ $# -gt 0 ]]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--policies | --percents | --table | --at | -o)
		[[ $# -ge 2 && -n $2 ]] || die 2 "option $1 needs a value"
		case $1 in
		--policies) policies=$2 ;;
		--percents) percents=$2 ;;
		--table) table=$2 ;;
		--at) [[ $2 =~ ^([^=]+)=([1-9][0-9]*)$ ]] || die 2 "bad --at '$2' (NAME=PAGES)"
			at[${BASH_REMATCH[1]}]+="${at[${BASH_REMATCH[1]}]:+,}${BASH_REMATCH[2]}" ;;
		-o) out=$2 ;;
		esac
		shift 2 ;;
	-*) die 2 "unknown option '$1' (see --help)" ;;
	*) [[ $1 == *=* && -r ${1#*=} ]] || die 2 "bad input '$1' (NAME=FILE, a readable file)"
		inputs+=("$1"); shift ;;
	esac
done
[[ -n $out ]] || die 2 "-o DIR is required"
((${#inputs[@]})) || die 2 "need at least one NAME=FILE"
[[ -x $pagesim ]] || die 1 "no $pagesim (make -C analysis/sim)"
command -v gnuplot >/dev/null || die 1 "gnuplot not found"
[[ -n $policies ]] || policies=opt,$("$pagesim" --list-policies | awk '$1 != "opt" { print $1 }' | paste -sd,)
[[ $policies == opt,* ]] || die 2 "--policies must start with opt (the floor of every chart)"

# expand_percents SPEC: the integers of a list of N and FIRST:LAST:STEP.
expand_percents() {
	local item first last step
	IFS=, read -r -a items <<<"$1"
	for item in "${items[@]}"; do
		if [[ $item =~ ^([0-9]+):([0-9]+):([1-9][0-9]*)$ ]]; then
			first=${BASH_REMATCH[1]} last=${BASH_REMATCH[2]} step=${BASH_REMATCH[3]}
			seq "$first" "$step" "$last"
		elif [[ $item =~ ^[1-9][0-9]*$ ]]; then
			echo "$item"
		else
			die 2 "bad percent '$item'"
		fi
	done
}
mapfile -t pcts < <(expand_percents "$percents")
table_pcts=()
[[ -z $table ]] || mapfile -t table_pcts < <(expand_percents "$table")
mkdir -p "$out" || die 1 "cannot create $out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
models=${policies//,/ }

for input in "${inputs[@]}"; do
	name=${input%%=*} file=${input#*=}
	distinct=$("$pagesim" --sizes 1 --policies opt "$file" | awk -F, 'NR == 2 { print $4 }') ||
		die 1 "pagesim cannot read $file"
	sizes="" extra=${at[$name]:-}
	for p in "${pcts[@]}" "${table_pcts[@]}"; do
		sizes+="${sizes:+,}$(((distinct * p + 50) / 100))"
	done
	[[ -z $extra ]] || sizes+=",$extra"
	"$pagesim" --sizes "$sizes" --policies "$policies" "$file" >"$tmp/sim.csv" ||
		die 1 "pagesim failed on $file"
	# One row per model and size, sizes in ascending order, no repeats.
	awk -F, -v OFS=, 'NR == 1 { print "policy,percent,cache_pages,refs,distinct,misses,beyond"; next }
		!seen[$1 FS $2]++ { printf "%s,%.2f,%s,%s,%s,%s,%s\n", $1, 100 * $2 / $4, $2, $3, $4, $5, $5 - $4 }' \
		"$tmp/sim.csv" | { IFS= read -r header; echo "$header"; sort -t, -k1,1 -s -k3,3n; } >"$tmp/$name.csv"
	# Keep the model order of --policies for the curves' file.
	{
		head -n 1 "$tmp/$name.csv"
		for m in $models; do awk -F, -v m="$m" '$1 == m' "$tmp/$name.csv"; done
	} >"$out/$name.csv.tmp" && mv "$out/$name.csv.tmp" "$out/$name.csv"
	title="$name ($distinct distinct pages): misses beyond first touch"
	for fmt in png svg; do
		part=$(mktemp "$out/mrc-$name.XXXXXX.tmp")
		if ! gnuplot -e "data='$out/$name.csv'; models='$models'; out='$part'; fmt='$fmt'; title_text='$title'" \
			"$PLOT_DIR/mrc.gp" 2>"$tmp/gp.err" || [[ ! -s $part ]]; then
			rm -f "$part"
			die 1 "gnuplot failed: $(head -n 2 "$tmp/gp.err" | tr '\n' ' ')"
		fi
		mv "$part" "$out/mrc-$name.$fmt"
	done
	echo "$PROG: $out/mrc-$name.png, .svg, $out/$name.csv" >&2
done

[[ -n $table ]] || exit 0
# The table: one row per string and size, one column per model.
printf '| string | size (pages) | size (%% distinct) |'
for m in $models; do printf ' %s |' "$m"; done
printf '\n|:---|---:|---:|'
for _ in $models; do printf -- '---:|'; done
printf '\n'
for input in "${inputs[@]}"; do
	name=${input%%=*}
	distinct=$(awk -F, 'NR == 2 { print $5 }' "$out/$name.csv")
	want=""
	for p in "${table_pcts[@]}"; do want+="${want:+ }$(((distinct * p + 50) / 100))"; done
	extra=${at[$name]:-}
	want+=" ${extra//,/ }"
	for size in $want; do
		awk -F, -v s="$size" -v name="$name" -v models="$models" '
			$3 == s { beyond[$1] = $7; pct = $2 }
			END {
				printf "| %s | %d | %.0f |", name, s, pct
				n = split(models, m, " ")
				for (i = 1; i <= n; i++) printf " %s |", (m[i] in beyond) ? beyond[m[i]] : "NA"
				printf "\n"
			}' "$out/$name.csv"
	done
done
