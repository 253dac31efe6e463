#!/usr/bin/env bash
# Switching the policy at run time: a workload that swaps runs while the
# guest switches through every list policy of the lab kernel; every such
# switch is taken, the data verifies, the console stays clean, and each
# switch left its trace event. A switch to mglru is refused (EBUSY): the
# multi-gen LRU moves its folios one lruvec at a time, and a lruvec whose
# turn has not come is invisible to reclaim (page_replace.rst, "Switching
# at run time").
set -euo pipefail
# shellcheck source=../lib/tap.bash
source "$(dirname "$0")/../lib/tap.bash"
export LAB_RESULTS=$tmp/res

# Every list policy of the lab kernel once, ending on clockpro-lirs, and
# an attempt at mglru in the middle, which must change nothing.
plan_switches=1:clockpro,2:cart,3:mglru,4:random,5:cart-r,6:lru,7:clockpro-lirs
rc=0
"$top/lab.sh" run lru cyclic-anon --mem 192M --size 240M --timeout 400 --trace events \
	--switch-at "$plan_switches" -- --passes 12 >"$tmp/out" 2>"$tmp/err" || rc=$?
dir=$(last_line "$tmp/out")
res=$dir/result.json
check "switching run exits 0" test "$rc" = 0
[[ $rc == 0 ]] || diag "$(tail -n 3 "$tmp/err")"
check "data verified across the switches" test "$(jq -r .verified "$res" 2>/dev/null)" = true
n=$(jq '[.switches[] | select(.ok)] | length' "$res" 2>/dev/null || echo 0)
check "every switch between list policies was taken ($n of 6)" test "$n" = 6
why=$(jq -r '.switches[] | select(.to == "mglru") | if .ok then "taken" else .error end' "$res" 2>/dev/null || true)
check "the switch to mglru was refused with EBUSY (${why:-no record})" \
	grep -qi 'busy' <<<"$why"
check "the guest ends on the last policy" \
	test "$(jq -r .policy_active_end "$res" 2>/dev/null)" = clockpro-lirs
check "the kernel counted the switches (stats: switches 6)" \
	jq -e '.policy_stats.switches == 6' "$res"
check "no WARNING, BUG or Oops on the console" \
	bash -c "! grep -aE 'WARNING:|BUG:|Oops|page_replace.*leak' '$dir/console.log'"
# After seven switches under a swapping load, every folio on the LRU
# lists is counted and every counted page is on a list (lab-lrucheck).
check "the LRU lists and their counters agree after the switches ($(jq -c '.lru_check | del(.agree)' "$res" 2>/dev/null))" \
	jq -e '.lru_check.agree == true' "$res"
n=$(grep -ac 'page_replace: switched from' "$dir/console.log" || true)
check "one log line per switch ($n)" test "$n" = 6

trace-cmd report -i "$dir/trace.dat" 2>/dev/null | grep -a 'page_replace_switch:' >"$tmp/switch.events" || true
n=$(wc -l <"$tmp/switch.events")
check "page_replace_switch fired for each switch ($n)" test "$n" = 6
check "... from lru to clockpro first" grep -aq 'from=lru to=clockpro why=sysfs' "$tmp/switch.events"
check "... and never to or from mglru" \
	bash -c "! grep -aq 'mglru' '$tmp/switch.events'"
bad=$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^(duration_ns|nr_folios)=/) { split($i, kv, "="); if (kv[2] + 0 <= 0) n++ } } END { print n + 0 }' "$tmp/switch.events")
check "every switch walked folios and took time ($bad without)" test "$bad" = 0
done_testing
