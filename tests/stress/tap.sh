# shellcheck shell=bash
# TAP helpers for the reliability gate's tests. Sourced.
tap_n=0
ok() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1"
}
not_ok() {
	tap_n=$((tap_n + 1))
	echo "not ok $tap_n - $1"
}
# check DESCRIPTION COMMAND...: ok when the command succeeds.
check() {
	local desc=$1
	shift
	if "$@"; then ok "$desc"; else not_ok "$desc"; fi
}
diag() {
	printf '# %s\n' "$@"
}
