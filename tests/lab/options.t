#!/usr/bin/env bash
# The run options of the kernel issues (--cgroup, --boot-arg, --switch-at,
# --also), the machine's shape (--numa, --numa-dimm, --swap, --thp, --fs,
# --vcpus and --mem at their limits; in run, matrix, shell and stress
# alike) and the files a workload parses are checked on the host: a bad
# one is one line on stderr and exit 2 before anything boots, and leaves no
# result and no work directory behind. Also: every LAB_* variable the lab
# reads is documented in lab.sh --help, and the policy registry is the one
# list every command uses.
set -euo pipefail
# shellcheck source=tap.sh
source "$(dirname "$0")/tap.sh"
lab=$top/lab.sh
# A kernel that does not exist: a run that got past its checks would stop
# with exit 8 before booting (or building) anything.
export LAB_RESULTS=$tmp/res LAB_KERNEL=$tmp/no-such-bzImage

# refused DESCRIPTION ARGS...: lab.sh run lru cyclic-anon ARGS exits 2 with
# one stderr line and leaves nothing behind.
refused() {
	local desc=$1 rc=0
	shift
	"$lab" run lru cyclic-anon "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [[ $rc == 2 && $(wc -l <"$tmp/err") == 1 && ! -s $tmp/out && ! -e $LAB_RESULTS ]]; then
		ok "$desc: exit 2 ($(cat "$tmp/err"))"
	else
		not_ok "$desc" "exit $rc, stderr: $(head -c 300 "$tmp/err")"
	fi
}
# accepted DESCRIPTION ARGS...: the checks pass (exit 8: the kernel).
accepted() {
	local desc=$1 rc=0
	shift
	"$lab" run lru cyclic-anon "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [[ $rc == 8 ]] && grep -q 'no-such-bzImage not found' "$tmp/err"; then
		ok "$desc: accepted"
	else
		not_ok "$desc: accepted" "exit $rc, stderr: $(head -c 300 "$tmp/err")"
	fi
}

refused "--cgroup with a dot in the name" --cgroup work.slice
refused "--cgroup with a slash" --cgroup a/b
refused "--cgroup named like the lab's own" --cgroup lab-stress
refused "--cgroup with an empty limit" --cgroup work:
refused "--cgroup limit below 8M" --cgroup work:4M
refused "--cgroup limit of 0%" --cgroup work:0%
refused "--cgroup limit above 100%" --cgroup work:150%
refused "--cgroup limit with a bad unit" --cgroup work:12Q
refused "--cgroup, one name with two limits" --cgroup a:100M --also cyclic-file --cgroup a:200M
accepted "--cgroup without a limit" --cgroup work
accepted "--cgroup with a byte limit" --cgroup work:200M
accepted "--cgroup with a share of MemTotal" --cgroup work:75%
for arg in page_replace=lru lab.policy=clockpro console=ttyS1 init=/bin/sh root=/dev/vdb \
	panic=0 oops=continue tsc=unstable; do
	refused "--boot-arg $arg (the lab's own parameter)" --boot-arg "$arg"
done
refused "--boot-arg without a value" --boot-arg quiet
refused "--boot-arg with a space" --boot-arg 'a=b c'
refused "--boot-arg with a quote" --boot-arg 'a="b"'
accepted "--boot-arg of a policy's parameter" --boot-arg page_replace.clockpro_insert=paper
refused "--trace-buffer without a trace" --trace-buffer 4096
refused "--trace-buffer with a trace that records no events" --trace bpftrace --trace-buffer 4096
refused "--trace-buffer 0" --trace events --trace-buffer 0
refused "--trace-buffer that is not a number" --trace events --trace-buffer 8M
refused "--trace-buffer above 1 GiB" --trace events --trace-buffer 1048577
accepted "--trace-buffer with --trace events" --trace events --trace-buffer 4096
refused "--trace-profile that is not in tracepoints/" --trace events --trace-profile nope
refused "--trace-profile that is a path" --trace events --trace-profile ../default
refused "--trace-profile without --trace events" --trace perf --trace-profile per-folio
accepted "--trace-profile per-folio with --trace events" --trace events --trace-profile per-folio
accepted "--trace-buffer with --trace all" --trace all --trace-buffer 16
refused "--switch-at at time 0" --switch-at 0:lru
refused "--switch-at with a negative time" --switch-at -1:lru
refused "--switch-at with a leading zero (octal in shell)" --switch-at 010:lru
refused "--switch-at times not increasing" --switch-at 5:lru,2:cart
refused "--switch-at the same time twice" --switch-at 5:lru,5:cart
refused "--switch-at to vanilla" --switch-at 5:vanilla
refused "--switch-at to an unknown policy" --switch-at 5:lfu
refused "--switch-at without a policy" --switch-at 5
refused "--switch-at with an empty item" --switch-at 5:lru,
accepted "--switch-at two switches" --switch-at 2.5:clockpro,10:cart
rc=0
"$lab" run vanilla cyclic-anon --switch-at 5:lru >"$tmp/out" 2>"$tmp/err" || rc=$?
check "--switch-at on the vanilla kernel: exit 2" test "$rc" = 2
refused "--also an unknown workload" --also lfu-bench
refused "--also without a workload" --also
refused "a main-only option after --also" --also cyclic-file --mem 1G
accepted "--also with its own cgroup, size and options" --cgroup a:100M --size 64M \
	--also cyclic-file --cgroup b:100M --size 64M -- --passes 2
