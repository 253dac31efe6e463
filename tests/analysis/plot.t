#!/usr/bin/env bash
# Every gnuplot script, through plot.sh, on fixture data: non-empty PNG
# and SVG files; bad input refused without leaving files behind.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=tap.sh
source "$(dirname "$0")/tap.sh"
build_tools

PLOT=$ROOT/analysis/plot/plot.sh

is_png() { [[ -s $1 && $(head -c 8 "$1" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]]; }
is_svg() { [[ -s $1 ]] && grep -q '<svg' "$1" && grep -q '</svg>' "$1"; }

check_outputs() {	# check_outputs BASE WHAT
	tap_ok "$2: PNG written" is_png "$1.png"
	tap_ok "$2: SVG written" is_svg "$1.svg"
}

"$PLOT" timeline -o "$TMP/timeline" "$FIXTURES/timeline-vanilla.csv"
check_outputs "$TMP/timeline" "timeline.gp on a vanilla-shaped timeline"
tap_ok "timeline names the columns the trace lacks" grep -q 'not in trace (no line): remembered_anon' "$TMP/timeline.svg"

# A trace with the policy's own event gets a fourth panel with its gauges.
"$BIN/trace-timeline" --quiet -o "$TMP/cp.csv" "$FIXTURES/trace-clockpro.dat"
"$PLOT" timeline -o "$TMP/cp" "$TMP/cp.csv"
check_outputs "$TMP/cp" "timeline.gp on the recorded clockpro trace"
tap_ok "clockpro: a policy-state panel with the anon cold target" \
	bash -c "grep -q 'Policy state at the end of each interval' '$TMP/cp.svg' && grep -q 'clockpro.cold_target.anon' '$TMP/cp.svg'"
tap_ok "no policy-state panel without policy events" \
	bash -c "! grep -q 'Policy state at the end' '$TMP/timeline.svg'"

"$PLOT" overlay -t "cyclic-anon, fixture" -o "$TMP/overlay" \
	lru="$FIXTURES/timeline-vanilla.csv" clockpro="$FIXTURES/timeline-lab.csv"
check_outputs "$TMP/overlay" "overlay.gp on two timelines"
tap_ok "overlay marks a run that did not trace refaults" grep -q 'lru (not traced)' "$TMP/overlay.svg"

"$BIN/labstat" --csv-long "$FIXTURES/results" >"$TMP/long.csv" 2>/dev/null
"$PLOT" compare -m wall_s -o "$TMP/compare" "$TMP/long.csv"
check_outputs "$TMP/compare" "compare.gp on labstat --csv-long"
tap_ok "compare chart has a legend entry per policy" \
	bash -c "grep -q '>lru<' '$TMP/compare.svg' && grep -q '>cart<' '$TMP/compare.svg' && grep -q '>clockpro<' '$TMP/compare.svg'"

if [[ -s $FIXTURES/trace.dat ]]; then
	"$BIN/trace-timeline" --quiet -i 200 -o "$TMP/real.csv" "$FIXTURES/trace.dat"
	"$PLOT" timeline -o "$TMP/real" "$TMP/real.csv"
	check_outputs "$TMP/real" "timeline.gp on the recorded guest trace"
else
	tap_skip "timeline.gp on the recorded guest trace" "no fixture yet"
fi

# Lost events (fixtures/trace-lost.dat: 5000 lost in one gap, one gap of
# unknown size, 1 s apart): shaded, keyed, counted in the title; a trace
# that lost nothing gets neither.
"$BIN/trace-timeline" --quiet -o "$TMP/lost.csv" "$FIXTURES/trace-lost.dat"
"$PLOT" timeline -o "$TMP/lost" "$TMP/lost.csv"
check_outputs "$TMP/lost" "timeline.gp on a trace that lost events"
tap_ok "timeline: the lost intervals are keyed 'events lost'" grep -q '>events lost<' "$TMP/lost.svg"
tap_ok "timeline: the title counts them" grep -q 'ring buffer lost 5000 events in 2 intervals' "$TMP/lost.svg"
"$BIN/trace-timeline" --quiet -o "$TMP/whole.csv" "$FIXTURES/trace.dat"
"$PLOT" timeline -o "$TMP/whole" "$TMP/whole.csv"
tap_ok "timeline: no 'events lost' when nothing was lost" bash -c "! grep -q 'events lost' '$TMP/whole.svg'"
"$PLOT" overlay -o "$TMP/lostov" lossy="$TMP/lost.csv" whole="$TMP/whole.csv"
tap_ok "overlay: the run that lost events is keyed, the other not" \
	bash -c "grep -q '>lossy: events lost<' '$TMP/lostov.svg' && ! grep -q 'whole: events lost' '$TMP/lostov.svg'"

# Run-time switches (fixtures/trace-switch.dat: lru to clockpro and to
# test-stall through sysfs, then the fallback to lru): trace-timeline
# counts them per interval as trace-cmd report lists them, and the
# timeline marks them, keyed and counted in the title.
"$BIN/trace-timeline" --quiet -o "$TMP/sw.csv" "$FIXTURES/trace-switch.dat"
want_sw=$(trace-cmd report -i "$FIXTURES/trace-switch.dat" 2>/dev/null | grep -c 'page_replace_switch:' || true)
want_fb=$(trace-cmd report -i "$FIXTURES/trace-switch.dat" 2>/dev/null | grep -c 'page_replace_fallback:' || true)
col_sum() {	# col_sum CSV COLUMN
	awk -F, -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next } { s += $k } END { print s + 0 }' "$1"
}
tap_is "$(col_sum "$TMP/sw.csv" switches) $(col_sum "$TMP/sw.csv" fallbacks)" "$want_sw $want_fb" \
	"trace-timeline: switches and fallbacks as trace-cmd report lists them ($want_sw, $want_fb)"
tap_ok "... the fixture has both" test "$want_sw" -ge 2 -a "$want_fb" -ge 1
tap_ok "... and they are not taken for policy-state gauges" \
	bash -c "! head -n 1 '$TMP/sw.csv' | grep -qE 'page_replace_(switch|fallback)\\.'"
"$PLOT" timeline -o "$TMP/sw" "$TMP/sw.csv"
check_outputs "$TMP/sw" "timeline.gp on a trace with switches"
tap_ok "timeline: switches and the fallback are keyed" \
	bash -c "grep -q '>policy switch<' '$TMP/sw.svg' && grep -q '>fallback to lru<' '$TMP/sw.svg'"
tap_ok "timeline: the title counts them" \
	grep -q "$want_sw policy switches ($want_fb fallback[s]* to lru), marked" "$TMP/sw.svg"
tap_ok "timeline: no switch key for a trace without switches" \
	bash -c "! grep -q 'policy switch' '$TMP/whole.svg'"

set +e
"$PLOT" timeline -o "$TMP/bad" "$TMP/long.csv" 2>"$TMP/err"; rc=$?
set -e
tap_is "$rc $(wc -l <"$TMP/err")" "1 1" "timeline on a non-timeline CSV: exit 1, one error line"
tap_ok "no output left behind" bash -c "! ls '$TMP'/bad* 2>/dev/null | grep -q ."
set +e
"$PLOT" compare -m no_such_metric -o "$TMP/bad" "$TMP/long.csv" 2>"$TMP/err"; rc=$?
set -e
tap_is "$rc $(wc -l <"$TMP/err")" "1 1" "compare with an unknown metric: exit 1, one error line"

tap_done
