#!/usr/bin/env bash
# trace-page-cache on a page-cache trace recorded in a lab QEMU guest
# (tests/analysis/fixtures/trace-page-cache.dat): its per-file counts
# against trace-cmd report's own reading of the same events, its totals
# against the run's vmstat, and its handling of bad input.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=tap.sh
source "$(dirname "$0")/tap.sh"
build_tools

TPC=$BIN/trace-page-cache
TRACE=$FIXTURES/trace-page-cache.dat
RESULT=$FIXTURES/trace-page-cache.result.json

# expect_failure DESCRIPTION RC ARGS...: exit RC, one stderr line, no -o file.
expect_failure() { refuses_output "$TPC" "$@"; }

expect_failure "missing file" 1 "$TMP/no-such.dat"
printf 'this is not a trace\n' >"$TMP/text.dat"
expect_failure "not a trace.dat" 1 "$TMP/text.dat"
expect_failure "a trace without page-cache events" 3 "$FIXTURES/trace.dat"
expect_failure "--dev that is not MAJ:MIN" 2 --dev 254 "$TRACE"
expect_failure "--dev with a minor beyond 20 bits" 2 --dev 254:1048576 "$TRACE"
expect_failure "--json without --dev" 2 --json "$TRACE"
expect_failure "two traces" 2 "$TRACE" "$TRACE"
head -c 200000 "$TRACE" >"$TMP/truncated.dat"
expect_failure "truncated trace.dat" 1 "$TMP/truncated.dat"

