# shellcheck shell=bash
# Minimal TAP helpers for the lab's shell tests. Sourced.
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
skip() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1 # SKIP $2"
}
diag() {
	printf '# %s\n' "$@"
}
# The result dir is the last line a run printed on stdout.
last_line() {
	tail -n1 "$1"
}
