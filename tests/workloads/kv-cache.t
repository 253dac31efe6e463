#!/bin/bash
# The kv-cache workload end to end on the host's redis (redis-tools'
# binary, which is redis-server by its argv[0]): a small cache is filled
# and read back verified; a server that corrupts values after the fill, or
# dies, fails the run with the contract's exit code and one error line.
set -euo pipefail
# shellcheck source=tests/workloads/tap.sh
source "$(dirname "$0")/tap.sh"

build_workloads
REDIS=/usr/bin/redis-check-rdb
DIR=$TAP_TMP/d
mkdir -p "$DIR"
KV=("$BIN/kv-cache" --dir "$DIR" --size 2M --redis "$REDIS")

expect_exit 0 "kv-cache fills 2 MiB of values and reads them back" "${KV[@]}"
check "verified, 524 keys of 4000 bytes, 1048 zipfian GETs" \
	test "$(result_json | jq -c '[.verified, .keys, .value_size, .ops, .distribution]')" \
	= '[true,524,4000,1048,"zipfian"]'
check "rate, latency percentiles in order, the server's memory" \
	result_is '(.ops_per_s > 0) and (.p50_us <= .p99_us) and (.p99_us <= .p999_us) and (.p999_us <= .max_us) and (.server_rss_kib > 2048) and (.fill_s > 0)'
check "the server is gone and its socket removed" test ! -e "$DIR/kv-cache.sock"
check "its log is in --dir" grep -q 'Redis is starting' "$DIR/kv-cache-server.log"
expect_exit 0 "uniform GETs of 512-byte values" "${KV[@]}" --distribution uniform --value-size 512 --ops 300 --seed 7
check "4096 keys, uniform, seed 7" \
	test "$(result_json | jq -c '[.verified, .keys, .distribution, .seed]')" = '[true,4096,"uniform",7]'

# A server that sends a bad value, and one that dies, after the fill
# (tests/workloads/redis-fault.py relays to the real server).
FAULT=(env REDIS_REAL="$REDIS" "$BIN/kv-cache" --dir "$DIR" --size 2M
	--redis "$(dirname "$0")/redis-fault.py")
expect_exit 3 "a value changed on its way back fails verification (exit 3)" \
	env REDIS_FAULT=corrupt "${FAULT[@]}"
check "RESULT says unverified at byte 16 of the first GET" \
	result_is '(.verified == false) and (.verify_error | test("^op 0 key [0-9]+ offset 16$"))'
check "one error line" test "$(wc -l <<<"$ERR")" = 1
expect_exit 1 "a server killed during the GETs fails the run (exit 1)" \
	env REDIS_FAULT=die "${FAULT[@]}"
check "one line: killed by signal 9 while reading" \
	test "$ERR" = "kv-cache: redis-server was killed by signal 9 while reading"

expect_exit 1 "a missing redis is one error line" "${KV[@]}" --redis "$TAP_TMP/no-redis"
check "naming the program" test "$ERR" = "kv-cache: cannot run $TAP_TMP/no-redis (is redis installed?)"
expect_exit 2 "--value-size not a multiple of 8 is refused" "${KV[@]}" --value-size 4001
expect_exit 2 "--distribution latest is refused" "${KV[@]}" --distribution latest
expect_exit 2 "--emit-refs is refused" "${KV[@]}" --emit-refs "$TAP_TMP/r"
expect_exit 2 "a size below one value is refused" "${KV[@]}" --size 4K --value-size 8192
done_testing
