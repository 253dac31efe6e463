#!/usr/bin/env bash
# The short reliability gate of make test: every built policy through
# lab/make/stress-gate.sh, the lab policies on the lab kernel (the debug build
# does not fit make test's budget; make stress runs the full gate on it).
# vanilla runs every test group; the lab policies run stress-ng and the
# memcg workloads, the groups whose paths go through the policy hardest;
# lru alone runs the switch group, which visits every policy; random
# alone runs the machine shapes' groups, a guest each.
# LAB_TEST_STRESS_DURATION (default 12) sets the seconds of stress-ng.
set -euo pipefail
# shellcheck source=tap.sh
source "$(dirname "$0")/tap.sh"
# shellcheck source=../../lab/lib/common.sh
source "$top/lab/lib/common.sh"
export LAB_RESULTS=$tmp/res
duration=${LAB_TEST_STRESS_DURATION:-12}

# The lab policies the built lab kernel offers (lab/lib/common.sh says).
mapfile -t lab_policies < <(kernel_policies lab)
diag "lab policies in the lab kernel: ${lab_policies[*]:-none}"

# run_gate NAME DOC POLICIES [gate options...]: rc of the gate, its doc.
run_gate() {
	local name=$1 doc=$2 policies=$3
	shift 3
	rc=0
	"$top/lab/make/stress-gate.sh" "$@" --kernel lab --duration "$duration" \
		--policies "$policies" --doc "$doc" >"$tmp/$name.out" 2>"$tmp/$name.err" || rc=$?
	grep -E '^lab stress-gate: ' "$tmp/$name.err" | sed 's/^/# /'
}

# check_runs POLICIES: every policy has one passing stress.json.
check_runs() {
	local p f
	for p in "$@"; do
		f=$(find "$LAB_RESULTS" -path "*-$p-stress-r1-*/stress.json" 2>/dev/null | head -n1)
		check "$p: stress.json written" test -f "$f"
		[[ -f $f ]] || continue
		check "$p: verdict pass ($(jq -r '.exit + ": " + .note' "$f"))" test "$(jq -r .verdict "$f")" = pass
		check "$p: the guest ran the policy asked for" test "$(jq -r .policy_active "$f")" = "$p"
		check "$p: console clean" test "$(jq '.console_findings | length' "$f")" = 0
		check "$p: no test failed" test "$(jq '[.tests[] | select(.result == "fail")] | length' "$f")" = 0
		check "$p: the guest had no network interface but lo" \
			test "$(jq -c .guest_net_ifaces "$f")" = '["lo"]'
	done
}

# Every base group; the shapes' groups run for random, below.
run_gate vanilla "$tmp/vanilla.md" vanilla --shapes none
check "vanilla, every group: gate exit 0" test "$rc" = 0
check_runs vanilla
f=$(find "$LAB_RESULTS" -path "*-vanilla-stress-r1-*/stress.json" 2>/dev/null | head -n1)
for t in stress-ng-vm selftest-vm-mremap_test memcg-cyclic-anon memcg-cyclic-file memcg-limit-hit \
	selftest-cgroup-test_memcontrol; do
	check "vanilla ran $t" test "$(jq -r --arg t "$t" '[.tests[] | select(.name == $t)] | length' "$f" 2>/dev/null)" = 1
done
check "vanilla: the switch group is skipped, the kernel cannot switch" \
	test "$(jq -r '[.tests[] | select(.name == "switch-setup")][0].result' "$f" 2>/dev/null)" = skip
check "the table has the vanilla row and the command" \
	grep -qE '^\| vanilla \| vanilla .*\*\*pass\*\*.*`\./lab\.sh stress vanilla' "$tmp/vanilla.md"

if ((${#lab_policies[@]})); then
	run_gate lab "$tmp/lab.md" "${lab_policies[*]}" --groups "lists stressng memcg"
	check "lab policies (${lab_policies[*]}): gate exit 0" test "$rc" = 0
	check_runs "${lab_policies[@]}"
	for p in "${lab_policies[@]}"; do
		check "the table has a $p row" grep -qE "^\| $p \| lab " "$tmp/lab.md"
		# MADV_COLD moves the folios to the inactive list; the policy's
		# ->add must not take that for a new folio's arrival. The
		# CLOCK-Pro policies fill their hot set from new folios at boot,
		# so there the folios were active before, and the check bites.
		log=$(find "$LAB_RESULTS" -path "*-$p-stress-r1-*/tests/lists-madv-cold.log" 2>/dev/null | head -n1)
		before=$(awk '$1 == "active_before" { print $2 }' "$log" 2>/dev/null)
		after=$(awk '$1 == "active_after" { print $2 }' "$log" 2>/dev/null)
		allowed=$(awk '$1 == "allowed" { print $2 }' "$log" 2>/dev/null)
		check "$p: MADV_COLD's folios stay inactive (active $before before, $after after, $allowed allowed)" \
			test -n "$after" -a "${after:-1}" -le "${allowed:-0}"
		case $p in clockpro | clockpro-lirs)
			check "$p: ... and the hot set had made them active first" test "${before:-0}" -gt 1000 ;;
		esac
	done
	# Run-time switching among every policy under stress-ng and the
	# verifying workloads, then the leak check with caches and swap empty.
	LAB_RESULTS=$tmp/res-switch run_gate switch "$tmp/switch.md" lru --groups switch
	check "switch group: gate exit 0" test "$rc" = 0
	f=$(find "$tmp/res-switch" -path "*-lru-stress-r1-*/stress.json" 2>/dev/null | head -n1)
	for t in switch-stress-ng-vm switch-workloads switch-sysfs switch-stats-reads switch-no-fallback switch-lru-check; do
		check "switch group: $t passed ($(jq -r --arg t "$t" '[.tests[] | select(.name == $t)][0].detail' "$f" 2>/dev/null))" \
			test "$(jq -r --arg t "$t" '[.tests[] | select(.name == $t)][0].result' "$f" 2>/dev/null)" = pass
	done
	check "switch group: console clean" test "$(jq '.console_findings | length' "$f" 2>/dev/null)" = 0
	# The machine shapes (lab/lib/stress-groups.sh), for random, whose
	# pfn draws once took another node's folio: two nodes whose spans
	# overlap, zram, anonymous THPs and XFS's large folios, eight vCPUs
	# with a switch storm; a guest each.
	if in_list random "${lab_policies[@]}"; then
		LAB_RESULTS=$tmp/res-shapes run_gate shapes "$tmp/shapes.md" random --groups none
		check "random through the shapes: gate exit 0" test "$rc" = 0
		for t in numa-node0 numa-node1 numa-reclaimed numa-lru-check zram-workloads zram-swapped zram-lru-check \
			thp-workloads thp-allocated thp-lru-check smp-cyclic-anon smp-cyclic-file smp-switch smp-lru-check; do
			res=$(jq -rs --arg t "$t" '[.[].tests[] | select(.name == $t)][0] | "\(.result) \(.detail)"' \
				"$tmp"/res-shapes/*-random-stress-r1-*/stress.json 2>/dev/null || true)
			check "random, shape test $t: ${res:-not run}" test "${res%% *}" = pass
		done
	fi
else
	ok "no lab policy in the built lab kernel yet # SKIP the framework series has not landed"
fi
done_testing
