#!/usr/bin/env bash
# lab.sh shell POLICY: an interactive guest console running POLICY, with
# the same kernel command line and disks as a run (swap, /data, /results).
# Ctrl-A X quits QEMU.
set -euo pipefail
lab_prog="lab shell"
# shellcheck source=../lib/common.sh
source "$(dirname "$0")/../lib/common.sh"
# shellcheck source=../lib/options.sh
source "$LAB_TOP/lab/lib/options.sh"
# shellcheck source=../lib/guest.sh
source "$LAB_TOP/lab/lib/guest.sh"
# shellcheck source=../lib/accel.sh
source "$LAB_TOP/lab/lib/accel.sh"

usage() {
	cat <<'USAGE'
usage: lab.sh shell POLICY [options]

  --mem SIZE        guest memory (default 256M, 128M to 4G; suffix M or G)
  --vcpus N         guest CPUs (default 2, 1 to 8)
USAGE
	shape_usage
	cat <<'USAGE'
  --kernel FLAVOUR  vanilla|lab|debug|test|vanilla-6.12 (default: the
                    policy's own, lab for the series' policies)
  --kernel-image F  boot the bzImage F (your own build) instead
  --boot-arg K=V    append K=V to the guest kernel's command line
                    (repeatable; the lab's own parameters are refused)
  --boot-timeout S  seconds for the guest's init to say its first word
                    (default 300); a stalled boot is booted again

The console is this terminal: Ctrl-A X quits, Ctrl-A C is QEMU's monitor.
A copy of it is kept in build/runs/shell.*/console.log until QEMU ends.
USAGE
}

[[ ${1:-} == -h || ${1:-} == --help ]] && {
	usage
	exit 0
}
policy=${1:-}
[[ -n $policy ]] || die "$EX_USAGE" "need a POLICY (lab.sh list shows them)"
shift
policy_check "$policy"
mem=256M vcpus=2 flavour="" boot_limit=300 boot_args=()
while [[ $# -gt 0 ]]; do
	case $1 in
	--mem) need "$@"; mem=$2; shift 2 ;;
	--vcpus) need "$@"; vcpus=$2; shift 2 ;;
	--numa | --numa-dimm | --swap | --thp | --fs) need "$@"; shape_take "$1" "$2"; shift 2 ;;
	--kernel) need "$@"; flavour=$2; shift 2 ;;
	--kernel-image) need "$@"; LAB_KERNEL=$2; shift 2 ;;
	--boot-arg) need "$@"; opt_boot_arg "$2"; boot_args+=("$2"); shift 2 ;;
	--boot-timeout) need "$@"; boot_limit=$2; shift 2 ;;
	*) die "$EX_USAGE" "unknown option '$1' (see lab.sh shell --help)" ;;
	esac
done
mem_mib=$(opt_mem "$mem")
[[ $vcpus =~ ^[1-8]$ ]] || die "$EX_USAGE" "bad --vcpus '$vcpus' (1 to 8)"
shape_check "$mem_mib" "$vcpus"
opt_seconds --boot-timeout "$boot_limit"
[[ -n $flavour ]] || flavour=$(policy_flavour "$policy")
policy_kernel_check "$policy" "$flavour"
guest_prepare "$flavour" "$policy"

mkdir -p "$LAB_BUILD/runs"
work=$(mktemp -d "$LAB_BUILD/runs/shell.XXXXXX")
trap 'rm -rf "$work"' EXIT
# shellcheck disable=SC2317 # run by the traps
shell_abort() {
	guest_abort
}
lab_on_signals shell_abort
mkdir -p "$work/job"
: >"$work/job/args"
{
	printf 'LAB_MODE=shell\nLAB_WORKLOAD=none\nLAB_TRACE=none\nLAB_MGLRU=%s\n' "$(policy_mglru "$policy")"
	guest_shape_env "$mem_mib"
} >"$work/job/job.env"
guest_pin "$work"
guest_make_disks "$work" "$work/job" "$mem_mib"
guest+=([work]=$work [job]=$work/job [mem]=$mem_mib [vcpus]=$vcpus [accel]=$accel
	[cmdline]=$cmdline [console]=$work/console.log [qemu_cmdline]=$work/qemu.cmdline
	[boot_limit]=$boot_limit [retries]=2 [id]=$(basename "$work")
	[desc]="lab shell $policy" [interactive]=1)
say "booting $policy ($flavour kernel, $accel, ${mem_mib} MiB, $vcpus vCPUs$(shape_words)); Ctrl-A X quits"
guest_boot
if ((guest[stalled])); then
	die "$EX_TIMEOUT" "the guest never reached init within ${boot_limit}s, ${guest[boot_stalls]} boots"
fi
