#!/bin/bash
# The fio workload end to end on the host's fio, on small files: setup lays
# out two verified files, the run's jobs report rates and latencies, and a
# corrupted block, a size setup did not make and a missing fio each fail
# the run with the contract's exit code.
set -euo pipefail
# shellcheck source=tests/workloads/tap.sh
source "$(dirname "$0")/tap.sh"

build_workloads
DIR=$TAP_TMP/data
mkdir -p "$DIR"
FIO=("$BIN/fio" --dir "$DIR" --size 8M --no-drop-caches)

expect_exit 0 "fio setup lays out both files" "${FIO[@]}" --phase setup
check "both files are 8 MiB, with .meta records and no temporary file" \
	test "$(stat -c %s "$DIR/fio-random.dat" "$DIR/fio-stream.dat" | xargs) $(cat "$DIR"/*.meta | wc -l) $(find "$DIR" -name '*.tmp.*' | wc -l)" \
	= "8388608 8388608 2 0"
expect_exit 0 "fio run: randread with a stream" "${FIO[@]}" --phase run --ops 3000
check "verified, randread, zipf 1.2, one I/O count, one stream pass" \
	test "$(result_json | jq -c '[.verified, .mode, .distribution, .theta, .ops, .stream_passes]')" \
	= '[true,"randread","zipf","1.2",3000,1]'
check "the random job's rate and latency percentiles are numbers, in order" \
	result_is '(.ops_per_s > 0) and (.p50_us <= .p99_us) and (.p99_us <= .p999_us) and (.p999_us <= .max_us) and (.mean_us | type == "number")'
check "the stream read its whole file once" test "$(result_field stream_kib)" = 8192
expect_exit 0 "--ops above the file's blocks: fio does them all (8 MiB, 4096 I/Os)" \
	"${FIO[@]}" --phase run --stream-passes 0 --ops 4096
check "... its random job ran 4096 x 4 KiB, not one pass of 2048" \
	test "$(result_json | jq -c '[.ops, .random_ios]')" = '[4096,4096]'
expect_exit 0 "--ops defaults to one I/O per block" "${FIO[@]}" --phase run --stream-passes 0
check "8 MiB: 2048 I/Os, and no stream job" \
	test "$(result_json | jq -c '[.ops, .stream_kib]')" = '[2048,null]'
expect_exit 0 "randwrite: fio reads back what it wrote" "${FIO[@]}" --phase run --mode randwrite --ops 3000
check "randwrite is verified and read blocks back" result_is '.verified and .mode == "randwrite" and .verify_reads > 0'
expect_exit 0 "--readahead off runs (fio's fadvise_hint=random)" "${FIO[@]}" --phase run --readahead off --ops 500
check "its RESULT says readahead off" test "$(result_field readahead)" = off

# A corrupted block of the streamed file: fio's crc32c check fails the run.
printf 'XXXX' | dd of="$DIR/fio-stream.dat" bs=1 seek=$((4096 * 5 + 100)) conv=notrunc status=none
expect_exit 3 "a corrupted block fails verification (exit 3)" "${FIO[@]}" --phase run --ops 100
check "RESULT says unverified and names the job" \
	test "$(result_json | jq -c '[.verified, .verify_error]')" = '[false,"fio job stream"]'
check "fio's own message names the block" grep -q 'verify failed at file .*fio-stream.dat offset 20480' <<<"$ERR"

expect_exit 1 "a size setup did not make is refused" "$BIN/fio" --dir "$DIR" --size 4M --phase run
check "the error names the .meta record" grep -q 'fio-random.dat was set up as' <<<"$ERR"
expect_exit 1 "a missing fio is one error line" "${FIO[@]}" --phase run --fio "$TAP_TMP/no-such-fio"
check "one line, naming the program" test "$ERR" = "fio: cannot run $TAP_TMP/no-such-fio"
expect_exit 2 "--theta 1 is refused (zipf needs theta != 1)" "${FIO[@]}" --theta 1
expect_exit 2 "--mode read is refused" "${FIO[@]}" --mode read
expect_exit 2 "--emit-refs is refused: fio makes the references" "${FIO[@]}" --emit-refs "$TAP_TMP/r"
check "with one error line" test "$(wc -l <<<"$ERR")" = 1
done_testing
