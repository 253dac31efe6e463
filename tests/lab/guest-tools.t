#!/usr/bin/env bash
# The guest's C tools, built and run on the host: lab-exec (a command's
# cost and exit code, joining a cgroup), lab-psi (PSI snapshots),
# lab-switch (--switch-at), lab-lrucheck (LRU lists against their
# counters, in total and per node) and lab-reclaim (direct reclaim stalls
# from trace_pipe's text), each against files whose content the test
# wrote, and their errors.
set -euo pipefail
# shellcheck source=tap.sh
source "$(dirname "$0")/tap.sh"
src=$top/images/guest
# shellcheck disable=SC2317 # called through check
json_ok() { jq -e "$@" >/dev/null; }	# json_ok [-s] FILTER FILE
# Every tool the image builds (images/build-rootfs.sh: images/guest/lab-*.c).
for c in "$src"/lab-*.c; do
	gcc -std=c11 -Wall -Wextra -Werror -O2 -o "$tmp/$(basename "$c" .c)" "$c"
done

# lab-exec: the child's exit code, its cost as JSON.
rc=0
"$tmp/lab-exec" "$tmp/ru.json" /bin/sh -c 'exit 3' || rc=$?
is "$rc" 3 "lab-exec exits with the command's code"
check "lab-exec writes one JSON object with the exit code and no cgroup" \
	json_ok '.exit_code == 3 and .signal == 0 and .cgroup == null and .wall_s >= 0 and (.majflt | type) == "number"' "$tmp/ru.json"
rc=0
"$tmp/lab-exec" "$tmp/ru.json" /bin/sh -c 'sleep 0.3' || rc=$?
near "$(jq .wall_s "$tmp/ru.json")" 0.3 0.25 "lab-exec's wall_s covers the command (0.3 s sleep)"
rc=0
"$tmp/lab-exec" "$tmp/ru.json" /bin/sh -c 'kill -SEGV $$' || rc=$?
is "$rc" 139 "a command killed by SIGSEGV: 128 + 11"
rc=0
"$tmp/lab-exec" "$tmp/ru.json" "$tmp/no-such-command" 2>"$tmp/err" || rc=$?
is "$rc" 127 "a command that cannot be executed: 127"
check "... saying why" grep -q "no-such-command: No such file or directory" "$tmp/err"
rc=0
"$tmp/lab-exec" --cgroup "$tmp/no-such-cgroup" "$tmp/ru.json" /bin/true 2>"$tmp/err" || rc=$?
is "$rc" 125 "a cgroup that cannot be joined: 125, lab-exec's own failure"
check "... saying which" grep -q "cannot join cgroup $tmp/no-such-cgroup" "$tmp/err"
rc=0
"$tmp/lab-exec" --cgroup >/dev/null 2>&1 || rc=$?
is "$rc" 2 "lab-exec without a command: usage, exit 2"

# lab-psi: the totals of the "some" and "full" lines, and the clock.
cat >"$tmp/pressure" <<'P'
some avg10=1.50 avg60=0.30 avg300=0.07 total=123456789
full avg10=0.90 avg60=0.10 avg300=0.02 total=98765
P
t0=$EPOCHREALTIME
"$tmp/lab-psi" "$tmp/pressure" >"$tmp/a"
sleep 0.2
"$tmp/lab-psi" "$tmp/pressure" >"$tmp/b"
t1=$EPOCHREALTIME
is "$(sed -n 's/^some_us //p' "$tmp/a")" 123456789 "lab-psi: some_us is the some line's total"
is "$(sed -n 's/^full_us //p' "$tmp/a")" 98765 "lab-psi: full_us is the full line's total"
d=$(($(sed -n 's/^mono_us //p' "$tmp/b") - $(sed -n 's/^mono_us //p' "$tmp/a")))
check "lab-psi: mono_us advances in microseconds (0.2 s sleep <= $d us <= the host's time between)" \
	awk -v d="$d" -v a="$t0" -v b="$t1" 'BEGIN { exit !(d >= 200000 && d <= (b - a) * 1e6) }'
printf 'some avg10=0.00 avg60=0.00 avg300=0.00 total=5\n' >"$tmp/half"
rc=0
"$tmp/lab-psi" "$tmp/half" >/dev/null 2>&1 || rc=$?
is "$rc" 1 "lab-psi on a file without a full line: exit 1"
if [[ -r /proc/pressure/memory ]]; then
	"$tmp/lab-psi" /proc/pressure/memory >"$tmp/host" || true
	check "lab-psi reads this host's /proc/pressure/memory" grep -q '^full_us [0-9]' "$tmp/host"
