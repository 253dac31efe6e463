#!/usr/bin/env bash
# The storage-engine workloads in a guest under lru: one boot per engine
# runs all six YCSB mixes (abcfde) on an 8 MiB database, and every record
# read verifies. The guest image carries both binaries.
set -euo pipefail
# shellcheck source=tap.sh
source "$(dirname "$0")/tap.sh"
export LAB_RESULTS=$tmp/res

for engine in leveldb sqlite; do
	rc=0
	"$top/lab.sh" run lru "ycsb-$engine" --size 8M --timeout 400 -- --workload abcfde --ops 300 \
		>"$tmp/$engine.out" 2>"$tmp/$engine.err" || rc=$?
	res=$(last_line "$tmp/$engine.out")/result.json
	is "$rc" 0 "ycsb-$engine in a guest under lru: exit 0"
	[[ $rc == 0 ]] || diag "$(tail -n 3 "$tmp/$engine.err")"
	check "ycsb-$engine: result ok and verified" \
		jq -e '.exit == "ok" and .verified and .workload_result.verified' "$res"
	check "ycsb-$engine: all six mixes ran, 1800 operations of all five kinds" \
		jq -e '.workload_result | .mix == "abcfde" and
			.read_ops + .update_ops + .insert_ops + .scan_ops + .rmw_ops == 1800 and
			([.read_ops, .update_ops, .insert_ops, .scan_ops, .rmw_ops] | all(. > 0))' "$res"
	check "ycsb-$engine: the database on the data disk is about 8 MiB" \
		jq -e '.workload_result.db_bytes > 7000000' "$res"
done
done_testing
