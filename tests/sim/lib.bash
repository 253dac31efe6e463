# Shared helpers for the simulator's TAP tests: build, temp dir, TAP output.
# Sourced by tests/sim/*.t; not a test itself.

root=$(git -C "$(dirname "${BASH_SOURCE[0]}")" rev-parse --show-toplevel)
make -s -C "$root/analysis/sim" >&2
# Used by the tests that source this file.
# shellcheck disable=SC2034
PAGESIM="$root/build/analysis/pagesim"
# shellcheck disable=SC2034
REFGEN="$root/build/analysis/refgen"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

tap_count=0
tap_failed=0

ok() {
	tap_count=$((tap_count + 1))
	echo "ok $tap_count - $1"
}

not_ok() {
	tap_count=$((tap_count + 1))
	tap_failed=$((tap_failed + 1))
	echo "not ok $tap_count - $1"
}

# is GOT EXPECTED DESCRIPTION
is() {
	if [[ "$1" == "$2" ]]; then
		ok "$3"
	else
		not_ok "$3"
		echo "#   got '$1', expected '$2'"
	fi
}

# check DESCRIPTION COMMAND...: passes when the command succeeds.
check() {
	local desc=$1
	shift
	if "$@"; then ok "$desc"; else not_ok "$desc"; fi
}

done_testing() {
	echo "1..$tap_count"
	[[ $tap_failed -eq 0 ]]
}

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
