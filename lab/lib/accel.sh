# shellcheck shell=bash
# Choose QEMU's accelerator: KVM only when a probe shows that a KVM guest
# really runs here, and fast (on some hosts /dev/kvm exists but a guest
# hangs, or crawls so slowly that it never prints a line), TCG otherwise.
# The probe decides within accel_probe_s seconds; its verdict is cached per
# host boot. LAB_ACCEL=kvm|tcg forces it.

# How long the probe may take. TCG runs it (assembly included) in 0.07-0.26 s
# on a loaded 2-core host, and a KVM that works should be faster still; on
# the lab's hosts, whose KVM guests crawl, it takes 5-6 s (accel_payload).
accel_probe_s=2.5

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

# accel_payload DIR: assemble the probe into DIR/probe.bin, a 64 KiB
# firmware image that QEMU runs instead of SeaBIOS (-bios). From the reset
# vector it goes through the modes a kernel boots through (protected mode,
# then long mode with 2 MiB pages), fills 64 MiB of RAM as the kernel's
# decompressor does before it prints anything, reads the last byte back
# (0x2a) and writes it to isa-debug-exit: QEMU exits with (0x2a << 1) | 1
# = 85. Any other end (an abort, a triple fault, the probe's timeout) is
# not a working KVM. The fill is what tells a crawling KVM apart: on the
# hosts where the lab's kernel boots under KVM to no output at all (its
# decompressor copies itself at about 6 MB/s), this fill takes 5-6 s,
# while a payload that only wrote the port ran there in 0.07 s (both
# measured with QEMU's default CPU; with -cpu host QEMU aborts there at
# once, on an MSR it cannot set). The descriptors have their
# accessed bit set: the CPU would otherwise write it into the image's
# GDT, which is ROM (without it the probe hung under KVM where TCG ran it).
accel_payload() {
	local dir=$1
	as --32 -o "$dir/probe.o" - <<'ASM' || return 1
	.set FILL, 64 * 1024 * 1024		# bytes filled, from 2 MiB
	.code16
	.org 0				# F000:0000, where the reset vector jumps
start16:
	cli
	mov $0xf000, %ax
	mov %ax, %ds
	lgdtl gdt_desc
	mov %cr0, %eax
	or $1, %eax			# CR0.PE
	mov %eax, %cr0
	ljmpl $0x08, $(0xf0000 + pm32)
	.code32
pm32:
	mov $0x10, %ax
	mov %ax, %ds
	mov %ax, %es
	mov %ax, %ss
	mov $0x1000, %edi		# PML4 0x1000, PDPT 0x2000, PD 0x3000
	xor %eax, %eax
	mov $(3 * 4096 / 4), %ecx
	rep stosl
	movl $0x2003, 0x1000
	movl $0x3003, 0x2000
	mov $0x3000, %edi		# identity-map 0-128 MiB, 2 MiB pages
	mov $0x83, %eax
	mov $64, %ecx
1:	mov %eax, (%edi)
	add $0x200000, %eax
	add $8, %edi
	loop 1b
	mov %cr4, %eax
	or $0x20, %eax			# CR4.PAE
	mov %eax, %cr4
	mov $0x1000, %eax
	mov %eax, %cr3
	mov $0xc0000080, %ecx		# EFER.LME
	rdmsr
	or $0x100, %eax
	wrmsr
	mov %cr0, %eax
	or $0x80000000, %eax		# CR0.PG: long mode
	mov %eax, %cr0
	ljmp $0x18, $(0xf0000 + lm64)
	.code64
lm64:
	mov $0x200000, %edi
	mov $(FILL / 8), %ecx
	mov $0x2a2a2a2a2a2a2a2a, %rax
	rep stosq
	mov (0x200000 + FILL - 1), %al
	out %al, $0xf4			# isa-debug-exit
2:	hlt
	jmp 2b
	.p2align 3
gdt:
	.quad 0
	.quad 0x00cf9b000000ffff	# 0x08: 32-bit code, accessed
	.quad 0x00cf93000000ffff	# 0x10: data, accessed
	.quad 0x00af9b000000ffff	# 0x18: 64-bit code, accessed
gdt_desc:
	.word gdt_desc - gdt - 1
	.long 0xf0000 + gdt
	.org 0xfff0			# the reset vector, F000:FFF0
	.code16
	ljmp $0xf000, $start16
	.org 0x10000
ASM
	objcopy -O binary -j .text "$dir/probe.o" "$dir/probe.bin" || return 1
	[[ $(stat -c %s "$dir/probe.bin") == 65536 ]]
}

# accel_payload_runs ACCEL [QEMU_ARG...]: boot the probe under ACCEL with
# the machine the lab's guests use; true when it ran to its end within
# accel_probe_s seconds.
accel_payload_runs() {
	local accel=$1 dir rc=0
	shift
	dir=$(mktemp -d)
	if ! accel_payload "$dir" 2>"$dir/as.err"; then
		say "cannot assemble the KVM probe ($(head -n1 "$dir/as.err")): TCG"
		rm -rf "$dir"
		return 1
	fi
	# In a group, so that bash's "Killed" or "Aborted" goes to /dev/null too.
	{ timeout -s KILL "$accel_probe_s" qemu-system-x86_64 -M pc -accel "$accel" "$@" -m 128 \
		-display none -nodefaults -no-reboot -bios "$dir/probe.bin" \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04; } >/dev/null 2>&1 || rc=$?
	rm -rf "$dir"
	((rc == 85))
}

# accel_probe: a KVM guest runs here, with the CPU the lab's KVM guests get.
accel_probe() {
	[[ -r /dev/kvm && -w /dev/kvm ]] || return 1
	accel_payload_runs kvm -cpu host
}

# accel_choose [KERNEL]: kvm or tcg. KERNEL is not booted any more (the
# probe is its own firmware); callers may still name it.
accel_choose() {
	local cache=$LAB_BUILD/accel.cache boot_id verdict
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
	say "probing KVM (at most $accel_probe_s s, once per host boot)"
	if accel_probe; then verdict=kvm; else verdict=tcg; fi
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
