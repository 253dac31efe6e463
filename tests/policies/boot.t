#!/usr/bin/env bash
# The policy decides whether the multi-gen LRU runs, on a kernel built as
# Fedora and Arch build theirs: the test kernel has LRU_GEN_ENABLED=y
# (kernel/config/test.config). page_replace=mglru keeps it on, every other
# policy turns it off before any of the policy's hooks runs, and the
# switch to or from mglru is refused, so that a list policy never meets
# folios on the generations.
set -euo pipefail
# shellcheck source=../lib/tap.bash
source "$(dirname "$0")/../lib/tap.bash"
export LAB_RESULTS=$tmp/res

# boot_run POLICY [RUN-OPTIONS...]: a small swapping cyclic-anon on the
# test kernel; sets dir and res.
boot_run() {
	local policy=$1 rc=0
	shift
	"$top/lab.sh" run "$policy" cyclic-anon --kernel test --mem 192M --size 240M \
		--timeout 400 "$@" -- --passes 2 >"$tmp/$policy.out" 2>"$tmp/$policy.err" || rc=$?
	dir=$(last_line "$tmp/$policy.out")
	res=$dir/result.json
	check "$policy: the run exits 0" test "$rc" = 0
	[[ $rc == 0 ]] || diag "$(tail -n 3 "$tmp/$policy.err")"
	check "$policy: data verified" test "$(jq -r .verified "$res" 2>/dev/null)" = true
	check "$policy: no WARNING, BUG or Oops on the console" \
		bash -c "! grep -aE 'WARNING:|BUG:|Oops' '$dir/console.log'"
}

boot_run mglru --switch-at 1:clockpro
check "mglru: the multi-gen LRU runs (lru_gen/enabled $(jq -r .lru_gen_enabled "$res" 2>/dev/null))" \
	jq -e '.lru_gen_enabled == "0x0007"' "$res"
check "mglru: a switch to clockpro is refused" \
	jq -e '[.switches[] | select(.to == "clockpro" and (.ok | not))] | length == 1' "$res"

boot_run clockpro --switch-at 1:mglru
check "clockpro: the multi-gen LRU is off (lru_gen/enabled $(jq -r .lru_gen_enabled "$res" 2>/dev/null))" \
	jq -e '.lru_gen_enabled == "0x0000"' "$res"
check "clockpro: the guest reports policy_active clockpro" \
	test "$(jq -r .policy_active "$res" 2>/dev/null)" = clockpro
why=$(jq -r '.switches[] | select(.to == "mglru") | if .ok then "taken" else .error end' "$res" 2>/dev/null || true)
check "clockpro: the switch to mglru was refused with EBUSY (${why:-no record})" grep -qi busy <<<"$why"
check "clockpro: the policy ends as it started" \
	test "$(jq -r .policy_active_end "$res" 2>/dev/null)" = clockpro
check "clockpro: the LRU lists and their counters agree ($(jq -c '.lru_check | del(.agree)' "$res" 2>/dev/null))" \
	jq -e '.lru_check.agree == true' "$res"
# The kernel's own words: the policy was set up at boot, and the
# multi-gen LRU's sysfs came up afterwards without turning it back on.
check "clockpro: the log names the policy" grep -aq 'page_replace: policy clockpro' "$dir/console.log"

boot_run lru
check "lru: the multi-gen LRU is off although LRU_GEN_ENABLED=y (lru_gen/enabled $(jq -r .lru_gen_enabled "$res" 2>/dev/null))" \
	jq -e '.lru_gen_enabled == "0x0000"' "$res"
done_testing
