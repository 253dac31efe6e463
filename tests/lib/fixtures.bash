# shellcheck shell=bash disable=SC2154 # top: from tap.bash
# Result directories built from the committed fixtures.

# traced_fixture_runs DIR: two traced runs of cyclic-anon in DIR, the
# recorded one (tests/analysis/fixtures/trace.dat, labelled vanilla) and
# a copy labelled vanilla-mglru: an overlay or a comparison needs two.
traced_fixture_runs() {
	local p d fx=$top/tests/analysis/fixtures
	for p in vanilla vanilla-mglru; do
		d=$1/20261203T091524-$p-cyclic-anon-r1-90f8
		mkdir -p "$d"
		cp "$fx/trace.dat" "$d/trace.dat"
		jq --arg p "$p" '.policy = $p' "$fx/trace.result.json" >"$d/result.json"
	done
}
