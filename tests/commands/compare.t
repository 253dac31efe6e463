#!/usr/bin/env bash
# lab.sh compare on runs recorded from the lab (fixtures/README.md):
# formats, baseline choice, numbers against result.json, the OPT/model
# table of runs with reference strings, and bad arguments.
set -euo pipefail
# shellcheck source=tap.sh
source "$(dirname "$0")/tap.sh"
lab=$top/lab.sh
fx=$top/tests/commands/fixtures/runs

if [[ ! -x $top/build/analysis/labstat || ! -x $top/build/analysis/pagesim ]]; then
	skip_all "build/analysis not built (make analysis)"
fi
cp -r "$fx" "$tmp/runs"
for d in "$tmp"/runs/*/; do xz -d "$d/refs.bin.xz"; done

# Without refs: the statistics only.
mkdir -p "$tmp/norefs"
for d in "$fx"/*/; do
	mkdir -p "$tmp/norefs/$(basename "$d")"
	cp "$d/result.json" "$tmp/norefs/$(basename "$d")/"
done

"$lab" compare "$tmp/norefs" >"$tmp/text" 2>"$tmp/err"
check "text: exits 0" test $? = 0
check "text: baseline is vanilla when no run has lru" grep -q 'ratio to vanilla' "$tmp/text"
check "text: a row for cyclic-anon with both policies" \
	grep -qE '^cyclic-anon +[0-9.]+ ± [0-9.]+ \(n=2\) +[0-9.]+ ± [0-9.]+ \(n=2\) [0-9.]+' "$tmp/text"
check "text: no OPT table without refs.bin" bash -c "! grep -q 'opt' '$tmp/text'"

# The CSV's means are the means of the runs' own values.
"$lab" compare --format csv --metric majflt "$tmp/norefs" >"$tmp/csv"
row=$(grep -m1 '^majflt,cyclic-anon,' "$tmp/csv" || true)
header=$(head -n1 "$tmp/csv")
for p in vanilla vanilla-mglru; do
	want=$(jq -s --arg p "$p" 'map(select(.policy == $p) | .majflt) | add / length' "$tmp"/norefs/*/result.json)
	col=$(tr ',' '\n' <<<"$header" | grep -nx "${p}_mean" | cut -d: -f1)
	got=$( [[ -n $col ]] && cut -d, -f"$col" <<<"$row")
	check "csv: $p majflt mean is the runs' mean ($want)" \
		awk -v a="${got:-NA}" -v b="$want" 'BEGIN { exit !(a != "NA" && a - b < 1e-6 && b - a < 1e-6) }'
done

"$lab" compare --format markdown --baseline vanilla-mglru "$tmp/norefs" >"$tmp/md"
check "markdown: pipe table with both policies" grep -qE '^\| *workload *\| *vanilla-mglru *\| *vanilla *\|' "$tmp/md"
check "markdown: --baseline is used" grep -q 'ratio to vanilla-mglru' "$tmp/md"

# With refs: the OPT/model summary follows, one row per policy, with
# the policy's own model (lru2q for vanilla, none for MGLRU).
"$lab" compare --format csv "$tmp/runs" >"$tmp/withrefs" 2>"$tmp/err"
check "refs: the OPT/model table is there" \
	grep -q '^workload,policy,runs,opt,model,model_misses,kernel_pswpin,kernel_refaults,kernel_majflt,opt_refaults,model_refaults$' "$tmp/withrefs"
sed -n '/^workload,policy,runs,opt/,$p' "$tmp/withrefs" >"$tmp/bound.csv"
check "refs: one row per policy" test "$(tail -n +2 "$tmp/bound.csv" | wc -l)" = 2
check "refs: vanilla's model is lru2q" grep -q '^cyclic-anon size=112M,vanilla,2,[0-9]*,lru2q,[0-9]*,' "$tmp/bound.csv"
check "refs: MGLRU has no model" grep -q '^cyclic-anon size=112M,vanilla-mglru,2,[0-9]*,none,NA,' "$tmp/bound.csv"
want=$(jq -s 'map(select(.policy == "vanilla") | .vmstat.pswpin) | add / length' "$tmp"/runs/*/result.json)
got=$(awk -F, '$2 == "vanilla" { print $7 }' "$tmp/bound.csv")
check "refs: kernel_pswpin is the runs' mean ($want, rounded: $got)" \
	awk -v a="${got:-NA}" -v b="$want" 'BEGIN { exit !(a != "NA" && a - b <= 0.5 && b - a <= 0.5) }'

# shellcheck disable=SC2016 # awk program
check "refs: OPT <= the model where there is one" awk -F, 'NR > 1 && $6 != "NA" && $4 > $6 { bad = 1 } END { exit bad }' "$tmp/bound.csv"
# shellcheck disable=SC2016 # awk program
check "refs: beyond the first touch, OPT and the model lose the same distinct pages" \
	awk -F, 'NR > 1 && ($4 - $10 != $6 - $11 || $10 < 0) && $6 != "NA" { bad = 1 } END { exit bad }' "$tmp/bound.csv"
"$lab" compare --no-bound "$tmp/runs" >"$tmp/nobound"
check "--no-bound leaves the table out" bash -c "! grep -q 'model_misses' '$tmp/nobound'"

usage_error "no RESULTS: exit 2, one line" "$lab" compare
usage_error "bad --format: exit 2, one line" "$lab" compare --format xml "$tmp/runs"
usage_error "unknown option: exit 2, one line" "$lab" compare --frobnicate "$tmp/runs"
usage_error "missing path: exit 2, one line" "$lab" compare "$tmp/nope"
mkdir -p "$tmp/empty"
usage_error "no runs under the directory: exit 2, one line" "$lab" compare "$tmp/empty"
check "--help exits 0" bash -c "'$lab' compare --help >/dev/null"
done_testing
