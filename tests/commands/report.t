#!/usr/bin/env bash
# shellcheck disable=SC2016 # programs for bash -c and awk, in single quotes
# lab.sh report on recorded runs (tests/commands/fixtures, and the real
# trace of tests/analysis/fixtures): the page is written atomically, links
# only images that exist, and headless Chromium loads it with every image
# rendered.
set -euo pipefail
# shellcheck source=tap.sh
source "$(dirname "$0")/tap.sh"
lab=$top/lab.sh
need_gnuplot
build_analysis

res=$tmp/results
mkdir -p "$res"
cp -r "$top"/tests/commands/fixtures/runs/. "$res/"
for d in "$res"/*/; do xz -d "$d/refs.bin.xz"; done
# One run that ran beside another guest: the page names its cell.
beside=$(find "$res" -path '*-vanilla-mglru-cyclic-anon-r1-*' -name result.json)
jq '.concurrent_guests = 1' "$beside" >"$tmp/r.json" && mv "$tmp/r.json" "$beside"
traced_fixture_runs "$res/traced"
# One traced run that lost 1% of its events: the page names it.
lossy=$(find "$res/traced" -path '*-vanilla-mglru-*' -name result.json)
jq '.trace_events = 99000 | .trace_lost_events = [0, 1000]' "$lossy" >"$tmp/r.json" && mv "$tmp/r.json" "$lossy"

rc=0
"$lab" report "$res" >"$tmp/out" 2>"$tmp/err" || rc=$?
check "exits 0" test "$rc" = 0
[[ $rc == 0 ]] || diag "$(tail -n 3 "$tmp/err")"
html=$res/report.html
check "prints the page's path" test "$(tail -n1 "$tmp/out")" = "$html"
check "report.html written" test -s "$html"
check "no temporary files or directories left" test -z "$(find "$res" -maxdepth 1 -name '.report*')"
check "comparison tables as HTML tables" test "$(grep -c '<table>' "$html")" -ge 5
check "the OPT/model section is there (runs have refs.bin)" grep -q "Belady's OPT" "$html"
check "the cell with a run beside another guest is listed (1 of its 2 runs)" \
	grep -qE '<li>cyclic-anon [^|]*trace=none \| vanilla-mglru: 1 of 2 runs, beside up to 1 other guest</li>' "$html"
check "the traced run that lost events is listed with its share" \
	grep -qE '<li>[^<]*-vanilla-mglru-cyclic-anon-r1-90f8/result.json: lost 1.00% of its trace events</li>' "$html"
check "... and only that one" test "$(grep -c 'of its trace events</li>' "$html")" = 1
mapfile -t imgs < <(grep -o '<img src="[^"]*"' "$html" | sed 's/<img src="//; s/"$//')
diag "${#imgs[@]} images"
check "comparison charts, miss-ratio curve, overlay and timelines linked" \
	bash -c 'grep -q compare- <<<"$1" && grep -q mrc- <<<"$1" && grep -q overlay- <<<"$1" && grep -q -- -timeline <<<"$1"' _ "${imgs[*]}"
missing=0
for i in "${imgs[@]}"; do
	[[ $i != /* && $i != *://* ]] || missing=1
	[[ -s $res/$i ]] || missing=1
done
check "every image is a relative link to an existing file" test "$missing" = 0

# Rebuilding replaces the page and its plots.
before=$(stat -c %Y "$html")
sleep 1
"$lab" report "$res" >/dev/null 2>&1
check "a second report replaces the first" test "$(stat -c %Y "$html")" -gt "$before"

# Headless Chromium: load a copy of the page with a check appended that
# lists every image and whether it decoded (naturalWidth > 0).
browser=$(command -v chromium || command -v chromium-browser || true)
if [[ -z $browser ]]; then
	skip "the page loads in headless Chromium" "chromium is not installed"
else
	cp "$html" "$res/report-check.html"
	cat >>"$res/report-check.html" <<'JS'
<script>
window.addEventListener("load", function () {
	var imgs = Array.from(document.images), bad = imgs.filter(function (i) {
		return !i.complete || i.naturalWidth === 0;
	});
	var p = document.createElement("pre");
	p.id = "imgcheck";
	p.textContent = "IMAGES " + imgs.length + " BROKEN " + bad.length + " TABLES " +
		document.getElementsByTagName("table").length +
		bad.map(function (i) { return " " + i.getAttribute("src"); }).join("");
	document.body.appendChild(p);
});
</script>
JS
	profile=$(mktemp -d)
	timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --user-data-dir="$profile" \
		--virtual-time-budget=10000 --dump-dom "file://$res/report-check.html" \
		>"$tmp/dom" 2>"$tmp/chromium.err" || true
	rm -rf "$profile"
	line=$(grep -o 'IMAGES [0-9]* BROKEN [0-9]* TABLES [0-9]*[^<]*' "$tmp/dom" || true)
	diag "chromium: ${line:-no result; $(tail -n 2 "$tmp/chromium.err" | tr '\n' ' ')}"
	check "Chromium loads the page and runs it" test -n "$line"
	read -r _ n _ broken _ tables _ <<<"${line:-IMAGES 0 BROKEN 1 TABLES 0}"
	check "Chromium: every image renders ($n of $n)" test "$n" = "${#imgs[@]}" -a "$broken" = 0
	check "Chromium: the tables are in the DOM" test "$tables" -ge 5
fi

# A metric the baseline never moves from 0 (OOM kills) has no ratios:
# no chart for it, and no plotting error on the way.
rc=0
"$lab" report --metric oom_kills=vmstat.oom_kill --metric majflt "$res" >/dev/null 2>"$tmp/err0" || rc=$?
check "a metric with no ratios: exit 0, no gnuplot note, no chart, the other metric's chart" \
	bash -c '[[ $1 == 0 ]] && ! grep -q "gnuplot\|no comparison chart" "$2" &&
		! ls "$3"/report-plots/compare-oom_kills.* >/dev/null 2>&1 && ls "$3"/report-plots/compare-majflt.png >/dev/null' \
	_ "$rc" "$tmp/err0" "$res"
usage_error "not a directory: exit 2, one line" "$lab" report "$tmp/nope"
mkdir -p "$tmp/empty"
usage_error "no runs: exit 2, one line" "$lab" report "$tmp/empty"
usage_error "two directories: exit 2, one line" "$lab" report "$res" "$tmp/empty"
done_testing
