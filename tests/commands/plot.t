#!/usr/bin/env bash
# shellcheck disable=SC2016 # programs for bash -c and awk, in single quotes
# lab.sh plot on the real trace of tests/analysis/fixtures (recorded in a
# lab guest): a timeline per run, an overlay for two runs of one
# workload, files whole, and bad arguments refused.
set -euo pipefail
# shellcheck source=tap.sh
source "$(dirname "$0")/tap.sh"
lab=$top/lab.sh
need_gnuplot
build_analysis
is_png() { file -b "$1" | grep -q '^PNG image data'; }

traced_fixture_runs "$tmp/runs"
mkdir -p "$tmp/runs/untraced"
cp "$top"/tests/commands/fixtures/runs/*-vanilla-cyclic-anon-r1-*/result.json "$tmp/runs/untraced/"

rc=0
"$lab" plot "$tmp/runs" >"$tmp/out" 2>"$tmp/err" || rc=$?
check "in place: exits 0" test "$rc" = 0
d=$tmp/runs/20261203T091524-vanilla-cyclic-anon-r1-90f8
check "in place: timeline PNG in the run directory" is_png "$d/timeline.png"
check "in place: timeline SVG in the run directory" grep -q '<svg' "$d/timeline.svg"
check "in place: the timeline CSV kept beside it" grep -q '^t_s,scanned_anon,' "$d/timeline.csv"
overlays=("$tmp"/runs/overlay-cyclic-anon*.png)
check "in place: one overlay beside the runs (${overlays[*]##*/})" \
	bash -c '[[ $# == 1 ]] && file -b "$1" | grep -q "^PNG image data"' _ "${overlays[@]}"
check "in place: every file printed on stdout exists" bash -c 'while read -r f; do [[ -s $f ]] || exit 1; done <"$1"' _ "$tmp/out"
check "in place: the untraced run is named as skipped" grep -q 'untraced: no trace.dat' "$tmp/err"

rc=0
"$lab" plot --out "$tmp/plots" --interval 500 "$d" >"$tmp/out2" 2>&1 || rc=$?
check "--out: exits 0" test "$rc" = 0
check "--out: <run-id>-timeline.png there" is_png "$tmp/plots/$(basename "$d")-timeline.png"
check "--interval 500: rows 0.5 s apart" awk -F, 'NR == 2 { a = $1 } NR == 3 { exit !($1 - a == 0.5) }' \
	"$tmp/plots/$(basename "$d")-timeline.csv"
check "--out: one run, no overlay" test -z "$(find "$tmp/plots" -name 'overlay-*')"
check "no temporary files left" test -z "$(find "$tmp" -name '*.tmp')"

# Two runs that differ in memory too are two experiments: no overlay,
# unless --ignore mem_mib merges them.
traced_fixture_runs "$tmp/mem"
m=$(find "$tmp/mem" -path '*-vanilla-mglru-*' -name result.json)
jq '.mem_mib += 64' "$m" >"$tmp/r.json" && mv "$tmp/r.json" "$m"
"$lab" plot --out "$tmp/mem-plots" "$tmp/mem" >/dev/null 2>&1
check "runs of two memory sizes: no overlay" test -z "$(find "$tmp/mem-plots" -name 'overlay-*')"
"$lab" plot --ignore mem_mib --out "$tmp/mem-plots2" "$tmp/mem" >/dev/null 2>&1
check "--ignore mem_mib: one overlay" test "$(find "$tmp/mem-plots2" -name 'overlay-*.png' | wc -l)" = 1
usage_error "--ignore without a value: exit 2, one line" "$lab" plot "$tmp/runs" --ignore

usage_error "no run with a trace.dat: exit 2, one line" "$lab" plot "$tmp/runs/untraced"
usage_error "bad --interval: exit 2, one line" "$lab" plot --interval 0 "$tmp/runs"
usage_error "no RUN: exit 2, one line" "$lab" plot
usage_error "missing path: exit 2, one line" "$lab" plot "$tmp/nope"
done_testing
