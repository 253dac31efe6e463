# shellcheck shell=bash disable=SC2154 # top and tmp come from the test sourcing this
# Shared by the policy tests: one traced, swap-heavy cyclic-anon run of a
# policy and the checks every policy must pass on it. Needs top, tmp and
# tests/lab/tap.sh; sets dir (the run's result directory) and res.

# swapping_run POLICY [RUN-OPTIONS...]: 280M cyclic-anon in the 256 MiB
# guest, 2 passes, with the trace events recorded.
swapping_run() {
	local policy=$1 rc=0
	shift
	"$top/lab.sh" run "$policy" cyclic-anon --size 280M --trace events --timeout 400 "$@" \
		-- --passes 2 >"$tmp/$policy.out" 2>"$tmp/$policy.err" || rc=$?
	dir=$(last_line "$tmp/$policy.out")
	res=$dir/result.json
	check "$policy: cyclic-anon exits 0" test "$rc" = 0
	[[ $rc == 0 ]] || diag "$(tail -n 3 "$tmp/$policy.err")"
	check "$policy: guest reports policy_active $policy" \
		test "$(jq -r .policy_active "$res" 2>/dev/null)" = "$policy"
	check "$policy: cyclic-anon data verified" test "$(jq -r .verified "$res" 2>/dev/null)" = true
	check "$policy: cyclic-anon swapped (pswpin > 0)" jq -e '.vmstat.pswpin > 0' "$res"
}
