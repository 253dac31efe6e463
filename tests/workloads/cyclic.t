#!/bin/bash
# End-to-end runs of cyclic-anon and cyclic-file on a tiny region/file.
set -euo pipefail
# shellcheck source=tests/workloads/tap.sh
source "$(dirname "$0")/tap.sh"

build_workloads
DIR=$TAP_TMP/data
mkdir -p "$DIR"

# --- cyclic-anon -----------------------------------------------------------
expect_exit 0 "cyclic-anon 4M, 3 passes runs" "$BIN/cyclic-anon" --size 4M --emit-refs "$TAP_TMP/anon.refs"
check "cyclic-anon prints one RESULT line" has_result
check "cyclic-anon RESULT has the contract's fields" \
	test "$(result_json | jq -c '[.workload, .size_bytes, .pages, .passes, .seed, .verified, (.elapsed_s | type)]')" \
	= '["cyclic-anon",4194304,1024,3,1,true,"number"]'
# Nothing is reclaimed on the host at 4 MiB: every sample sees all pages.
check "cyclic-anon measures its resident set 8 times a pass after the first" \
	test "$(result_json | jq -c '[.resident_pages, .resident_samples]')" = '[1024,16]'
check "its samples agree: min = max = mean, no spread, isolated pages counted" \
	test "$(result_json | jq -c '[.resident_min, .resident_max, .resident_sd, (.isolated_pages | type)]')" = '[1024,1024,0,"number"]'
expect_exit 0 "cyclic-anon --resident-samples 32: 32 samples a pass" "$BIN/cyclic-anon" --size 4M --resident-samples 32
check "2 passes after the first, 32 samples each" test "$(result_field resident_samples)" = 64
expect_exit 2 "--resident-samples 0 is refused" "$BIN/cyclic-anon" --size 4M --resident-samples 0
expect_exit 2 "--resident-samples above 4096 is refused" "$BIN/cyclic-anon" --size 4M --resident-samples 4097
check "cyclic-anon's --help lists --resident-samples" bash -c '"$1" --help | grep -q -- --resident-samples' _ "$BIN/cyclic-anon"
check "a workload that samples no resident set has no --resident-samples" \
	bash -c 'h=$("$1" --help) && [[ $h == *--seed* && $h != *resident-samples* ]]' _ "$BIN/ycsb-leveldb"
check "cyclic-anon refs magic" test "$(refs_magic "$TAP_TMP/anon.refs")" = LABREFS1
check "cyclic-anon refs header is page size 4096, flags 0" test "$(refs_header "$TAP_TMP/anon.refs")" = "4096 0"
check "cyclic-anon refs count is pages x passes" test "$(refs_count "$TAP_TMP/anon.refs")" = 3072
check "cyclic-anon refs start 0 1 2 3" test "$(refs_ids "$TAP_TMP/anon.refs" 4)" = "0 1 2 3"
check "cyclic-anon refs wrap to page 0 on pass 2" \
	test "$(od -An -v -tu8 -j$((16 + 8 * 1023)) -N16 "$TAP_TMP/anon.refs" | xargs)" = "1023 0"
expect_exit 0 "cyclic-anon 150% setup is a no-op" "$BIN/cyclic-anon" --phase setup
check "cyclic-anon setup reports phase setup" test "$(result_field phase)" = setup
expect_exit 0 "cyclic-anon accepts N% sizes" "$BIN/cyclic-anon" --size 0.01% --passes 1
check "one pass: no resident set measured (the first pass fills memory)" \
	test "$(result_json | jq -c '[.resident_pages, .resident_samples]')" = '[null,null]'
mem_kib=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
check "cyclic-anon 0.01% is MemTotal/10000 rounded to pages" \
	test "$(result_field size_bytes)" = $((mem_kib * 1024 / 10000 / 4096 * 4096))

# --- cyclic-file -----------------------------------------------------------
expect_exit 0 "cyclic-file setup" "$BIN/cyclic-file" --dir "$DIR" --size 4M --phase setup
check "cyclic-file setup wrote a 4 MiB file" test "$(stat -c %s "$DIR/cyclic-file.dat")" = 4194304
check "cyclic-file setup left no temporary file" test "$(find "$DIR" -name '*.tmp.*' | wc -l)" = 0
expect_exit 0 "cyclic-file run (read)" "$BIN/cyclic-file" --dir "$DIR" --size 4M --phase run --emit-refs "$TAP_TMP/file.refs"
check "cyclic-file run verified" test "$(result_field verified)" = true
check "cyclic-file run reports mode read, 3 passes" test "$(result_json | jq -c '[.mode, .passes, .pages]')" = '["read",3,1024]'
check "cyclic-file measures its resident set (page cache) from the second pass" \
	test "$(result_json | jq -c '[.resident_pages, .resident_samples]')" = '[1024,16]'