fi

# lab-switch: each policy written at its time, each recorded.
: >"$tmp/policy"
"$tmp/lab-switch" --file "$tmp/policy" "$tmp/sw.jsonl" 0.2:clockpro 0.5:cart-r
is "$(wc -l <"$tmp/sw.jsonl")" 2 "lab-switch: one line per switch"
check "lab-switch: both written, as T:POLICY said" \
	json_ok -s 'map(.to) == ["clockpro", "cart-r"] and map(.t_s) == [0.2, 0.5] and all(.ok and .error == null)' "$tmp/sw.jsonl"
near "$(jq -s '.[0].at_s' "$tmp/sw.jsonl")" 0.2 0.1 "lab-switch: the first at 0.2 s"
near "$(jq -s '.[1].at_s' "$tmp/sw.jsonl")" 0.5 0.1 "lab-switch: the second at 0.5 s"
# (written as echo would, over the start of the file: sysfs does not truncate)
is "$(head -c 7 "$tmp/policy" | tr '\n' '|')" "cart-r|" "lab-switch: the file got the last policy and a newline"
"$tmp/lab-switch" --file "$tmp" "$tmp/sw2.jsonl" 0.1:lru
check "a write the kernel refuses is recorded with its error, not fatal" \
	json_ok '.ok == false and .error == "Is a directory" and .to == "lru"' "$tmp/sw2.jsonl"
for bad in 0:lru 1:LRU 1:lru,2:cart x:lru 2:lru' '1:cart; do
	rc=0
	# shellcheck disable=SC2086 # two switches in one word on purpose
	"$tmp/lab-switch" --file "$tmp/policy" "$tmp/sw3.jsonl" $bad >/dev/null 2>&1 || rc=$?
	is "$rc" 2 "lab-switch refuses '$bad' with exit 2"
done

# lab-lrucheck: a kpageflags of eight pages (KPF_LRU 1<<5, a compound
# head 1<<15, a tail 1<<16): a small LRU page, a page off the LRU, an LRU
# head with two tails, a head off the LRU with one tail, a small LRU
# page: 1 + 3 + 1 = 5 pages on the lists.
# shellcheck disable=SC2059 # the escapes built here are the format on purpose
kpf() { printf "$(printf '\\x%02x' $(( $1 & 255 )) $(( ($1 >> 8) & 255 )) $(( ($1 >> 16) & 255 )))\\0\\0\\0\\0\\0"; }
for f in 32 0 $((32 | 1 << 15)) $((1 << 16)) $((1 << 16)) $((1 << 15)) $((1 << 16)) 32; do kpf "$f"; done >"$tmp/kpf"
is "$(stat -c %s "$tmp/kpf")" 64 "lab-lrucheck fixture: eight 8-byte entries"
vmstat_of() {	# vmstat_of INACTIVE_ANON: the five LRU counters, 4 + INACTIVE_ANON pages
	printf 'nr_free_pages 100\nnr_inactive_anon %s\nnr_active_anon 1\nnr_inactive_file 2\nnr_active_file 0\nnr_unevictable 1\n' "$1"
}
vmstat_of 1 >"$tmp/vm5"
rc=0
"$tmp/lab-lrucheck" "$tmp/kpf" "$tmp/vm5" >"$tmp/lc" || rc=$?
is "$rc" 0 "lab-lrucheck: lists and counters agree, exit 0"
is "$(tr '\n' ' ' <"$tmp/lc")" "flagged 5 counted 5 passes 1 nodes_checked 0 nodes_differing 0 " "... 5 pages each way (a compound head counts its tails), at the first pass"
vmstat_of 2 >"$tmp/vm6"
rc=0
"$tmp/lab-lrucheck" "$tmp/kpf" "$tmp/vm6" >"$tmp/lc" || rc=$?
is "$rc" 1 "lab-lrucheck: a page counted but on no list: exit 1"
is "$(tr '\n' ' ' <"$tmp/lc")" "flagged 5 counted 6 passes 5 nodes_checked 0 nodes_differing 0 " "... after all five passes"
grep -v nr_unevictable "$tmp/vm5" >"$tmp/vm-short"
rc=0
"$tmp/lab-lrucheck" "$tmp/kpf" "$tmp/vm-short" >/dev/null 2>"$tmp/err" || rc=$?
is "$rc" 3 "lab-lrucheck: a vmstat without nr_unevictable: exit 3"
check "... naming the file" grep -q "cannot read $tmp/vm-short" "$tmp/err"
rc=0
"$tmp/lab-lrucheck" "$tmp/kpf" >/dev/null 2>&1 || rc=$?
is "$rc" 2 "lab-lrucheck with one file: usage, exit 2"

