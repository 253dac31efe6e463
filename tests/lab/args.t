#!/usr/bin/env bash
# lab.sh rejects bad arguments with one clear line on stderr and exit 2
# (8 for a missing or corrupt kernel), before anything boots, and leaves
# no result behind.
set -euo pipefail
# shellcheck source=tap.sh
source "$(dirname "$0")/tap.sh"

# expect CODE DESCRIPTION ARGS...
expect() {
	local code=$1 desc=$2 rc=0 lines
	shift 2
	LAB_RESULTS=$tmp/res "$top/lab.sh" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	lines=$(wc -l <"$tmp/err")
	if [[ $rc == "$code" && $lines == 1 && ! -s $tmp/out ]] &&
		[[ -z $(find "$tmp/res" -mindepth 1 2>/dev/null) ]]; then
		ok "$desc (exit $code: $(cat "$tmp/err"))"
	else
		not_ok "$desc: exit $rc, $lines stderr line(s): $(head -c 300 "$tmp/err")"
	fi
}

expect 2 "unknown policy" run lfu cyclic-anon
expect 2 "unknown workload" run lru cyclic-foo
expect 2 "missing workload" run lru
expect 2 "unknown option" run lru cyclic-anon --frobnicate
expect 2 "option without value" run lru cyclic-anon --mem
expect 2 "bad memory size" run lru cyclic-anon --mem 12Q
expect 2 "memory too small" run lru cyclic-anon --mem 16M
expect 2 "bad workload size" run lru cyclic-anon --size -5M
expect 2 "zero workload size" run lru cyclic-anon --size 0
expect 2 "bad reps" run lru cyclic-anon --reps 0
expect 2 "bad timeout" run lru cyclic-anon --timeout soon
expect 2 "bad seed" run lru cyclic-anon --seed -1
expect 2 "bad vcpus" run lru cyclic-anon --vcpus 64
expect 2 "bad trace mode" run lru cyclic-anon --trace everything
expect 2 "bpftrace program that does not exist" run lru cyclic-anon --trace bpftrace:nosuch
expect 2 "bpftrace program list left empty" run lru cyclic-anon --trace bpftrace:
expect 2 "bpftrace program named by a path" run lru cyclic-anon --trace bpftrace:../lab/run
expect 2 "bad kernel flavour" run lru cyclic-anon --kernel tiny
expect 2 "sysctl without a value" run lru cyclic-anon --sysctl vm.page-cluster
expect 2 "sysctl key outside /proc/sys syntax" run lru cyclic-anon --sysctl '../../etc/passwd=1'
expect 2 "sysctl value with a space" run lru cyclic-anon --sysctl 'vm.swappiness=1 2'
expect 2 "policy on the wrong kernel" run lru cyclic-anon --kernel vanilla
LAB_KERNEL=$tmp/none expect 8 "missing kernel" run lru cyclic-anon
head -c 4096 /dev/urandom >"$tmp/garbage"
LAB_KERNEL=$tmp/garbage expect 8 "corrupt kernel" run lru cyclic-anon

rc=0
"$top/lab.sh" frobnicate >/dev/null 2>"$tmp/err" || rc=$?
check "unknown command exits 2" test "$rc" = 2
rc=0
"$top/lab.sh" >/dev/null 2>&1 || rc=$?
check "no command exits 2" test "$rc" = 2
check "--help exits 0 and lists the exit codes" \
	bash -c "'$top/lab.sh' --help | grep -q 'policy mismatch'"
check "run --help documents every option" \
	bash -c "'$top/lab.sh' run --help | grep -q -- '--trace MODE'"
# The front door beside make: build, test and bench.
usage_error "build with an argument: exit 2, one line" "$top/lab.sh" build extra
usage_error "bench with an argument: exit 2, one line" "$top/lab.sh" bench extra
usage_error "test with an unknown area: exit 2, one line" "$top/lab.sh" test nosuch
is "$("$top/lab.sh" test harness | tail -n 1)" "$("$top/tests/run" harness | tail -n 1)" \
	"test AREA is tests/run AREA"
done_testing