check "cyclic-file refs count is pages x passes" test "$(refs_count "$TAP_TMP/file.refs")" = 3072
check "cyclic-file refs equal cyclic-anon's for the same size" cmp -s "$TAP_TMP/anon.refs" "$TAP_TMP/file.refs"
expect_exit 0 "cyclic-file run (mmap)" "$BIN/cyclic-file" --dir "$DIR" --size 4M --phase run --mode mmap --passes 2
check "cyclic-file mmap run verified" test "$(result_json | jq -c '[.mode, .verified]')" = '["mmap",true]'
expect_exit 0 "cyclic-file all (no drop_caches on the host)" "$BIN/cyclic-file" --dir "$DIR" --size 4M --no-drop-caches --passes 1
check "cyclic-file all reports setup and run" test "$(result_json | jq -c '[.phase, (.setup_s | type), .verified]')" = '["all","number",true]'

expect_exit 1 "cyclic-file run with another seed is refused, not a verify failure" \
	"$BIN/cyclic-file" --dir "$DIR" --size 4M --phase run --seed 2
check "the refusal names the setup options" grep -q "set up as" <<<"$ERR"
expect_exit 1 "cyclic-file run with another size is refused" "$BIN/cyclic-file" --dir "$DIR" --size 8M --phase run

# Corrupt one byte in the middle of page 700.
printf '\x01' | dd of="$DIR/cyclic-file.dat" bs=1 seek=$((700 * 4096 + 1234)) conv=notrunc status=none
expect_exit 3 "one corrupted byte makes cyclic-file --phase run exit 3" "$BIN/cyclic-file" --dir "$DIR" --size 4M --phase run
check "the failure names the page and pass" grep -q "page 700 pass 0" <<<"$ERR"
check "the RESULT line says verified false" test "$(result_field verified)" = false
expect_exit 3 "the same corruption is caught through mmap" "$BIN/cyclic-file" --dir "$DIR" --size 4M --phase run --mode mmap

expect_exit 1 "cyclic-file run without setup fails" "$BIN/cyclic-file" --dir "$TAP_TMP" --size 4M --phase run

# --- --procs N: the timed phase in N processes -----------------------------
expect_exit 0 "cyclic-anon --procs 3" "$BIN/cyclic-anon" --size 4M --procs 3
check "it reports 3 processes, verified, the slowest's seconds" \
	test "$(result_json | jq -c '[.procs, .verified, .pages, (.procs_shortest_s <= .elapsed_s)]')" = '[3,true,1024,true]'
check "N processes sample no resident set" test "$(result_field resident_samples)" = null
expect_exit 2 "--procs with --emit-refs is refused" "$BIN/cyclic-anon" --size 4M --procs 2 --emit-refs "$TAP_TMP/p.refs"
check "and nothing is written" test ! -e "$TAP_TMP/p.refs"
expect_exit 2 "--procs 0 is refused" "$BIN/cyclic-anon" --size 4M --procs 0
expect_exit 2 "--procs 65 is refused" "$BIN/cyclic-anon" --size 4M --procs 65
expect_exit 2 "more processes than pages is refused" "$BIN/cyclic-anon" --size 8K --procs 3
check "webtrace, one trace in its order, has no --procs" bash -c '! "$1" --help | grep -q -- --procs' _ "$BIN/webtrace"
PDIR=$TAP_TMP/procs
mkdir -p "$PDIR"
expect_exit 0 "cyclic-file setup for --procs" "$BIN/cyclic-file" --dir "$PDIR" --size 4M --phase setup
expect_exit 0 "cyclic-file --procs 4 (read)" "$BIN/cyclic-file" --dir "$PDIR" --size 4M --phase run --procs 4
check "verified by 4 processes" test "$(result_json | jq -c '[.procs, .verified]')" = '[4,true]'
expect_exit 0 "cyclic-file --procs 4 (mmap)" "$BIN/cyclic-file" --dir "$PDIR" --size 4M --phase run --procs 4 --mode mmap
# Each process checks its own share: pages 0-255 are process 0's, ...
printf '\x01' | dd of="$PDIR/cyclic-file.dat" bs=1 seek=$((1023 * 4096 + 9)) conv=notrunc status=none
expect_exit 3 "a corrupted last page fails the run" "$BIN/cyclic-file" --dir "$PDIR" --size 4M --phase run --procs 4
check "the RESULT line names the last process and the page" \
	test "$(result_json | jq -c '[.verified, .verify_error]')" = '[false,"process 3: page 1023 pass 0 offset 8"]'
check "one line from the process, one from the run" test "$(grep -c . <<<"$ERR")" = 2
done_testing
