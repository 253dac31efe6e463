#!/usr/bin/env bash
# lab.sh bound on recorded runs with reference strings: every number in
# the table is pagesim's at the run's own size or the run's own counter,
# OPT is the lower bound, the miss-ratio curve is drawn, and runs
# without refs.bin are refused.
set -euo pipefail
# shellcheck source=tap.sh
source "$(dirname "$0")/tap.sh"
lab=$top/lab.sh
need_gnuplot
build_analysis
pagesim=$build/analysis/pagesim
cp -r "$top/tests/commands/fixtures/runs" "$tmp/runs"
for d in "$tmp"/runs/*/; do xz -d "$d/refs.bin.xz"; done

"$lab" bound --format csv --plot "$tmp/plots" "$tmp/runs" >"$tmp/table.csv" 2>"$tmp/err"
check "csv: exits 0 with a row per run" test "$(tail -n +2 "$tmp/table.csv" | wc -l)" = 4
header=$(head -n1 "$tmp/table.csv")
col() { tr ',' '\n' <<<"$header" | grep -nx "$1" | cut -d: -f1; }
bad=0
while IFS=, read -r -a row; do
	d=$tmp/runs/${row[2]}
	size=$(jq -r .mem_available_pages "$d/result.json")
	[[ ${row[3]} == "$size" ]] || { diag "${row[2]}: size ${row[3]} != $size"; bad=1; }
	for m in opt lru2q clockpro; do
		want=$("$pagesim" --sizes "$size" --policies "$m" --format csv "$d/refs.bin" | awk -F, 'NR == 2 {print $5}')
		got=${row[$(($(col "$m") - 1))]}
		[[ $got == "$want" ]] || { diag "${row[2]}: $m $got != pagesim $want"; bad=1; }
	done
	[[ ${row[$(($(col majflt) - 1))]} == "$(jq -r .majflt "$d/result.json")" ]] || { diag "${row[2]}: majflt"; bad=1; }
	[[ ${row[$(($(col pswpin) - 1))]} == "$(jq -r .vmstat.pswpin "$d/result.json")" ]] || { diag "${row[2]}: pswpin"; bad=1; }
done < <(tail -n +2 "$tmp/table.csv")
check "every model count is pagesim's at mem_available_pages, kernel counts the run's" test "$bad" = 0
# shellcheck disable=SC2016 # awk program
check "OPT <= every model on every row" awk -F, '
	NR == 1 { for (i = 1; i <= NF; i++) if ($i == "opt") o = i; else if ($i == "majflt") m = i; next }
	{ for (i = o + 1; i < m; i++) if ($o > $i) bad = 1 } END { exit bad }' "$tmp/table.csv"
check "miss-ratio curve: PNG written" bash -c "file -b '$tmp/plots/mrc-cyclic-anon.png' | grep -q '^PNG image'"
check "miss-ratio curve: SVG written" grep -q '<svg' "$tmp/plots/mrc-cyclic-anon.svg"
check "miss-ratio curve: no temporary files left" test -z "$(find "$tmp/plots" -name '*.tmp')"

# The pages read back are the workload's read_back counter from the
# registry (cyclic-anon: vmstat.pswpin), the one definition RESULTS.md uses.
check "every row's read_back is its run's vmstat.pswpin, named so" awk -F, -v c="$(col read_back)" \
	-v n="$(col read_back_counter)" -v p="$(col pswpin)" \
	'NR > 1 && ($c != $p || $n != "vmstat.pswpin") { bad = 1 } END { exit bad }' "$tmp/table.csv"

# --sweep SIZE: lab.sh sweep's row per experiment, from the same runs.
"$lab" bound --format csv --sweep 150% "$tmp/runs" >"$tmp/sweep.csv" 2>"$tmp/sweep.err"
sheader=$(head -n1 "$tmp/sweep.csv")
scol() { tr ',' '\n' <<<"$sheader" | grep -nx "$1" | cut -d: -f1; }
check "--sweep: the header lab.sh sweep writes" test "$sheader" = \
	workload,policy,size,runs,cache_pages,distinct,refs,size_pct,counter,kernel,kernel_min,kernel_max,model,model_beyond,opt_beyond,kernel_per_model,kernel_per_opt
# Each experiment's row from the per-run table: means, least and most.
# shellcheck disable=SC2016 # awk programs
want=$(awk -F, -v w="$(col workload)" -v p="$(col policy)" -v rb="$(col read_back)" \
	-v o="$(col opt)" -v d="$(col distinct)" '
	NR == 1 { next }
	{ k = $w "," $p; if (!(k in n)) { order[++nk] = k; lo[k] = $rb; hi[k] = $rb }
	  n[k]++; s[k] += $rb; ob[k] += $o - $d
	  if ($rb < lo[k]) lo[k] = $rb; if ($rb > hi[k]) hi[k] = $rb }
	END { for (i = 1; i <= nk; i++) { k = order[i]
		printf "%s,%d,%.0f,%d,%d,%.0f,%.3f\n", k, n[k], s[k] / n[k], lo[k], hi[k], ob[k] / n[k],
			(s[k] / n[k]) / (ob[k] / n[k]) } }' "$tmp/table.csv" | sort)
got=$(awk -F, -v c="$(scol workload),$(scol policy),$(scol runs),$(scol kernel),$(scol kernel_min),$(scol kernel_max),$(scol opt_beyond),$(scol kernel_per_opt)" '
	NR == 1 { next } { n = split(c, cs, ","); line = ""
		for (i = 1; i <= n; i++) line = line (i > 1 ? "," : "") $cs[i]; print line }' "$tmp/sweep.csv" | sort)
check "--sweep: one row per experiment (two)" test "$(tail -n +2 "$tmp/sweep.csv" | wc -l)" = 2
is "$got" "$want" "--sweep: runs, the kernel's mean, least and most, OPT beyond first touch and the ratio, per experiment"
check "--sweep: every row names the size and the counter" awk -F, -v s="$(scol size)" -v c="$(scol counter)" \
	'NR > 1 && ($s != "150%" || $c != "vmstat.pswpin") { bad = 1 } END { exit bad }' "$tmp/sweep.csv"

"$lab" bound --format markdown "$tmp/runs" >"$tmp/md"
check "markdown: a pipe table" grep -qE '^\| workload +\| policy +\| run_id +\|' "$tmp/md"
"$lab" bound --models opt,lru "$tmp/runs" >"$tmp/text"
check "--models: only those columns" grep -qE '^workload +policy +run_id +cache_pages +refs +distinct +opt +lru +majflt' "$tmp/text"

# --size resident: the models replay at the run's measured resident set;
# a run that did not measure one is left out with a note.
cp -r "$tmp/runs" "$tmp/resident"
one=$(find "$tmp/resident" -name result.json | sort | head -n1)
jq '.workload_result.resident_pages = 700' "$one" >"$one.new" && mv "$one.new" "$one"
"$lab" bound --format csv --size resident "$tmp/resident" >"$tmp/resident.csv" 2>"$tmp/resident.err"
check "--size resident: one row, the run that measured its resident set" \
	test "$(tail -n +2 "$tmp/resident.csv" | wc -l)" = 1
check "--size resident: cache_pages is resident_pages" \
	test "$(awk -F, -v c="$(col cache_pages)" 'NR == 2 { print $c }' "$tmp/resident.csv")" = 700
want=$("$pagesim" --sizes 700 --policies lru --format csv "$(dirname "$one")/refs.bin" | awk -F, 'NR == 2 {print $5}')
check "--size resident: the model's misses are pagesim's at that size" \
	test "$(awk -F, -v c="$(col lru)" 'NR == 2 { print $c }' "$tmp/resident.csv")" = "$want"
check "--size resident: the other runs are named as left out" \
	test "$(grep -c 'no resident_pages' "$tmp/resident.err")" = 3
usage_error "bad --size: exit 2, one line" "$lab" bound --size half "$tmp/runs"

mkdir -p "$tmp/norefs/x"
cp "$tmp"/runs/*-vanilla-cyclic-anon-r1-*/result.json "$tmp/norefs/x/"
usage_error "no refs.bin: exit 2, one line" "$lab" bound "$tmp/norefs"
# --refs FILE: one string (as the workload's --emit-refs writes it on the
# host) for runs recorded without --refs.
cp -r "$tmp/runs" "$tmp/given"
string=$tmp/string.refs
mv "$(find "$tmp/given" -name refs.bin | sort | head -n1)" "$string"
find "$tmp/given" -name refs.bin -delete
"$lab" bound --format csv --refs "$string" "$tmp/given" >"$tmp/given.csv" 2>"$tmp/given.err"
check "--refs: a row for every run, none of which has a refs.bin" \
	test "$(tail -n +2 "$tmp/given.csv" | wc -l)" = 4
bad=0
while IFS=, read -r -a row; do
	want=$("$pagesim" --sizes "${row[3]}" --policies opt --format csv "$string" | awk -F, 'NR == 2 {print $5}')
	[[ ${row[$(($(col opt) - 1))]} == "$want" ]] || bad=1
done < <(tail -n +2 "$tmp/given.csv")
check "--refs: OPT is pagesim's on that string at each run's size" test "$bad" = 0
one=$(find "$tmp/given" -name result.json | sort | tail -n1)
jq '.workload_result.size_bytes = 4096' "$one" >"$one.new" && mv "$one.new" "$one"
usage_error "--refs over runs of another size: exit 2, one line" "$lab" bound --refs "$string" "$tmp/given"
usage_error "--refs without the file: exit 2, one line" "$lab" bound --refs "$tmp/none.refs" "$tmp/runs"
usage_error "unknown model: exit 2, one line" "$lab" bound --models opt,nope "$tmp/runs"
usage_error "no RUN: exit 2, one line" "$lab" bound
usage_error "missing path: exit 2, one line" "$lab" bound "$tmp/nope"
done_testing
