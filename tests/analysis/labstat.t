#!/usr/bin/env bash
# shellcheck disable=SC2016 # programs for bash -c and awk, in single quotes
# labstat: statistics against textbook values, grouping of fixture
# result.json files, skips, output formats and bad input.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=tap.sh
source "$(dirname "$0")/tap.sh"
build_tools

LABSTAT=$BIN/labstat
RESULTS=$FIXTURES/results

# Writes one minimal result.json per value: make_runs DIR POLICY VALUES...
make_runs() {
	local dir=$1 policy=$2 i=0 v
	shift 2
	for v in "$@"; do
		i=$((i + 1))
		mkdir -p "$dir/$policy-$i"
		printf '{"workload":"textbook","policy":"%s","exit":"ok","wall_s":%s}\n' \
			"$policy" "$v" >"$dir/$policy-$i/result.json"
	done
}

# Welch's t-test, Wikipedia "Welch's t-test", examples 1 and 2:
# t = -2.46, df = 24.99, p = 0.021 and t = -1.57, df = 9.90, p = 0.149.
make_runs "$TMP/ex1" a1 27.5 21.0 19.0 23.6 17.0 17.9 16.9 20.1 21.9 22.6 23.1 19.6 19.0 21.7 21.4
make_runs "$TMP/ex1" a2 27.1 22.0 20.8 23.4 23.4 23.5 25.8 22.0 24.8 20.2 21.9 22.1 22.9 20.5 24.4
make_runs "$TMP/ex2" a1 17.2 20.9 22.6 18.1 21.7 21.4 23.5 24.2 14.7 21.8
make_runs "$TMP/ex2" a2 21.5 22.8 21.0 23.0 21.6 23.6 22.5 20.7 23.4 21.8 20.7 21.7 21.5 22.5 \
	23.6 21.5 22.5 23.5 21.5 21.8
for ex in ex1 ex2; do
	"$LABSTAT" --csv-long -m wall_s -b a2 "$TMP/$ex" >"$TMP/$ex.csv"
done
row="workload=textbook&policy=a1"
tap_near "$(csv_get "$TMP/ex1.csv" "$row" welch_t)" -2.46 0.005 "Welch example 1: t = -2.46"
tap_near "$(csv_get "$TMP/ex1.csv" "$row" welch_df)" 24.99 0.005 "Welch example 1: df = 24.99"
tap_near "$(csv_get "$TMP/ex1.csv" "$row" p_value)" 0.021 0.0005 "Welch example 1: p = 0.021"
tap_is "$(csv_get "$TMP/ex1.csv" "$row" significant)" 1 "Welch example 1 is significant at 5%"
tap_near "$(csv_get "$TMP/ex2.csv" "$row" welch_t)" -1.57 0.005 "Welch example 2: t = -1.57"
tap_near "$(csv_get "$TMP/ex2.csv" "$row" welch_df)" 9.90 0.005 "Welch example 2: df = 9.90"
tap_near "$(csv_get "$TMP/ex2.csv" "$row" p_value)" 0.149 0.0005 "Welch example 2: p = 0.149"
tap_is "$(csv_get "$TMP/ex2.csv" "$row" significant)" 0 "Welch example 2 is not significant"

# Fixture runs (tests/analysis/fixtures/results, hand-made test inputs).
"$LABSTAT" --csv-long -m wall_s -m "refaults=vmstat.workingset_refault_anon+vmstat.workingset_refault_file" \
	"$RESULTS" >"$TMP/long.csv" 2>"$TMP/notes"
lru="metric=wall_s&workload=cyclic-anon&policy=lru"
tap_is "$(csv_get "$TMP/long.csv" "$lru" n)" 5 "five lru cyclic-anon runs grouped"
tap_near "$(csv_get "$TMP/long.csv" "$lru" mean)" 12 1e-9 "mean of 10..14 is 12"
tap_near "$(csv_get "$TMP/long.csv" "$lru" sd)" 1.5811388 1e-6 "sd of 10..14 is sqrt(2.5)"
tap_near "$(awk -v ci="$(csv_get "$TMP/long.csv" "$lru" ci95)" 'BEGIN { print ci / (sqrt(2.5) / sqrt(5)) }')" \
	2.776 0.0005 "95% CI uses Student t, df=4: 2.776"
