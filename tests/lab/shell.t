#!/usr/bin/env bash
# lab.sh shell on a terminal (script(1) gives it one): the guest boots
# through the same boot loop as run and stress, with the same kernel
# command line for the policy (lab.policy= too) and any --boot-arg, its
# shell answers, and when it powers off nothing of it is left.
set -euo pipefail
# shellcheck source=tap.sh
source "$(dirname "$0")/tap.sh"
need_guest lab
command -v script >/dev/null || skip_all "no script(1) (util-linux)"

mkfifo "$tmp/in"
out=$tmp/out
# The terminal's typist: waits for the guest's prompt, types, powers off.
(
	exec 3>"$tmp/in"
	for _ in $(seq 600); do
		grep -aq 'lab-guest:' "$out" 2>/dev/null && break
		sleep 1
	done
	# shellcheck disable=SC2016 # expanded by the guest's shell
	printf 'echo "policy=$(cat /sys/kernel/mm/page_replace/policy)"; echo "sum=$((6 * 7))"\r' >&3
	sleep 5
	printf 'reboot -f\r' >&3
	sleep 30
) &
typist=$!
before=$(find "$top/build/runs" -maxdepth 1 -name 'shell.*' 2>/dev/null | wc -l)
rc=0
timeout 900 script -qfec "'$top/lab.sh' shell lru --boot-arg lab_test_marker=1" /dev/null \
	<"$tmp/in" >"$out" 2>&1 || rc=$?
kill "$typist" 2>/dev/null || true
is "$rc" 0 "lab.sh shell exits 0 when the guest powers off"
check "the guest's shell ran a command (6 x 7 = 42)" grep -aq 'sum=42' "$out"
check "the guest runs lru" grep -aq 'policy=.*\[lru\]' "$out"
check "the kernel command line has lab.policy= and page_replace= (one mapping with run)" \
	grep -aq 'Kernel command line: .* lab.policy=lru page_replace=lru ' "$out"
check "... and the --boot-arg" grep -aq 'Kernel command line: .*lab_test_marker=1' "$out"
is "$(find "$top/build/runs" -maxdepth 1 -name 'shell.*' 2>/dev/null | wc -l)" "$before" \
	"its work directory is gone"
done_testing
