#!/usr/bin/env bash
# trace-timeline on the trace.dat recorded in a lab QEMU guest
# (tests/analysis/fixtures/trace.dat), and its handling of bad input.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=tap.sh
source "$(dirname "$0")/tap.sh"
build_tools

TT=$BIN/trace-timeline
TRACE=$FIXTURES/trace.dat

# expect_failure DESCRIPTION ARGS...: exit 1, one stderr line, no -o file.
expect_failure() {
	local desc=$1
	shift
	refuses_output "$TT" "$desc" 1 "$@"
}

expect_failure "missing file" "$TMP/no-such.dat"
printf 'this is not a trace\n' >"$TMP/text.dat"
expect_failure "not a trace.dat" "$TMP/text.dat"
: >"$TMP/empty.dat"
expect_failure "empty file" "$TMP/empty.dat"
set +e
"$TT" --interval 0 "$TMP/text.dat" 2>/dev/null; rc=$?
set -e
tap_is "$rc" 2 "--interval 0 is a usage error"

if [[ ! -s $TRACE ]]; then
	tap_skip "trace-timeline on a recorded guest trace" "no fixture yet"
	tap_done
	exit 0
fi

"$TT" -o "$TMP/t.csv" "$TRACE" 2>"$TMP/notes"
header=$(head -1 "$TMP/t.csv")
tap_ok "CSV header starts with the documented columns" \
	test "${header%%,swapout*}" = "t_s,scanned_anon,scanned_file,taken_anon,taken_file,reclaimed_anon,reclaimed_file,activated_anon,activated_file,remembered_anon,remembered_file,refaulted_anon,refaulted_file,swapin"
ncols=$(awk -F, 'NR == 1 { n = NF } NF != n { bad = 1 } END { print bad ? "ragged" : n }' "$TMP/t.csv")
tap_ok "every row has as many fields as the header" test "$ncols" != ragged
tap_ok "at least one interval row" test "$(wc -l <"$TMP/t.csv")" -ge 2
tap_ok "swapin is NA (no 6.1 tracepoint) and said so" \
	bash -c "awk -F, 'NR > 1 && \$14 != \"NA\" { exit 1 }' '$TMP/t.csv' && grep -q 'swapin is NA' '$TMP/notes'"

sum_col() { awk -F, -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next } { s += $c } END { print s + 0 }' "$1"; }

# Totals in the CSV agree with the summary's event counts.
"$TT" --summary -o "$TMP/summary.txt" "$TRACE"
events=$(awk '/^events:/ { print $2 }' "$TMP/summary.txt")
tap_ok "summary counts events" test "${events:-0}" -gt 0
isolate=$(awk '$1 == "vmscan:mm_vmscan_lru_isolate" { print $2 }' "$TMP/summary.txt")
batches=$(awk '/^batch sizes/ { gsub(/[(,]/, " "); for (i = 1; i <= NF; i++) if ($(i+1) == "batches):") print $i }' "$TMP/summary.txt")
if [[ -n $isolate ]]; then
	tap_is "$batches" "$isolate" "histogram covers every lru_isolate event"
	hist_total=$(awk '/^  pages/ { on = 1; next } on && NF == 3 { s += $2 } END { print s + 0 }' "$TMP/summary.txt")
	tap_is "$hist_total" "$isolate" "histogram buckets add up to the batch count"
else
	tap_skip "histogram covers every lru_isolate event" "trace has no lru_isolate format"
fi
wake_events=$(awk '$1 == "vmscan:mm_vmscan_kswapd_wake" { print $2 }' "$TMP/summary.txt")
wake_csv=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "kswapd_wakes") c = i; next } { s += $c } END { print s + 0 }' "$TMP/t.csv")
tap_is "$wake_csv" "${wake_events:-NA}" "kswapd_wakes column sums to the kswapd_wake event count"

# The same run's vmstat deltas (fixtures/trace.result.json) count the same
# pages: every anon write_folio is a pswpout, every reclaimed page a pgsteal.
vmstat() { awk -v k="\"$1\":" '$1 == k { gsub(/,/, "", $2); print $2 }' "$FIXTURES/trace.result.json"; }
tap_is "$(sum_col "$TMP/t.csv" swapout)" "$(vmstat pswpout)" "swapout total equals the guest's pswpout"
tap_is "$(( $(sum_col "$TMP/t.csv" reclaimed_anon) + $(sum_col "$TMP/t.csv" reclaimed_file) ))" \
	"$(( $(vmstat pgsteal_kswapd) + $(vmstat pgsteal_direct) ))" \
	"reclaimed total equals the guest's pgsteal_kswapd + pgsteal_direct"