refused "--mem with a leading zero (octal in shell)" --mem 0256M
refused "--mem above 4G" --mem 4097M
refused "--mem 5G" --mem 5G
accepted "--mem 4G" --mem 4G
accepted "--vcpus 8 (more than this host's cores: allowed)" --vcpus 8
refused "--vcpus 9 (CONFIG_NR_CPUS is 8)" --vcpus 9

# The machine's shape.
refused "--numa 0" --numa 0
refused "--numa 9 (at most 8 nodes)" --numa 9
refused "--numa that is not a number" --numa two
refused "--numa with a leading zero" --numa 02
refused "--numa N: without sizes" --numa 2:
refused "--numa with fewer sizes than nodes" --numa 2:256M
refused "--numa with more sizes than nodes" --numa 2:128M,64M,64M
refused "--numa with an empty size" --numa 2:192M,
refused "--numa sizes that do not add up to --mem" --numa 2:128M,64M
refused "--numa size with a bad unit" --numa 2:128K,128M
refused "--numa size not a multiple of 4M" --numa 2:130M,126M
refused "--numa node below 32M" --numa 2:240M,16M
refused "--numa split into nodes below 32M" --numa 8 --mem 128M
refused "--numa even split of a --mem that is not whole 4 MiB units" --numa 2 --mem 258M
accepted "--numa 2" --numa 2
accepted "--numa 2 with uneven nodes" --numa 2:192M,64M
accepted "--numa 1" --numa 1
accepted "--numa 3 with 2 vCPUs (a CPU-less node)" --numa 3
accepted "--numa 8 with 8 vCPUs in 512M" --numa 8 --vcpus 8 --mem 512M
refused "--numa-dimm without --numa" --numa-dimm 128M
refused "--numa-dimm with one node" --numa 1 --numa-dimm 128M
refused "--numa-dimm not a multiple of 128M (the memory block)" --numa 2:192M,64M --numa-dimm 64M
refused "--numa-dimm that leaves node 0 nothing to boot with" --numa 2 --numa-dimm 128M
refused "--numa-dimm that is not a size" --numa 2:192M,64M --numa-dimm big
accepted "--numa-dimm 128M of node 0's 192M" --numa 2:192M,64M --numa-dimm 128M
accepted "--numa-dimm 896M of node 0's 1G in a 2G guest" --mem 2G --numa 2 --numa-dimm 896M
refused "--swap of an unknown kind" --swap nvme
refused "--swap spelled in capitals" --swap ZRAM
accepted "--swap zram" --swap zram
accepted "--swap none" --swap none
accepted "--swap disk" --swap disk
refused "--thp of an unknown mode" --thp sometimes
accepted "--thp always" --thp always
accepted "--thp never" --thp never
refused "--fs of an unknown filesystem" --fs btrfs
accepted "--fs xfs" --fs xfs
accepted "--fs ext4" --fs ext4
refused "a shape option after --also (one machine per run)" --also cyclic-file --swap zram
refused "--boot-arg transparent_hugepage= (the lab's own: --thp)" --boot-arg transparent_hugepage=always
refused "--boot-arg memhp_default_state= (the lab's own: --numa-dimm)" --boot-arg memhp_default_state=offline
accepted "every shape option at once" --mem 512M --vcpus 4 --numa 2:384M,128M --numa-dimm 256M \
	--swap zram --thp always --fs xfs

# The other commands that boot a guest take the same options, checked the
# same way: matrix (its cells' commands carry them), shell and stress.
# other_refused DESCRIPTION COMMAND ARGS...: exit 2, one line, nothing written.
other_refused() {
	local desc=$1 rc=0
	shift
	"$lab" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [[ $rc == 2 && $(wc -l <"$tmp/err") == 1 && ! -s $tmp/out && ! -e $LAB_RESULTS ]]; then
		ok "$desc: exit 2 ($(cat "$tmp/err"))"
	else
		not_ok "$desc" "exit $rc, stderr: $(head -c 300 "$tmp/err")"
	fi
}
# other_accepted DESCRIPTION COMMAND ARGS...: the checks pass (exit 8: the kernel).
other_accepted() {
	local desc=$1 rc=0
	shift
	"$lab" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [[ $rc == 8 ]] && grep -q 'no-such-bzImage not found' "$tmp/err" && [[ ! -e $LAB_RESULTS ]]; then
		ok "$desc: accepted"
	else
		not_ok "$desc: accepted" "exit $rc, stderr: $(head -c 300 "$tmp/err")"
	fi
}
other_refused "matrix --numa with sizes that do not add up" matrix --list-cells --numa 2:64M,64M
other_refused "matrix --swap of an unknown kind" matrix --list-cells --swap tape
other_refused "matrix --numa-dimm without --numa" matrix --list-cells --numa-dimm 128M
other_refused "matrix --mem above 4G" matrix --list-cells --mem 8G
rc=0
"$lab" matrix --list-cells --policies lru --reps 1 --numa 2:192M,64M --numa-dimm 128M --swap zram \
	--thp always --fs xfs >"$tmp/out" 2>"$tmp/err" || rc=$?
