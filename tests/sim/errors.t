#!/bin/bash
# Bad arguments exit 2, bad files exit 1; each with one stderr line and no
# output on stdout.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.bash
source "$(dirname "$0")/lib.bash"

good="$TMP/good.txt"
text_refs "$good" 1 2 3 1

# expect_fail CODE PATTERN DESCRIPTION ARGS...
expect_fail() {
	local code=$1 pattern=$2 desc=$3 rc=0
	shift 3
	"$PAGESIM" "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
	if [[ $rc -eq $code && ! -s "$TMP/out" && $(wc -l <"$TMP/err") -eq 1 ]] &&
		grep -q -- "$pattern" "$TMP/err"; then
		ok "$desc"
	else
		not_ok "$desc"
		echo "#   exit $rc, stderr: $(head -c 300 "$TMP/err")"
	fi
}

expect_fail 2 "unknown policy 'belady'" "unknown policy" --sizes 2 --policies lru,belady "$good"
expect_fail 2 "bad cache size '0'" "zero size" --sizes 0 "$good"
expect_fail 2 "bad cache size '5:1:1'" "descending range" --sizes 5:1:1 "$good"
expect_fail 2 "bad cache size 'abc'" "non-numeric size" --sizes 2,abc "$good"
expect_fail 2 "bad cache size '1:4'" "range without step" --sizes 1:4 "$good"
expect_fail 2 "bad cache size '1:4:0'" "zero step" --sizes 1:4:0 "$good"
expect_fail 2 "more than" "size list too long" --sizes 1:1000000:1 "$good"
expect_fail 2 "sizes is required" "missing --sizes" "$good"
expect_fail 2 "unknown format" "unknown format" --sizes 2 --format xml "$good"
expect_fail 2 "bad option" "unknown option" --sizes 2 --frobnicate "$good"
expect_fail 2 "clockpro-min-cold" "bad CLOCK-Pro minimum" --sizes 2 --clockpro-min-cold x "$good"
expect_fail 2 "lru has no option 'x'" "option a model does not have" --sizes 2 --policies lru:x=1 "$good"
expect_fail 2 "bad value '200' for lirs:hir" "option value out of range" --sizes 2 --policies lirs:hir=200 "$good"
expect_fail 2 "bad value 'sideways' for clockpro:insert" "option value not one of the choices" \
	--sizes 2 --policies clockpro:insert=sideways "$good"
expect_fail 2 "not KEY=VALUE" "option without a value" --sizes 2 --policies s3fifo:small "$good"
expect_fail 2 "unknown policy 'nope'" "unknown policy with options" --sizes 2 --policies nope:a=1 "$good"
expect_fail 1 "$TMP/missing.txt: No such file" "missing file" --sizes 2 "$TMP/missing.txt"

text_refs "$TMP/bad.txt" 4 5 x7 6
expect_fail 1 "$TMP/bad.txt:3: not a block number: 'x7'" "malformed text names file:line" --sizes 2 "$TMP/bad.txt"
text_refs "$TMP/neg.txt" 4 -5
expect_fail 1 "$TMP/neg.txt:2:" "negative block number" --sizes 2 "$TMP/neg.txt"
text_refs "$TMP/big.txt" 1 18446744073709551616
expect_fail 1 "$TMP/big.txt:2:" "block number above 2^64-1" --sizes 2 "$TMP/big.txt"
: >"$TMP/empty.txt"
expect_fail 1 "no references" "empty file" --sizes 2 "$TMP/empty.txt"

header='LABREFS1\x00\x10\x00\x00\x00\x00\x00\x00'
printf '%b' "${header}"'\x01\x00\x00\x00\x00\x00\x00\x00\x02\x00\x00' >"$TMP/trunc.bin"
expect_fail 1 "truncated page id at offset 24" "truncated binary names the offset" --sizes 2 "$TMP/trunc.bin"
printf 'LABREFS1\x00\x10' >"$TMP/header.bin"
expect_fail 1 "truncated LABREFS1 header" "truncated header" --sizes 2 "$TMP/header.bin"
printf 'LABREFS1\x00\x10\x00\x00\x01\x00\x00\x00''\x01\x00\x00\x00\x00\x00\x00\x00' >"$TMP/flags.bin"
expect_fail 1 "unsupported LABREFS1 flags" "non-zero flags word" --sizes 2 "$TMP/flags.bin"
printf '%b' "${header}" >"$TMP/norefs.bin"
expect_fail 1 "no references" "binary file without references" --sizes 2 "$TMP/norefs.bin"

# Blank lines and CRLF endings are accepted in text files.
printf '1\r\n\n2\r\n  3 \n1\n' >"$TMP/crlf.txt"
is "$("$PAGESIM" --sizes 3 --policies lru "$TMP/crlf.txt" | awk -F, 'NR == 2 { print $3, $4, $5 }')" \
	"4 3 3" "blank lines skipped, CRLF and spaces accepted"

rc=0
"$REFGEN" --dist zipf --refs 10 --pages 0 -o "$TMP/x.bin" 2>"$TMP/err" || rc=$?
check "refgen rejects zero pages with exit 2 and writes nothing" \
	test "$rc" -eq 2 -a ! -e "$TMP/x.bin" -a "$(wc -l <"$TMP/err")" -eq 1

done_testing