tap_is "$(( $(sum_col "$TMP/t.csv" scanned_anon) + $(sum_col "$TMP/t.csv" scanned_file) ))" \
	"$(( $(vmstat pgscan_kswapd) + $(vmstat pgscan_direct) ))" \
	"scanned total equals the guest's pgscan_kswapd + pgscan_direct (inactive lists only)"
tap_ok "reclaim happened in the fixture (non-zero swapout)" test "$(sum_col "$TMP/t.csv" swapout)" -gt 0

# A finer interval splits the same totals over more rows.
"$TT" --quiet --interval 100 -o "$TMP/fine.csv" "$TRACE"
tap_is "$(sum_col "$TMP/fine.csv" scanned_anon)" "$(sum_col "$TMP/t.csv" scanned_anon)" \
	"scanned_anon total does not depend on the interval"
tap_ok "100 ms interval gives more rows than 1000 ms" \
	test "$(wc -l <"$TMP/fine.csv")" -gt "$(wc -l <"$TMP/t.csv")"

# A policy's own per-type event becomes FIELD.anon and FIELD.file gauge
# columns: the last anon (file=0) event of the trace is the last row's
# .anon value, as trace-cmd report (an independent reader) prints it.
CP=$FIXTURES/trace-clockpro.dat
"$TT" --quiet -o "$TMP/cp.csv" "$CP"
cp_header=$(head -1 "$TMP/cp.csv")
tap_ok "clockpro: cold_target split into .anon and .file columns" \
	bash -c "grep -q 'page_replace_clockpro.cold_target.anon' <<<'$cp_header' && grep -q 'page_replace_clockpro.cold_target.file' <<<'$cp_header'"
tap_ok "clockpro: identity fields (nid, memcg_id, file) are not columns" \
	bash -c "! grep -qE 'page_replace_clockpro\.(nid|memcg_id|file)' <<<'$cp_header'"
last_col() {	# last_col CSV COLUMN: the column's last non-empty value
	awk -F, -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next }
		c && $c != "" { v = $c } END { print v }' "$1"
}
for f in cold_target nr_hot nr_nonresident; do
	want=$(trace-cmd report -i "$CP" 2>/dev/null | grep 'page_replace_clockpro:.* file=0 ' | tail -n 1 |
		grep -oE " $f=[0-9]+" | cut -d= -f2)
	tap_is "$(last_col "$TMP/cp.csv" "page_replace_clockpro.$f.anon")" "${want:-none}" \
		"clockpro: last $f.anon is trace-cmd report's last file=0 event"
done
want=$(trace-cmd report -i "$CP" 2>/dev/null | grep 'page_replace_clockpro:.* file=1 ' | tail -n 1 |
	grep -oE ' cold_target=[0-9]+' | cut -d= -f2)
tap_is "$(last_col "$TMP/cp.csv" page_replace_clockpro.cold_target.file)" "${want:-none}" \
	"clockpro: last cold_target.file is trace-cmd report's last file=1 event"

# Per-folio activate events: a move up (to >= from) is an activation, a
# move down (shrink_active_list's 1 -> 0) is not; counted by trace-cmd
# report, another reader.
up=$(trace-cmd report -i "$CP" 2>/dev/null | grep -a 'page_replace_activate:' |
	awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } if (v["to"] + 0 >= v["from"] + 0) n++ }
		END { print n + 0 }')
tap_is "$(( $(sum_col "$TMP/cp.csv" activated_anon) + $(sum_col "$TMP/cp.csv" activated_file) ))" "$up" \
	"per-folio trace: activated_* count the $up moves up only"

