#!/usr/bin/env bash
# tests/run: alone (its limits are seconds: accel_payload_runs within 3 s)
# lab/lib/accel.sh decides KVM or TCG within 3 s, and says kvm only when a KVM
# guest really ran the probe's code: protected mode, long mode, 64 MiB of
# RAM filled and its last byte (0x2a) written to isa-debug-exit, so that
# QEMU exits with (0x2a << 1) | 1 = 85. A QEMU that hangs is cut at the
# probe's limit, one that aborts or exits otherwise is TCG, and the
# verdict is probed once per host boot. Needs QEMU and binutils only: no
# kernel, no image, and no working KVM (a QEMU that runs TCG when asked for
# KVM stands in for one).
set -euo pipefail
# shellcheck source=tap.sh
source "$(dirname "$0")/tap.sh"
# shellcheck source=../../lab/lib/common.sh
source "$top/lab/lib/common.sh"
# shellcheck source=../../lab/lib/accel.sh
source "$top/lab/lib/accel.sh"

qemu=$(command -v qemu-system-x86_64) || skip_all "qemu-system-x86_64 missing (make installs it)"
if ! command -v as >/dev/null || ! command -v objcopy >/dev/null; then
	skip_all "binutils missing (make installs gcc)"
fi
boot_id=$(cat /proc/sys/kernel/random/boot_id)

# fake NAME BODY: a directory holding a qemu-system-x86_64 that notes each
# start in $tmp/NAME.calls, then runs BODY (sh).
fake() {
	mkdir -p "$tmp/$1"
	printf '#!/bin/sh\necho "$*" >>%q\n%s\n' "$tmp/$1.calls" "$2" >"$tmp/$1/qemu-system-x86_64"
	chmod +x "$tmp/$1/qemu-system-x86_64"
}
# A KVM that works: the real QEMU, with TCG in KVM's place and the default CPU.
# shellcheck disable=SC2016 # expanded by the fake
fake works "$(printf 'a=; for x in "$@"; do case $x in kvm) x=tcg ;; host) continue ;; -cpu) continue ;; esac; a="$a $x"; done\nexec %q $a' "$qemu")"
fake hangs 'exec sleep 60'
fake aborts 'kill -ABRT $$'
fake quits 'exit 0'

ms() { echo $(($(date +%s%N) / 1000000)); }

# runs NAME DESC EXPECT ARG...: accel_payload_runs ARG... with the fake NAME
# (or the real QEMU for NAME "real") first on PATH: EXPECT yes or no, and
# the time it took within 3 s.
runs() {
	local name=$1 desc=$2 want=$3 got=no t0 t path=$PATH
	shift 3
	[[ $name == real ]] || path=$tmp/$name:$PATH
	t0=$(ms)
	if PATH=$path accel_payload_runs "$@"; then got=yes; fi
	t=$(($(ms) - t0))
	is "$got" "$want" "$desc"
	if ((t <= 3000)); then ok "$desc: decided in $t ms"; else not_ok "$desc: decided in $t ms" "want at most 3000 ms"; fi
}

check "the probe's limit is at most 3 s ($accel_probe_s s)" awk -v s="$accel_probe_s" 'BEGIN { exit !(s > 0 && s <= 3) }'
check "the probe assembles to a 64 KiB firmware image" accel_payload "$tmp"
runs real "the probe runs to its end under TCG (QEMU exits 85)" yes tcg
runs works "a KVM that runs the probe is kvm" yes kvm -cpu host
rm -f "$tmp/works.calls"
# shellcheck disable=SC2016 # expanded by bash -c
probe='source "$1/lab/lib/common.sh"; source "$1/lab/lib/accel.sh"; accel_probe'
if [[ -r /dev/kvm && -w /dev/kvm ]]; then
	check "accel_probe: a KVM that runs the probe is kvm" \
		env PATH="$tmp/works:$PATH" bash -c "$probe" probe "$top"
	check "... asked with the CPU the lab's KVM guests get (-cpu host)" \
		grep -q -- '-accel kvm -cpu host -m 128' "$tmp/works.calls"
else
	got=kvm
	env PATH="$tmp/works:$PATH" bash -c "$probe" probe "$top" || got=tcg
	is "$got" tcg "accel_probe: no usable /dev/kvm here, so tcg"
	check "... without starting QEMU" test ! -e "$tmp/works.calls"
fi
runs hangs "a KVM guest that hangs is not kvm" no kvm -cpu host
runs aborts "a QEMU that aborts is not kvm" no kvm -cpu host
runs quits "a QEMU that exits 0 without the probe's word is not kvm" no kvm -cpu host

# choose [VAR=VALUE...]: accel_choose in a process of its own, with the
# cache under $tmp/build; prints the verdict.
choose() {
	# shellcheck disable=SC2016 # expanded by bash -c
	env LAB_BUILD="$tmp/build" "$@" bash -c 'set -euo pipefail
		source "$1/lab/lib/common.sh"; source "$1/lab/lib/accel.sh"; accel_choose' choose "$top"
}

t0=$(ms)
verdict=$(choose 2>"$tmp/err")
t=$(($(ms) - t0))
if ((t <= 3000)); then ok "a cold decision on this host: $verdict in $t ms"; else not_ok "a cold decision on this host: $verdict in $t ms" "want at most 3000 ms"; fi
check "... it is kvm or tcg" grep -qxE 'kvm|tcg' <<<"$verdict"
check "... and says it probes, once per host boot" grep -q 'probing KVM (at most' "$tmp/err"
is "$(cat "$tmp/build/accel.cache")" "$boot_id"$'\n'"$verdict" "... cached with this host boot's id"
rm -f "$tmp/hangs.calls"
is "$(choose PATH="$tmp/hangs:$PATH" 2>/dev/null)" "$verdict" "a warm decision reads the cache"
check "... and starts no QEMU" test ! -e "$tmp/hangs.calls"

printf '%s\n' 00000000-0000-0000-0000-000000000000 kvm >"$tmp/build/accel.cache"
is "$(choose PATH="$tmp/aborts:$PATH" 2>/dev/null)" tcg "a verdict of another host boot is probed again (here: a QEMU that aborts)"
is "$(head -n1 "$tmp/build/accel.cache")" "$boot_id" "... and the cache holds this boot's verdict"

is "$(choose LAB_ACCEL=kvm PATH="$tmp/hangs:$PATH")" kvm "LAB_ACCEL=kvm forces kvm"
is "$(choose LAB_ACCEL=tcg PATH="$tmp/hangs:$PATH")" tcg "LAB_ACCEL=tcg forces tcg"
check "... without a probe" test ! -e "$tmp/hangs.calls"
usage_error "LAB_ACCEL=other is a usage error" choose LAB_ACCEL=other

done_testing
