# shellcheck shell=bash
# TAP helpers for the command and tracepoint tests. Sourced.
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
# usage_error DESC COMMAND...: exit 2 and exactly one line on stderr.
usage_error() {
	local desc=$1 rc=0 err
	shift
	err=$("$@" 2>&1 >/dev/null) || rc=$?
	if [[ $rc == 2 && $(wc -l <<<"$err") == 1 && -n $err ]]; then
		ok "$desc"
	else
		not_ok "$desc"
		diag "exit $rc, stderr: $err"
	fi
}
