#!/usr/bin/env bash
# Every workload runs in the guest, at small sizes: cyclic-file and
# mdb-bench under the vanilla kernel and the lab kernel's default policy,
# webtrace under vanilla, the real applications under lru.  Each one
# verifies its data, really touches the disk or swap, and lab.sh carries
# files and reference strings in and out.
set -euo pipefail
# shellcheck source=tap.sh
source "$(dirname "$0")/tap.sh"
# shellcheck source=../lib/refs.bash
source "$top/tests/lib/refs.bash"
export LAB_RESULTS=$tmp/res

# run_wl NAME POLICY WORKLOAD [lab options] [-- workload options]
run_wl() {
	local name=$1 policy=$2 wl=$3 rc=0
	shift 3
	"$top/lab.sh" run "$policy" "$wl" --timeout 400 "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" || rc=$?
	res=$(last_line "$tmp/$name.out")/result.json
	check "$name: exit 0" test "$rc" = 0
	check "$name: verified" test "$(jq -r .verified "$res" 2>/dev/null)" = true
	[[ $rc == 0 ]] || diag "$(tail -n 3 "$tmp/$name.err")"
}

for policy in vanilla lru; do
	run_wl "$policy cyclic-file" "$policy" cyclic-file --size 280M -- --passes 2
	check "$policy cyclic-file: file pages were refaulted" \
		jq -e '.vmstat.workingset_refault_file > 0' "$res"
	check "$policy cyclic-file: the whole file was read twice" \
		jq -e '.workload_result.passes == 2 and .workload_result.pages > 60000' "$res"

	# Readahead off: a page of the index can be resident after the run only
	# if the run read it (the cache was dropped before it).
	run_wl "$policy mdb-bench" "$policy" mdb-bench --refs -- --ops 30000 --readahead off
	check "$policy mdb-bench: every op counted" jq -e '.workload_result.ops == 30000' "$res"
	read_index=$(refs_distinct "$(dirname "$res")/refs.bin" $((1 << 40)) 2>/dev/null || echo 0)
	resident=$(jq -r '.workload_result | .index_resident_fraction * .index_pages' "$res" 2>/dev/null || echo -1)
	check "$policy mdb-bench: index residency measured: $resident pages resident, a whole number from 1 to the $read_index index pages the run read" \
		awk -v r="$resident" -v n="$read_index" 'BEGIN { w = int(r + 0.5); exit !(r - w < 1e-6 && w - r < 1e-6 && w >= 1 && w <= n) }'
done

# The web replay under vanilla (the lab kernel replays it in
# policies/model.t and policies/shadow.t).
run_wl "vanilla webtrace" vanilla webtrace --refs -- --requests 20000
check "vanilla webtrace: every request replayed" \
	jq -e '.workload_result.requests == 20000' "$res"
# The run phase starts with the page cache dropped, so every distinct
# page the replay read (its refs.bin) came from the disk: the guest's
# pgpgin (KiB read from block devices) is at least 4 KiB for each.
distinct=$(refs_distinct "$(dirname "$res")/refs.bin" 2>/dev/null || echo 0)
pgpgin=$(jq -r '.vmstat.pgpgin // 0' "$res" 2>/dev/null || echo 0)
check "vanilla webtrace: the disk was read: pgpgin $pgpgin KiB >= 4 KiB x $distinct distinct pages read" \
	test "$distinct" -gt 0 -a "$pgpgin" -ge $((4 * distinct))

# A real SPC file from the host is carried into the guest read-only.
"$top/build/workloads/webtrace-gen" --out "$tmp/small.spc" --requests 3000 --footprint 64M --seed 7
run_wl "webtrace --spc" vanilla webtrace -- --spc "$tmp/small.spc"
check "webtrace --spc: the host's trace was replayed" \
	jq -e '.workload_result.requests == 3000 and (.params.args | index("/job/files/1/small.spc"))' "$res"

# A malformed SPC line is found on the host by webtrace's own parser:
# exit 2 naming file:line, before anything boots, no result directory.
printf '0,100,4096,r,0.0\nthis is not spc\n' >"$tmp/bad.spc"
rc=0
LAB_RESULTS=$tmp/bad-res "$top/lab.sh" run vanilla webtrace -- --spc "$tmp/bad.spc" >"$tmp/bad.out" 2>"$tmp/bad.err" || rc=$?
check "webtrace bad trace: exit 2 before booting" test "$rc" = 2
check "webtrace bad trace: one line naming file:line" \
	test "$(wc -l <"$tmp/bad.err")" = 1 -a -n "$(grep "webtrace: $tmp/bad.spc:2: " "$tmp/bad.err")"
check "webtrace bad trace: no result directory" test ! -e "$tmp/bad-res"

# The reference string comes home in the documented format.
run_wl "cyclic-anon --refs" vanilla cyclic-anon --size 16M --refs -- --passes 2
refs=$(last_line "$tmp/cyclic-anon --refs.out")/refs.bin
check "refs.bin starts with the LABREFS1 magic" test "$(head -c 8 "$refs" 2>/dev/null)" = LABREFS1
check "refs.bin holds one id per page visit (2 passes x 4096 pages)" \
	test "$(($(stat -c %s "$refs") - 16))" = $((2 * 4096 * 8))

# The real applications, from the image with their libraries, in 128 MiB
# guests (their data 1.5 x that): Debian's fio (its files larger than RAM,
# read back through the page cache), redis-server (its heap larger than
# RAM, swapped), LevelDB streamed beside its GETs, and ripgrep over the
# Linux tree of the sources disk.
run_wl "lru fio" lru fio --mem 128M -- --ops 20000
check "lru fio: 20000 zipf reads and a stream of 1.5 x RAM, fio's verify on" \
	jq -e '.workload_result | .ops == 20000 and .stream_kib * 1024 == .stream_size_bytes and .stream_size_bytes > 150000000 and .p99_us >= .p50_us' "$res"
check "lru fio: the page cache refaulted" jq -e '.vmstat.workingset_refault_file > 0' "$res"
run_wl "lru kv-cache" lru kv-cache --mem 128M -- --ops 20000
check "lru kv-cache: 1.5 x RAM of values, 20000 GETs checked" \
	jq -e '.workload_result | .ops == 20000 and .size_bytes > 150000000 and .server_swap_kib > 0' "$res"
check "lru kv-cache: redis's heap was swapped in" jq -e '.vmstat.pswpin > 0' "$res"
run_wl "lru get-scan" lru get-scan --mem 128M -- --ops 20000
check "lru get-scan: 20000 GETs beside at least one whole pass of the stream" \
	jq -e '.workload_result | .read_ops == 20000 and .stream_passes >= 1' "$res"
check "lru get-scan: the page cache refaulted" jq -e '.vmstat.workingset_refault_file > 0' "$res"
run_wl "lru file-search" lru file-search --mem 128M -- --passes 2
check "lru file-search: 1.5 x RAM of the Linux tree searched twice, every count the host's" \
	jq -e '.workload_result | .passes == 2 and .tree_bytes > 150000000 and .matches > 0' "$res"
check "lru file-search: the page cache refaulted" jq -e '.vmstat.workingset_refault_file > 0' "$res"
run_wl "lru pgbench" lru pgbench --mem 128M -- --transactions 250
check "lru pgbench: 1000 transactions on 1.5 x RAM of tables, the money adds up" \
	jq -e '.workload_result | .transactions == 1000 and .scale >= 8 and .p99_us >= .p50_us' "$res"
check "lru pgbench: the page cache refaulted" jq -e '.vmstat.workingset_refault_file > 0' "$res"
done_testing
