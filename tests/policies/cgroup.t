#!/usr/bin/env bash
# The research policies under cgroups.  A workload in an unlimited child
# cgroup (global reclaim, as under systemd) must see the same policy as in
# the root cgroup: the policy's state lives on the folio's own lruvec, so
# the child reads back no more than the root (see below).  Under a
# memory.max (memcg reclaim) the policy's own trace event shows its
# targets moving, not stuck at 0 or at a bound.
set -euo pipefail
# shellcheck source=../lib/tap.bash
source "$(dirname "$0")/../lib/tap.bash"
export LAB_RESULTS=$tmp/res

# Root against child for the two policies with the most per-lruvec state
# (clockpro's cut-off and targets, cart's p and histories); the memcg-limit
# runs for the three whose targets were stuck at 0 before.  The rest of the
# matrix is BENCHMARKS.md's (LAB_TEST_POLICIES=... for more here).
policies=${LAB_TEST_POLICIES:-clockpro cart}
traced=${LAB_TEST_POLICIES:-clockpro cart cart-r}
# 1.25x a 192 MiB guest, three passes: small, but every policy reclaims
# from its own lists for two passes.
run_args=(--mem 192M --size 240M --timeout 400)

# count_run POLICY WORKLOAD COUNTER [lab run options]: the run's counter
# (-1 if it failed or did not verify); its directory goes to $tmp/last.dir
count_run() {
	local policy=$1 workload=$2 counter=$3 out rc=0 dir
	shift 3
	out=$tmp/$policy-$workload-$RANDOM
	local wl_args=(--passes 3)
	[[ $workload == cyclic-file ]] && wl_args+=(--readahead off)
	"$top/lab.sh" run "$policy" "$workload" "${run_args[@]}" "$@" \
		-- "${wl_args[@]}" >"$out.out" 2>"$out.err" || rc=$?
	dir=$(last_line "$out.out")
	if [[ $rc != 0 || ! -f $dir/result.json ]]; then
		diag "$policy $workload $*: exit $rc: $(tail -n 2 "$out.err")"
		echo -1
		return
	fi
	jq -r --arg c "$counter" 'if .verified then .vmstat[$c] else -1 end' "$dir/result.json"
	printf '%s\n' "$dir" >"$tmp/last.dir"
}

# within PCT A B: |A - B| <= PCT% of the larger (called through check)
# shellcheck disable=SC2317
within() {
	awk -v p="$1" -v a="$2" -v b="$3" 'BEGIN {
		m = a > b ? a : b; d = a > b ? a - b : b - a
		exit !(a >= 0 && b >= 0 && m > 0 && d * 100 <= p * m) }'
}

# The child may do better than the root: its lruvec holds the workload's
# pages only, the root's also init's and the lab's (clockpro measured
# 46,903 pages read back in the root, 43,701 in the child, against its
# model's 43,222).  Worse by more than 3% is state on the wrong lruvec.
# shellcheck disable=SC2317 # called through check
not_worse() {
	awk -v r="$1" -v c="$2" 'BEGIN { exit !(r > 0 && c >= 0 && c * 100 <= r * 103) }'
}
# Identical clockpro runs spread by up to 4% (BENCHMARKS.md, "The kernel
# against its model"), so one pair can miss the 3% by chance: a pair that
# does is run once more and the means of the two runs decide.  State on
# the wrong lruvec cost the child 8% in every run, which two runs show.
for policy in $policies; do
	root=$(count_run "$policy" cyclic-anon pswpin)
	child=$(count_run "$policy" cyclic-anon pswpin --cgroup work)
	runs=1
	if ((root > 0 && child >= 0)) && ! not_worse "$root" "$child"; then
		diag "$policy cyclic-anon: pswpin $root (root) vs $child (child): a second pair decides"
		root2=$(count_run "$policy" cyclic-anon pswpin)
		child2=$(count_run "$policy" cyclic-anon pswpin --cgroup work)
		if ((root2 > 0 && child2 >= 0)); then
			root=$(((root + root2) / 2)) child=$(((child + child2) / 2)) runs=2
		fi
	fi
	desc="$policy cyclic-anon: --cgroup work reads back at most 3% more than the root (pswpin $root vs $child, mean of $runs)"
	# The clock-pro family reads back 4-8% more in a child on a quiet
	# host, a start-up cost whose cause is open (the note).
	if [[ $policy == clockpro* ]]; then
		todo "$desc" docs/notes/child-cgroup.md not_worse "$root" "$child"
	else
		check "$desc" not_worse "$root" "$child"
	fi
	check "$policy cyclic-anon: and within 10% of it" within 10 "$root" "$child"
done

# The stats file sums a policy's per-lruvec state over every memcg: a
# child's history shows there (it once summed the root memcg's lruvecs
# only, where a child's pages never are). The page cache's history
# outlives the workload, so a file run's change of cart_b1_file and
# cart_b2_file over the run is the history it left.
if [[ " $policies " == *" cart "* ]]; then
	rm -f "$tmp/last.dir"
	refaults=$(count_run cart cyclic-file workingset_refault_file --cgroup work)
	last_dir=$(cat "$tmp/last.dir" 2>/dev/null || true)
	hist=$(jq '(.policy_stats.cart_b1_file // 0) + (.policy_stats.cart_b2_file // 0)' \
		"$last_dir/result.json" 2>/dev/null || echo 0)
	check "cart: the stats file counts a child memcg's history (cart_b1_file + cart_b2_file $hist, $refaults refaults)" \
		awk -v h="$hist" -v r="$refaults" 'BEGIN { exit !(r > 0 && h * 10 >= r) }'
fi

# targets_move EVENT FIELD: the field takes more than two values in the
# trace, and is not pinned to its bounds (0 for all, or equal to a bound
# field in every event).
field_values() {
	local dir=$1 ev=$2 field=$3
	trace-cmd report -i "$dir/trace.dat" 2>/dev/null |
		grep -a "$ev:" | grep -aoE " $field=[0-9-]+" | sort -u | wc -l
}

for policy in $traced; do
	case $policy in
	clockpro) ev=page_replace_clockpro field=cold_target ;;
	clockpro-lirs) ev=page_replace_clockpro_lirs field=hot_age ;;
	cart) ev=page_replace_cart field=p ;;
	cart-r) ev=page_replace_cart_r field=r ;;
	*) continue ;;
	esac
	rm -f "$tmp/last.dir"
	n=$(count_run "$policy" cyclic-anon pswpin --cgroup work:96M --trace events)
	check "$policy: cyclic-anon in a 96M memcg verifies" test "$n" -ge 0
	last_dir=$(cat "$tmp/last.dir" 2>/dev/null || true)
	if [[ -n $last_dir && -s $last_dir/trace.dat ]]; then
		values=$(field_values "$last_dir" "$ev" "$field")
		check "$policy: under memory.max its $field moves ($values distinct values)" \
			test "$values" -gt 2
		# the root memcg is id 1: the child's own lruvec reports another
		check "$policy: the child memcg's lruvec reports its state (memcg_id > 1)" \
			bash -c "trace-cmd report -i '$last_dir/trace.dat' 2>/dev/null | grep -a '$ev:' | grep -aqE 'memcg_id=([2-9]|[1-9][0-9]+) '"
	else
		not_ok "$policy: traced memcg run left a trace.dat"
		not_ok "$policy: the child memcg's lruvec reports its state"
	fi
done
done_testing
