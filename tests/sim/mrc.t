#!/bin/bash
# analysis/plot/mrc.sh: the curves' CSV holds pagesim's misses at the
# asked percents of the distinct pages, beyond = misses - distinct, and a
# PNG and SVG per string; bad arguments exit 2.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.bash
source "$(dirname "$0")/lib.bash"

mrc="$root/analysis/plot/mrc.sh"
if ! command -v gnuplot >/dev/null; then
	echo "1..0 # SKIP gnuplot not installed (lab/make/deps.sh installs gnuplot-nox)"
	exit 0
fi
"$REFGEN" --dist zipf --refs 3000 --pages 200 --seed 3 --format text -o "$TMP/z.txt"
distinct=$("$PAGESIM" --sizes 1 --policies opt "$TMP/z.txt" | awk -F, 'NR == 2 { print $4 }')
table=$("$mrc" -o "$TMP/out" --policies opt,lru,lirs --percents 20:60:20 --table 50 --at z=77 z="$TMP/z.txt" 2>/dev/null)
check "PNG and SVG written" test -s "$TMP/out/mrc-z.png" -a -s "$TMP/out/mrc-z.svg"
bad=0
for m in opt lru lirs; do
	for p in 20 40 50 60; do
		size=$(((distinct * p + 50) / 100))
		want=$(($(misses "$m" "$size" "$TMP/z.txt") - distinct))
		got=$(awk -F, -v m="$m" -v s="$size" '$1 == m && $3 == s { print $7 }' "$TMP/out/z.csv")
		[[ $got == "$want" ]] || { echo "# $m at $size: csv $got, pagesim $want"; bad=1; }
	done
done
is "$bad" 0 "every CSV cell is pagesim's misses minus the distinct pages"
is "$(awk -F, '$3 == 77' "$TMP/out/z.csv" | wc -l)" 3 "--at adds the size in pages for every model"
is "$(grep -c '^| z |' <<<"$table")" 2 "the table has the --table percent and the --at size"
is "$(awk -F'|' '/^\| z \| 77 /{ gsub(/ /, "", $7); print $7 }' <<<"$table")" \
	"$(($(misses lirs 77 "$TMP/z.txt") - distinct))" "the table's lirs cell at 77 pages"
rc=0
"$mrc" -o "$TMP/out" --policies lru,opt z="$TMP/z.txt" 2>/dev/null || rc=$?
is "$rc" 2 "--policies not starting with opt: exit 2"
rc=0
"$mrc" -o "$TMP/out" z="$TMP/missing.txt" 2>/dev/null || rc=$?
is "$rc" 2 "unreadable input: exit 2"
done_testing
