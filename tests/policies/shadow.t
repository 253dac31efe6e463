#!/usr/bin/env bash
# lru's shadow entries stay lru's after a switch of policies, however
# large its eviction timestamps grow. The test kernel's
# page_replace.test_age= starts every nonresident clock at 2^35 (a
# timestamp lru reaches after 2^35 evictions), and the guest switches
# lru -> clockpro -> lru early in the timed phase: lru must activate as
# many refaults as with the clocks at 0. The 40-patch series told a
# policy's entries by bit 35 of the timestamp, so once switched, lru
# took its own entries there for a policy's and activated none.
set -euo pipefail
# shellcheck source=../lib/tap.bash
source "$(dirname "$0")/../lib/tap.bash"
export LAB_RESULTS=$tmp/res

# age_run AGE: webtrace on the test kernel with the switches; prints the
# file activations (-1 when the run failed).
age_run() {
	local age=$1 rc=0 dir
	"$top/lab.sh" run lru webtrace --kernel test --switch-at 1:clockpro,2:lru \
		--boot-arg page_replace.test_age="$age" --timeout 600 \
		>"$tmp/age-$age.out" 2>"$tmp/age-$age.err" || rc=$?
	dir=$(last_line "$tmp/age-$age.out")
	if [[ $rc != 0 ]] || ! jq -e '.verified and ([.switches[] | select(.ok)] | length) == 2' \
		"$dir/result.json" >/dev/null 2>&1; then
		diag "age $age: exit $rc: $(tail -n 2 "$tmp/age-$age.err")"
		echo -1
		return
	fi
	jq '.vmstat.workingset_activate_file' "$dir/result.json"
}

low=$(age_run 0)
high=$(age_run $((1 << 35)))
check "the runs verified their data and took both switches (activations: $low at 0, $high at 2^35)" \
	test "$low" -ge 0 -a "$high" -ge 0
check "lru activates refaults with its clocks at 0 ($low)" test "$low" -gt 1000
check "... and as many with its clocks at 2^35 ($high, at least 0.8 x $low)" \
	awk -v h="$high" -v l="$low" 'BEGIN { exit !(l > 0 && h >= 0.8 * l) }'
done_testing