check "matrix: every cell's lab.sh run carries the shape options" \
	grep -q -- '--numa 2:192M\\,64M --numa-dimm 128M --swap zram --thp always --fs xfs' "$tmp/out"
diag "$(head -n 1 "$tmp/out")"
other_refused "shell --numa 0" shell lru --numa 0
other_refused "shell --fs of an unknown filesystem" shell lru --fs zfs
other_refused "shell --vcpus 9" shell lru --vcpus 9
other_accepted "shell with a shape" shell lru --vcpus 4 --numa 2 --swap zram --thp never --fs xfs
other_refused "stress --numa-dimm with one node" stress lru --numa 1 --numa-dimm 128M
other_refused "stress --thp of an unknown mode" stress lru --thp maybe
other_accepted "stress with a shape" stress lru --kernel lab --numa 2 --swap zram
refused "--seed with a leading zero" --seed 010
refused "--boot-timeout 0" --boot-timeout 0

# Files a workload parses are parsed on the host, by the workload itself.
if [[ -x $top/build/workloads/webtrace ]]; then
	printf '0,100,4096,r,0.0\n1,200,4096,w,0.1\n0,12x,4096,r,0.2\n' >"$tmp/bad.spc"
	rc=0
	"$lab" run lru webtrace -- --spc "$tmp/bad.spc" >"$tmp/out" 2>"$tmp/err" || rc=$?
	check "a malformed SPC line: exit 2 before anything boots" test "$rc" = 2
	is "$(cat "$tmp/err")" "lab run: webtrace: $tmp/bad.spc:3: LBA is not a non-negative integer" \
		"... one line naming FILE:LINE, in the workload's own words"
	check "... and no result directory" test ! -e "$LAB_RESULTS"
	rc=0
	"$lab" run lru webtrace --also webtrace -- --spc "$tmp/bad.spc" >"$tmp/out" 2>"$tmp/err" || rc=$?
	check "a companion's malformed SPC file: exit 2" test "$rc" = 2
	printf '0,100,4096,r,0.0\n' >"$tmp/good.spc"
	accepted "a well-formed SPC file" --also webtrace -- --spc "$tmp/good.spc"
else
	skip "SPC files checked on the host" "build/workloads/webtrace not built (make workloads)"
fi
check "no work directory left by any of these" \
	test -z "$(find "$top/build/runs" -maxdepth 1 -newer "$tmp" -name '*-lru-*' 2>/dev/null)"

# Every LAB_* variable a host script reads from the environment is in
# lab.sh --help (the guest's own job.env variables are not the user's).
"$lab" --help >"$tmp/help"
mapfile -t vars < <(cd "$top" && grep -rhoE '\$\{LAB_[A-Z0-9_]+:?-' lab.sh lab/*/*.sh kernel/scripts/*.sh \
	images/*.sh tests/run tests/lib/*.bash tests/*/*.t | sed 's/^\${//; s/:\{0,1\}-$//' | sort -u)
missing=()
for v in "${vars[@]}"; do
	grep -q "^ *$v=" "$tmp/help" || missing+=("$v")
done
check "every LAB_* variable read is documented in lab.sh --help (${#vars[@]} of them)" \
	test "${#missing[@]}" = 0
((${#missing[@]} == 0)) || diag "undocumented: ${missing[*]}"

# One policy registry (lab/registry/policies.tsv): the scripts that list
# or map policies use lab/lib/common.sh's reading of it, and nobody spells the
# page_replace= mapping or a CONFIG symbol again (but tests/lab/registry.t,
# which holds the registry to the series).
check "the policy-to-command-line mapping is written once (common.sh)" \
	test "$(cd "$top" && grep -l 'page_replace=\$' lab.sh lab/*/*.sh | tr '\n' ' ')" = "lab/lib/common.sh "
check "the built-kernel policy test is written once (common.sh)" \
	test "$(cd "$top" && grep -l 'CONFIG_PAGE_REPLACE_' lab.sh lab/*/*.sh tests/*/*.t |
		grep -v -e tests/lab/options.t -e tests/lab/registry.t | tr '\n' ' ')" = "lab/lib/common.sh "
done_testing
