#!/bin/bash
# webtrace-gen output and webtrace replay end to end on tiny footprints.
set -euo pipefail
# shellcheck source=tests/workloads/tap.sh
source "$(dirname "$0")/tap.sh"

build_workloads
DIR=$TAP_TMP/data
mkdir -p "$DIR"
GEN=(--footprint 8M --requests 3000)

# --- webtrace-gen ------------------------------------------------------------
expect_exit 0 "webtrace-gen writes a trace" "$BIN/webtrace-gen" "${GEN[@]}" --out "$TAP_TMP/a.spc" --emit-refs "$TAP_TMP/gen.refs"
check "webtrace-gen prints one RESULT line" has_result
check "webtrace-gen reports 3000 requests on 3 ASUs" test "$(result_json | jq -c '[.requests, .asus]')" = '[3000,3]'
check "the trace has 3000 lines" test "$(wc -l <"$TAP_TMP/a.spc")" = 3000
bad_lines=$(grep -cvE '^[0-2],[0-9]+,(4096|8192|16384|24576|32768),r,[0-9]+\.[0-9]{6}$' "$TAP_TMP/a.spc" || true)
check "every line is ASU,LBA,Size,r,seconds with 4-32 KiB page-multiple sizes" test "$bad_lines" = 0
# shellcheck disable=SC2016 # awk's own $5
check "timestamps increase strictly" \
	awk -F, 'NR > 1 && $5 <= last { exit 1 } { last = $5 }' "$TAP_TMP/a.spc"
expect_exit 0 "webtrace-gen again with the same seed" "$BIN/webtrace-gen" "${GEN[@]}" --out "$TAP_TMP/b.spc"
check "same seed gives identical bytes" cmp -s "$TAP_TMP/a.spc" "$TAP_TMP/b.spc"
expect_exit 0 "webtrace-gen with seed 2" "$BIN/webtrace-gen" "${GEN[@]}" --seed 2 --out "$TAP_TMP/c.spc"
check "another seed gives a different trace" bash -c "! cmp -s '$TAP_TMP/a.spc' '$TAP_TMP/c.spc'"
# Popularity: the 10% most requested start LBAs get far more than 10% of requests.
top_share=$(cut -d, -f1,2 "$TAP_TMP/a.spc" | sort | uniq -c | sort -rn |
	awk '{ c[NR] = $1; total += $1 } END { n = int(NR / 10); for (i = 1; i <= n; i++) top += c[i]; printf "%d", 100 * top / total }')
check "the top 10% of request addresses get over 30% of requests (${top_share}%)" test "$top_share" -gt 30

# --- webtrace replaying the generated trace ---------------------------------
expect_exit 0 "webtrace setup" "$BIN/webtrace" "${GEN[@]}" --dir "$DIR" --phase setup
check "setup made one file per ASU" test "$(find "$DIR" -name 'webtrace-asu*.dat' | wc -l)" = 3
check "each ASU file is a third of the footprint" test "$(stat -c %s "$DIR/webtrace-asu1.dat")" = $((8 * 1024 * 1024 / 3 / 32768 * 32768))
expect_exit 0 "webtrace run (generated trace)" "$BIN/webtrace" "${GEN[@]}" --dir "$DIR" --phase run --emit-refs "$TAP_TMP/run.refs"
check "webtrace run verified every read" test "$(result_field verified)" = true
check "webtrace samples its resident cache 8 times over the second half, all ASU files counted" \
	result_is '.resident_samples == 8 and .resident_pages > 0 and .resident_pages * 4096 <= .size_bytes'
check "webtrace reports requests, bytes, pages and requests/s" \
	test "$(result_json | jq -c '[.requests, .reads, .writes, (.bytes > 0), (.pages > 0), (.requests_per_s > 0)]')" = '[3000,3000,0,true,true,true]'
check "the RESULT page count matches the trace's pages" \
	test "$(result_field pages)" = "$(refs_count "$TAP_TMP/run.refs")"
check "webtrace's refs equal webtrace-gen's for the same options" cmp -s "$TAP_TMP/gen.refs" "$TAP_TMP/run.refs"
expect_exit 0 "webtrace run --spc of the same trace" "$BIN/webtrace" --spc "$TAP_TMP/a.spc" --dir "$DIR" --phase run --emit-refs "$TAP_TMP/spc.refs"
check "replaying the file gives the same references" cmp -s "$TAP_TMP/gen.refs" "$TAP_TMP/spc.refs"
first_line=$(head -1 "$TAP_TMP/a.spc")
IFS=, read -r asu lba _ <<<"$first_line"
check "the first reference is the first request's first page, object = ASU" \
	test "$(refs_ids "$TAP_TMP/spc.refs" 1)" = $(((asu << 40) | (lba / 8)))
