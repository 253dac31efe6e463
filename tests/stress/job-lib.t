#!/usr/bin/env bash
# The guest job scripts' clock (images/guest/job-lib.sh), in the guest's own
# shell (busybox sh): /proc/uptime lines, below one second too, become the
# right centiseconds, and the gate's arithmetic on them works. An uptime of
# "0.98" once became "098", a bad octal number that killed the gate.
set -euo pipefail
# shellcheck source=tap.sh
source "$(dirname "$0")/tap.sh"
lib=$top/images/guest/job-lib.sh
command -v busybox >/dev/null || skip_all "no busybox (the guest's shell; make deps)"

for up in 0.98 0.08 0.00 0.10 1.05 9.99 10.00 123.45 86400.07; do
	printf '%s 1.23\n' "$up" >"$tmp/uptime"
	# The expected value, computed another way: integer and fraction apart.
	want=$((10#${up%.*} * 100 + 10#${up#*.}))
	got=$(busybox sh -c '. "$1"; uptime_cs "$2"' - "$lib" "$tmp/uptime" 2>&1) || true
	is "$got" "$want" "uptime $up is $want centiseconds"
done

# What the gate does with it: the difference of two readings, in shell
# arithmetic, across the first second.
printf '0.08 0\n' >"$tmp/a"
printf '1.02 0\n' >"$tmp/b"
got=$(busybox sh -c '. "$1"; s=$(uptime_cs "$2"); e=$(uptime_cs "$3"); echo $(((e - s) / 100)).$(((e - s) % 100))' \
	- "$lib" "$tmp/a" "$tmp/b" 2>&1) || true
is "$got" "0.94" "shell arithmetic on two readings below and above 1 s"
got=$(busybox sh -c '. "$1"; now_cs' - "$lib" 2>&1) || true
check "now_cs reads /proc/uptime (a positive number: $got)" test "$got" -gt 0

# The framework's file names reach the jobs' own child shells: the history
# check runs as sh -c '...', and with the names unexported it read an
# empty path and skipped as if the policy counted no history.
# shellcheck disable=SC2016 # expanded by the child shell
got=$(busybox sh -c '. "$1"; sh -c "echo \$PAGE_REPLACE_POLICY \$PAGE_REPLACE_STATS"' - "$lib" 2>&1) || true
is "$got" "/sys/kernel/mm/page_replace/policy /sys/kernel/debug/page_replace/stats" \
	"a child shell of a job sees the framework's file names"
done_testing
