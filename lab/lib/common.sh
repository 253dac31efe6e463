# shellcheck shell=bash
# Shared helpers for the lab's scripts: paths, messages, exit codes.
# Sourced, never run; the variables are for the scripts that source it.
# shellcheck disable=SC2034

LAB_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
LAB_BUILD=${LAB_BUILD:-$LAB_TOP/build}
LAB_RESULTS=${LAB_RESULTS:-$LAB_TOP/results}
LAB_KERNEL_DIR=$LAB_BUILD/kernels
LAB_IMAGE=$LAB_BUILD/image/rootfs.img
LAB_TARBALL=${LAB_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
# Today's kernel, the reference beside 6.1 (flavour vanilla-6.12).
LAB_TARBALL_612=${LAB_TARBALL_612:-/usr/src/linux-source-6.12.tar.xz}
LAB_PATCHES=${LAB_PATCHES:-$LAB_TOP/kernel/patches}

# Exit codes of `lab.sh run` (README and --help list them too).
readonly EX_OK=0 EX_HARNESS=1 EX_USAGE=2 EX_VERIFY=3 EX_WORKLOAD=4 \
	EX_PANIC=5 EX_TIMEOUT=6 EX_POLICY=7 EX_MISSING=8
export EX_OK EX_HARNESS EX_USAGE EX_VERIFY EX_WORKLOAD EX_PANIC EX_TIMEOUT \
	EX_POLICY EX_MISSING

# Kernels: the unpatched reference, the lab kernel with the series, its
# debug build (the reliability gate) and its test build (the lab kernel
# plus what exists only to be tested: fail_page_replace, the shadow
# clocks' late start, the multi-gen LRU on by default).
# vanilla-6.12 is today's kernel, unpatched: the users' alternative.
LAB_FLAVOURS=(vanilla lab debug test vanilla-6.12)

# The registry of policies and workloads: lab/registry/policies.tsv and
# workloads.tsv, one row each (their headers say what each column is),
# read once here for every command (list, run, shell, stress, matrix,
# bench, the gate and its tests). It sets
#   LAB_POLICIES       the policies of the vanilla and lab kernels, in order
#   LAB_TEST_POLICIES  those of test kernels only (never in benchmarks)
#   LAB_WORKLOADS      the workloads, in order
#   LAB_ABOUT          NAME -> its line for lab.sh list
#   LAB_POLICY_KERNEL, LAB_POLICY_CONFIG, LAB_POLICY_LRU_GEN  POLICY -> that column
# (the other columns are for the analysis tools, analysis/registry/, and
# the tests).
LAB_REGISTRY=$LAB_TOP/lab/registry
LAB_POLICIES=() LAB_TEST_POLICIES=() LAB_WORKLOADS=()
declare -gA LAB_ABOUT=() LAB_POLICY_KERNEL=() LAB_POLICY_CONFIG=() LAB_POLICY_LRU_GEN=()

# registry_rows FILE HEADER: FILE's rows, tab-separated, without comments
# and blank lines, after checking that its first row is HEADER (the
# columns by name, tab-separated) and that every row has as many fields,
# none empty. Exits 1 with one line otherwise.
registry_rows() {
	local file=$1 header=$2 line n=0 want fields
	IFS=$'\t' read -r -a fields <<<"$header"
	want=${#fields[@]}
	[[ -r $file ]] || die "$EX_HARNESS" "$file: cannot read the registry"
	while IFS= read -r line || [[ -n $line ]]; do
		[[ -z $line || $line == '#'* ]] && continue
		n=$((n + 1))
		if ((n == 1)); then
			[[ $line == "$header" ]] || die "$EX_HARNESS" "$file: the header is not '${header//$'\t'/ }'"
			continue
		fi
		IFS=$'\t' read -r -a fields <<<"$line"
		[[ ${#fields[@]} == "$want" && $line != *$'\t\t'* && $line != *$'\t' ]] ||
			die "$EX_HARNESS" "$file: '${line%%$'\t'*}' has not $want non-empty tab-separated fields"
		printf '%s\n' "$line"
	done <"$file"
}

registry_load() {
	local rows name kernel config lru_gen about
	rows=$(registry_rows "$LAB_REGISTRY/policies.tsv" \
		$'name\tkernel\tconfig\tfile\tlru_gen\tmodel\tperf\tevent\tabout') || exit
	while IFS=$'\t' read -r name kernel config _ lru_gen _ _ _ about; do
		in_list "$kernel" vanilla vanilla-6.12 lab test ||
			die "$EX_HARNESS" "$LAB_REGISTRY/policies.tsv: $name: bad kernel '$kernel' (vanilla, vanilla-6.12, lab, test)"
		if [[ $kernel == test ]]; then
			LAB_TEST_POLICIES+=("$name")
		else
			LAB_POLICIES+=("$name")
		fi
		LAB_POLICY_KERNEL[$name]=$kernel LAB_POLICY_CONFIG[$name]=$config
		LAB_POLICY_LRU_GEN[$name]=$lru_gen LAB_ABOUT[$name]=$about
	done <<<"$rows"
	rows=$(registry_rows "$LAB_REGISTRY/workloads.tsv" $'name\tread_back\trate\tp99\tabout') || exit
	while IFS=$'\t' read -r name _ _ _ about; do
		LAB_WORKLOADS+=("$name")
		LAB_ABOUT[$name]=$about
	done <<<"$rows"
}

lab_prog=${lab_prog:-lab}

# policy_known POLICY: a row of the registry.
policy_known() {
	[[ -n ${LAB_POLICY_KERNEL[$1]:-} ]]
}

# policy_check POLICY: exit 2 with one line unless the lab knows POLICY.
policy_check() {
	policy_known "$1" || die "$EX_USAGE" "unknown policy '$1' (lab.sh list shows them)"
}

# policy_flavour POLICY: the kernel flavour it runs on by default.
policy_flavour() {
	echo "${LAB_POLICY_KERNEL[$1]}"
}

# policy_vanilla POLICY: POLICY runs on an unpatched kernel (6.1's
# vanilla or today's vanilla-6.12), which has no page_replace.
policy_vanilla() {
	[[ ${LAB_POLICY_KERNEL[$1]:-} == vanilla* ]]
}

# policy_kernel_check POLICY FLAVOUR: exit 2 with one line unless POLICY
# runs on the FLAVOUR kernel: an unpatched kernel's policies on that
# kernel only, the series' on any kernel with the series.
policy_kernel_check() {
	local want=${LAB_POLICY_KERNEL[$1]}
	in_list "$2" "${LAB_FLAVOURS[@]}" ||
		die "$EX_USAGE" "bad --kernel '$2' (${LAB_FLAVOURS[*]})"
	if policy_vanilla "$1" || [[ $2 == vanilla* ]]; then
		[[ $2 == "$want" ]] || die "$EX_USAGE" "policy $1 does not run on the $2 kernel"
	fi
}

# policy_observed POLICY ACTIVE LRU_GEN RELEASE: the policy a guest ran,
# from what its init saw: ACTIVE is the series' sysfs choice, or
# "vanilla" on an unpatched kernel, which is then named by its release
# (6.12.* is vanilla-6.12) and by whether MGLRU was on (LRU_GEN, the
# value of /sys/kernel/mm/lru_gen/enabled): the registry's row with that
# kernel and lru_gen. POLICY comes back when it is that row.
policy_observed() {
	local policy=$1 active=$2 lru_gen=$3 release=$4 kernel=vanilla mglru=n
	if [[ $active != vanilla ]]; then
		echo "$active"
		return
	fi
	[[ $release == 6.12.* ]] && kernel=vanilla-6.12
	[[ -n $lru_gen && $lru_gen != none && $lru_gen != 0x0000 ]] && mglru=y
	if policy_known "$policy" && [[ ${LAB_POLICY_KERNEL[$policy]} == "$kernel" &&
		${LAB_POLICY_LRU_GEN[$policy]} == "$mglru" ]]; then
		echo "$policy"
	else
		echo "$kernel$([[ $mglru == y ]] && echo -mglru)"
	fi
}

# policy_cmdline POLICY: the kernel command line that selects POLICY (the
# one mapping from policy to boot parameters; lab.policy= is for the
# guest's init, page_replace= for the series).
policy_cmdline() {
	if policy_vanilla "$1"; then
		echo "lab.policy=$1"
	else
		echo "lab.policy=$1 page_replace=$1"
	fi
}

# policy_mglru POLICY: y when the guest switches MGLRU on through sysfs.
policy_mglru() {
	echo "${LAB_POLICY_LRU_GEN[$1]}"
}

# policy_in_kernel POLICY FLAVOUR: the built FLAVOUR kernel offers POLICY
# (the vanilla kernel's: it is built; the series': the kernel's config has
# the policy's CONFIG symbol =y, or for those always built in the
# framework's CONFIG_PAGE_REPLACE_DEFAULT).
policy_in_kernel() {
	local p=$1 flavour=$2 config sym
	if policy_vanilla "$p"; then
		[[ -f $LAB_KERNEL_DIR/${LAB_POLICY_KERNEL[$p]}/bzImage ]]
		return
	fi
	config=$LAB_KERNEL_DIR/$flavour/config
	[[ -f $config ]] || return 1
	sym=${LAB_POLICY_CONFIG[$p]}=y
	[[ $sym == -=y ]] && sym=CONFIG_PAGE_REPLACE_DEFAULT=
	grep -q "^$sym" "$config"
}

# lab_policies: the series' policies (of the lab kernel), space-separated.
lab_policies() {
	local p names=()
	for p in "${LAB_POLICIES[@]}"; do
		[[ ${LAB_POLICY_KERNEL[$p]} == lab ]] && names+=("$p")
	done
	echo "${names[*]}"
}

# kernel_policies FLAVOUR: the series' policies the built FLAVOUR kernel
# offers, one per line, in LAB_POLICIES order.
kernel_policies() {
	local p
	for p in "${LAB_POLICIES[@]}"; do
		policy_vanilla "$p" && continue
		if policy_in_kernel "$p" "$1"; then echo "$p"; fi
	done
}

# build_hint WHAT: the command that builds WHAT (a kernel flavour, image,
# tools, analysis or workloads), for the "not found" messages.
build_hint() {
	case $1 in
	vanilla | lab | debug | test | vanilla-6.12) echo "make kernel-$1" ;;
	*) echo "make $1" ;;
	esac
}

# lab_on_signals FUNCTION: on SIGINT, SIGTERM or SIGHUP run FUNCTION (the
# caller's cleanup: stop its guest, remove its partial files), then exit
# 128 + the signal's number (130 for Ctrl-C). The EXIT trap still runs.
lab_on_signals() {
	local sig
	for sig in INT TERM HUP; do
		# shellcheck disable=SC2064 # expanded now, on purpose
		trap "lab_signalled $sig $1" "$sig"
	done
}

lab_signalled() {
	local sig=$1 fn=$2
	trap '' INT TERM HUP
	say "interrupted by SIG$sig: stopping and cleaning up"
	"$fn" || true
	exit $((128 + $(kill -l "$sig")))
}

die() {
	local code=$1
	shift
	printf '%s: %s\n' "$lab_prog" "$*" >&2
	exit "$code"
}

say() {
	printf '%s: %s\n' "$lab_prog" "$*" >&2
}

# need "$@" in an option loop: the option in $1 has a non-empty value in $2.
need() { [[ $# -ge 2 && -n $2 ]] || die "$EX_USAGE" "option $1 needs a value"; }

# require_tools PATH...: each built analysis tool exists, else EX_MISSING.
require_tools() {
	local tool
	for tool in "$@"; do
		[[ -x $tool ]] || die "$EX_MISSING" "no ${tool#"$LAB_TOP"/} (run make analysis)"
	done
}

# require_dirs PATH...: each is a directory (a run or one holding runs).
require_dirs() {
	local arg
	for arg in "$@"; do
		[[ -e $arg ]] || die "$EX_USAGE" "$arg: no such file or directory"
		[[ -d $arg ]] || die "$EX_USAGE" "$arg: not a directory (a run directory or one holding runs)"
	done
}

in_list() {
	local want=$1 item
	shift
	for item in "$@"; do
		[[ $item == "$want" ]] && return 0
	done
	return 1
}

# trace_default_programs: the bpftrace programs that --trace bpftrace (or
# all) runs, space-separated: every tracepoints/*.bt but those whose header
# says "On-request: yes" (a probe too costly to run unasked), which run
# only when bpftrace:NAME names them.
trace_default_programs() {
	local bt names=()
	for bt in "$LAB_TOP"/tracepoints/*.bt; do
		grep -q '^ \* On-request: yes' "$bt" || names+=("$(basename "$bt" .bt)")
	done
	echo "${names[*]}"
}

# trace_parse MODE: check a --trace MODE and set what it records:
# trace_tracers (array: events, bpftrace, perf, each at most once, in that
# order), trace_bt_only (the bpftrace programs the guest runs,
# space-separated: those of bpftrace:NAME[,NAME...], or for bpftrace and
# all trace_default_programs; empty for none) and trace_canon (MODE in one spelling: "all" for events, every
# bpftrace program and perf; else the tracers joined by commas). MODE is
# none, all, or a comma-separated list of events, bpftrace, perf and
# bpftrace:NAME, whose further names follow it as words that are not
# modes (bpftrace:a,b,perf). Exits 2 with one line on a bad MODE.
trace_parse() {
	local mode=$1 w words=() names=() ev=0 bt=0 pf=0 in_names=0
	local what="bad --trace '$mode' (none|all, or events,bpftrace,perf,bpftrace:NAME[,NAME...] combined)"
	trace_tracers=() trace_bt_only="" trace_canon=none
	[[ $mode == none ]] && return 0
	[[ -n $mode && $mode != *,, && $mode != ,* && $mode != *, ]] || die "$EX_USAGE" "$what"
	IFS=, read -ra words <<<"$mode"
	for w in "${words[@]}"; do
		case $w in
		all) ev=1 bt=1 pf=1 in_names=0 ;;
		events) ev=1 in_names=0 ;;
		bpftrace) bt=1 in_names=0 ;;
		perf) pf=1 in_names=0 ;;
		bpftrace:*) names+=("${w#bpftrace:}") in_names=1 ;;
		*)
			((in_names)) || die "$EX_USAGE" "$what"
			names+=("$w")
			;;
		esac
	done
	((bt == 0 || ${#names[@]} == 0)) || die "$EX_USAGE" "bad --trace '$mode': bpftrace runs every program, bpftrace:NAME only some"
	for w in "${names[@]}"; do
		[[ $w =~ ^[a-z0-9][a-z0-9-]*$ && -f $LAB_TOP/tracepoints/$w.bt ]] ||
			die "$EX_USAGE" "bad --trace '$mode': no tracepoints/$w.bt"
	done
	((ev)) && trace_tracers+=(events)
	((bt || ${#names[@]})) && trace_tracers+=(bpftrace)
	((pf)) && trace_tracers+=(perf)
	trace_bt_only=${names[*]}
	if ((ev && bt && pf)); then
		trace_canon=all
	else
		trace_canon=$(IFS=,; echo "${trace_tracers[*]}")
		[[ -z $trace_bt_only ]] || trace_canon=${trace_canon/bpftrace/bpftrace:${trace_bt_only// /,}}
	fi
	((bt == 0)) || trace_bt_only=$(trace_default_programs)
}

# trace_bpftrace_only MODE: check a --trace MODE (trace_parse) and print
# the bpftrace programs it runs, space-separated, or nothing for none; call it as x=$(trace_bpftrace_only "$m") || exit.
trace_bpftrace_only() {
	trace_parse "$1"
	echo "$trace_bt_only"
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

# flavour_source FLAVOUR: the Debian package whose source FLAVOUR builds.
flavour_source() {
	case $1 in
	vanilla-6.12) echo linux-source-6.12 ;;
	*) echo linux-source-6.1 ;;
	esac
}

# linux_source_version [FLAVOUR]: the version of that source package
# (default: 6.1's, the source of every flavour but vanilla-6.12).
linux_source_version() {
	dpkg-query -W -f='${Version}' "$(flavour_source "${1:-vanilla}")" 2>/dev/null || echo unknown
}

registry_load
