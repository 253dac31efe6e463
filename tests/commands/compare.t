#!/usr/bin/env bash
# shellcheck disable=SC2016 # programs for bash -c and awk, in single quotes
# lab.sh compare on runs recorded from the lab (fixtures/README.md):
# formats, baseline choice, numbers against result.json, the OPT/model
# table of runs with reference strings, the one grouping rule (runs of
# different experiments are never averaged), traces that lost events,
# runs that ran beside other guests, and bad arguments.
set -euo pipefail
# shellcheck source=tap.sh
source "$(dirname "$0")/tap.sh"
lab=$top/lab.sh
fx=$top/tests/commands/fixtures/runs

build_analysis
cp -r "$fx" "$tmp/runs"
for d in "$tmp"/runs/*/; do xz -d "$d/refs.bin.xz"; done

# Without refs: the statistics only.
mkdir -p "$tmp/norefs"
for d in "$fx"/*/; do
	mkdir -p "$tmp/norefs/$(basename "$d")"
	cp "$d/result.json" "$tmp/norefs/$(basename "$d")/"
done

rc=0
"$lab" compare "$tmp/norefs" >"$tmp/text" 2>"$tmp/err" || rc=$?
is "$rc" 0 "text: exits 0"
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
	grep -q '^workload,policy,runs,opt,model,model_misses,kernel_pswpin,kernel_refaults,kernel_majflt,opt_refaults,model_refaults,kernel_data_rereads$' "$tmp/withrefs"
sed -n '/^workload,policy,runs,opt/,$p' "$tmp/withrefs" >"$tmp/bound.csv"
check "refs: one row per policy" test "$(tail -n +2 "$tmp/bound.csv" | wc -l)" = 2
check "refs: vanilla's model is lru2q" grep -q '^cyclic-anon,vanilla,2,[0-9]*,lru2q,[0-9]*,' "$tmp/bound.csv"
check "refs: MGLRU has no model" grep -q '^cyclic-anon,vanilla-mglru,2,[0-9]*,none,NA,' "$tmp/bound.csv"
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

# One grouping rule: a copy of the vanilla runs that differs in one
# parameter at a time is another experiment, never averaged in.
variant() {	# variant NAME JQ-FILTER: the two vanilla runs, changed
	local d
	for d in "$tmp"/norefs/*-vanilla-cyclic-anon-*/; do
		mkdir -p "$tmp/$1/$(basename "$d")-$1"
		jq "$2" "$d/result.json" >"$tmp/$1/$(basename "$d")-$1/result.json"
	done
}
variant traced '.trace = "events" | .majflt += 1000'
variant sysctl '.params.sysctl = ["vm.page-cluster=0"] | .majflt += 2000'
variant bootargs '.params.boot_args = ["transparent_hugepage=never"] | .majflt += 3000'
variant cgroup '.params.cgroup = {name: "wl", limit_bytes: 67108864} | .majflt += 4000'
variant switched '.params.switch_at = 5 | .majflt += 5000'
# A companion workload beside it (--also), as lab/commands/run.sh records one.
also='{workload: "cyclic-file", size: "48M", cgroup: null,
	args: ["--seed", "1", "--dir", "/data/also-1", "--size", "48M"]}'