tap_is "$(csv_get "$TMP/long.csv" "metric=wall_s&workload=cyclic-anon&policy=clockpro" n)" 5 \
	"clockpro run with exit timeout left out"
tap_ok "skipped timeout run noted on stderr" grep -q 'skipping .*r12-f1x7/result.json (exit timeout)' "$TMP/notes"
tap_ok "directory without result.json noted on stderr" grep -q 'skipping .*incomplete (no result.json)' "$TMP/notes"
tap_is "$(csv_get "$TMP/long.csv" "metric=wall_s&workload=cyclic-anon&policy=cart" ci95)" NA "N=1 cell has no CI"
tap_near "$(csv_get "$TMP/long.csv" "metric=wall_s&workload=cyclic-anon&policy=clockpro" ratio)" 0.75 1e-9 \
	"ratio to baseline: 9/12"
tap_near "$(csv_get "$TMP/long.csv" "metric=wall_s&workload=gmean&policy=clockpro" ratio)" 0.8660254 1e-6 \
	"geometric mean of ratios 0.75 and 1.0"
tap_near "$(csv_get "$TMP/long.csv" "metric=refaults&workload=cyclic-anon&policy=lru" mean)" 522 1e-9 \
	"summed metric: refault_anon + refault_file"

# The text table's cells, computed here from the fixtures' own wall_s
# values: mean, t(0.975, n-1)·sd/√n with the textbook t (df 1: 12.706205,
# df 4: 2.776445), numbers printed as the README says (%.2f from 1, %.0f
# from 100, %.3g below 1), the ratio to lru's mean, * where the long
# CSV's Welch p < 0.05.
"$LABSTAT" -m wall_s "$RESULTS" >"$TMP/text" 2>/dev/null
expected_cell() {	# expected_cell POLICY WORKLOAD
	jq -r --arg p "$1" --arg w "$2" 'select(.policy == $p and .workload == $w and .exit == "ok") | .wall_s' \
		"$RESULTS"/*/result.json |
		awk -v base="$3" -v star="$4" '
			function fmt(v) { a = v < 0 ? -v : v; return a >= 100 ? sprintf("%.0f", v) : a >= 1 ? sprintf("%.2f", v) : sprintf("%.3g", v) }
			{ x[++n] = $1; s += $1 }
			END {
				m = s / n; for (i = 1; i <= n; i++) ss += (x[i] - m) ^ 2
				t[1] = 12.706205; t[4] = 2.776445
				ci = n > 1 ? fmt(t[n - 1] * sqrt(ss / (n - 1)) / sqrt(n)) : "n/a"
				printf "%s ± %s (n=%d)", fmt(m), ci, n
				if (base != "") printf " %.3f%s", m / base, star
				printf "\n"
			}'
}
lru_anon=$(jq -s 'map(select(.policy == "lru" and .workload == "cyclic-anon") | .wall_s) | add / length' "$RESULTS"/*/result.json)
lru_file=$(jq -s 'map(select(.policy == "lru" and .workload == "cyclic-file") | .wall_s) | add / length' "$RESULTS"/*/result.json)
star_of() { awk -v p="$(csv_get "$TMP/long.csv" "metric=wall_s&workload=$2&policy=$1" p_value)" 'BEGIN { print (p < 0.05 ? "*" : "") }'; }
for cell in "clockpro cyclic-anon $lru_anon" "cart cyclic-anon $lru_anon" "clockpro cyclic-file $lru_file"; do
	read -r p w base <<<"$cell"
	want=$(expected_cell "$p" "$w" "$base" "$(star_of "$p" "$w")")
	tap_ok "text table: $p $w is '$want' (computed from the fixtures)" \
		bash -c 'awk -v w="$1" "\$1 == w" "$2" | grep -qF -- "$3"' _ "$w" "$TMP/text" "$want"
done
"$LABSTAT" -m wall_s --format markdown "$RESULTS" >"$TMP/md" 2>/dev/null
tap_ok "markdown table has a header rule" grep -q '^|:---' "$TMP/md"
"$LABSTAT" -m wall_s --format csv "$RESULTS" >"$TMP/wide.csv" 2>/dev/null
tap_is "$(csv_get "$TMP/wide.csv" "workload=cyclic-anon" clockpro_significant)" 1 "wide CSV carries significance"

# Runs of one workload with different setups are separate rows; reps that
# differ only in seed are one row.
setup_run() {	# setup_run NAME MEM SEED WALL
	mkdir -p "$TMP/setup/$1"
	printf '{"workload":"w","policy":"lru","exit":"ok","wall_s":%s,"mem_mib":%s,"seed":%s,"params":{"size":"48M","args":["--seed","%s","--size","48M"]}}\n' \
		"$4" "$2" "$3" "$3" >"$TMP/setup/$1/result.json"
}
setup_run a 128 1 10
setup_run b 128 2 12
setup_run c 256 1 5
"$LABSTAT" --csv-long -m wall_s "$TMP/setup" >"$TMP/setup.csv"
tap_is "$(csv_get "$TMP/setup.csv" "workload=w mem=128M" n)" 2 "reps differing only in seed share a row"
tap_is "$(csv_get "$TMP/setup.csv" "workload=w mem=256M" n)" 1 "a run with other guest memory gets its own row"

# HTML: one <table> per metric, cells escaped, the same numbers as text.
"$LABSTAT" -m wall_s -m majflt --format html "$RESULTS" >"$TMP/t.html" 2>/dev/null
tap_is "$(grep -c '^<table>' "$TMP/t.html")" 2 "html: one table per metric"
tap_ok "html: the clockpro cell as in the text table" grep -qF '<td>9.00 ± 0.982 (n=5) 0.750*</td>' "$TMP/t.html"
mkdir -p "$TMP/esc/a"
printf '{"workload":"w<b>&","policy":"lru","exit":"ok","wall_s":1}\n' >"$TMP/esc/a/result.json"
"$LABSTAT" -m wall_s --format html "$TMP/esc" >"$TMP/esc.html"
tap_ok "html: labels are escaped" grep -qF '>w&lt;b&gt;&amp;</td>' "$TMP/esc.html"

# Runs at any depth; --list-runs names each run's row and column.
mkdir -p "$TMP/deep/matrix/cells/lru"
cp -r "$RESULTS/20250101T000001-lru-cyclic-anon-r1-f1x7" "$TMP/deep/matrix/cells/lru/"
cp -r "$RESULTS/20250101T000013-lru-cyclic-file-r13-f1x7" "$TMP/deep/"
"$LABSTAT" --list-runs "$TMP/deep" >"$TMP/list.csv" 2>/dev/null
tap_is "$(tail -n +2 "$TMP/list.csv" | cut -d, -f1-3 | sort | paste -sd' ')" \
	"cyclic-anon,lru,lru cyclic-file,lru,lru" "--list-runs: both runs, found at any depth, with row and column"
# The machine's shape keeps runs apart: the same cell on zram swap, on
# two NUMA nodes with a DIMM, and on the default machine are three rows.
mkdir -p "$TMP/shape"
for v in default zram numa; do
	cp -r "$RESULTS/20250101T000001-lru-cyclic-anon-r1-f1x7" "$TMP/shape/$v"
done
jq '.params.swap = "zram"' "$RESULTS/20250101T000001-lru-cyclic-anon-r1-f1x7/result.json" \
	>"$TMP/shape/zram/result.json"
jq '.params.numa = {nodes: 2, node_mib: [192, 64], node_cpus: ["0", "1"], dimm_mib: 128}' \
	"$RESULTS/20250101T000001-lru-cyclic-anon-r1-f1x7/result.json" >"$TMP/shape/numa/result.json"
"$LABSTAT" --list-runs "$TMP/shape" >"$TMP/shape.csv" 2>/dev/null
tap_is "$(tail -n +2 "$TMP/shape.csv" | cut -d, -f1 | sort -u | wc -l)" 3 \
	"--list-runs: the default machine, zram swap and two nodes are three rows"
tap_ok "... labelled by the shape that differs" \
	bash -c "grep -q 'swap=zram' '$TMP/shape.csv' && grep -q 'numa=2:192M+64M+dimm128M' '$TMP/shape.csv'"
set +e
"$LABSTAT" --ignore nope "$RESULTS" 2>"$TMP/err"; rc=$?
set -e
tap_is "$rc $(wc -l <"$TMP/err")" "2 1" "--ignore of an unknown parameter: exit 2, one line"

# Bad input: one stderr line, non-zero exit, no output file.
echo '{"workload": "x", "policy":' >"$TMP/broken.json"
set +e
"$LABSTAT" -o "$TMP/out.txt" "$TMP/broken.json" 2>"$TMP/err"
rc=$?
set -e
tap_is "$rc" 1 "malformed result.json exits 1"
tap_is "$(wc -l <"$TMP/err")" 1 "malformed result.json: one error line"
tap_ok "malformed result.json: no output file" test ! -e "$TMP/out.txt"
tap_ok "no temporary file left" bash -c "! ls '$TMP'/out.txt.* 2>/dev/null | grep -q ."
# schema_version: absent (older runs) or 1 reads; newer or malformed is
# refused with one line, before any table is written.
make_runs "$TMP/v" a1 1 2
jq '. + {schema_version: 1}' "$TMP/v/a1-1/result.json" >"$TMP/v1.json" && mv "$TMP/v1.json" "$TMP/v/a1-1/result.json"
tap_ok "schema_version 1 beside a run without one reads" "$LABSTAT" -m wall_s "$TMP/v"
for bad in 2 0 '"1"'; do
	jq ". + {schema_version: $bad}" "$TMP/v/a1-1/result.json" >"$TMP/vbad.json"
	set +e
	"$LABSTAT" -m wall_s -o "$TMP/v.out" "$TMP/vbad.json" 2>"$TMP/err"; rc=$?
	set -e
	tap_is "$rc $(wc -l <"$TMP/err") $([[ -e $TMP/v.out ]] && echo written || echo none)" "1 1 none" \
		"schema_version $bad is refused: exit 1, one line ($(cat "$TMP/err")), no table"
done
set +e
"$LABSTAT" "$TMP/does-not-exist" 2>"$TMP/err"; rc_missing=$?
"$LABSTAT" -m 'bad metric!' "$RESULTS" 2>/dev/null; rc_metric=$?
mkdir -p "$TMP/empty"
"$LABSTAT" "$TMP/empty" 2>/dev/null; rc_empty=$?
set -e
tap_is "$rc_missing $(wc -l <"$TMP/err")" "1 1" "missing path: exit 1, one error line"
tap_is "$rc_metric" 2 "malformed --metric exits 2"
tap_is "$rc_empty" 1 "no completed runs exits 1"
"$LABSTAT" -m wall_s -o "$TMP/out.txt" "$RESULTS" 2>/dev/null
tap_ok "-o writes the table" grep -q 'cyclic-anon' "$TMP/out.txt"

# @rate and @p99: each run's own workload's path from the registry
# (lab/registry/workloads.tsv): cyclic-anon's pages_per_s, fio's ops_per_s
# and p99_us; cyclic-anon has no p99 ("-"), left out without a note.
mkdir -p "$TMP/at/a" "$TMP/at/b"
printf '{"workload":"cyclic-anon","policy":"lru","exit":"ok","workload_result":{"pages_per_s":100}}\n' >"$TMP/at/a/result.json"
printf '{"workload":"fio","policy":"lru","exit":"ok","workload_result":{"ops_per_s":7,"p99_us":900}}\n' >"$TMP/at/b/result.json"
"$LABSTAT" --csv-long -m rate=@rate -m p99=@p99 "$TMP/at" >"$TMP/at.csv" 2>"$TMP/at.err"
tap_is "$(csv_get "$TMP/at.csv" "metric=rate&workload=cyclic-anon&policy=lru" mean)" 100 "@rate is cyclic-anon's pages_per_s"
tap_is "$(csv_get "$TMP/at.csv" "metric=rate&workload=fio&policy=lru" mean)" 7 "@rate is fio's ops_per_s"
tap_is "$(csv_get "$TMP/at.csv" "metric=p99&workload=fio&policy=lru" mean)" 900 "@p99 is fio's p99_us"
tap_is "$(grep -c '^p99,cyclic-anon,' "$TMP/at.csv")" 0 \
	"@p99 of cyclic-anon, which times no operation: no row"
tap_is "$(cat "$TMP/at.err")" "" "... and no note: the registry says it does not apply"
rc=0
"$LABSTAT" -m x=@latency "$TMP/at" >/dev/null 2>"$TMP/at.err" || rc=$?
tap_is "$rc" 2 "an @ column the metrics do not know is a usage error"
tap_done
