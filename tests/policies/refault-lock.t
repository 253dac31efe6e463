#!/usr/bin/env bash
# The research policies' refaults take no state lock (the review's item
# 15). Up to series 722a2eb7 every eviction, refault and batch end took
# lruvec->page_replace->lock, so every swap-in on every CPU queued on the
# node's one lock: at 8 vCPUs 82-88% of the time spent in it was the
# refault op's, for clockpro, clockpro-lirs and cart alike. Now clockpro's
# and cart's refaults decide without the lock and the next holder of it
# settles them, and clockpro-lirs takes the lock only to evict: its
# placements at the hot head (refaults, promotions, hot pages kept, the
# warm-up) are settled there. A swap-bound cyclic-anon run with two
# processes per policy, timed by tracepoints/state-lock.bt: the state lock
# is still taken, never from the ops that no longer take it, and refaults
# still come back hot (or, for cart, hit its history).
set -euo pipefail
# shellcheck source=../lib/tap.bash
source "$(dirname "$0")/../lib/tap.bash"
export LAB_RESULTS=$tmp/res

# lock_run POLICY HOT UNLOCKED-OPS: the run, then the checks; HOT is a jq
# expression over the run's policy_stats that counts the refaults judged
# hot, UNLOCKED-OPS a grep -E pattern of the functions that must not
# appear in the state lock's caller stacks.
lock_run() {
	local policy=$1 hot_expr=$2 unlocked=$3 rc=0 dir out calls hits hot verified
	"$top/lab.sh" run "$policy" cyclic-anon --size 280M --trace bpftrace:state-lock \
		--sysctl vm.page-cluster=0 --timeout 600 -- --procs 2 --passes 2 \
		>"$tmp/$policy.out" 2>"$tmp/$policy.err" || rc=$?
	dir=$(last_line "$tmp/$policy.out")
	out=$dir/bpftrace/state-lock.txt
	verified=$(jq -r '.exit == "ok" and .verified == true' "$dir/result.json" 2>/dev/null || echo false)
	check "$policy: cyclic-anon exits 0 with its data verified" test "$verified" = true
	[[ $rc == 0 ]] || diag "exit $rc: $(tail -n 3 "$tmp/$policy.err")"

	calls=$(sed -n 's/^@calls\[state_lock\]: \([0-9]*\)$/\1/p' "$out" 2>/dev/null)
	check "$policy: the state lock was timed (${calls:-no} calls)" test "${calls:-0}" -gt 0
	hits=$(grep -cE "$unlocked" "$out" 2>/dev/null || true)
	check "$policy: no state lock call from $unlocked ($hits caller frames name one)" \
		test "${hits:-1}" = 0
	hot=$(jq ".policy_stats | $hot_expr" "$dir/result.json" 2>/dev/null || echo 0)
	check "$policy: refaults still come back hot ($hot_expr $hot)" test "$hot" -gt 0
}

lock_run clockpro '.clockpro_refault_hot' 'clockpro_refault'
lock_run clockpro-lirs '.clockpro_lirs_refault_hot' 'cpl_refault|cpl_deactivate|cpl_reclaimable|cpl_placed'
lock_run cart '.cart_b1_hits + .cart_b2_hits' 'page_replace_cart_refault'
done_testing