# The same counts, read independently: trace-cmd report prints each event's
# device, inode (hex), byte offset and order.
"$TPC" -o "$TMP/files.csv" "$TRACE"
tap_is "$(head -1 "$TMP/files.csv")" "dev,ino,pages_added,pages,rereads" "CSV header"
trace-cmd report -i "$TRACE" 2>/dev/null | awk '
	function hex(s,   v, i) {
		v = 0
		for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	/mm_filemap_add_to_page_cache:/ {
		for (i = 1; i <= NF; i++) {
			if ($i == "dev") dev = $(i + 1)
			if ($i == "ino") ino = hex($(i + 1))
			if ($i ~ /^ofs=/) { sub(/^ofs=/, "", $i); index0 = $i / 4096 }
			if ($i ~ /^order=/) { sub(/^order=/, "", $i); order = $i }
		}
		k = dev "," ino
		for (p = 0; p < 2 ^ order; p++) {
			added[k]++
			if (!((k, index0 + p) in seen)) { seen[k, index0 + p] = 1; pages[k]++ }
		}
	}
	END { for (k in added) print k "," added[k] "," pages[k] "," added[k] - pages[k] }' |
	sort -t, -k1,1 -k2,2n >"$TMP/report.csv"
tail -n +2 "$TMP/files.csv" | sort -t, -k1,1 -k2,2n >"$TMP/tool.csv"
tap_ok "per file, the counts equal trace-cmd report's ($(wc -l <"$TMP/tool.csv") files)" \
	cmp -s "$TMP/tool.csv" "$TMP/report.csv"
tap_ok "... and some file was read back" awk -F, '$5 > 0 { f = 1 } END { exit !f }' "$TMP/tool.csv"

# The data disk's totals: the run's loop read its 16 MiB file twice in a
# 12 MiB cgroup, so (nearly) every page of the second pass came back.
dev=$(jq -r .data_page_cache.dev "$RESULT")
"$TPC" --dev "$dev" --json "$TRACE" >"$TMP/data.json"
tap_is "$(jq -c . "$TMP/data.json")" "$(jq -c .data_page_cache "$RESULT")" \
	"--dev $dev --json: what result.json recorded in the run"
tap_is "$(jq .pages_added "$TMP/data.json")" \
	"$(awk -F, -v d="$dev" '$1 == d { s += $3 } END { print s }' "$TMP/tool.csv")" \
	"--json's pages_added sums the device's rows"
rereads=$(jq .rereads "$TMP/data.json")
refaults=$(jq .vmstat.workingset_refault_file "$RESULT")
tap_ok "the data's rereads ($rereads) are at most the run's file refaults ($refaults), which count the system's files too" \
	test "$rereads" -le "$refaults"
tap_ok "... and more than 99% of the 4,096 pages of the second pass" test "$rereads" -ge 4055
"$TPC" --dev 254:999 --json "$TRACE" >"$TMP/none.json"
tap_is "$(jq -c '[.files, .pages_added, .rereads]' "$TMP/none.json")" "[0,0,0]" \
	"a device with no files: zero counts, not an error"
# The hot set (--refs, --object-inodes): a reference string written here,
# object 0 the data file of inode 12 on 254:48, object 1 no file: 10
# pages of object 1 referenced 6 times, pages 0-99 of object 0 5 times,
# pages 100-999 once. The hot 10% of its 1010 distinct pages are the
# first 101 by references: object 1's 10 (unmapped) and object 0's pages
# 0-90, whose insertions trace-cmd report counts here on its own.
python3 - "$TMP/hot.refs" <<'PY'
import struct, sys
ids = [(1 << 40) | p for p in range(10) for _ in range(6)]
ids += [p for p in range(100) for _ in range(5)] + list(range(100, 1000))
with open(sys.argv[1], "wb") as f:
    f.write(b"LABREFS1" + struct.pack("<II", 4096, 0))
    f.write(b"".join(struct.pack("<Q", i) for i in ids))
PY
trace-cmd report "$TRACE" 2>/dev/null | awk '
	/mm_filemap_add_to_page_cache: dev 254:48 ino c / {
		for (i = 1; i <= NF; i++) { if ($i ~ /^ofs=/) ofs = substr($i, 5); if ($i ~ /^order=/) order = substr($i, 7) }
		for (p = 0; p < 2 ^ order; p++) adds[ofs / 4096 + p]++
	}
	END {
		for (p = 0; p <= 90; p++) { if (adds[p] > 0) ins++; if (adds[p] > 1) re += adds[p] - 1 }
		printf "%d %d\n", ins, re
	}' >"$TMP/hot.want"
read -r want_inserted want_rereads <"$TMP/hot.want"
"$TPC" --dev 254:48 --json --refs "$TMP/hot.refs" --object-inodes "0:12" "$TRACE" >"$TMP/hot.json"
tap_is "$(jq -c '.hot | [.percent, .pages, .refs, .unmapped]' "$TMP/hot.json")" '[10,101,515,10]' \
	"hot set: the top 10% of 1010 pages, 60 + 91 x 5 references, object 1's 10 unmapped"
tap_is "$(jq -r '.hot | "\(.inserted) \(.rereads)"' "$TMP/hot.json")" "$want_inserted $want_rereads" \
	"hot set's insertions and rereads are trace-cmd report's ($want_inserted pages, $want_rereads rereads)"
tap_ok "the fixture rereads some of them (the check can fail)" test "$want_rereads" -gt 0
"$TPC" --dev 254:48 --json --refs "$TMP/hot.refs" --object-inodes "0:12" --hot-percent 100 "$TRACE" >"$TMP/hot100.json"
tap_is "$(jq '.hot.pages' "$TMP/hot100.json")" 1010 "--hot-percent 100: every page"
many=$(python3 -c 'print(" ".join(["0:12"] + ["%d:%d" % (i, i + 100) for i in range(2, 6001)]))')
"$TPC" --dev 254:48 --json --refs "$TMP/hot.refs" --object-inodes "$many" "$TRACE" >"$TMP/hot-many.json"
tap_is "$(jq -c .hot "$TMP/hot-many.json")" "$(jq -c .hot "$TMP/hot.json")" \
	"6000 objects in --object-inodes (a long LevelDB run's): the same hot set"
"$TPC" --dev 254:48 --json --refs "$TMP/hot.refs" --object-inodes "0:12 1:12" "$TRACE" >"$TMP/hot-shared.json"
tap_is "$(jq -c '.hot | [.pages, .unmapped, .inserted]' "$TMP/hot-shared.json")" '[101,101,0]' \
	"two objects on one inode (a deleted file's, reused): their pages count as unmapped, not as each other's"
expect_failure "--refs without --object-inodes" 2 --dev 254:48 --json --refs "$TMP/hot.refs" "$TRACE"
expect_failure "bad --object-inodes" 2 --dev 254:48 --json --refs "$TMP/hot.refs" --object-inodes "0=12" "$TRACE"
expect_failure "--hot-percent 0" 2 --dev 254:48 --json --refs "$TMP/hot.refs" --object-inodes "0:12" --hot-percent 0 "$TRACE"
expect_failure "a reference string that is not one" 1 --dev 254:48 --json --refs "$TMP/text.dat" --object-inodes "0:12" "$TRACE"
tap_done