variant also ".params.also = [$also] | .majflt += 6000"
variant cgshare '.params.cgroup = {name: "wl", limit: "40%", limit_bytes: null} | .majflt += 7000'
want_mean=$(jq -s 'map(select(.policy == "vanilla") | .majflt) | add / length' "$tmp"/norefs/*/result.json)
for v in traced sysctl bootargs cgroup switched also cgshare; do
	"$lab" compare --format csv --metric majflt "$tmp/norefs" "$tmp/$v" >"$tmp/$v.csv" 2>/dev/null
	rows=$(grep -c '^majflt,cyclic-anon' "$tmp/$v.csv" || true)
	# One row still holds the original runs' mean, n=2; the other the variant's.
	cells=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$2 ~ /^cyclic-anon/ { print $(c["vanilla_n"]) ":" $(c["vanilla_mean"]) }' "$tmp/$v.csv" | sort | paste -sd' ')
	check "grouping: $v runs are another row, the others' mean untouched ($rows rows: $cells)" \
		bash -c 'grep -qw "2:$1" <<<"$2" && [[ $3 == 2 ]]' _ "$want_mean" "$cells" "$rows"
done
# A missing field is its default: a copy that says so explicitly is the
# same experiment.
variant defaults '.params.sysctl = [] | .params.boot_args = [] | .params.cgroup = null | .params.switch_at = null | .trace = "none"'
"$lab" compare --format csv --metric majflt "$tmp/norefs" "$tmp/defaults" >"$tmp/defaults.csv" 2>/dev/null
check "grouping: explicit defaults group with runs that lack the fields (n=4, one row)" \
	test "$(grep -c '^majflt,cyclic-anon' "$tmp/defaults.csv")-$(csv_get "$tmp/defaults.csv" workload=cyclic-anon vanilla_n)" = 1-4
# The companion's seed varies with the rep as the main one's does: not
# another experiment; its size or cgroup is. A cgroup limited to a share
# of MemTotal is not the unlimited one.
variant also2 ".params.also = [$also | .args[1] = \"2\"]"
variant also3 ".params.also = [$also | .args[5] = \"64M\"]"
variant also4 ".params.also = [$also | .cgroup = {name: \"b\", limit: null, limit_bytes: null}]"
variant cgnone '.params.cgroup = {name: "wl", limit: null, limit_bytes: null}'
declare -A sibling=([also2]=also [also3]=also [also4]=also [cgnone]=cgshare)
for v in also2 also3 also4 cgnone; do
	"$lab" compare --format csv --metric majflt "$tmp/norefs" "$tmp/$v" "$tmp/${sibling[$v]}" \
		>"$tmp/$v.csv" 2>/dev/null
	mapfile -t ns < <(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$2 ~ /^cyclic-anon/ { print $(c["vanilla_n"]) }' "$tmp/$v.csv" | sort)
	want="2 2 2"
	[[ $v == also2 ]] && want="2 4"
	is "${ns[*]}" "$want" "grouping: $v against the original and its sibling: vanilla's n per row"
done
"$lab" compare --format csv --metric majflt --ignore params.also "$tmp/norefs" "$tmp/also" >"$tmp/ign.csv"
check "grouping: --ignore params.also merges runs with a companion (n=4)" \
	test "$(csv_get "$tmp/ign.csv" workload=cyclic-anon vanilla_n)" = 4
"$lab" compare --format text --metric majflt "$tmp/also" "$tmp/also3" >"$tmp/also.txt"
check "grouping: the row names the companion and its options" \
	grep -qF 'also=cyclic-file(dir=/data/also-1;size=64M)' "$tmp/also.txt"
# A kernel change splits the columns; as the baseline it is refused,
# naming the parameter, unless merged on purpose.
variant newkernel '.kernel.series_sha = "0123456789abcdef"'
rc=0
"$lab" compare --baseline vanilla "$tmp/norefs" "$tmp/newkernel" >/dev/null 2>"$tmp/err" || rc=$?
check "grouping: a baseline on two kernels is refused (exit 3) naming kernel.series_sha" \
	bash -c '[[ $1 == 3 ]] && grep -q "kernel.series_sha differs" "$2" && [[ $(wc -l <"$2") == 1 ]]' _ "$rc" "$tmp/err"
"$lab" compare --baseline vanilla-mglru --format csv --metric majflt "$tmp/norefs" "$tmp/newkernel" >"$tmp/k.csv"
check "grouping: vanilla's two kernels are two columns" \
	bash -c 'head -n1 "$1" | grep -q ",vanilla series=none_n," && head -n1 "$1" | grep -q ",vanilla series=0123456789ab_n,"' _ "$tmp/k.csv"
"$lab" compare --baseline vanilla --ignore kernel.series_sha --format csv --metric majflt \
	"$tmp/norefs" "$tmp/newkernel" >"$tmp/merged.csv"
check "grouping: --ignore kernel.series_sha merges them (n=4)" \
	test "$(csv_get "$tmp/merged.csv" workload=cyclic-anon vanilla_n)" = 4
# Own images (--kernel-image) have no series: two of them are two
# kernels all the same, told apart by the image's checksum (or, in runs
# from before it was recorded, its path).
variant imga '.kernel = {release: null, series_sha: "unknown", config_sha: "unknown", image: "/k/a.bzImage", image_sha: "aaaaaaaaaaaaaaaaaaaa"}'
variant imgb '.kernel = {release: null, series_sha: "unknown", config_sha: "unknown", image: "/k/b.bzImage", image_sha: "bbbbbbbbbbbbbbbbbbbb"}'
"$lab" compare --baseline vanilla-mglru --format csv --metric majflt "$tmp/imga" "$tmp/imgb" >"$tmp/img.csv" 2>/dev/null
check "grouping: two own images are two columns, named by their checksums" \
	bash -c 'head -n1 "$1" | grep -q ",vanilla series=image-aaaaaa_n," && head -n1 "$1" | grep -q ",vanilla series=image-bbbbbb_n,"' _ "$tmp/img.csv"
variant imgc '.kernel = {release: null, series_sha: "unknown", config_sha: "unknown", image: "/k/c.bzImage"}'
variant imgd '.kernel = {release: null, series_sha: "unknown", config_sha: "unknown", image: "/k/d.bzImage"}'
"$lab" compare --baseline vanilla-mglru --format csv --metric majflt "$tmp/imgc" "$tmp/imgd" >"$tmp/imgp.csv" 2>/dev/null
check "grouping: ... and by their paths where no checksum was recorded" \
	bash -c 'head -n1 "$1" | grep -q ",vanilla series=c.bzImage_n," && head -n1 "$1" | grep -q ",vanilla series=d.bzImage_n,"' _ "$tmp/imgp.csv"
usage_error "--ignore an unknown parameter: exit 2, one line" "$lab" compare --ignore nope "$tmp/norefs"
# One policy's settings against each other: --columns puts a parameter
# in the column labels, and --baseline names one whole column.
variant bootarg '.params.boot_args = ["page_replace.first_young=look"] | .majflt = .majflt * 2'
rc=0
"$lab" compare --columns params.boot_args --baseline vanilla "$tmp/norefs" "$tmp/bootarg" >/dev/null 2>"$tmp/err" || rc=$?
check "--columns params.boot_args: a baseline policy with two columns is refused (exit 3), one line" \
	bash -c '[[ $1 == 3 ]] && grep -q "params.boot_args differs" "$2" && [[ $(wc -l <"$2") == 1 ]]' _ "$rc" "$tmp/err"
"$lab" compare --columns params.boot_args --baseline vanilla --format csv --metric majflt --no-bound \
	"$tmp/norefs" >"$tmp/one.csv"
check "--columns with one value of the parameter: the column is the policy alone" \
	bash -c 'head -n1 "$1" | grep -q ",vanilla_n,"' _ "$tmp/one.csv"
"$lab" compare --columns params.boot_args --baseline 'vanilla boot=page_replace.first_young=look' \
	--format csv --metric majflt --no-bound "$tmp/norefs" "$tmp/bootarg" >"$tmp/cols.csv"
base_col='vanilla boot=page_replace.first_young=look'
check "--columns: the boot argument is a column, and the row stays the workload's" \
	bash -c 'head -n1 "$1" | grep -qF ",$2_n," && ! grep -q "boot=" <(cut -d, -f2 "$1")' _ "$tmp/cols.csv" "$base_col"
is "$(csv_get "$tmp/cols.csv" workload=cyclic-anon vanilla_ratio)" 0.5 \
	"--columns: the plain runs' ratio to the named baseline column (majflt halved)"
usage_error "--columns an unknown parameter: exit 2, one line" "$lab" compare --columns nope "$tmp/norefs"
usage_error "--columns workload: exit 2, one line" "$lab" compare --columns workload "$tmp/norefs"

# Traced runs that lost more than 0.1% of their events are named.
variant lossy '.trace = "events" | .trace_events = 99000 | .trace_lost_events = [0, 1000]'
variant clean '.trace = "events" | .trace_events = 99950 | .trace_lost_events = [50, 0] | .trace_lost_unknown_gaps = [0, 0]'
"$lab" compare --format markdown "$tmp/lossy" "$tmp/clean" >"$tmp/loss.md" 2>"$tmp/loss.err"
check "losses: the 1% runs are listed with their share" \
	bash -c 'test "$(grep -c -- "-lossy/result.json: lost 1.00%" "$1")" = 2' _ "$tmp/loss.md"
check "losses: the 0.05% runs are not" bash -c '! grep -q -- "-clean/result.json" "$1"' _ "$tmp/loss.md"
check "losses: a warning on stderr per lossy run" test "$(grep -c 'warning: .*lossy.*lost 1.00%' "$tmp/loss.err")" = 2

# Runs in which the framework fell back to lru are named, with the policy
# they ended under; runs with no fallback are not.
variant fellback '.policy_stats.fallbacks = 1 | .policy_active_end = "lru"'
variant nofallback '.policy_stats.fallbacks = 0'
variant setupfallback '.policy_stats.fallbacks = 0 | .policy = "cart" | .policy_active_end = "lru" | .params.switch_at = []'
"$lab" compare --format markdown "$tmp/fellback" "$tmp/nofallback" >"$tmp/fb.md" 2>"$tmp/fb.err"
check "fallback: both runs that fell back are listed, ended under lru" \
	test "$(grep -c -- '-fellback/result.json: 1 fallback(s), ended under lru' "$tmp/fb.md")" = 2
check "fallback: the runs without one are not" bash -c '! grep -q -- "-nofallback/result.json" "$1"' _ "$tmp/fb.md"
check "fallback: a warning on stderr per run" test "$(grep -c 'warning: .*fellback.*1 fallback(s)' "$tmp/fb.err")" = 2
"$lab" compare --format markdown "$tmp/setupfallback" >"$tmp/sfb.md" 2>/dev/null
check "fallback: a run that ended under lru without asking for a switch (a fallback in the setup) is listed" \
	test "$(grep -c -- '-setupfallback/result.json: 0 fallback(s) in the timed phase, ended under lru' "$tmp/sfb.md")" = 2

# Runs that ran beside other lab guests are named by their cell, with
# how many of its runs did (jq counts them); the others are not.
mkdir -p "$tmp/conc"
cp -r "$tmp"/norefs/. "$tmp/conc/"
# The second rep: its cell's first run, earlier in every order, counts too.
second=$(find "$tmp/conc" -path '*-vanilla-cyclic-anon-r2-*' -name result.json)
jq '.concurrent_guests = 2' "$second" >"$tmp/c.json" && mv "$tmp/c.json" "$second"
for f in "$tmp"/conc/*-vanilla-mglru-*/result.json; do
	jq '.concurrent_guests = 0' "$f" >"$tmp/c.json" && mv "$tmp/c.json" "$f"
done
n_vanilla=$(jq -s 'map(select(.policy == "vanilla")) | length' "$tmp"/conc/*/result.json)
n_beside=$(jq -s 'map(select(.concurrent_guests > 0)) | length' "$tmp"/conc/*/result.json)
"$lab" compare --format markdown "$tmp/conc" >"$tmp/conc.md" 2>"$tmp/conc.err"
check "concurrent: the vanilla cell is named: $n_beside of its $n_vanilla runs, up to 2 guests" \
	grep -qx -- "- cyclic-anon | vanilla: $n_beside of $n_vanilla runs, beside up to 2 other guests" "$tmp/conc.md"
check "concurrent: the vanilla-mglru cell (concurrent_guests 0) is not" \
	bash -c '! grep -q -- "| vanilla-mglru:" "$1"' _ "$tmp/conc.md"
check "concurrent: one warning line on stderr" \
	test "$(grep -c "warning: $n_beside of 4 runs ran beside other lab guests" "$tmp/conc.err")" = 1
"$lab" compare --format markdown "$tmp/norefs" >"$tmp/alone.md" 2>"$tmp/alone.err"
check "concurrent: runs without the field are not flagged" \
	bash -c '! grep -q "beside other lab guests" "$1" "$2"' _ "$tmp/alone.md" "$tmp/alone.err"
"$lab" compare --format csv "$tmp/conc" >"$tmp/conc.csv" 2>/dev/null
check "concurrent: the CSV stays a table (no note)" bash -c '! grep -q "beside" "$1"' _ "$tmp/conc.csv"

usage_error "no RESULTS: exit 2, one line" "$lab" compare
usage_error "bad --format: exit 2, one line" "$lab" compare --format xml "$tmp/runs"
usage_error "unknown option: exit 2, one line" "$lab" compare --frobnicate "$tmp/runs"
usage_error "missing path: exit 2, one line" "$lab" compare "$tmp/nope"
mkdir -p "$tmp/empty"
usage_error "no runs under the directory: exit 2, one line" "$lab" compare "$tmp/empty"
check "--help exits 0" bash -c "'$lab' compare --help >/dev/null"
done_testing
