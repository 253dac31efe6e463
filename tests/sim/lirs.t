#!/bin/bash
# The LIRS / CLOCK-Pro block traces parse, and their reference and distinct
# counts match both an independent count and the data set's README table.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.bash
source "$(dirname "$0")/lib.bash"

traces="$root/../shared/data/lirs-traces"
if [[ ! -r "$traces/README.md" ]]; then
	skip_all "no LIRS traces at $traces"
fi

# README rows look like: | cs | 6,780 | 1,409 | description |
table=$(awk -F'|' 'NF >= 5 { gsub(/[ ,]/, "", $2); gsub(/[ ,]/, "", $3); gsub(/[ ,]/, "", $4)
	if ($3 ~ /^[0-9]+$/ && $4 ~ /^[0-9]+$/) print $2, $3, $4 }' "$traces/README.md")
check "README table lists traces" test -n "$table"

while read -r name readme_refs readme_distinct; do
	file="$traces/$name"
	out=$("$PAGESIM" --sizes 100,500 "$file")
	read -r refs distinct < <(awk -F, 'NR == 2 { print $3, $4 }' <<<"$out")
	# Independent count: non-blank lines and their distinct values.
	read -r want_refs want_distinct < <(awk 'NF { n++; if (!($1 in s)) { s[$1]; d++ } } END { print n, d }' "$file")
	is "$refs $distinct" "$want_refs $want_distinct" "$name: pagesim counts $refs refs, $distinct distinct, as awk does"
	# The README was counted with wc -l / sort -u, which counts a trailing
	# blank line as a block and misses a last line without a newline, so
	# allow one reference and one block of difference and report it.
	if [[ "$refs $distinct" != "$readme_refs $readme_distinct" ]]; then
		echo "# $name: README says $readme_refs refs, $readme_distinct distinct; the file has $refs, $distinct"
	fi
	check "$name: counts within one of the README table ($readme_refs, $readme_distinct)" \
		test $((refs - readme_refs)) -ge -1 -a $((refs - readme_refs)) -le 1 \
		-a $((distinct - readme_distinct)) -ge -1 -a $((distinct - readme_distinct)) -le 1
	is "$(awk -F, 'NR > 1 { n++ } END { print n }' <<<"$out")" 20 "$name: every model ran at both sizes"
done <<<"$table"

# cs is dominated by a loop of about 1,400 blocks (CLOCK-Pro paper): the
# loop-aware models must beat LRU where the loop nearly fits.
cs="$traces/cs"
lru=$(misses lru 1000 "$cs")
for policy in clockpro cart-r; do
	got=$(misses "$policy" 1000 "$cs")
	check "cs, 1000 blocks: $policy ($got misses) beats LRU ($lru) by at least 20%" \
		test $((got * 5)) -le $((lru * 4))
done
check "cs, 1000 blocks: CART-r's cycle detector improves on CART" \
	test "$(misses cart-r 1000 "$cs")" -lt "$(misses cart 1000 "$cs")"

done_testing
