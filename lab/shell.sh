#!/usr/bin/env bash
# lab.sh shell POLICY: an interactive guest console running POLICY, with
# the same disks as a run (swap, /data, /results). Ctrl-A X quits QEMU.
set -euo pipefail
lab_prog="lab shell"
# shellcheck source=common.sh
source "$(dirname "$0")/common.sh"
# shellcheck source=guest.sh
source "$LAB_TOP/lab/guest.sh"
# shellcheck source=accel.sh
source "$LAB_TOP/lab/accel.sh"

[[ ${1:-} == -h || ${1:-} == --help ]] && {
	echo "usage: lab.sh shell POLICY [--mem SIZE] [--kernel vanilla|lab|debug]"
	exit 0
}
policy=${1:-}
[[ -n $policy ]] || die "$EX_USAGE" "need a POLICY (lab.sh list shows them)"
shift
in_list "$policy" "${LAB_POLICIES[@]}" vanilla-mglru || die "$EX_USAGE" "unknown policy '$policy'"
mem_mib=256 flavour=""
while [[ $# -gt 0 ]]; do
	case $1 in
	--mem)
		[[ ${2:-} =~ ^([0-9]+)M?$ ]] || die "$EX_USAGE" "bad --mem '${2:-}' (MiB, e.g. 256M)"
		mem_mib=${BASH_REMATCH[1]}
		shift 2
		;;
	--kernel)
		flavour=${2:-}
		in_list "$flavour" "${LAB_FLAVOURS[@]}" || die "$EX_USAGE" "bad --kernel '$flavour'"
		shift 2
		;;
	*) die "$EX_USAGE" "unknown option '$1'" ;;
	esac
done
if [[ -z $flavour ]]; then
	case $policy in vanilla*) flavour=vanilla ;; *) flavour=lab ;; esac
fi
kernel=$(guest_kernel "$flavour")
guest_check_image
accel=$(accel_choose "$kernel")

work=$(mktemp -d "$LAB_BUILD/runs/shell.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/job"
: >"$work/job/args"
printf 'LAB_MODE=shell\nLAB_WORKLOAD=none\nLAB_TRACE=none\nLAB_MGLRU=%s\n' \
	"$([[ $policy == vanilla-mglru ]] && echo y || echo n)" >"$work/job/job.env"
guest_make_disks "$work" "$work/job" "$mem_mib"
cmdline=""
[[ $policy != vanilla* ]] && cmdline="page_replace=$policy"
cmdline="$cmdline $(guest_clock_params "$accel")"
guest_qemu_argv "$kernel" "$work" "$mem_mib" 2 "$accel" "$cmdline" mon:stdio
say "booting $policy ($flavour kernel, $accel); Ctrl-A X quits"
"${qemu_argv[@]}"