# A trace with page_replace_batch (fixtures/trace-switch.dat records both
# streams): the per-batch counts stand for the per-folio events, each
# page counted once; totals are the batch fields' sums in trace-cmd report.
SW=$FIXTURES/trace-switch.dat
"$TT" --quiet -o "$TMP/sw.csv" "$SW"
trace-cmd report -i "$SW" 2>/dev/null | grep -a 'page_replace_batch:' >"$TMP/batch.txt"
batch_sum() {	# batch_sum FIELD: the field summed over the batch events
	grep -oE " $1=[0-9]+" "$TMP/batch.txt" | cut -d= -f2 | paste -sd+ | bc
}
for c in activated_anon activated_file remembered_anon remembered_file refaulted_anon refaulted_file; do
	tap_is "$(sum_col "$TMP/sw.csv" "$c")" "$(batch_sum "$c")" "batch trace: $c is the batch events' sum"
done

# Lost events (fixtures/trace-lost.dat: trace.dat with two pages flagged
# as the kernel flags a page read after an overrun, make-trace-lost.sh).
# trace-cmd report, another reader, prints "CPU:N [COUNT EVENTS DROPPED]"
# (or without a count) between the records around each gap.
LOST=$FIXTURES/trace-lost.dat
trace-cmd report -i "$LOST" >"$TMP/lost.report" 2>/dev/null
dropped=$(sed -n 's/^CPU:0 \[\([0-9]*\) EVENTS DROPPED\]$/\1/p' "$TMP/lost.report" | paste -sd+ | bc)
uncounted=$(grep -c '^CPU:0 \[EVENTS DROPPED\]$' "$TMP/lost.report" || true)
tap_is "$("$TT" --lost-json "$TRACE")" '{"trace_events":8689,"trace_lost_events":[0],"trace_lost_unknown_gaps":[0]}' \
	"--lost-json: the recorded fixture lost nothing"
tap_is "$("$TT" --lost-json "$LOST")" \
	"{\"trace_events\":$events,\"trace_lost_events\":[$dropped],\"trace_lost_unknown_gaps\":[$uncounted]}" \
	"--lost-json: $dropped lost and $uncounted gap of unknown size, as trace-cmd report says"
"$TT" --summary "$LOST" >"$TMP/lost.summary"
tap_ok "--summary: lost_events total and the gaps" bash -c "grep -qx 'lost_events: $dropped (per CPU: $dropped)' '$TMP/lost.summary' &&
	grep -q '^lost_gaps: 2 (1 of unknown size' '$TMP/lost.summary'"
tap_ok "--summary of a trace that lost nothing says 0" grep -qx 'lost_events: 0 (per CPU: 0)' "$TMP/summary.txt"
# Where: each gap lies between the records trace-cmd prints around it;
# with 100 ms intervals from the first event, those intervals (and no
# others) are marked, and the counted gap's 5000 are in its interval.
"$TT" -q --interval 100 -o "$TMP/lost.csv" "$LOST"
first=$(awk '$3 ~ /^[0-9.]+:$/ { sub(":", "", $3); print $3; exit }' "$TMP/lost.report")
want_rows=$(awk -v t0="$first" '
	$3 ~ /^[0-9.]+:$/ { sub(":", "", $3); last = $3; if (pending) { for (i = int((prev - t0) / 0.1 + 1e-9); i <= int((last - t0) / 0.1 + 1e-9); i++) print i; pending = 0 } }
	/EVENTS DROPPED/ { pending = 1; prev = last }' "$TMP/lost.report" | sort -un | paste -sd' ')
got_rows=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "lost_gaps") g = i; next } $g > 0 { print NR - 2 }' \
	"$TMP/lost.csv" | paste -sd' ')
tap_is "${got_rows:-none}" "${want_rows:-no gap found}" "lost_gaps marks exactly the intervals of the gaps trace-cmd reports ($want_rows)"
tap_is "$(sum_col "$TMP/lost.csv" lost_events)" "$dropped" "the lost_events column sums to the lost total"
tap_is "$(sum_col "$TMP/t.csv" lost_gaps)" 0 "a trace that lost nothing marks no interval"
tap_is "$(sum_col "$TMP/lost.csv" swapout)" "$(sum_col "$TMP/t.csv" swapout)" \
	"the flags change no other column (swapout total unchanged)"

# Truncated copy: refused whole, not read as a shorter trace.
size=$(stat -c %s "$TRACE")
head -c $((size * 2 / 3)) "$TRACE" >"$TMP/truncated.dat"
expect_failure "truncated trace.dat" "$TMP/truncated.dat"

tap_done