# Per node, with a sysfs root: memory blocks of four pages (0x4000 bytes),
# node 0 holds block 0 (pfns 0-3), node 1 block 1 (pfns 4-7). The pages:
# LRU, off, an LRU head and its tail | LRU, off, off, LRU: 3 + 2.
for f in 32 0 $((32 | 1 << 15)) $((1 << 16)) 32 0 0 32; do kpf "$f"; done >"$tmp/kpf-nodes"
sys=$tmp/sys/devices/system
mkdir -p "$sys/memory" "$sys/node/node0/memory0" "$sys/node/node1/memory1"
echo 4000 >"$sys/memory/block_size_bytes"
node_vmstat() {	# node_vmstat NODE INACTIVE_ANON: the node's five LRU counters
	printf 'nr_inactive_anon %s\nnr_active_anon 0\nnr_inactive_file 1\nnr_active_file 0\nnr_unevictable 0\n' "$2" \
		>"$sys/node/node$1/vmstat"
}
node_vmstat 0 2
node_vmstat 1 1
rc=0
"$tmp/lab-lrucheck" "$tmp/kpf-nodes" "$tmp/vm5" "$tmp/sys" >"$tmp/lc" || rc=$?
is "$rc" 0 "lab-lrucheck per node: each node's lists match its counters, exit 0"
is "$(tr '\n' ' ' <"$tmp/lc")" "flagged 5 counted 5 passes 1 nodes_checked 2 nodes_differing 0 " "... 3 pages on node 0, 2 on node 1"
# A folio of node 1 counted on node 0 (as when a policy moves another
# node's folio onto its own list): the sums still agree.
node_vmstat 0 3
node_vmstat 1 0
rc=0
"$tmp/lab-lrucheck" "$tmp/kpf-nodes" "$tmp/vm5" "$tmp/sys" >"$tmp/lc" || rc=$?
is "$rc" 1 "lab-lrucheck per node: a page counted on the wrong node, exit 1"
is "$(tr '\n' ' ' <"$tmp/lc")" "flagged 5 counted 5 passes 5 nodes_checked 2 nodes_differing 2 " "... both nodes differ while the totals agree"
# A block listed under both nodes (a node boundary inside a block): which
# node its pages are on is unknown, so no node is compared.
mkdir "$sys/node/node1/memory0"
rc=0
"$tmp/lab-lrucheck" "$tmp/kpf-nodes" "$tmp/vm5" "$tmp/sys" >"$tmp/lc" || rc=$?
is "$(tr '\n' ' ' <"$tmp/lc")" "flagged 5 counted 5 passes 1 nodes_checked 0 nodes_differing 0 " \
	"lab-lrucheck per node: a block shared by two nodes, no node compared"
rmdir "$sys/node/node1/memory0"
rm "$sys/node/node1/vmstat"
rc=0
"$tmp/lab-lrucheck" "$tmp/kpf-nodes" "$tmp/vm5" "$tmp/sys" >/dev/null 2>"$tmp/err" || rc=$?
is "$rc" 3 "lab-lrucheck per node: a node without vmstat, exit 3"
check "... naming the node directory" grep -q "cannot read $tmp/sys/devices/system/node" "$tmp/err"
# lab-reclaim stalls: a task's begin and its next end are one stall, the
# comm may hold spaces, dashes and brackets, other events are skipped, an
# end without its begin is unpaired, and the instance's overruns add up.
inst=$tmp/instance
mkdir -p "$inst/per_cpu/cpu0" "$inst/per_cpu/cpu1"
printf 'entries: 0\noverrun: 3\n' >"$inst/per_cpu/cpu0/stats"
printf 'overrun: 2\n' >"$inst/per_cpu/cpu1/stats"
cat >"$inst/trace_pipe" <<'T'
     cyclic-anon-212     [001] .....    12.345678: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE
 a - b [x]-77     [000] d....    12.400000: mm_vmscan_memcg_reclaim_begin: order=0 gfp_flags=GFP_KERNEL
     cyclic-anon-212     [001] .....    12.346678: mm_vmscan_direct_reclaim_end: nr_reclaimed=32
 a - b [x]-77     [000] d....    12.420000: mm_vmscan_memcg_reclaim_end: nr_reclaimed=12
           kswapd0-30      [000] .....    13.000000: mm_vmscan_kswapd_wake: nid=0 order=0
            stray-5      [000] .....    14.000000: mm_vmscan_direct_reclaim_end: nr_reclaimed=1
     cyclic-anon-212     [001] .....    15.000000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE
     cyclic-anon-212     [001] .....    15.000300: mm_vmscan_direct_reclaim_end: nr_reclaimed=32
