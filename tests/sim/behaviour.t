#!/bin/bash
# Real behaviour of the models on strings whose outcome is known in kind:
# a loop larger than the cache, and a hot set disturbed by a long scan.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.bash
source "$(dirname "$0")/lib.bash"

# A loop of 1,200 pages through 1,000 frames.
loop="$TMP/loop.bin"
"$REFGEN" --dist cyclic --refs 12000 --pages 1200 -o "$loop"
out=$("$PAGESIM" --sizes 1000 "$loop")
get() { awk -F, -v p="$1" '$1 == p { print $5 }' <<<"$out"; }
for policy in lru clock fifo lru2q; do
	is "$(get "$policy")" 12000 "loop > cache: $policy misses every reference"
done
check "loop > cache: OPT ($(get opt)) misses less than half" test "$(get opt)" -lt 6000
check "loop > cache: CLOCK-Pro ($(get clockpro)) misses at most 3/4 as often as LRU" \
	test $(($(get clockpro) * 4)) -le $((12000 * 3))
check "loop > cache: random ($(get random)) beats LRU" test "$(get random)" -lt 12000
# The kernel port's insertion (new pages cold and out of test, referenced
# by their load) keeps each new page one more lap: it still beats LRU on
# the loop, but by less than the paper's insertion.
port=$("$PAGESIM" --sizes 1000 --policies clockpro --clockpro-port-insert "$loop" | awk -F, 'NR == 2 { print $5 }')
check "loop > cache: CLOCK-Pro with the port's insertion ($port) lies between the paper's ($(get clockpro)) and LRU" \
	test "$port" -gt "$(get clockpro)" -a "$port" -lt 12000

# 400 hot pages used five times, then 12,000 pages scanned once with a hot
# page every third reference.  LRU lets the scan push the hot pages out;
# scan-resistant models keep them.
scan="$TMP/scan.txt"
awk 'BEGIN { for (p = 0; p < 5; p++) for (h = 0; h < 400; h++) print h
	for (i = 0; i < 12000; i++) { print 100000 + i; if (i % 3 == 0) print int(i / 3) % 400 } }' >"$scan"
out=$("$PAGESIM" --sizes 1000 "$scan")
opt=$(get opt)
lru=$(get lru)
check "scan: LRU ($lru) loses hot pages that OPT ($opt) keeps" test $((lru - opt)) -ge 3000
for policy in lru2q clockpro car cart cart-r; do
	got=$(get "$policy")
	check "scan: $policy ($got) keeps the hot set (excess over OPT at most 1/4 of LRU's)" \
		test $(((got - opt) * 4)) -le $((lru - opt))
done

done_testing
