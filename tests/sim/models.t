#!/bin/bash
# Each model on a small string whose every hit and miss was worked out by
# hand from the model's paper (the derivation is in the comment above each
# case), checked reference by reference, and against refsim.pl.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.bash
source "$(dirname "$0")/lib.bash"

refsim="$(dirname "$0")/refsim.pl"

# case NAME POLICY SIZE EXPECTED REFS...: pagesim's hit/miss sequence is
# EXPECTED, and refsim.pl (for its models) counts the same misses.
case_() {
	local name=$1 policy=$2 size=$3 want=$4 file="$TMP/$1.txt" model=${2%%:*}
	shift 4
	text_refs "$file" "$@"
	is "$(pattern "$policy" "$size" "$file")" "$want" "$name: $policy, $size frames, $*"
	if [[ $policy == "$model" ]]; then
		is "$(perl "$refsim" "$model" "$size" "$file" | cut -d' ' -f2)" "$(tr -cd m <<<"$want" | wc -c)" \
			"$name: refsim.pl counts the same misses"
	fi
}

# LIRS, the paper's setting (section 3.3: Llirs = 2, Lhirs = 1), blocks
# A..E = 1..5.  1 A, 2 B: LIR (warm-up).  3 A: LIR hit at the bottom of S.
# 4 C: resident HIR.  5 D: evicts C (C stays in S, non-resident).  6 A: LIR
# hit.  7 E: evicts D (stays in S): S = E A D C B, LIR {A, B}.  8 D:
# non-resident in S -> LIR, evicts E, bottom LIR B -> HIR (Q), pruning
# drops C: S = D E A.  9 C: not in S -> HIR, evicts B (not in S: forgotten).
# 10 E: non-resident in S -> LIR, evicts C, A -> HIR: S = E C D.  11 A:
# resident HIR not in S: hit, to the top of S.  12 A: resident HIR in S:
# hit -> LIR (IRR 0), D -> HIR, pruning drops C: S = A E.  13 D: resident
# HIR: hit.  14 E: LIR hit at the bottom.
text_refs "$TMP/lirs.txt" 1 2 1 3 4 1 5 4 3 5 1 1 4 5
is "$(pattern lirs:hir-pages=1 3 "$TMP/lirs.txt")" mmhmmhmmmmhhhh \
	"LIRS, the paper's setting (Llirs 2, Lhirs 1): every hit and miss of 14 references"
is "$(REFSIM_LHIRS=1 perl "$refsim" lirs 3 "$TMP/lirs.txt" | cut -d' ' -f2)" 8 "LIRS example: refsim.pl also misses 8"

# ARC, c = 2.  1, 2 -> T1.  1: hit -> T2.  3: REPLACE (|T1| = 1 > p = 0)
# sends 2 to B1.  1: hit.  2: in B1, p = 1, REPLACE (|T1| = 1, not > 1)
# sends 1 from T2 to B2, 2 -> T2.  3: hit in T1 (LRU would have evicted
# it).  1: in B2, p = 0, REPLACE: T1 empty, so T2's LRU page 2 -> B2.
case_ arc arc 2 mmhmhmhm 1 2 1 3 1 2 3 1

# Full 2Q, 4 slots: Kin = 1, Kout = 2.  1-4 fill A1in.  5: |A1in| > Kin,
# 1 -> A1out.  1: in A1out: 2 -> A1out, 1 -> Am.  6: 3 -> A1out.  2: in
# A1out: 4 -> A1out, which trims 2 itself from A1out; 2 -> Am anyway.
# 1: Am hit.  7, 8: A1in's tails 5, 6 go to A1out.  1, 2: Am hits.
case_ 2q 2q 4 mmmmmmmmhmmhh 1 2 3 4 5 1 6 2 1 7 8 1 2

# S3-FIFO, 5 frames: S 1 frame, M 4, G 4 ids.  1-5 fill S.  6: S's tail 1
# (count 0) -> G.  1: in G, S's tail 2 -> G, 1 -> M.  7: 3 -> G.  1: hit.
# 2: in G, 4 -> G, 2 -> M.  8-12: S's tails 5..9 -> G, G keeps 4 ids.
# 2, 1: hits in M.
case_ s3fifo s3fifo 5 mmmmmmmmhmmmmmmhh 1 2 3 4 5 6 1 7 1 2 8 9 10 11 12 2 1

# SIEVE, 3 frames.  1 2 3; 1 hit (visited).  4: from the tail, 1 visited
# (cleared), 2 evicted, hand at 3.  2: 3 evicted, hand at 4.  5: 4
# evicted, hand at 2.  1: hit.  3: 2 evicted, hand at 5.  5: hit.  6: 5
# visited (cleared), 3 evicted; 3 was the head, so the hand is unset.
# 1: hit.  7: from the tail, 1 visited (cleared), 5 evicted.
case_ sieve sieve 3 mmmhmmmhmhmhm 1 2 3 1 4 2 5 1 3 5 6 1 7

# CAR (Fig. 2), c = 2.  1 2 -> T1.  1: bit set.  3: T1's head 1 has its
# bit: -> T2; 2 -> B1.  4: 3 -> B1, and |T1| + |B1| = c drops 2 from B1.
# 1: hit.  2: not remembered: 4 -> B1, 3 dropped.  3: 2 -> B1, 4 dropped.
# 2: in B1: 3 -> B1, p = 1, 2 -> T2.  1: hit.
case_ car car 2 mmhmmhmmmh 1 2 1 3 4 1 2 3 2 1

done_testing
