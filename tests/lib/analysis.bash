# shellcheck shell=bash disable=SC2034 # ROOT, TMP, BIN, FIXTURES: for the sourcing test
# Helpers of tests/analysis: build the tools, read their CSV. Sourced by
# its tap.sh.
# shellcheck source=tap.bash
source "$(dirname "${BASH_SOURCE[0]}")/tap.bash"

ROOT=$top
TMP=$tmp
BIN=${ANALYSIS_BIN:-$build/analysis}
FIXTURES=$top/tests/analysis/fixtures

# The names these tests were written with.
tap_ok() { check "$@"; }
tap_is() { is "$@"; }
tap_near() { near "$@"; }
tap_skip() { skip "$@"; }
tap_done() { done_testing; }

build_tools() {
	if ! lab_make analysis tools OUT="$BIN" >"$tmp/build.log" 2>&1; then
		not_ok "analysis tools build" "$(tail -5 "$tmp/build.log")"
		done_testing
	fi
}

# csv_get FILE "col=value&col=value" FIELD: FIELD of the first row whose
# named columns hold those values (header names, comma-separated CSV).
csv_get() {
	local file=$1 where=$2 field=$3
	awk -F, -v where="$where" -v field="$field" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; n = split(where, w, "&"); next }
		{
			hit = 1
			for (k = 1; k <= n; k++) {
				eq = index(w[k], "=")
				if ($(col[substr(w[k], 1, eq - 1)]) != substr(w[k], eq + 1)) hit = 0
			}
			if (hit) { print $(col[field]); exit }
		}' "$file"
}
