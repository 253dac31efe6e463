#!/usr/bin/env bash
# shellcheck disable=SC2016 # programs for bash -c and jq in single quotes
# lab.sh results renders RESULTS.md from recorded runs (labstat --headline):
# from 30 runs of the headline experiment (fixtures/suite, see
# fixtures/README.md) each row's mean, N and ratio to lru are the ones
# computed here from the runs' result.json with jq, the counter is the
# workload's read_back in lab/registry/workloads.tsv, a headline
# experiment without runs says how to make them; and the committed
# RESULTS.md has the same rows for these cells, so it cannot drift from
# the code that renders it.
set -euo pipefail
# shellcheck source=tap.sh
source "$(dirname "$0")/tap.sh"
lab=$top/lab.sh
series=17fe8d53

build_analysis
export LAB_RESULTS=$tmp/results LAB_EXPERIMENTS=$tmp/exp
mkdir -p "$LAB_RESULTS/bench" "$LAB_EXPERIMENTS"
cp -r "$top/tests/commands/fixtures/suite" "$LAB_RESULTS/bench/suite-$series"
cp "$top/experiments/suite.conf" "$top/experiments/gate-anon.conf" "$LAB_EXPERIMENTS/"
# The fixture's matrix ran two cells at a time (every run shared the
# host): here all but one run are alone, and the one that shared the
# host must be listed under its section, as compare lists it.
while IFS= read -r f; do
	jq '.concurrent_guests = 0' "$f" >"$tmp/r.json" && mv "$tmp/r.json" "$f"
done < <(find "$LAB_RESULTS/bench/suite-$series" -name result.json)
shared=$(find "$LAB_RESULTS/bench/suite-$series/cells/cart/webtrace" -name result.json | head -n 1)
jq '.concurrent_guests = 2' "$shared" >"$tmp/r.json" && mv "$tmp/r.json" "$shared"

rc=0
"$lab" results --series "$series" --output "$tmp/R.md" >"$tmp/out" 2>"$tmp/err" || rc=$?
is "$rc" 0 "lab.sh results exits 0"
is "$(cat "$tmp/out")" "$tmp/R.md" "... and prints the file it wrote"

# row WORKLOAD POLICY: the table row's cells, blanks squeezed.
row() { grep -E "^\| $1 +\| $2 +\|" "$tmp/R.md" | sed -E 's/ +/ /g'; }
# jq_mean POLICY WORKLOAD PATH: the mean of PATH over the fixture runs.
jq_mean() {
	jq -s "map(.$3) | add / length" "$LAB_RESULTS"/bench/suite-$series/cells/"$1"/"$2"/r*/*/result.json
}
# grouped N: N rounded, with thousands separators.
grouped() { printf '%.0f' "$1" | sed -E ':a; s/([0-9])([0-9]{3})($|,)/\1,\2\3/; ta'; }

for w in cyclic-anon webtrace; do
	counter=$(awk -F'\t' -v w="$w" '$1 == w { print $2 }' "$top/lab/registry/workloads.tsv")
	base=$(jq_mean lru "$w" "$counter")
	for p in lru clockpro-lirs cart; do
		r=$(row "$w" "$p")
		check "$w $p: one row" test -n "$r"
		IFS='|' read -r _ _ _ c n pages ratio _ <<<"$r"
		is "$(echo "$c" | xargs)" "$counter" "$w $p: the counter is the registry's read_back ($counter)"
		is "$(echo "$n" | xargs)" 5 "$w $p: 5 runs"
		mean=$(jq_mean "$p" "$w" "$counter")
		is "$(echo "$pages" | sed 's/ ±.*//' | xargs)" "$(grouped "$mean")" \
			"$w $p: pages read back is the runs' mean (jq: $mean)"
		if [[ $p == lru ]]; then
			is "$(echo "$ratio" | xargs)" 1 "$w lru: the baseline's ratio is 1"
		else
			want=$(awk -v a="$mean" -v b="$base" 'BEGIN { printf "%.2f", a / b }')
			is "$(echo "$ratio" | sed 's/[*\\].*//; s/ (.*//' | xargs)" "$want" "$w $p: × lru is the means' ratio ($want)"
		fi
	done
done
check "clockpro-lirs on cyclic-anon is significant (a * and Welch's p)" \
	bash -c 'grep -E "^\| cyclic-anon +\| clockpro-lirs " "$1" | grep -qE "\\\\\* \(p [0-9.e-]+\)"' _ "$tmp/R.md"
check "the section names the experiment, its .conf and the series" \
	grep -qF "Experiment \`suite\` ([experiments/suite.conf](experiments/suite.conf)), series \`$series\`" "$tmp/R.md"
check "runs that shared the host are listed under the table, by cell" \
	bash -c 'grep -q "^\*\*Runs that ran beside other lab guests" "$1" && grep -q "^- webtrace | cart: 1 of [0-9]* run" "$1"' _ "$tmp/R.md"
check "a headline experiment without runs says how to make them" \
	grep -qF "Not recorded on series \`$series\` here (no \`" "$tmp/R.md"
check "... naming its command" grep -qF './lab.sh matrix --experiment gate-anon' "$tmp/R.md"
check "the policies' section comes before the kernel-vs-model one" \
	bash -c '[[ $(grep -n "^## suite" "$1" | cut -d: -f1) -lt $(grep -n "^## gate-anon" "$1" | cut -d: -f1) ]]' _ "$tmp/R.md"

# The committed RESULTS.md, rendered from the whole matrix these runs
# come from, has the same rows for them in its suite section.
for w in cyclic-anon webtrace; do
	for p in lru clockpro-lirs cart; do
		got=$(awk '/^## / { in_suite = ($2 == "suite:") } in_suite' "$top/RESULTS.md" |
			grep -E "^\| $w +\| $p +\|" | sed -E 's/ +/ /g' || true)
		is "$got" "$(row "$w" "$p")" "RESULTS.md's $w $p row is what lab.sh results renders from its runs"
	done
done

# Without --series each experiment is read on this checkout's series if
# it is recorded there, else on the newest series recorded for it.
rc=0
"$lab" results --output "$tmp/N.md" >/dev/null 2>"$tmp/err" || rc=$?
is "$rc" 0 "lab.sh results without --series exits 0"
# shellcheck source=../../lab/lib/common.sh
checkout=$(source "$top/lab/lib/common.sh" && series_sha | cut -c1-8)
if [[ $checkout == "$series" ]]; then
	check "... the suite's section is this checkout's series ($series)" \
		grep -qF "series \`$series\`, runs in" "$tmp/N.md"
else
	check "... the suite's section is its newest recorded series, and says so" \
		grep -qF "series \`$series\` (the newest recorded; this checkout's is \`$checkout\`)" "$tmp/N.md"
fi
check "... with the same rows as with --series" \
	bash -c 'diff <(grep "^| " "$1") <(grep "^| " "$2")' _ "$tmp/R.md" "$tmp/N.md"
usage_error "a bad --series is refused" "$lab" results --series xyz --output "$tmp/x.md"
usage_error "an unknown argument is refused" "$lab" results --nonesuch
done_testing
