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
check "loop > cache: CLOCK-Pro as the kernel port ($(get clockpro-2006)) misses at most 3/4 as often as LRU" \
	test $(($(get clockpro-2006) * 4)) -le $((12000 * 3))
check "loop > cache: random ($(get random)) beats LRU" test "$(get random)" -lt 12000
# LIRS keeps a fixed LIR set of Llirs = 1000 - 10 pages: after the first
# pass (1,200 misses) each of the 9 others misses exactly the 210 pages
# outside it (N - Llirs): 1,200 + 9 * 210 = 3,090.  OPT misses about
# N - C = 200 per pass.
is "$(get lirs)" 3090 "loop of 1,200 over 1,000 frames: LIRS misses N - Llirs = 210 per pass after the first"
# The corrected CLOCK-Pro warms its hot set up as LIRS does and then keeps
# it, and so does the kernel-portable variant, whose cold list is at least
# one reclaim batch (32 pages): it matches LIRS with Lhirs = 32.
check "loop > cache: clockpro ($(get clockpro)) within 1% of LIRS ($(get lirs))" \
	test $(($(get clockpro) * 100)) -le $(($(get lirs) * 101))
lirs32=$(misses lirs:hir-pages=32 1000 "$loop")
check "loop > cache: clockpro-lirs ($(get clockpro-lirs)) within 1% of LIRS with Lhirs = 32 ($lirs32)" \
	test $(($(get clockpro-lirs) * 100)) -le $((lirs32 * 101))
# Issue 14's goal on a loop at 1.5x memory (1,500 pages, 1,000 frames, 3
# passes): within 15% of OPT beyond the first touch.  And after a stale
# hot set (1,000 other pages used twice first), clockpro-lirs learns the
# loop as LIRS does, where the paper's CLOCK-Pro cannot (its test periods
# end at m non-resident pages) and misses as LRU.
"$REFGEN" --dist cyclic --refs 4500 --pages 1500 -o "$TMP/loop15.bin"
opt15=$(($(misses opt 1000 "$TMP/loop15.bin") - 1500))
for policy in lirs clockpro-lirs; do
	got=$(($(misses "$policy" 1000 "$TMP/loop15.bin") - 1500))
	check "loop at 1.5x memory: $policy ($got beyond first touch) within 15% of OPT ($opt15)" \
		test $((got * 100)) -le $((opt15 * 115))
done
awk 'BEGIN { for (r = 0; r < 2; r++) for (i = 0; i < 1000; i++) print 100000 + i
	for (p = 0; p < 3; p++) for (i = 0; i < 1500; i++) print i }' >"$TMP/stale.txt"
stale() { echo $(($(misses "$1" 1000 "$TMP/stale.txt") - 2500)); }
check "stale hot set: clockpro-lirs ($(stale clockpro-lirs)) within 10% of LIRS ($(stale lirs))" \
	test $(($(stale clockpro-lirs) * 10)) -le $(($(stale lirs) * 11))
is "$(stale clockpro)" "$(stale lru)" "stale hot set: the paper's CLOCK-Pro misses as LRU (HAND_test's bound)"
# The kernel port's insertion (new pages cold and out of test, referenced
# by their load) keeps each new page one more lap: in the 2006 model it
# still beats LRU on the loop, but by less than the paper's insertion.
port=$(misses clockpro-2006:insert=port 1000 "$loop")
check "loop > cache: clockpro-2006 with the port's insertion ($port) lies between the paper's ($(get clockpro-2006)) and LRU" \
	test "$port" -gt "$(get clockpro-2006)" -a "$port" -lt 12000
is "$(misses clockpro-2006 1000 "$loop" --clockpro-port-insert)" "$port" \
	"--clockpro-port-insert is the shorthand for :insert=port"

# 400 hot pages used five times, then 12,000 pages scanned once with a hot
# page every third reference.  LRU lets the scan push the hot pages out;
# scan-resistant models keep them.  Full 2Q does not, by design: the five
# passes hit the hot pages while they are in A1in (correlated references,
# not promoted), and the scan then pushes them through A1in and out of
# A1out (Kout = 500 ids) before their next use.
scan="$TMP/scan.txt"
awk 'BEGIN { for (p = 0; p < 5; p++) for (h = 0; h < 400; h++) print h
	for (i = 0; i < 12000; i++) { print 100000 + i; if (i % 3 == 0) print int(i / 3) % 400 } }' >"$scan"
out=$("$PAGESIM" --sizes 1000 "$scan")
opt=$(get opt)
lru=$(get lru)
check "scan: LRU ($lru) loses hot pages that OPT ($opt) keeps" test $((lru - opt)) -ge 3000
for policy in lru2q clockpro clockpro-2006 clockpro-lirs lirs car cart cart-r arc s3fifo; do
	got=$(get "$policy")
	check "scan: $policy ($got) keeps the hot set (excess over OPT at most 1/4 of LRU's)" \
		test $(((got - opt) * 4)) -le $((lru - opt))
done

done_testing
