#!/usr/bin/env bash
# shellcheck disable=SC2016 # programs for awk and bash -c, in single quotes
# The perf metrics through the lab's commands, on runs made from the
# hand-written profile (fixtures/script.txt): labstat's mean and CI of
# perf.us_per_reclaimed_page against one computed here, lab.sh plot's
# reclaim CPU bars, and lab.sh report's bars and perf-diff tables whose
# links lead to the stacks.
set -euo pipefail
# shellcheck source=tap.sh
source "$(dirname "$0")/tap.sh"
command -v gnuplot >/dev/null || skip_all "gnuplot is not installed (lab/make/deps.sh installs gnuplot-nox)"
if ! lab_make analysis tools OUT="$build/analysis" >"$tmp/build.log" 2>&1; then
	not_ok "analysis tools build" "$(tail -n 5 "$tmp/build.log")"
	done_testing
fi
export LAB_BUILD=$build
lab=$top/lab.sh
fx=$top/tests/perf/fixtures

# Three reps of clockpro (the fixture) and of lru (the same stacks with
# lru's own check instead of clockpro's), timed phases of 5.5, 6 and 6.5 s.
res=$tmp/results
sed 's/clockpro_referenced/folio_check_references/' "$fx/script.txt" >"$tmp/lru.txt"
for policy in clockpro lru; do
	script=$fx/script.txt
	[[ $policy == lru ]] && script=$tmp/lru.txt
	for rep in 1 2 3; do
		d=$res/20261204T00000$rep-$policy-cyclic-anon-r$rep-00f$rep
		mkdir -p "$d/perf"
		jq --arg p "$policy" --argjson rep "$rep" \
			'.policy = $p | .rep = $rep | .run_id = "x" | .trace = "perf" | .perf_freq_hz = 997
			 | .guest_wall_s = 5 + $rep * 0.5' "$fx/result.json" >"$d/run.json"
		"$build/analysis/perf-reclaim" --result "$d/run.json" --folded "$d/perf/folded.txt" \
			--json "$d/perf/metrics.json" "$script"
		jq --slurpfile m "$d/perf/metrics.json" '.perf = $m[0]' "$d/run.json" >"$d/result.json"
		rm "$d/run.json"
	done
done

# 6 reclaim samples of 2 CPUs x wall / 11 samples, over 6000 pages.
want=$(awk 'BEGIN { for (r = 1; r <= 3; r++) s += 6 * 2 * (5 + r * 0.5) / 11 * 1e6 / 6000; printf "%.4f\n", s / 3 }')
"$build/analysis/labstat" --csv-long -m perf.us_per_reclaimed_page "$res" >"$tmp/long.csv" 2>/dev/null
near "$(awk -F, '$4 == "clockpro" && $2 != "gmean" { print $7 }' "$tmp/long.csv")" "$want" 0.001 \
	"labstat: clockpro's mean perf.us_per_reclaimed_page is the mean computed here ($want)"
check "labstat: with a 95% CI over the three reps" \
	awk -F, '$4 == "clockpro" && $2 != "gmean" && $6 == 3 && $9 > 0 { ok = 1 } END { exit !ok }' "$tmp/long.csv"

"$build/analysis/labstat" "$res" >"$tmp/default.txt" 2>/dev/null
check "labstat without --metric: profiled runs add the perf tables" \
	bash -c 'grep -q "^perf.us_per_reclaimed_page:" "$1" && grep -q "^perf.reclaim_cpu_share:" "$1"' _ "$tmp/default.txt"
# Runs sampled at another rate, or with trace-cmd beside perf, are other
# experiments (labstat --list-runs' rows).
other=$tmp/other
mkdir -p "$other/a" "$other/b"
jq '.perf_freq_hz = 499' "$res/20261204T000001-clockpro-cyclic-anon-r1-00f1/result.json" >"$other/a/result.json"
jq '.trace = "events,perf" | .trace_buffer_kb = 4096' "$res/20261204T000002-clockpro-cyclic-anon-r2-00f2/result.json" \
	>"$other/b/result.json"
"$build/analysis/labstat" --list-runs "$res/20261204T000003-clockpro-cyclic-anon-r3-00f3" "$other/a" "$other/b" \
	>"$tmp/rows.csv" 2>/dev/null
is "$(cut -d, -f1 "$tmp/rows.csv" | tail -n +2 | sort -u | wc -l)" 3 "labstat: three experiments of three runs"
check "... the one sampled at 499 Hz says so (perf=499Hz)" grep -q '^[^,]*perf=499Hz' "$tmp/rows.csv"
check "... and events,perf brings trace-cmd's buffer (trace_buffer=4096K)" grep -q '^[^,]*trace_buffer=4096K' "$tmp/rows.csv"

rc=0
"$lab" plot --out "$tmp/plots" "$res" >"$tmp/plot.out" 2>"$tmp/plot.err" || rc=$?
check "lab.sh plot on profiled runs only: exits 0" test "$rc" = 0
[[ $rc == 0 ]] || diag "$(tail -n 2 "$tmp/plot.err")"
check "lab.sh plot: a reclaim CPU bar chart for the workload" \
	bash -c 'file -b "$1" | grep -q "^PNG image data"' _ "$tmp/plots/reclaim-cpu-cyclic-anon.png"
check "lab.sh plot: every file it prints exists" bash -c 'while read -r f; do [[ -s $f ]] || exit 1; done <"$1"' _ "$tmp/plot.out"

rc=0
"$lab" report "$res" >"$tmp/report.out" 2>"$tmp/report.err" || rc=$?
check "lab.sh report: exits 0" test "$rc" = 0
[[ $rc == 0 ]] || diag "$(tail -n 2 "$tmp/report.err")"
html=$res/report.html
check "lab.sh report: the reclaim CPU section with its chart" \
	grep -q '<img src="report-plots/reclaim-cpu-cyclic-anon.png"' "$html"
check "lab.sh report: clockpro against lru, a perf-diff table" grep -q '<h3>cyclic-anon: clockpro against lru</h3>' "$html"
is "$(grep -c '<tr><td>' "$html" | head -n1)" 15 "lab.sh report: its 15 rows"
mapfile -t links < <(grep -o 'href="report-plots/perf-diff/[^"]*"' "$html" | sed 's/^href="//; s/"$//')
missing=0
for l in "${links[@]}"; do [[ -s $res/$l ]] || missing=1; done
# 15 rows, two sets: a link per set that has stacks through the symbol.
nolink=$(grep -o '(none in [a-z]*)' "$html" | wc -l)
check "lab.sh report: ${#links[@]} links to folded stacks, each to a file, and $nolink sets without any" \
	bash -c '(($1 + $2 == 30 && $3 == 0))' _ "${#links[@]}" "$nolink" "$missing"
# clockpro_referenced's self: 2 samples in each clockpro run, none in lru's.
want=$(awk 'BEGIN { for (r = 1; r <= 3; r++) s += 2 * 2 * (5 + r * 0.5) / 11; printf "%.3f\n", s / 3 }')
check "lab.sh report: clockpro_referenced first, ${want} s of self time against none" \
	grep -q "<tr><td>1</td><td class=\"l\"><code>clockpro_referenced</code></td><td>$want</td><td>0.000</td>" "$html"
done_testing
