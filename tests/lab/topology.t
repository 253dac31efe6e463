#!/usr/bin/env bash
# The machine's shape, checked from inside the guest (result.json's
# machine: what the guest kernel made of it) in two small boots of the
# vanilla kernel:
#  1. 4 vCPUs, two NUMA nodes of 192M and 64M, 128M of node 0's memory in
#     a cold-plugged DIMM, zram swap. The guest has two nodes with the
#     vCPUs and memory asked for; the DIMM was added above 4 GiB and
#     onlined on node 0, so node 0's span holds every pfn of node 1's;
#     the only swap device is /dev/zram0, lzo-rle, of the disk swap's
#     size, and the workload really swapped to it (pswpout > 0, zram's
#     memory peaked) and verified every page.
#  2. no swap, THP always, the data disk on XFS: /proc/swaps is empty and
#     nothing was swapped out, THP's mode is always and anonymous faults
#     got huge pages (thp_fault_alloc > 0), and a file workload verified
#     its data on /data, which is XFS.
# Both record the request under params and every key in CONTRACTS.md.
# shellcheck disable=SC2016 # jq programs, in single quotes
set -euo pipefail
# shellcheck source=tap.sh
source "$(dirname "$0")/tap.sh"
# shellcheck source=../lib/contracts.bash
source "$top/tests/lib/contracts.bash"
export LAB_RESULTS=$tmp/res
need_guest vanilla

# shape_run NAME ARGS...: lab.sh run vanilla ARGS; sets r (result.json)
# and says whether it exited 0; returns 1 without a result.
shape_run() {
	local name=$1 rc=0 t0=$SECONDS
	shift
	"$top/lab.sh" run vanilla "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" || rc=$?
	r=$(last_line "$tmp/$name.out")/result.json
	is "$rc" 0 "$name: the run exits 0 ($((SECONDS - t0)) s)"
	if [[ ! -f $r ]]; then
		not_ok "$name: result.json written" "$(tail -n 5 "$tmp/$name.err")"
		return 1
	fi
	diag "$name: wall_s $(j .wall_s), host_boot_to_run_s $(j .host_boot_to_run_s), boot_to_exit_s $(j .boot_to_exit_s)"
	is "$(j .verified)" true "$name: the workload verified its data"
	is "$(undocumented_keys "$r")" "" "$name: every key of its result.json is in CONTRACTS.md"
}
j() { jq -r "$@" "$r"; }
# shellcheck disable=SC2317 # called through check
jqe() { jq -e "$1" "$r" >/dev/null; } # jqe FILTER: true for this run

