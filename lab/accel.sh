# shellcheck shell=bash
# Choose QEMU's accelerator: KVM only when a short probe boot shows that it
# really works here (on some hosts /dev/kvm exists but a guest hangs), TCG
# otherwise. The verdict is cached per host boot. LAB_ACCEL=kvm|tcg forces it.

# cache_write FILE LINE...: replace FILE by these lines in one rename, from
# a temporary file of its own (two commands may write the cache at once).
cache_write() {
	local file=$1 tmp
	shift
	mkdir -p "$(dirname "$file")"
	tmp=$(mktemp "$file.XXXXXX")
	printf '%s\n' "$@" >"$tmp"
	mv -f "$tmp" "$file"
}

accel_probe() {
	local kernel=$1 log
	[[ -r /dev/kvm && -w /dev/kvm ]] || return 1
	log=$(mktemp)
	# A KVM guest that works panics on the missing root within a second or
	# two; one that hangs never prints it.
	timeout -s KILL 20 qemu-system-x86_64 -M pc -accel kvm -cpu host -m 128 \
		-display none -nodefaults -no-reboot -serial "file:$log" \
		-kernel "$kernel" -append "console=ttyS0 panic=-1 root=/dev/lab-none" \
		>/dev/null 2>&1 || true
	if grep -q 'Kernel panic' "$log"; then
		rm -f "$log"
		return 0
	fi
	rm -f "$log"
	return 1
}

accel_choose() {
	local kernel=$1 cache=$LAB_BUILD/accel.cache boot_id verdict
	case ${LAB_ACCEL:-} in
	kvm | tcg)
		echo "$LAB_ACCEL"
		return
		;;
	'') ;;
	*) die "$EX_USAGE" "LAB_ACCEL must be kvm or tcg, not '$LAB_ACCEL'" ;;
	esac
	boot_id=$(cat /proc/sys/kernel/random/boot_id)
	if [[ -f $cache ]] && [[ $(head -n1 "$cache") == "$boot_id" ]]; then
		sed -n 2p "$cache"
		return
	fi
	say "probing KVM (up to 20 s, once per host boot)"
	if accel_probe "$kernel"; then verdict=kvm; else verdict=tcg; fi
	cache_write "$cache" "$boot_id" "$verdict"
	echo "$verdict"
}

# Kernel parameters that keep a TCG guest's clock honest: its TSC runs at
# the host's TSC rate, which it cannot calibrate reliably on a busy host
# (see lab/tools/tsc-khz.c). Cached per host boot.
guest_clock_params() {
	local accel=$1 cache=$LAB_BUILD/tsc-khz.cache boot_id khz tool=$LAB_BUILD/tools/tsc-khz
	[[ $accel == tcg ]] || return 0
	boot_id=$(cat /proc/sys/kernel/random/boot_id)
	if [[ -f $cache ]] && [[ $(head -n1 "$cache") == "$boot_id" ]]; then
		khz=$(sed -n 2p "$cache")
	else
		[[ -x $tool ]] || die "$EX_MISSING" "build/tools/tsc-khz missing (run $(build_hint tools))"
		khz=$("$tool") || die "$EX_HARNESS" "cannot measure the host TSC rate"
		cache_write "$cache" "$boot_id" "$khz"
	fi
	echo "tsc_early_khz=$khz tsc=reliable"
}
