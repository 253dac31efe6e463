#!/bin/bash
# --readahead off makes the kernel read only the pages a workload asks for:
# POSIX_FADV_RANDOM for read(), MADV_RANDOM for mappings. Counted on the
# host's page cache (ext4 under the test directory) with fincore and with
# the workloads' own mincore() residency, after --phase all dropped the
# files from the cache (fsync + POSIX_FADV_DONTNEED).
set -euo pipefail
# shellcheck source=tests/workloads/tap.sh
source "$(dirname "$0")/tap.sh"

build_workloads
DIR=$TAP_TMP/data
mkdir -p "$DIR/on" "$DIR/off"
fs=$(stat -f -c %T "$DIR")
[[ $fs == tmpfs ]] && skip_all "the test directory is on tmpfs, which has no readahead"

# Two one-page reads of a 64-page file: page 0 (the start of a file gets an
# initial readahead window) and page 63.
printf '0,0,4096,r,0\n0,504,4096,r,0.1\n' >"$TAP_TMP/two.spc"
for ra in on off; do
	expect_exit 0 "webtrace --readahead $ra replays two one-page reads" "$BIN/webtrace" \
		--spc "$TAP_TMP/two.spc" --dir "$DIR/$ra" --no-drop-caches --readahead "$ra"
	check "RESULT records readahead $ra" result_is ".readahead == \"$ra\""
done
cached_off=$(fincore --noheadings -o PAGES "$DIR/off/webtrace-asu0.dat" | xargs)
cached_on=$(fincore --noheadings -o PAGES "$DIR/on/webtrace-asu0.dat" | xargs)
is "$cached_off" 2 "readahead off: exactly the 2 pages read are cached"
check "readahead on: more than those ($cached_on pages)" test "$cached_on" -gt 2

# A mapping: one fault per file (mdb-bench, one lookup).
for ra in on off; do
	expect_exit 0 "mdb-bench --mode mmap --readahead $ra, one lookup" "$BIN/mdb-bench" \
		--size 4M --ops 1 --mode mmap --dir "$DIR/$ra" --no-drop-caches --readahead "$ra"
	cp "$TAP_TMP/out" "$TAP_TMP/mdb.$ra"
done
OUT=$(cat "$TAP_TMP/mdb.off")
check "mmap, readahead off: 1 of 11 index pages and 1 of 1013 record pages cached" \
	result_is '.readahead == "off" and (.index_resident_fraction * 11 | round) == 1 and
		(.record_resident_fraction * 1013 | round) == 1'
OUT=$(cat "$TAP_TMP/mdb.on")
check "mmap, readahead on: the fault reads around (more than 1 record page)" \
	result_is '.readahead == "on" and (.record_resident_fraction * 1013 | round) > 1'

usage_error "a bad --readahead value exits 2" "$BIN/cyclic-file" --readahead maybe --size 4M --dir "$DIR"
usage_error "cyclic-anon has no files, so no --readahead" "$BIN/cyclic-anon" --readahead off --size 4M
done_testing
