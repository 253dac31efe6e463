#!/bin/bash
# Textbook reference strings with known answers.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.bash
source "$(dirname "$0")/lib.bash"

classic="$TMP/classic.txt"
text_refs "$classic" 7 0 1 2 0 3 0 4 2 3 0 3 2 1 2 0 1 7 0 1
is "$(misses opt 3 "$classic")" 9 "classic string, 3 frames: OPT 9 misses"
is "$(misses lru 3 "$classic")" 12 "classic string, 3 frames: LRU 12 misses"
is "$(misses fifo 3 "$classic")" 15 "classic string, 3 frames: FIFO 15 misses"

anomaly="$TMP/anomaly.txt"
text_refs "$anomaly" 1 2 3 4 1 2 5 1 2 3 4 5
is "$(misses fifo 3 "$anomaly")" 9 "Belady's anomaly: FIFO 3 frames 9 misses"
is "$(misses fifo 4 "$anomaly")" 10 "Belady's anomaly: FIFO 4 frames 10 misses"

# The same string in LABREFS1 form (page ids with an object number in the
# high bits) must give the same answers as the text form.
binary="$TMP/classic.bin"
{
	printf 'LABREFS1\x00\x10\x00\x00\x00\x00\x00\x00'
	for id in 7 0 1 2 0 3 0 4 2 3 0 3 2 1 2 0 1 7 0 1; do
		printf '%b' "\\x$(printf %02x "$id")\\x00\\x00\\x00\\x00\\x03\\x00\\x00"
	done
} >"$binary"
is "$("$PAGESIM" --sizes 1:7:1 "$binary")" "$("$PAGESIM" --sizes 1:7:1 "$classic")" \
	"LABREFS1 and text forms of one string give identical results for every model"

out=$("$PAGESIM" --sizes 2:6:2,9 "$classic")
is "$(head -n 1 <<<"$out")" "policy,cache_pages,refs,distinct,misses,miss_ratio" "CSV header"
is "$(awk -F, '$1 == "lru" { printf "%s ", $2 }' <<<"$out")" "2 4 6 9 " "range and list sizes expand in order"
is "$(awk -F, 'NR > 1 && ($3 != 20 || $4 != 6) { bad++ } END { print bad + 0 }' <<<"$out")" 0 \
	"refs and distinct columns are 20 and 6"
is "$(awk -F, 'NR > 1 && $2 >= 6 && $5 != 6 { bad++ } END { print bad + 0 }' <<<"$out")" 0 \
	"with room for every page, every model misses only the 6 first references"
is "$(awk -F, '$1 == "opt" && $2 == 2 { print $6 }' <<<"$out")" \
	"$(awk -F, '$1 == "opt" && $2 == 2 { printf "%.6f", $5 / 20 }' <<<"$out")" "miss_ratio is misses / refs"
is "$("$PAGESIM" --sizes 3 --policies opt --format table "$classic" | awk 'NR == 2 { print $1, $2, $5 }')" \
	"opt 3 9" "table format carries the same numbers"

done_testing
