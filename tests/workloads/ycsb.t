#!/bin/bash
# ycsb-leveldb and ycsb-sqlite on the host, small: every YCSB mix runs and
# verifies, versions survive between runs, the reference string equals the
# database I/O strace sees, --readahead off advises every database file, a
# corrupted byte is caught (exit 3), a database that cannot be written is
# exit 1 with the reason, bad options exit 2.
set -euo pipefail
# shellcheck source=tests/workloads/tap.sh
source "$(dirname "$0")/tap.sh"

build_workloads
here=$(cd "$(dirname "$0")" && pwd)
have_strace=1
command -v strace >/dev/null || have_strace=0

# YCSB's proportions: which operation counts each mix must report.
declare -A kinds=([a]="read update" [b]="read update" [c]="read" [d]="read insert"
	[e]="insert scan" [f]="read rmw")

for engine in leveldb sqlite; do
	wl=$BIN/ycsb-$engine
	DIR=$TAP_TMP/$engine
	mkdir -p "$DIR"
	DB=(--dir "$DIR" --size 2M)

	usage_error "$engine: --workload h exits 2" "$wl" "${DB[@]}" --workload h
	usage_error "$engine: --distribution pareto exits 2" "$wl" "${DB[@]}" --distribution pareto
	usage_error "$engine: --ops 0 exits 2" "$wl" "${DB[@]}" --ops 0
	usage_error "$engine: --cache 12Q exits 2" "$wl" "${DB[@]}" --cache 12Q
	usage_error "$engine: a size below 100 records exits 2" "$wl" --dir "$DIR" --size 64K

	expect_exit 0 "$engine: setup of a 2 MiB database" "$wl" "${DB[@]}" --phase setup
	check "$engine: setup reports the records of 2 MiB" \
		result_is '.phase == "setup" and .records > 1000 and .record_bytes == 1000'
	db_bytes=$(du -sb "$DIR/ycsb-$engine" | cut -f1)
	near "$db_bytes" $((2 * 1024 * 1024)) $((2 * 1024 * 1024 / 8)) \
		"$engine: the database is --size on disk (+-12.5%): $db_bytes bytes"

	keys=$(result_field records)
	for mix in a b c d e f; do
		expect_exit 0 "$engine: mix $mix runs" "$wl" "${DB[@]}" --phase run --workload "$mix" --ops 1500
		read -ra mix_kinds <<<"${kinds[$mix]}"
		want_sum=$(printf '.%s_ops + ' "${mix_kinds[@]}")
		check "$engine: mix $mix verified, with only ${kinds[$mix]} operations adding up to 1500" \
			result_is ".verified and .mix == \"$mix\" and ${want_sum}0 == 1500 and .ops_per_s > 0"
		for k in ${kinds[$mix]}; do
			check "$engine: mix $mix reports $k p50 <= p99 <= p99.9" \
				result_is ".${k}_p50_us > 0 and .${k}_p50_us <= .${k}_p99_us and .${k}_p99_us <= .${k}_p999_us"
		done
		inserted=$(result_json | jq '.insert_ops // 0')
		keys=$((keys + inserted))
		is "$(result_field keys)" "$keys" "$engine: mix $mix: keys = records + inserts so far"
	done
	expect_exit 0 "$engine: the sequence abcfde runs" "$wl" "${DB[@]}" --phase run --workload abcfde --ops 400
	check "$engine: abcfde ran 6 x 400 operations of all five kinds, verified" \
		result_is '.verified and .mix == "abcfde" and .distribution == "per-mix" and
			.read_ops + .update_ops + .insert_ops + .scan_ops + .rmw_ops == 2400 and
			([.read_ops, .update_ops, .insert_ops, .scan_ops, .rmw_ops] | all(. > 0))'
	check "$engine: abcfde reports each mix: ops/s, its operations' p99, majflt" \
		result_is '[.a_read_p99_us, .a_update_p99_us, .b_read_p99_us, .c_read_p99_us,
			.f_rmw_p99_us, .d_insert_p99_us, .e_scan_p99_us] | all(. > 0)'
	check "$engine: ... and only those: no update in c, no scan in a" \
		result_is '.c_update_p99_us == null and .a_scan_p99_us == null and (.e_majflt | type) == "number"'
	usage_error "$engine: a mix twice in a sequence exits 2" "$wl" "${DB[@]}" --workload aba

	if ((have_strace)); then
		strace -f -qq -y -s 0 -e trace=openat,read,write,pread64,pwrite64,lseek -e signal=none \
			-o "$TAP_TMP/$engine.strace" "$wl" "${DB[@]}" --phase run --workload a --ops 2000 \
			--emit-refs "$TAP_TMP/$engine.refs" >"$TAP_TMP/out" 2>"$TAP_TMP/err"
		awk -v prefix="$(cd "$DIR" && pwd)/ycsb-$engine/" -f "$here/strace-refs.awk" \
			"$TAP_TMP/$engine.strace" >"$TAP_TMP/$engine.want"
		refs_all "$TAP_TMP/$engine.refs" >"$TAP_TMP/$engine.got"
		check "$engine: references were recorded" test -s "$TAP_TMP/$engine.got"
		if [[ $engine == sqlite ]]; then
			check "sqlite: the reference string is exactly the database I/O strace saw" \
				cmp -s "$TAP_TMP/$engine.want" "$TAP_TMP/$engine.got"
		else
			# Two threads: compare each file's pages, whatever the interleaving.
			per_file() {
				awk '{ o = int($1 / 2^40); printf "%d %.0f\n", o, $1 - o * 2^40 }' "$1" |
					sort -k1,1n -k2,2n | awk '{ p[$1] = p[$1] " " $2 } END { for (o in p) print p[o] }' | sort
			}
			check "leveldb: each file's references are the I/O strace saw (both threads)" \
				cmp -s <(per_file "$TAP_TMP/$engine.want") <(per_file "$TAP_TMP/$engine.got")
		fi

		strace -f -qq -y -e trace=openat,fadvise64 -e signal=none -o "$TAP_TMP/$engine.ra" \
			"$wl" "${DB[@]}" --phase run --workload a --ops 200 --readahead off >"$TAP_TMP/out"
		OUT=$(cat "$TAP_TMP/out")
		check "$engine: RESULT records readahead off" result_is '.readahead == "off"'
		opened=$(grep "openat(" "$TAP_TMP/$engine.ra" | grep -v O_DIRECTORY | grep -c "= [0-9]*<$(cd "$DIR" && pwd)/ycsb-$engine/" || true)
		advised=$(grep -c "fadvise64([0-9]*<$(cd "$DIR" && pwd)/ycsb-$engine/.*POSIX_FADV_RANDOM) = 0" "$TAP_TMP/$engine.ra" || true)
		check "$engine: --readahead off advises random access on all $opened database files opened ($advised)" \
			test "$opened" -gt 0 -a "$opened" = "$advised"
	else
		skip "$engine: references against strace" "strace is not installed"
		skip "$engine: readahead advice seen by strace" "strace is not installed"
	fi

	# One byte in the middle of record 1000 (its header: "YCSB", key number
	# 1000, version 0; its key is user5952875239596136740).
	expect_exit 0 "$engine: setup again" "$wl" "${DB[@]}" --phase setup
	hit=$(LC_ALL=C grep -HobUaP 'YCSB\xe8\x03\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00' "$DIR"/ycsb-"$engine"/* | head -1 | cut -d: -f1,2 || true)
	file=${hit%%:*}
	offset=${hit#*:}
	offset=${offset%%:*}
	check "$engine: record 1000 is found on disk" test -n "$hit"
	byte=$(od -An -tu1 -j$((offset + 50)) -N1 "$file" | tr -d ' ')
	# shellcheck disable=SC2059 # the octal escape is the format on purpose
	printf "\\$(printf %o $((255 - byte)))" | dd of="$file" bs=1 seek=$((offset + 50)) conv=notrunc status=none
	expect_exit 3 "$engine: a corrupted byte of a record is exit 3" "$wl" "${DB[@]}" --phase run \
		--workload c --distribution uniform --ops 20000
	if [[ $engine == leveldb ]]; then
		# LevelDB checksums whole 4 KiB blocks: the first read of any record
		# of that block fails.
		check "leveldb: LevelDB's block checksum caught it" grep -q "Corruption: block checksum mismatch" <<<"$ERR"
	else
		check "sqlite: the failure names the record's key" grep -q "user5952875239596136740" <<<"$ERR"
	fi
	check "$engine: the RESULT line says verified false" result_is '.verified == false and (.verify_error | length) > 0'
	expect_exit 1 "$engine: the next run refuses: versions unknown after a failed run" \
		"$wl" "${DB[@]}" --phase run --workload c --ops 10
	check "$engine: ... and says why" grep -q "did not finish" <<<"$ERR"

	# A database that cannot be written: a 1 MiB file size limit.
	mkdir -p "$DIR/full"
	rc=0
	(trap '' XFSZ; ulimit -f 1024; exec "$wl" --dir "$DIR/full" --size 4M --phase setup) \
		>"$TAP_TMP/out" 2>"$TAP_TMP/err" || rc=$?
	is "$rc" 1 "$engine: a setup that cannot write its database exits 1"
	check "$engine: ... with one line naming the reason" \
		grep -qE "^ycsb-$engine: cannot create .*(File too large|disk I/O error)" "$TAP_TMP/err"
	is "$(find "$DIR/full" -mindepth 1 | wc -l)" 0 "$engine: ... and leaves nothing behind"
done
done_testing