TIMED=(--footprint 8M --requests 200 --rate 2000)
expect_exit 0 "webtrace --timed honours timestamps" "$BIN/webtrace" "${TIMED[@]}" --dir "$DIR" --phase all --timed --no-drop-caches
elapsed=$(result_field elapsed_s)
# The trace's own span, from the same trace written out by webtrace-gen:
# a timed replay cannot be shorter, and 200 small reads add well under 1 s.
"$BIN/webtrace-gen" "${TIMED[@]}" --out "$TAP_TMP/timed.spc" >/dev/null
span=$(awk -F, 'NR == 1 { first = $5 } { last = $5 } END { printf "%.6f", last - first }' "$TAP_TMP/timed.spc")
check "a timed run takes the trace's span ($span s) and less than 1 s more (took $elapsed s)" \
	awk -v e="$elapsed" -v s="$span" 'BEGIN { exit !(s > 0.05 && e >= s && e < s + 1) }'
check "the RESULT says the run was timed" result_is '.timed == true'

# Corrupt a byte of a page the trace reads; the run must exit 3.
page=$(((lba / 8) + 0))
printf '\x01' | dd of="$DIR/webtrace-asu$asu.dat" bs=1 seek=$((page * 4096 + 99)) conv=notrunc status=none
expect_exit 3 "a corrupted page makes webtrace exit 3" "$BIN/webtrace" "${GEN[@]}" --dir "$DIR" --phase run
check "the failure names request 1, its ASU and page" grep -q "request 1, ASU $asu page $page" <<<"$ERR"

# --- hand-written SPC traces -------------------------------------------------
SPC=$DIR/hand
mkdir -p "$SPC"
cat >"$TAP_TMP/rw.spc" <<'TRACE'
# ASU,LBA,Size,Opcode,Timestamp
0,0,4096,r,0.0

2,7,1024,W,0.1
2,7,1024,R,0.2
0,16,8193,w,0.3
0,16,12288,r,0.4
TRACE
expect_exit 0 "webtrace replays a hand-written read/write trace" "$BIN/webtrace" --spc "$TAP_TMP/rw.spc" --dir "$SPC" --no-drop-caches --emit-refs "$TAP_TMP/rw.refs"
check "reads after writes still verify" test "$(result_json | jq -c '[.verified, .reads, .writes, .asus]')" = '[true,3,2,2]'
check "files exist only for ASUs in the trace, sized to their last page" \
	test "$(stat -c %s "$SPC/webtrace-asu0.dat") $(stat -c %s "$SPC/webtrace-asu2.dat") $(find "$SPC" -name 'webtrace-asu1.dat' | wc -l)" = "20480 8192 0"
check "LBA 7 size 1024 spans pages 0 and 1; LBA 16 size 8193 spans pages 2..4" \
	test "$(refs_ids "$TAP_TMP/rw.refs" 10)" = "0 $((2 << 40)) $(((2 << 40) | 1)) $((2 << 40)) $(((2 << 40) | 1)) 2 3 4 2 3"

printf '0,0,4096,r,0\n0,8,4096,r,0.1\n0,16,4096,q,0.2\n' >"$TAP_TMP/bad.spc"
mkdir -p "$DIR/bad"
expect_exit 2 "a malformed trace line exits 2" "$BIN/webtrace" --spc "$TAP_TMP/bad.spc" --dir "$DIR/bad"
check "the error names file:line" grep -q "^webtrace: $TAP_TMP/bad.spc:3: opcode" <<<"$ERR"
check "nothing was created for a malformed trace" test -z "$(ls -A "$DIR/bad")"
printf '# only a comment\n\n' >"$TAP_TMP/empty.spc"
expect_exit 2 "a trace without requests exits 2" "$BIN/webtrace" --spc "$TAP_TMP/empty.spc" --dir "$DIR/bad"

printf '0,0,4096,r,0\n0,800,8192,r,0.1\n' >"$TAP_TMP/far.spc"
mkdir -p "$DIR/wrap"
expect_exit 0 "--max-size caps files and wraps far pages" "$BIN/webtrace" --spc "$TAP_TMP/far.spc" --dir "$DIR/wrap" --max-size 32K --no-drop-caches --emit-refs "$TAP_TMP/wrap.refs"
check "the capped file is 32 KiB" test "$(stat -c %s "$DIR/wrap/webtrace-asu0.dat")" = 32768
check "pages 100 and 101 wrap to 4 and 5" test "$(refs_ids "$TAP_TMP/wrap.refs" 3)" = "0 4 5"
done_testing
