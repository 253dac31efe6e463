#!/bin/bash
# pgbench on the host's PostgreSQL 15, small: setup makes a cluster with
# data checksums and pgbench's tables, the run's transactions are all
# processed and their money adds up; a damaged page of the accounts fails
# the run (exit 3), and the usual mistakes are one error line.
set -euo pipefail
# shellcheck source=tests/workloads/tap.sh
source "$(dirname "$0")/tap.sh"

build_workloads
# PostgreSQL runs as the user postgres, who must reach the data.
chmod 755 "$TAP_TMP"
DIR=$TAP_TMP/data
mkdir -p "$DIR"
PG=("$BIN/pgbench" --dir "$DIR" --size 32M --no-drop-caches)

expect_exit 0 "pgbench: setup and 2 x 200 transactions" "${PG[@]}" --clients 2 --transactions 200
check "scale 2, 400 transactions, verified" \
	test "$(result_json | jq -c '[.verified, .scale, .transactions, .clients, .shared_buffers]')" \
	= '[true,2,400,2,"16MB"]'
check "tps, rate and latency percentiles in order" \
	result_is '(.tps > 0) and (.ops_per_s > 0) and (.p50_us <= .p99_us) and (.p99_us <= .p999_us) and (.p999_us <= .max_us)'
check "the cluster and its record are in --dir, the temporary one gone" \
	test "$(cat "$DIR/pgbench.db.meta") $(find "$DIR" -maxdepth 1 -name '*.tmp.*' | wc -l)" = "labpg1 scale=2 0"
check "no server left running" bash -c '! pgrep -u postgres -f "postgres -D $1" >/dev/null' _ "$DIR/pgbench.db"
expect_exit 0 "a second run on the same tables (3 clients)" "${PG[@]}" --phase run --clients 3 --transactions 50
check "... verified, 150 transactions" test "$(result_json | jq -c '[.verified, .transactions]')" = '[true,150]'

# One damaged page of pgbench_accounts (the largest relation): the sums'
# full scan reads it, and PostgreSQL's checksum catches it.
accounts=$(find "$DIR/pgbench.db/base" -type f -printf '%s %p\n' | sort -n | tail -n1 | cut -d' ' -f2)
printf 'XXXXXXXX' | dd of="$accounts" bs=1 seek=$((8192 * 10 + 4000)) conv=notrunc status=none
expect_exit 3 "a damaged page is exit 3" "${PG[@]}" --phase run --clients 2 --transactions 10
check "... naming PostgreSQL's words for it" grep -q "invalid page in block 10 of relation" <<<"$ERR"
check "... RESULT verified false, elapsed_s 0 (the sums before the timed phase found it)" \
	result_is '.verified == false and .elapsed_s == 0'
check "... and no server left running" bash -c '! pgrep -u postgres -f "postgres -D $1" >/dev/null' _ "$DIR/pgbench.db"

expect_exit 1 "tables set up at another scale are refused" "${PG[@]}" --size 64M --phase run
check "... naming the record" grep -q "pgbench.db was set up as 'labpg1 scale=2'" <<<"$ERR"
expect_exit 1 "a missing PostgreSQL is one error line" "${PG[@]}" --phase setup --bin "$TAP_TMP/no-pg"
check "... naming the program" test "$ERR" = "pgbench: cannot run $TAP_TMP/no-pg/initdb as postgres"
expect_exit 2 "--shared-buffers 16 (no unit) is refused" "${PG[@]}" --shared-buffers 16
expect_exit 2 "--clients 65 is refused" "${PG[@]}" --clients 65
expect_exit 2 "a size below one scale unit is refused" "${PG[@]}" --size 8M
expect_exit 2 "--readahead off is refused" "${PG[@]}" --readahead off
expect_exit 2 "--emit-refs is refused" "${PG[@]}" --emit-refs "$TAP_TMP/r"
done_testing
