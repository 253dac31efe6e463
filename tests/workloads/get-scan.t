#!/bin/bash
# get-scan on the host, small: zipfian GETs while threads stream the whole
# LevelDB database; the streams make whole passes, each seeing every record,
# a corrupted record fails the run (exit 3) even when only a stream reads
# it, and the mix is refused where it cannot run.
set -euo pipefail
# shellcheck source=tests/workloads/tap.sh
source "$(dirname "$0")/tap.sh"

build_workloads
DIR=$TAP_TMP/data
mkdir -p "$DIR"
GS=("$BIN/get-scan" --dir "$DIR" --size 4M --no-drop-caches)

expect_exit 0 "get-scan: setup and 20000 GETs beside one stream" "${GS[@]}" --ops 20000
check "mix g, one scan thread, every GET verified" \
	test "$(result_json | jq -c '[.verified, .mix, .scan_threads, .read_ops, .engine]')" \
	= '[true,"g",1,20000,"leveldb"]'
check "the stream made whole passes: records read >= passes x keys" \
	result_is '.stream_passes > 0 and .stream_records >= .stream_passes * .keys'
expect_exit 0 "three streams" "${GS[@]}" --phase run --ops 20000 --scan-threads 3
check "three scan threads reported" test "$(result_field scan_threads)" = 3
expect_exit 0 "ycsb-leveldb runs mix g too" "$BIN/ycsb-leveldb" --dir "$DIR" --size 4M \
	--no-drop-caches --workload cg --ops 2000
check "... in a sequence after c, with its own ops/s" result_is '.c_ops_per_s > 0 and .g_ops_per_s > 0 and .stream_passes >= 0'

# One byte of a record in the middle of the database: GETs of a hot set
# may never read it, a stream surely does.
expect_exit 0 "setup again" "${GS[@]}" --phase setup
hit=$(LC_ALL=C grep -HobUaP 'YCSB\xe8\x03\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00' "$DIR"/ycsb-leveldb/* | head -1 | cut -d: -f1,2 || true)
file=${hit%%:*} offset=${hit#*:}
check "record 1000 is found on disk" test -n "$hit"
printf 'X' | dd of="$file" bs=1 seek=$((offset + 50)) conv=notrunc status=none
expect_exit 3 "a corrupted record is exit 3" "${GS[@]}" --phase run --ops 20000
check "LevelDB's block checksum caught it" grep -q "Corruption: block checksum mismatch" <<<"$ERR"
check "the RESULT line says verified false" result_is '.verified == false'

expect_exit 2 "ycsb-sqlite refuses mix g (one connection, one thread)" \
	"$BIN/ycsb-sqlite" --dir "$DIR" --workload g
check "... saying why" grep -q "mix g needs an engine that reads from two threads" <<<"$ERR"
expect_exit 2 "--scan-threads 17 is refused" "${GS[@]}" --scan-threads 17
expect_exit 2 "--emit-refs is refused with mix g" "${GS[@]}" --emit-refs "$TAP_TMP/r"
done_testing
