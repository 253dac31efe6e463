#!/bin/bash
# mdb-bench end to end on a tiny database.
set -euo pipefail
# shellcheck source=tests/workloads/tap.sh
source "$(dirname "$0")/tap.sh"

build_workloads
DIR=$TAP_TMP/data
mkdir -p "$DIR"
DB=(--dir "$DIR" --size 4M --ops 20000)

expect_exit 0 "mdb-bench setup" "$BIN/mdb-bench" "${DB[@]}" --phase setup
check "layout: 1013 record pages, 11 index pages, 2 keys per record page" \
	test "$(result_json | jq -c '[.record_pages, .index_pages, .keys]')" = '[1013,11,2026]'
check "index and record files have those sizes" \
	test "$(stat -c %s "$DIR/mdb-index.dat") $(stat -c %s "$DIR/mdb-records.dat")" = "$((11 * 4096)) $((1013 * 4096))"
expect_exit 0 "mdb-bench run (pread)" "$BIN/mdb-bench" "${DB[@]}" --phase run --emit-refs "$TAP_TMP/a.refs"
check "pread run verified, reports ops/s and residency in [0,1]" \
	result_is '.verified and .mode == "pread" and .ops == 20000 and .ops_per_s > 0 and
		.index_resident_fraction >= 0 and .index_resident_fraction <= 1 and
		.record_resident_fraction >= 0 and .record_resident_fraction <= 1'
check "two references per op" test "$(refs_count "$TAP_TMP/a.refs")" = 40000
alternates=$(refs_all "$TAP_TMP/a.refs" |
	awk '{ obj = int($1 / 2^40); page = $1 - obj * 2^40
	       if (obj != (NR + 1) % 2) bad++
	       if (obj == 0) { key_index = page } else if (int(page * 2 / 185) != key_index && int((page * 2 + 1) / 185) != key_index) bad++ }
	     END { print bad + 0 }')
check "references alternate index (object 0) then its record (object 1)" test "$alternates" = 0
index_refs=$(refs_all "$TAP_TMP/a.refs" | awk '$1 < 2^40 { n[$1]++ } END { m = 0; for (p in n) if (n[p] > m) m = n[p]; print m }')
record_refs=$(refs_all "$TAP_TMP/a.refs" | awk '$1 >= 2^40 { n[$1]++ } END { m = 0; for (p in n) if (n[p] > m) m = n[p]; print m }')
check "index pages are far hotter than record pages (max $index_refs vs $record_refs)" \
	test "$index_refs" -gt $((record_refs * 20))
expect_exit 0 "mdb-bench run again" "$BIN/mdb-bench" "${DB[@]}" --phase run --emit-refs "$TAP_TMP/b.refs"
check "same seed, same references" cmp -s "$TAP_TMP/a.refs" "$TAP_TMP/b.refs"
expect_exit 0 "mdb-bench run (mmap, mlocked index)" "$BIN/mdb-bench" "${DB[@]}" --phase run --mode mmap --mlock-index --emit-refs "$TAP_TMP/c.refs"
check "mlocked run keeps the whole index resident" \
	result_is '.verified and .mlock_index and .mode == "mmap" and .index_resident_fraction == 1'
check "the access mode does not change the references" cmp -s "$TAP_TMP/a.refs" "$TAP_TMP/c.refs"
expect_exit 0 "mdb-bench all" "$BIN/mdb-bench" "${DB[@]}" --seed 3 --no-drop-caches
check "all phase verified" test "$(result_field verified)" = true
check "with the cache kept, the resident samples count both files' 1024 pages" \
	result_is '.resident_samples == 8 and .resident_pages == 1024'
expect_exit 0 "mdb-bench --procs 4" "$BIN/mdb-bench" "${DB[@]}" --seed 3 --phase run --procs 4
check "4 processes share the 20000 lookups, verified" \
	result_is '.verified and .procs == 4 and .ops == 20000 and .ops_per_s > 0 and .procs_shortest_s <= .elapsed_s'
expect_exit 2 "more processes than lookups is refused" "$BIN/mdb-bench" "${DB[@]}" --phase run --ops 3 --procs 4

printf '\x01' | dd of="$DIR/mdb-index.dat" bs=1 seek=$((5 * 4096 + 8)) conv=notrunc status=none
expect_exit 3 "a corrupted index page makes mdb-bench exit 3" "$BIN/mdb-bench" "${DB[@]}" --seed 3 --phase run
check "the failure names the index page" grep -q "index page 5 (byte offset 8)" <<<"$ERR"
expect_exit 3 "every process reads the index: --procs 4 fails too" "$BIN/mdb-bench" "${DB[@]}" --seed 3 --phase run --procs 4
check "its RESULT line names a process and the index page" \
	result_is '(.verified | not) and (.verify_error | test("^process [0-3]: op [0-9]+ index page 5 offset 8$"))' 
expect_exit 1 "a run with another seed than setup is refused" "$BIN/mdb-bench" "${DB[@]}" --seed 4 --phase run
done_testing
