#!/usr/bin/env bash
# lab.sh sweep without booting anything: bad arguments (exit 2, one line,
# nothing made), and a sweep whose cells are recorded runs placed in its
# layout: nothing runs, the table's kernel count is the mean of the runs'
# pswpin with their range, OPT's and the model's misses beyond first
# touch are pagesim's on each run's string at its size, the curves are
# drawn, and a second invocation writes the same table.
# tests/matrix/sweep.t runs a real sweep in guests.
set -euo pipefail
# shellcheck source=tap.sh
source "$(dirname "$0")/tap.sh"
lab=$top/lab.sh
need_gnuplot
build_analysis
pagesim=$build/analysis/pagesim
fx=$top/tests/commands/fixtures/runs

usage_error "no --sizes: exit 2, one line" "$lab" sweep --results "$tmp/r"
usage_error "a bad size: exit 2, one line" "$lab" sweep --sizes 150%,lots --results "$tmp/r"
usage_error "a size given twice: exit 2, one line" "$lab" sweep --sizes 150%,150% --results "$tmp/r"
usage_error "--size (sweep sets it): exit 2, one line" "$lab" sweep --sizes 150% --size 1G --results "$tmp/r"
usage_error "--refs (sweep sets it): exit 2, one line" "$lab" sweep --sizes 150% --refs --results "$tmp/r"
usage_error "--cgroup (models replay at the guest's memory): exit 2, one line" \
	"$lab" sweep --sizes 150% --cgroup w:64M --results "$tmp/r"
usage_error "bad --reps: exit 2, one line" "$lab" sweep --sizes 150% --reps 0 --results "$tmp/r"
usage_error "bad --cache: exit 2, one line" "$lab" sweep --sizes 150% --cache free --results "$tmp/r"
usage_error "unknown policy (matrix's check): exit 2, one line" \
	"$lab" sweep --sizes 150%,200% --policies lru,nope --results "$tmp/r"
usage_error "unknown run option (matrix's check): exit 2, one line" \
	"$lab" sweep --sizes 150% --frobnicate 1 --results "$tmp/r"
usage_error "--engine slurm without --wait: exit 2, one line" \
	"$lab" sweep --sizes 150% --engine slurm --results "$tmp/r"
check "bad arguments made nothing" test ! -e "$tmp/r"
check "--help exits 0" bash -c "'$lab' sweep --help >/dev/null"