# --- 1: two nodes, node 0's DIMM above node 1, zram. The workload runs
# in a 64M cgroup: zram's memory is the guest's, so an incompressible
# region larger than RAM could not swap there; 96M in 64M can.
if shape_run numa-zram cyclic-anon --mem 256M --vcpus 4 --numa 2:192M,64M --numa-dimm 128M --swap zram \
	--size 96M --cgroup work:64M --timeout 600 -- --passes 2; then
	is "$(j -c .params.numa)" '{"nodes":2,"node_mib":[192,64],"node_cpus":[[0,1],[2,3]],"dimm_mib":128}' \
		"params.numa records the nodes, their vCPUs and the DIMM"
	is "$(j .params.swap)/$(j .params.thp)/$(j .params.fs)" zram/null/ext4 "params.swap zram, thp and fs the defaults"
	# qemu.cmdline is quoted for the shell (printf %q: "\,").
	check "QEMU got the nodes and the DIMM" grep -q -- '-m 128M,slots=1,maxmem=256M .*-numa node,nodeid=1,cpus=2-3,memdev=lab-node1 .*pc-dimm,id=lab-dimm,memdev=lab-dimm-mem,node=0' \
		<(tr -d "\\\\" <"$(dirname "$r")/qemu.cmdline")
	is "$(j '.machine.nodes | length')" 2 "the guest kernel has two nodes"
	# A socket per vCPU: QEMU's one socket for all would share a cache
	# across the nodes, and the kernel warns (topology_sane()).
	check "the guest kernel printed no WARNING" bash -c "! grep -aq 'WARNING:' '$(dirname "$r")/console.log'"
	is "$(j -c '[.machine.nodes[].cpus]')" '[[0,1],[2,3]]' "... with vCPUs 0-1 on node 0 and 2-3 on node 1"
	# MemTotal is the node's memory less what the kernel reserved at boot
	# (its image, memmap, ...): within the node's size, and most of it.
	check "node 0's MemTotal is most of its 192M (64M at boot + the 128M DIMM)" \
		jqe '.machine.nodes[0].mem_total_kb | . <= 192 * 1024 and . > 150 * 1024'
	check "node 1's MemTotal is most of its 64M" \
		jqe '.machine.nodes[1].mem_total_kb | . <= 64 * 1024 and . > 48 * 1024'
	check "node 0 has a zone at or above 4 GiB (pfn 1048576) of the DIMM's 32768 pages, all present" \
		jqe '[.machine.nodes[0].zones[] | select(.start_pfn >= 1048576)]
			| length == 1 and .[0].spanned == 32768 and .[0].present == 32768'
	check "node 1 has no memory above 4 GiB" jqe '.machine.nodes[1].end_pfn <= 1048576'
	n0="[$(j .machine.nodes[0].start_pfn), $(j .machine.nodes[0].end_pfn))"
	n1="[$(j .machine.nodes[1].start_pfn), $(j .machine.nodes[1].end_pfn))"
	check "node 0's span $n0 holds node 1's $n1: the spans overlap" \
		jqe '.machine.nodes as [$a, $b] | $b.start_pfn < $b.end_pfn
			and $a.start_pfn <= $b.start_pfn and $b.end_pfn <= $a.end_pfn'
	check "the kernel onlined the DIMM at boot (memhp_default_state=online on its command line)" \
		grep -q 'memhp_default_state=online' <<<"$(j .guest_cmdline)"
	is "$(j -c '[.machine.swaps[].device]')" '["/dev/zram0"]' "/proc/swaps: zram0 is the only swap"
	is "$(j .machine.zram.comp_algorithm)/$(j .machine.zram.disksize_bytes)" "lzo-rle/$((1024 << 20))" \
		"zram compresses with lzo-rle and is the disk swap's size (1G for 256M)"
	check "pages were swapped out (pswpout > 0): to zram, the only swap" test "$(j '.vmstat.pswpout // 0')" -gt 0
	check "zram held the swapped pages: its memory peaked above 8 MiB (mm_stat's mem_used_max)" \
		test "$(j '.machine.zram.mem_used_max // 0')" -gt $((8 << 20))
	diag "numa-zram: nodes $(j -c '[.machine.nodes[] | {node, start_pfn, end_pfn, mem_total_kb}]'), pswpout $(j .vmstat.pswpout), zram $(j -c .machine.zram)"
fi

# --- 2: no swap, THP always, XFS. cyclic-anon fits in memory (without
# swap it must); cyclic-file beside it reads a file larger than RAM.
if shape_run thp-xfs cyclic-anon --swap none --thp always --fs xfs --size 64M --timeout 600 -- --passes 2 \
	--also cyclic-file --size 300M -- --passes 2; then
	is "$(j .params.swap)/$(j .params.thp)/$(j .params.fs)/$(j .params.numa)" none/always/xfs/null \
		"params.swap none, thp always, fs xfs, numa null"
	is "$(j '.machine.swaps | length')" 0 "/proc/swaps is empty: no swap at all"
	is "$(j '.vmstat.pswpout')" 0 "nothing was swapped out"
	is "$(j .machine.thp)" always "THP's mode is always (set through sysfs: 6.1 turns THP off below 512 MiB)"
	check "anonymous faults got huge pages (thp_fault_alloc > 0)" test "$(j '.vmstat.thp_fault_alloc // 0')" -gt 0
	is "$(j .machine.data_fs)" xfs "/data is XFS"
	is "$(j '.also[0].workload')/$(j '.also[0].verified')" cyclic-file/true "cyclic-file verified its data on XFS"
	check "... and read it back from the disk (workingset refaults of the page cache)" \
		test "$(j '.vmstat.workingset_refault_file // 0')" -gt 0
	is "$(j '.machine.nodes | length')" 1 "without --numa the guest has one node"
fi
done_testing