T
"$tmp/lab-reclaim" stalls "$inst" >"$tmp/stalls"
is "$(tr '\n' ' ' <"$tmp/stalls")" \
	"stalls 3 memcg_stalls 1 stall_total_us 21300 stall_p50_us 1000 stall_p99_us 20000 stall_max_us 20000 stalls_over_frame 1 unpaired 1 lines 7 overrun 5 " \
	"lab-reclaim stalls: 3 stalls (1 memcg), p50 and max, 1 above 8.3 ms, 1 unpaired, 5 lost"
# With a MARKER only the stalls that begin between MARKER-start and
# MARKER-end count: one begun before the window (its end inside) and one
# begun after it are not the window's, nor unpaired; one begun inside
# whose end comes after the end marker is; one still open at the end is
# unpaired.
cat >"$inst/trace_pipe" <<'T'
     cyclic-anon-212     [001] .....    10.000000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE
              sh-1       [000] .....    10.100000: tracing_mark_write: lab-window-start
     cyclic-anon-212     [001] .....    10.200000: mm_vmscan_direct_reclaim_end: nr_reclaimed=32
            stray-5      [000] .....    10.300000: mm_vmscan_direct_reclaim_end: nr_reclaimed=1
     cyclic-anon-212     [001] .....    11.000000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE
         other-90        [000] .....    11.500000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE
              sh-1       [000] .....    12.000000: tracing_mark_write: lab-window-end
     cyclic-anon-212     [001] .....    12.002000: mm_vmscan_direct_reclaim_end: nr_reclaimed=32
     cyclic-anon-212     [001] .....    13.000000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE
     cyclic-anon-212     [001] .....    13.000100: mm_vmscan_direct_reclaim_end: nr_reclaimed=32
T
"$tmp/lab-reclaim" stalls "$inst" lab-window >"$tmp/stalls"
is "$(grep -E '^(stalls|unpaired|stall_max_us) ' "$tmp/stalls" | tr '\n' ' ')" \
	"stalls 1 stall_max_us 1002000 unpaired 1 " \
	"lab-reclaim stalls MARKER: the window's stalls only, its open one unpaired, the others not its own"
printf '   x-1  [000] .....  garbage: mm_vmscan_direct_reclaim_begin: order=0\n' >"$inst/trace_pipe"
rc=0
"$tmp/lab-reclaim" stalls "$inst" >/dev/null 2>"$tmp/err" || rc=$?
is "$rc:$(cat "$tmp/err")" "1:lab-reclaim: $inst/trace_pipe: a malformed reclaim event line" \
	"lab-reclaim stalls: a malformed event line is exit 1, one line"
rc=0
"$tmp/lab-reclaim" stalls "$tmp/no-instance" >/dev/null 2>&1 || rc=$?
is "$rc" 1 "lab-reclaim stalls on a missing instance: exit 1"
rc=0
"$tmp/lab-reclaim" >/dev/null 2>&1 || rc=$?
is "$rc" 2 "lab-reclaim without a command: usage, exit 2"
check "lab-reclaim kswapd: one line of CPU seconds" \
	bash -c '[[ $("$1" kswapd) =~ ^kswapd_cpu_s\ [0-9]+\.[0-9]{2}$ ]]' _ "$tmp/lab-reclaim"
# lab-coldcheck (the stress job's lists group): a size it cannot map is
# bad usage, one line and exit 2, before it touches memory.
for a in x 0 4097 "1 2"; do
	rc=0
	# shellcheck disable=SC2086 # "1 2" is two arguments on purpose
	"$tmp/lab-coldcheck" $a >/dev/null 2>"$tmp/err" || rc=$?
	is "$rc:$(wc -l <"$tmp/err")" "2:1" "lab-coldcheck $a: usage, exit 2, one line"
done
done_testing
