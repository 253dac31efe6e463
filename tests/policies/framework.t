#!/usr/bin/env bash
# The page_replace framework in the guest: each policy boots, reports
# itself, runs a small cyclic-anon that swaps with verified data, and its
# tracepoints fire with sane values (the per-folio profile, so that both
# the per-folio events and page_replace_batch's counts of them are in the
# trace). The trace is read back with trace-cmd report, an oracle
# independent of the lab's own analysis code.
set -euo pipefail
# shellcheck source=../lib/tap.bash
source "$(dirname "$0")/../lib/tap.bash"
# shellcheck source=lib.sh
source "$top/tests/policies/lib.sh"
export LAB_RESULTS=$tmp/res

policies=${LAB_TEST_POLICIES:-lru mglru random}

for policy in $policies; do
	swapping_run "$policy" --trace-profile per-folio
	check "$policy: policy statistics stored" jq -e '.policy_stats | length > 0' "$res"

	if [[ ! -s $dir/trace.dat ]]; then
		not_ok "$policy: trace.dat recorded"
		continue
	fi
	trace-cmd report -i "$dir/trace.dat" >"$tmp/$policy.report" 2>"$tmp/$policy.report.err" || true
	grep -a 'page_replace_' "$tmp/$policy.report" >"$tmp/$policy.events" || true
	if [[ ! -s $tmp/$policy.events ]]; then
		# Seen once (mglru, a fresh clone's CI): keep what it takes to explain.
		diag "trace-cmd report: $(head -c 300 "$tmp/$policy.report.err")" \
			"trace.dat: $(stat -c %s "$dir/trace.dat") bytes; trace-cmd.log: $(tail -c 300 "$dir/trace-cmd.log")" \
			"events in the report: $(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[a-z_]+:$/) { print $i; break } }' \
				"$tmp/$policy.report" | sort | uniq -c | sort -rn | head -n 8 | tr -s ' \n' ' ')" \
			"guest trace lines: $(grep -a 'trace' "$dir/console.log" | head -n 5 | tr '\n' ' ')"
		keep=$top/build/test-logs/policies-framework-$policy-run
		rm -rf "$keep" && cp -r "$dir" "$keep" && diag "run kept in ${keep#"$top"/}"
	fi
	for ev in candidates activate remember forget batch; do
		n=$(grep -ac "page_replace_$ev:" "$tmp/$policy.events" || true)
		# random keeps one list: it refuses every activation its
		# reference check asks for, and its add op clears PG_active
		# when one of the kernel's own (a folio under writeback, a
		# failed unmap or swap allocation) puts a folio back; a
		# refused one changes no state, so no event.  So no folio is
		# ever deactivated (from 1 to 0), and the kernel's own
		# activations stay a small share of the evictions (4.5% on
		# this run's size), where a broken veto would activate nearly
		# every candidate, all of them referenced on a loop.
		if [[ $policy == random && $ev == activate ]]; then
			down=$(grep -ac 'page_replace_activate:.*from=1 to=0' "$tmp/$policy.events" || true)
			evicted=$(grep -ac 'page_replace_remember:' "$tmp/$policy.events" || true)
			check "random: no folio stays active to be deactivated ($down of $n events)" test "$down" = 0
			check "random: the kernel's own activations only ($n, under a tenth of $evicted evictions)" \
				test "$((n * 10))" -lt "$evicted"
			# A refault within the workingset activates a folio,
			# which random keeps inactive but marks PG_workingset,
			# as lru marks a folio leaving its active list: its
			# shadow then carries the workingset bit, and its next
			# refault counts as thrashing (PSI, workingset_restore).
			ws=$(grep -ac 'page_replace_forget:.*workingset=1' "$tmp/$policy.events" || true)
			check "random: refaults of folios it kept from the workingset carry the workingset bit ($ws)" \
				test "$ws" -gt 0
			continue
		fi
		check "$policy: page_replace_$ev fired ($n events)" test "$n" -gt 0
	done
	# page_replace_batch counts what the per-folio notes saw: its
	# remembered pages are the remember events (base pages; a count can
	# wait on a CPU for its next batch, hence 1%).
	per_folio=$(grep -ac 'page_replace_remember:' "$tmp/$policy.events" || true)
	batched=$( (grep -a 'page_replace_batch:' "$tmp/$policy.events" || true) |
		grep -aoE 'remembered_(anon|file)=[0-9]+' | cut -d= -f2 | awk '{ s += $1 } END { print s + 0 }')
	check "$policy: batch events count the remembered pages ($batched of $per_folio)" \
		awk -v a="$batched" -v b="$per_folio" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= b / 100) }'
	# nr_taken <= nr_to_scan and nr_taken <= nr_scanned in every batch.
	bad=$( (grep -a 'page_replace_candidates:' "$tmp/$policy.events" || true) | awk '
		{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
		!("nr_taken" in v) { print "no nr_taken field"; exit }
		v["nr_taken"] + 0 > v["nr_to_scan"] + 0 || v["nr_taken"] + 0 > v["nr_scanned"] + 0 { n++ }
		END { if (n) print n }')
	check "$policy: every candidates batch takes no more than it scans${bad:+ ($bad bad)}" test -z "$bad"
	# The candidates events name the policy that produced them.
	check "$policy: candidates events carry policy=$policy" \
		grep -aq "policy=$policy" "$tmp/$policy.events"
	# Refault distances are never negative.
	neg=$( (grep -a 'page_replace_forget:' "$tmp/$policy.events" || true) |
		(grep -aoE 'distance=-?[0-9]+' || true) | awk -F= '$2 < 0 {n++} END {print n + 0}')
	check "$policy: refault distances are >= 0" test "$neg" = 0
done
done_testing
