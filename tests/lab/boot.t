#!/usr/bin/env bash
# Boot the kernels under QEMU (6.1's vanilla, the lab kernel, today's
# 6.12 with and without MGLRU) and run a small cyclic-anon that really
# swaps: the run must verify its data, report the policy that was asked
# for, show swap-ins, and record the default machine (one node, swap on
# the disk, ext4) as asked and as the guest saw it.
set -euo pipefail
# shellcheck source=tap.sh
source "$(dirname "$0")/tap.sh"
export LAB_RESULTS=$tmp/res

# run_case POLICY: a 256 MiB guest, 280 MiB cycled twice.
run_case() {
	local policy=$1 rc=0 dir r
	"$top/lab.sh" run "$policy" cyclic-anon --size 280M --timeout 300 -- --passes 2 \
		>"$tmp/$policy.out" 2>"$tmp/$policy.err" || rc=$?
	dir=$(last_line "$tmp/$policy.out")
	r=$dir/result.json
	check "$policy: run exits 0" test "$rc" = 0
	if [[ ! -f $r ]]; then
		not_ok "$policy: result.json exists"
		diag "$(tail -n 5 "$tmp/$policy.err")"
		return
	fi
	check "$policy: policy_active is $policy" test "$(jq -r .policy_active "$r")" = "$policy"
	check "$policy: data verified" test "$(jq -r .verified "$r")" = true
	check "$policy: exit is ok" test "$(jq -r .exit "$r")" = ok
	check "$policy: it really swapped (pswpin > 0)" test "$(jq -r '.vmstat.pswpin // 0' "$r")" -gt 0
	check "$policy: major faults counted" test "$(jq -r '.majflt // 0' "$r")" -gt 0
	check "$policy: wall_s measured" jq -e '.wall_s > 0' "$r"
	check "$policy: only the loopback interface in the guest" \
		test "$(jq -c .guest_net_ifaces "$r")" = '["lo"]'
	check "$policy: console, vmstat and QEMU command line kept" \
		test -s "$dir/console.log" -a -s "$dir/vmstat.before" -a -s "$dir/vmstat.after" -a -s "$dir/qemu.cmdline"
	check "$policy: every result.json field is there" jq -e \
		'[.policy, .policy_active, .workload, .params, .seed, .mem_mib, .accel,
		  .kernel.release, .kernel.series_sha, .kernel.config_sha,
		  .linux_source_version, .exit, .verified, .wall_s, .majflt, .minflt,
		  .vmstat.pgmajfault, .vmstat.pswpout, .vmstat.workingset_refault_anon]
		 | all(. != null)' "$r"
	check "$policy: the default machine: params.numa null, swap disk, thp null, fs ext4" \
		test "$(jq -c '[.params.numa, .params.swap, .params.thp, .params.fs]' "$r")" = '[null,"disk",null,"ext4"]'
	check "$policy: ... and the guest had it: one node, /dev/vdc its only swap, /data ext4" \
		test "$(jq -c '[(.machine.nodes | length), [.machine.swaps[].device], .machine.data_fs]' "$r")" = '[1,["/dev/vdc"],"ext4"]'
	check "$policy: every direct reclaim was timed: stalls = allocstall, none lost" \
		jq -e '.reclaim.stalls - .reclaim.memcg_stalls == ([.vmstat | to_entries[]
			| select(.key | startswith("allocstall")) | .value] | add)
			and .reclaim.overrun == 0 and .reclaim.unpaired == 0
			and .reclaim.stall_p99_us <= .reclaim.stall_max_us' "$r"
	check "$policy: kswapd's CPU time measured" jq -e '.reclaim.kswapd_cpu_s > 0' "$r"
	check "$policy: no partial directory left" \
		test -z "$(find "$LAB_RESULTS" -maxdepth 1 -name '.*.partial')"
	diag "$policy: wall_s $(jq .wall_s "$r") majflt $(jq .majflt "$r") pswpin $(jq .vmstat.pswpin "$r") accel $(jq -r .accel "$r") boot_to_exit_s $(jq .boot_to_exit_s "$r")"
}

run_case vanilla
run_case lru
# Today's kernel (make test builds it), with its own LRU and with MGLRU.
for policy in vanilla-6.12 vanilla-6.12-mglru; do
	run_case "$policy"
	r=$(last_line "$tmp/$policy.out")/result.json
	check "$policy: ran 6.12 from linux-source-6.12 $(dpkg-query -W -f='${Version}' linux-source-6.12)" \
		test "$(jq -r '[.kernel.release[0:5], .kernel_flavour, .linux_source_version] | join(" ")' "$r")" \
		= "6.12. vanilla-6.12 $(dpkg-query -W -f='${Version}' linux-source-6.12)"
done
check "vanilla-6.12-mglru: MGLRU was on" \
	test "$(jq -r .lru_gen_enabled "$(last_line "$tmp/vanilla-6.12-mglru.out")/result.json")" != 0x0000
done_testing
