# shellcheck shell=bash disable=SC2034 # top, tmp, build, lab_build, guest_image: for the sourcing test
# The lab's TAP library: every tests/<area>/*.t sources it, through its
# area's tap.sh. It sets
#   top    the repository
#   tmp    a scratch directory, removed when the script exits
#   build  where the host tools under test are built: build/, or
#          build/sanitize/ when LAB_SANITIZE=1 (tests/run sanitize)
# and prints TAP. A script ends with done_testing (the plan; tests/run
# fails a script whose plan is missing or does not match what it ran), or
# skips itself whole with skip_all REASON.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [[ ${LAB_SANITIZE:-} == 1 ]]; then build=$top/build/sanitize; else build=$top/build; fi

tap_n=0
tap_failed=0

ok() {	# ok DESCRIPTION
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1"
}

not_ok() {	# not_ok DESCRIPTION [DIAGNOSTIC...]
	tap_n=$((tap_n + 1))
	tap_failed=$((tap_failed + 1))
	echo "not ok $tap_n - $1"
	shift
	(($# == 0)) || diag "$@"
}

diag() {	# diag LINE...
	printf '# %s\n' "$@"
}

check() {	# check DESCRIPTION COMMAND...: ok when the command succeeds
	local desc=$1
	shift
	if "$@"; then ok "$desc"; else not_ok "$desc" "failed: $*"; fi
}

# todo DESCRIPTION NOTE COMMAND...: a known failure, TAP's "# TODO": the
# check runs and prints ok or not ok, and a not ok does not fail the
# script. NOTE is the docs/notes/ file that says why it fails (tests/run
# fails a TODO that names none).
todo() {
	local desc=$1 note=$2
	shift 2
	tap_n=$((tap_n + 1))
	if "$@"; then
		echo "ok $tap_n - $desc # TODO $note"
	else
		echo "not ok $tap_n - $desc # TODO $note"
		diag "failed: $*"
	fi
}

is() {	# is GOT WANT DESCRIPTION
	if [[ $1 == "$2" ]]; then ok "$3"; else not_ok "$3" "got:  '$1'" "want: '$2'"; fi
}

near() {	# near GOT WANT TOLERANCE DESCRIPTION: |GOT - WANT| <= TOLERANCE
	if awk -v g="$1" -v w="$2" -v t="$3" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(g != "" && d <= t) }'; then
		ok "$4"
	else
		not_ok "$4" "got:  '$1'" "want: $2 +- $3"
	fi
}

skip() {	# skip DESCRIPTION REASON: one test not run (CI accepts it only
	# when tests/allowed-skips lists it)
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1 # SKIP $2"
}

skip_all() {	# skip_all REASON: the whole script is not run
	echo "1..0 # SKIP $1"
	exit 0
}

need_guest() {	# need_guest FLAVOUR...: skip the script unless the guest image
	# and these kernels are built; sets lab_build and guest_image
	local f
	lab_build=${LAB_BUILD:-$top/build}
	guest_image=$lab_build/image/rootfs.img
	[[ -f $guest_image ]] || skip_all "guest image not built (make image)"
	for f in "$@"; do
		[[ -f $lab_build/kernels/$f/bzImage ]] || skip_all "no $f kernel (make kernel-$f)"
	done
}

usage_error() {	# usage_error DESCRIPTION COMMAND...: exit 2, one line on stderr
	local desc=$1 rc=0 err
	shift
	err=$("$@" 2>&1 >/dev/null) || rc=$?
	if [[ $rc == 2 && $(wc -l <<<"$err") == 1 && -n $err ]]; then
		ok "$desc"
	else
		not_ok "$desc" "exit $rc, stderr: $err"
	fi
}

done_testing() {	# the plan; exits 1 when a test failed
	echo "1..$tap_n"
	((tap_failed == 0)) || exit 1
	exit 0
}

last_line() {	# last_line FILE: a lab run prints its result directory last
	tail -n1 "$1"
}

# lab_make DIR TARGET... [VAR=VALUE...]: make in DIR with its output under
# $build; with LAB_SANITIZE=1, built with AddressSanitizer and
# UndefinedBehaviorSanitizer (and not static: ASan needs the shared libc).
lab_make() {
	local dir=$1
	shift
	if [[ ${LAB_SANITIZE:-} == 1 ]]; then
		local flags="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
		# From the environment, so that the Makefiles' own "CFLAGS +=" still apply.
		CFLAGS=$flags LDFLAGS="-fsanitize=address,undefined" STATIC='' make -s -C "$top/$dir" "$@"
	else
		make -s -C "$top/$dir" "$@"
	fi
}
