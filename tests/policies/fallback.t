#!/usr/bin/env bash
# The safety fallback, on a policy that stops reclaiming: the test
# kernel's fail_page_replace (fault injection, every check failing) makes
# clockpro keep every folio reclaim asks it about, and leaves lru alone.
# The guest boots on lru and switches to clockpro
# 1 s into the timed phase (the setup's own pressure would otherwise
# trigger the fallback before the trace and the counters start).  With the
# fallback on, a file workload larger than memory completes and verifies:
# the framework switches back to lru within seconds, logs one line with
# the reason, counts it and traces it, also when the workload runs in a
# memcg at its limit. With the fallback off (page_replace.fallback=0),
# the same run stalls or is OOM-killed: the difference the fallback makes.
set -euo pipefail
# shellcheck source=../lib/tap.bash
source "$(dirname "$0")/../lib/tap.bash"
export LAB_RESULTS=$tmp/res

args=(lru cyclic-file --kernel test --mem 192M --size 240M --boot-arg "fail_page_replace=1,100,0,-1"
	--switch-at 1:clockpro)

rc=0
"$top/lab.sh" run "${args[@]}" --timeout 300 -- --passes 2 >"$tmp/on.out" 2>"$tmp/on.err" || rc=$?
dir=$(last_line "$tmp/on.out")
res=$dir/result.json
check "fallback on: the run exits 0" test "$rc" = 0
[[ $rc == 0 ]] || diag "$(tail -n 3 "$tmp/on.err")"
check "fallback on: data verified" test "$(jq -r .verified "$res" 2>/dev/null)" = true
check "fallback on: the guest ends on lru" test "$(jq -r .policy_active_end "$res" 2>/dev/null)" = lru
check "fallback on: counted once (stats: fallbacks 1)" jq -e '.policy_stats.fallbacks == 1' "$res"
check "fallback on: two switches, to clockpro and back (stats: switches 2)" \
	jq -e '.policy_stats.switches == 2' "$res"
line=$(grep -a 'stopped reclaiming' "$dir/console.log" | head -n 1 || true)
check "fallback on: one log line names the policy and the reason" \
	grep -qE 'policy clockpro stopped reclaiming \((no-progress|priority-0|oom), [0-9]+\): falling back to lru' <<<"$line"
check "fallback on: no OOM kill" bash -c "! grep -aq 'Out of memory' '$dir/console.log'"
check "fallback on: no WARNING, BUG or Oops" bash -c "! grep -aE 'WARNING:|BUG:|Oops' '$dir/console.log'"
# Within seconds of the switch to clockpro: the kernel's timestamps of
# the two console lines.  (The page_replace_fallback event is not checked
# here: trace-cmd's recorders, writing to a disk whose page cache
# the stalled clockpro will not reclaim, can lose the whole buffer.)
stamp() {
	grep -aE "$1" "$dir/console.log" | head -n 1 | sed -nE 's/^\[ *([0-9]+\.[0-9]+)\].*/\1/p' || true
}
first=$(stamp 'switched from lru to clockpro')
fell=$(stamp 'policy clockpro stopped reclaiming')
check "fallback on: fired within 10 s of the switch to clockpro (${first:-?} -> ${fell:-?})" \
	awk -v a="${first:-x}" -v b="${fell:-x}" 'BEGIN { exit !(a != "x" && b != "x" && b - a >= 0 && b - a <= 10) }'
check "fallback on: then switched back to lru, with the reason" \
	grep -aqE 'switched from clockpro to lru \((no-progress|priority-0|oom)\)' "$dir/console.log"

# The same stall in a memcg at its limit: memcg reclaim is watched too,
# apart from global reclaim, and the memcg OOM killer must not end the
# workload before the fallback does.
rc=0
"$top/lab.sh" run "${args[@]}" --cgroup work:50% --timeout 300 -- --passes 2 \
	>"$tmp/memcg.out" 2>"$tmp/memcg.err" || rc=$?
dir=$(last_line "$tmp/memcg.out")
res=$dir/result.json
check "memcg at its limit: the run exits 0" test "$rc" = 0
[[ $rc == 0 ]] || diag "$(tail -n 3 "$tmp/memcg.err")"
check "memcg at its limit: data verified" test "$(jq -r .verified "$res" 2>/dev/null)" = true
check "memcg at its limit: the fallback fired once (stats: fallbacks 1)" \
	jq -e '.policy_stats.fallbacks == 1' "$res"
check "memcg at its limit: the memcg was not OOM-killed" \
	bash -c "! grep -aq 'Memory cgroup out of memory' '$dir/console.log'"

rc=0
"$top/lab.sh" run "${args[@]}" --boot-arg page_replace.fallback=0 --timeout 240 \
	-- --passes 2 >"$tmp/off.out" 2>"$tmp/off.err" || rc=$?
dir=$(last_line "$tmp/off.out")
res=$dir/result.json
check "fallback off: the run fails (OOM or stall: exit 4, 5 or 6; got $rc)" \
	bash -c "[[ $rc == 4 || $rc == 5 || $rc == 6 ]]"
check "fallback off: no fallback happened" \
	bash -c "! grep -aq 'stopped reclaiming' '$dir/console.log'"
check "fallback off: the OOM killer ran or the guest timed out" \
	bash -c "grep -aq 'Out of memory' '$dir/console.log' || [[ $rc == 6 ]]"
done_testing
