#!/usr/bin/env bash
# The policies on the machine shapes where the series' review found
# defects that one node with disk swap cannot show:
#  - two NUMA nodes whose spans overlap (node 0's DIMM above node 1's
#    memory): random draws pfns of its node's span, and must never take a
#    folio of the other node, whose list another lru_lock guards; every
#    node's LRU counters must still match its lists afterwards;
#  - zram swap, whose synchronous swap-in reads a shadow entry without the
#    swap cache: cart must not count an entry it hit as forgotten again
#    when its slot is freed;
#  - four vCPUs with a faulting process on each (--procs 4), all
#    reclaiming one lruvec through clockpro's state lock at once;
#  - XFS data, whose page cache holds large folios, one shadow entry for
#    all of a folio's pages: when the file goes, cart's history must lose
#    every page of it, not one per entry.
set -euo pipefail
# shellcheck source=../lib/tap.bash
source "$(dirname "$0")/../lib/tap.bash"
export LAB_RESULTS=$tmp/res

# shape_run NAME POLICY [RUN-OPTIONS...] [-- WORKLOAD-OPTIONS...]:
# cyclic-anon, two passes; sets dir and res.
shape_run() {
	local name=$1 policy=$2 rc=0 run_args=()
	shift 2
	while (($#)) && [[ $1 != -- ]]; do
		run_args+=("$1")
		shift
	done
	(($#)) && shift
	"$top/lab.sh" run "$policy" cyclic-anon --timeout 600 "${run_args[@]}" -- --passes 2 "$@" \
		>"$tmp/$name.out" 2>"$tmp/$name.err" || rc=$?
	dir=$(last_line "$tmp/$name.out")
	res=$dir/result.json
	check "$name: the run exits 0" test "$rc" = 0
	[[ $rc == 0 ]] || diag "$(tail -n 3 "$tmp/$name.err")"
	check "$name: data verified" test "$(jq -r .verified "$res" 2>/dev/null)" = true
	check "$name: swapped (pswpin > 0)" jq -e '.vmstat.pswpin > 0' "$res"
	check "$name: no WARNING, BUG or Oops on the console" \
		bash -c "! grep -aE 'WARNING:|BUG:|Oops|list_(add|del) corruption' '$dir/console.log'"
}

# --- random on two nodes with overlapping spans
# Nodes of whole memory blocks (128M), so that lab-lrucheck can tell
# every page's node: node 0 is 128M at 0 and its 128M DIMM above 4G,
# node 1 the 256M between.
shape_run numa random --mem 512M --numa 2:256M,256M --numa-dimm 128M --size 600M
check "numa: node 0's span holds node 1's memory ($(jq -c '[.machine.nodes[]? | {node, start_pfn, end_pfn}]' "$res" 2>/dev/null))" \
	jq -e '[.machine.nodes[]] as $n | ($n | length) == 2 and
		$n[0].start_pfn < $n[1].start_pfn and $n[0].end_pfn > $n[1].end_pfn' "$res"
check "numa: the LRU lists and their counters agree, in total and on each node ($(jq -c .lru_check "$res" 2>/dev/null))" \
	jq -e '.lru_check | .agree and .nodes_checked == 2 and .nodes_differing == 0' "$res"

# --- cart's history with zram swap
# zram's memory is the guest's, and cyclic-anon's pages do not compress:
# the workload runs in a memcg at 64M, its 100M swapped out to zram that
# the rest of the guest holds.
shape_run zram cart --swap zram --size 100M --cgroup work:64M
check "zram: swap was /dev/zram0" jq -e '.params.swap == "zram"' "$res"
hits=$(jq '(.policy_stats.cart_b1_hits // 0) + (.policy_stats.cart_b2_hits // 0)' "$res" 2>/dev/null || echo 0)
forgotten=$(jq '.policy_stats.cart_forgotten // -1' "$res" 2>/dev/null || echo -1)
# Forgotten entries are the shadows whose slots were freed without a
# refault (the loop's tail when the workload exits): far fewer than the
# hits of two passes. An entry forgotten again after its hit doubles them.
check "zram: cart forgot fewer entries than it hit ($forgotten forgotten, $hits hits)" \
	awk -v f="$forgotten" -v h="$hits" 'BEGIN { exit !(h > 0 && f >= 0 && f < h / 2) }'

# --- four processes on four vCPUs
shape_run smp clockpro --vcpus 4 --size 300M -- --procs 4
check "smp: 4 processes on 4 vCPUs ran the loop" \
	jq -e '.vcpus == 4 and .workload_result.procs == 4 and
		.workload_result.procs_shortest_s > 0' "$res"
# --- cart's history when a file of large folios is deleted (lab.sh
# stress's history group: a file of 1.5 x RAM read twice, then rm).
rc=0
"$top/lab.sh" stress cart --kernel lab --groups history --fs xfs --duration 1 \
	>"$tmp/xfs.out" 2>"$tmp/xfs.err" || rc=$?
dir=$(last_line "$tmp/xfs.out")
log=$dir/tests/history-forget.log
check "xfs: the history check ran and passed (exit $rc)" \
	test "$rc" = 0 -a "$(jq -r '[.tests[] | select(.name == "history-forget")][0].result' "$dir/stress.json" 2>/dev/null)" = pass
[[ $rc == 0 ]] || diag "$(grep -v '^ *$' "$log" 2>/dev/null | tail -n 3)"
value() { awk -v k="$1" '$1 == k { print $2 }' "$log" 2>/dev/null; }
entries=$(value entries_forgotten) pages=$(value pages_forgotten)
check "xfs: large folios: the deleted file's entries stood for more pages than entries ($pages pages, $entries entries)" \
	test "${pages:-0}" -gt "${entries:-0}" -a "${entries:-0}" -gt 0
check "xfs: cart's history fell to $(value history_after) of $(value history_before) pages when the file went" \
	awk -v a="$(value history_after)" -v b="$(value history_before)" 'BEGIN { exit !(a != "" && b > 0 && a <= b / 20) }'
done_testing