# The fixture runs (112M of cyclic-anon in 128 MiB, two reps each of
# vanilla and vanilla-mglru) as the complete cells of one size.
s=$tmp/r/t/size-112M
for d in "$fx"/*/; do
	id=$(basename "$d")
	p=$(jq -r .policy "$d/result.json")
	i=${id##*-r}
	c=$s/cells/$p/cyclic-anon/r${i%%-*}/$id
	mkdir -p "$c"
	cp "$d/result.json" "$c/"
	xz -dc "$d/refs.bin.xz" >"$c/refs.bin"
done
opts=(--sizes 112M --policies "vanilla,vanilla-mglru" --reps 2 --results "$tmp/r" --name t --mem 128M)
rc=0
"$lab" sweep "${opts[@]}" -- --passes 2 >"$tmp/out" 2>"$tmp/err" || rc=$?
check "complete cells: exit 0" test "$rc" = 0
check "complete cells: nothing run" bash -c "! grep -q ': running' '$tmp/err'"
check "complete cells: no new run directory" \
	test "$(find "$s/cells" -name result.json | wc -l)" = 4
csv=$tmp/r/t/sweep.csv
is "$(tail -n +2 "$csv" | cut -d, -f1-4 | paste -sd' ')" \
	"cyclic-anon,vanilla,112M,2 cyclic-anon,vanilla-mglru,112M,2" "a row per workload and policy, with its runs"
header=$(head -n1 "$csv")
col() { tr ',' '\n' <<<"$header" | grep -nx "$1" | cut -d: -f1; }
field() { awk -F, -v p="$1" -v c="$(col "$2")" '$2 == p { print $c }' "$csv"; }
for p in vanilla vanilla-mglru; do
	runs=$(find "$s/cells/$p" -name result.json | sort)
	want=$(xargs jq -r .vmstat.pswpin <<<"$runs" | awk '{ s += $1; n++ } END { printf "%.0f", s / n }')
	is "$(field "$p" kernel)" "$want" "$p: kernel is the mean of its runs' pswpin"
	is "$(field "$p" kernel_min),$(field "$p" kernel_max)" \
		"$(xargs jq -r .vmstat.pswpin <<<"$runs" | sort -n | sed -n '1p;$p' | paste -sd,)" "$p: ... with their range"
	# OPT beyond first touch: pagesim's misses at each run's MemAvailable
	# minus the distinct pages, averaged.
	opt=0
	while read -r r; do
		size=$(jq -r .mem_available_pages "$r")
		opt=$((opt + $("$pagesim" --sizes "$size" --policies opt --format csv "$(dirname "$r")/refs.bin" |
			awk -F, 'NR == 2 { print $5 - $4 }')))
	done <<<"$runs"
	near "$(field "$p" opt_beyond)" "$((opt / 2))" 1 "$p: OPT beyond first touch is pagesim's at the runs' sizes"
	# shellcheck disable=SC2016 # awk program
	check "$p: OPT reads back no more than the kernel" \
		awk -F, -v p="$p" -v k="$(col kernel)" -v o="$(col opt_beyond)" '$2 == p { exit !($o <= $k) }' "$csv"
done
is "$(field vanilla model)" lru2q "vanilla's model is lru2q"
is "$(field vanilla-mglru model),$(field vanilla-mglru kernel_per_model)" "none,NA" "mglru has no model"
check "the markdown table has the rows" test "$(grep -c '^| cyclic-anon |' "$tmp/out")" = 2
for p in vanilla vanilla-mglru; do
	check "curve of $p: PNG" bash -c "file -b '$tmp/r/t/plots/sweep-cyclic-anon-$p.png' | grep -q '^PNG image'"
	check "curve of $p: SVG" grep -q '<svg' "$tmp/r/t/plots/sweep-cyclic-anon-$p.svg"
done
check "no temporary files left" test -z "$(find "$tmp/r/t" -name '*.tmp')"
cp "$csv" "$tmp/first.csv"
"$lab" sweep "${opts[@]}" -- --passes 2 >/dev/null 2>&1
check "a second invocation writes the same table" cmp -s "$csv" "$tmp/first.csv"
# --cache resident: the models replay at the runs' resident sets; the
# fixture runs measured none, so first nothing to summarise, then two
# runs of vanilla given one.
rc=0
"$lab" sweep "${opts[@]}" --cache resident -- --passes 2 >/dev/null 2>"$tmp/res.err" || rc=$?
check "--cache resident without resident sets: exit 1, says so" \
	bash -c "test $rc = 1 && tail -n1 '$tmp/res.err' | grep -q 'with a measured resident set'"
while read -r r; do
	jq '.workload_result.resident_pages = 20000' "$r" >"$r.new" && mv "$r.new" "$r"
done < <(find "$s/cells/vanilla" -name result.json)
"$lab" sweep "${opts[@]}" --cache resident -- --passes 2 >/dev/null 2>&1
rcsv=$tmp/r/t/sweep-resident.csv
is "$(tail -n +2 "$rcsv" | cut -d, -f2,4,5 | paste -sd' ')" "vanilla,2,20000" \
	"--cache resident: only the runs that measured it, at that cache"
want=0
while read -r r; do
	want=$((want + $("$pagesim" --sizes 20000 --policies opt --format csv "$(dirname "$r")/refs.bin" |
		awk -F, 'NR == 2 { print $5 - $4 }')))
done < <(find "$s/cells/vanilla" -name result.json)
near "$(awk -F, -v c="$(col opt_beyond)" 'NR == 2 { print $c }' "$rcsv")" "$((want / 2))" 1 \
	"--cache resident: OPT is pagesim's at the resident set"
check "--cache resident: its own curves, the default table kept" \
	test -s "$tmp/r/t/plots/sweep-resident-cyclic-anon-vanilla.png" -a -s "$csv"
usage_error "the same name with other run options: exit 2, one line" \
	"$lab" sweep --sizes 112M --policies vanilla,vanilla-mglru --reps 2 --results "$tmp/r" --name t --mem 256M
done_testing
