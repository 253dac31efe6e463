# shellcheck shell=bash disable=SC2034 # BIN, FIXTURES: for the sourcing tests
# Minimal TAP helpers for the analysis tests (sourced, not run).

TAP_COUNT=0
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BIN=${ANALYSIS_BIN:-$ROOT/build/analysis}
FIXTURES=$ROOT/tests/analysis/fixtures

tap_result() {	# tap_result STATUS DESCRIPTION [DIAGNOSTIC...]
	local status=$1 desc=$2
	shift 2
	TAP_COUNT=$((TAP_COUNT + 1))
	if [[ $status == 0 ]]; then
		echo "ok $TAP_COUNT - $desc"
	else
		echo "not ok $TAP_COUNT - $desc"
		local line
		for line in "$@"; do echo "#   $line"; done
	fi
}

tap_ok() {	# tap_ok DESCRIPTION COMMAND...
	local desc=$1
	shift
	if "$@"; then tap_result 0 "$desc"; else tap_result 1 "$desc" "failed: $*"; fi
}

tap_is() {	# tap_is GOT WANT DESCRIPTION
	if [[ $1 == "$2" ]]; then tap_result 0 "$3"; else tap_result 1 "$3" "got:  '$1'" "want: '$2'"; fi
}

tap_near() {	# tap_near GOT WANT TOLERANCE DESCRIPTION
	if awk -v g="$1" -v w="$2" -v t="$3" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(g != "" && d <= t) }'; then
		tap_result 0 "$4"
	else
		tap_result 1 "$4" "got:  '$1'" "want: $2 +- $3"
	fi
}

tap_skip() {	# tap_skip DESCRIPTION REASON
	TAP_COUNT=$((TAP_COUNT + 1))
	echo "ok $TAP_COUNT - $1 # SKIP $2"
}

tap_done() {
	echo "1..$TAP_COUNT"
}

build_tools() {
	if ! make -s -C "$ROOT/analysis" tools >/dev/null; then
		echo "not ok 1 - analysis tools build"
		echo "1..1"
		exit 1
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
