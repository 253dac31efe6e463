# shellcheck shell=bash disable=SC2034 # root, TMP, PAGESIM, REFGEN: for the sourcing test
# Helpers of tests/sim: build the simulator, run one model. Sourced by
# tests/sim/lib.bash.
# shellcheck source=tap.bash
source "$(dirname "${BASH_SOURCE[0]}")/tap.bash"

root=$top
TMP=$tmp
if ! lab_make analysis/sim OUT="$build/analysis" >"$tmp/build.log" 2>&1; then
	not_ok "pagesim and refgen build" "$(tail -5 "$tmp/build.log")"
	done_testing
fi
PAGESIM=$build/analysis/pagesim
REFGEN=$build/analysis/refgen

# misses POLICY SIZE FILE [pagesim options...]: the miss count of one run.
misses() {
	local policy=$1 size=$2 file=$3
	shift 3
	"$PAGESIM" --policies "$policy" --sizes "$size" "$@" "$file" | awk -F, 'NR == 2 { print $5 }'
}

# text_refs FILE ID...: write a LIRS text reference string.
text_refs() {
	local file=$1
	shift
	printf '%s\n' "$@" >"$file"
}
