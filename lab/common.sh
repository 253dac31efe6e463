# shellcheck shell=bash
# Shared helpers for the lab's scripts: paths, messages, exit codes.
# Sourced, never run; the variables are for the scripts that source it.
# shellcheck disable=SC2034

LAB_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LAB_BUILD=${LAB_BUILD:-$LAB_TOP/build}
LAB_RESULTS=${LAB_RESULTS:-$LAB_TOP/results}
LAB_KERNEL_DIR=$LAB_BUILD/kernels
LAB_IMAGE=$LAB_BUILD/image/rootfs.img
LAB_TARBALL=${LAB_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
LAB_PATCHES=${LAB_PATCHES:-$LAB_TOP/kernel/patches}

# Exit codes of `lab.sh run` (README and --help list them too).
readonly EX_OK=0 EX_HARNESS=1 EX_USAGE=2 EX_VERIFY=3 EX_WORKLOAD=4 \
	EX_PANIC=5 EX_TIMEOUT=6 EX_POLICY=7 EX_MISSING=8
export EX_OK EX_HARNESS EX_USAGE EX_VERIFY EX_WORKLOAD EX_PANIC EX_TIMEOUT \
	EX_POLICY EX_MISSING

# Kernels: the unpatched reference and the lab kernel with the series.
LAB_FLAVOURS=(vanilla lab debug)

# Policies the lab knows and the kernel flavour that provides them.
LAB_POLICIES=(vanilla lru mglru clockpro cart cart-r random)
LAB_WORKLOADS=(cyclic-anon cyclic-file webtrace mdb-bench)

lab_prog=${lab_prog:-lab}

die() {
	local code=$1
	shift
	printf '%s: %s\n' "$lab_prog" "$*" >&2
	exit "$code"
}

say() {
	printf '%s: %s\n' "$lab_prog" "$*" >&2
}

in_list() {
	local want=$1 item
	shift
	for item in "$@"; do
		[[ $item == "$want" ]] && return 0
	done
	return 1
}

# trace_bpftrace_only MODE: check a --trace MODE and print the programs
# it runs alone (bpftrace:NAME[,NAME...], space-separated), or nothing for
# every program or none. Exits 2 with one line on a bad MODE; call it as
# x=$(trace_bpftrace_only "$m") || exit.
trace_bpftrace_only() {
	local mode=$1 n names=()
	if [[ $mode != bpftrace:* ]]; then
		in_list "$mode" none events bpftrace all ||
			die "$EX_USAGE" "bad --trace '$mode' (none|events|bpftrace|all|bpftrace:NAME[,NAME...])"
		return 0
	fi
	IFS=, read -ra names <<<"${mode#bpftrace:}"
	((${#names[@]} > 0)) || die "$EX_USAGE" "bad --trace '$mode' (bpftrace:NAME[,NAME...])"
	for n in "${names[@]}"; do
		[[ $n =~ ^[a-z0-9][a-z0-9-]*$ && -f $LAB_TOP/tracepoints/$n.bt ]] ||
			die "$EX_USAGE" "bad --trace '$mode': no tracepoints/$n.bt"
	done
	echo "${names[*]}"
}

# sha256 of stdin, hex only.
sha_stdin() {
	sha256sum | cut -c1-64
}

# The series as one stream, in `series` order; "none" when empty.
series_sha() {
	local dir=$LAB_PATCHES p any=0
	{
		while read -r p; do
			[[ -z $p || $p == \#* ]] && continue
			any=1
			cat "$dir/$p"
		done <"$dir/series"
		[[ $any == 1 ]] || printf 'none'
	} | sha_stdin
}

linux_source_version() {
	dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null || echo unknown
}
