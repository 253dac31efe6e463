# shellcheck shell=bash
# Boot one guest job in QEMU: fresh swap, data and results disks, a
# read-only root and job disk, the console in a file, a hard timeout.
# Sourced by run.sh, stress.sh and shell.sh.

# Sizes of the per-run disks (sparse files).
guest_disk_sizes() {
	local mem_mib=$1
	swap_mib=$((mem_mib * 4 > 1024 ? mem_mib * 4 : 1024))
	data_mib=$((mem_mib * 8 > 2048 ? mem_mib * 8 : 2048))
	results_mib=${LAB_RESULTS_DISK_MIB:-512}
}

# guest_make_disks WORKDIR JOBDIR MEM_MIB
guest_make_disks() {
	local work=$1 job=$2 mem_mib=$3 job_kib
	guest_disk_sizes "$mem_mib"
	job_kib=$(du -sk "$job" | cut -f1)
	mkfs.ext4 -q -F -L labjob -d "$job" "$work/job.img" "$((job_kib * 2 + 4096))K" >/dev/null
	truncate -s "${swap_mib}M" "$work/swap.img"
	mkswap -q "$work/swap.img" >/dev/null
	mkfs.ext4 -q -F -L labdata "$work/data.img" "${data_mib}M" >/dev/null
	mkfs.ext4 -q -F -L labresults "$work/results.img" "${results_mib}M" >/dev/null
}

# guest_qemu_argv KERNEL WORKDIR MEM_MIB VCPUS ACCEL CMDLINE SERIAL
# Sets the array qemu_argv for the caller.
guest_qemu_argv() {
	local kernel=$1 work=$2 mem=$3 vcpus=$4 accel=$5 cmdline=$6 serial=$7
	local cpu=()
	[[ $accel == kvm ]] && cpu=(-cpu host)
	# shellcheck disable=SC2034
	qemu_argv=(qemu-system-x86_64 -M pc -accel "$accel" "${cpu[@]}"
		-m "${mem}M" -smp "$vcpus" -display none -nodefaults -no-reboot
		-serial "$serial"
		-kernel "$kernel"
		-append "console=ttyS0 root=/dev/vda ro rootfstype=ext4 init=/init panic=-1 oops=panic nokaslr $cmdline"
		-drive "file=$LAB_IMAGE,if=virtio,format=raw,readonly=on"
		-drive "file=$work/job.img,if=virtio,format=raw,readonly=on"
		-drive "file=$work/swap.img,if=virtio,format=raw,cache=none"
		-drive "file=$work/data.img,if=virtio,format=raw,cache=none"
		-drive "file=$work/results.img,if=virtio,format=raw,cache=none")
}

# guest_await_init CONSOLE PID LIMIT_S: wait for the guest's init to print
# its first LAB line on CONSOLE while PID (the timeout(1) wrapping QEMU)
# runs. 0: it did; 1: QEMU ended first; 2: no line within LIMIT_S, and
# QEMU is stopped (timeout(1) passes the TERM on).
guest_await_init() {
	local console=$1 pid=$2 limit=$3 t0=$SECONDS
	while kill -0 "$pid" 2>/dev/null; do
		grep -aq '^LAB' "$console" && return 0
		if ((SECONDS - t0 >= limit)); then
			kill -TERM "$pid" 2>/dev/null
			return 2
		fi
		sleep 1
	done
	return 1
}

# Kernel image for a flavour, or LAB_KERNEL for a developer's own build.
guest_kernel() {
	local flavour=$1 k
	if [[ -n ${LAB_KERNEL:-} ]]; then
		k=$LAB_KERNEL
	else
		k=$LAB_KERNEL_DIR/$flavour/bzImage
	fi
	[[ -f $k ]] || die "$EX_MISSING" "kernel ${k#"$LAB_TOP"/} not found (run make)"
	file -b "$k" | grep -q 'Linux kernel x86 boot executable' ||
		die "$EX_MISSING" "kernel ${k#"$LAB_TOP"/} is not a bzImage (corrupt? run make)"
	echo "$k"
}

guest_check_image() {
	[[ -f $LAB_IMAGE ]] || die "$EX_MISSING" "guest image build/image/rootfs.img not found (run make)"
	if [[ ! -f $LAB_IMAGE.sha256 ]] ||
		[[ $(sha256sum "$LAB_IMAGE" | cut -c1-64) != "$(cat "$LAB_IMAGE.sha256")" ]]; then
		die "$EX_MISSING" "guest image build/image/rootfs.img is corrupt (checksum differs; run make image)"
	fi
}
