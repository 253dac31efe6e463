# shellcheck shell=bash
# Booting guests, for run, shell and stress alike: the kernel and image a
# boot uses, its fresh disks, QEMU's command line, and guest_boot, the one
# boot loop (a boot that stalls before init is booted again; the guest's
# progress lines are echoed and time-stamped; an interruption stops the
# guest's whole process group; every running guest is registered, so a
# result can say which other guests ran beside it). Sourced after
# common.sh and options.sh: the machine's shape (NUMA nodes, the DIMM,
# swap, the data disk's filesystem) is options.sh's shape_*, which the
# command's shape_check set.
# shellcheck source=console.sh
source "$LAB_TOP/lab/lib/console.sh"

# What a boot is, filled in by its caller and by guest_pin (see guest_boot).
declare -A guest=()

# Sizes of the per-run disks (sparse files). LAB_RESULTS_DISK_MIB is for
# the harness's own tests (a results disk small enough to fill).
guest_disk_sizes() {
	local mem_mib=$1
	swap_mib=$((mem_mib * 4 > 1024 ? mem_mib * 4 : 1024))
	data_mib=$((mem_mib * 8 > 2048 ? mem_mib * 8 : 2048))
	results_mib=${LAB_RESULTS_DISK_MIB:-512}
}

# guest_make_disks WORKDIR JOBDIR MEM_MIB: the job disk from JOBDIR, and
# fresh swap, data (ext4 or xfs: shape_fs) and results disks. The swap
# disk is there whatever --swap says, so the disks keep their names; the
# guest swaps on it only with --swap disk.
# shellcheck disable=SC2154 # shape_* are options.sh's
guest_make_disks() {
	local work=$1 job=$2 mem_mib=$3 job_kib
	guest_disk_sizes "$mem_mib"
	job_kib=$(du -sk "$job" | cut -f1)
	rm -f "$work"/{job,swap,data,results}.img
	mkfs.ext4 -q -F -L labjob -d "$job" "$work/job.img" "$((job_kib * 2 + 4096))K" >/dev/null
	truncate -s "${swap_mib}M" "$work/swap.img"
	mkswap -q "$work/swap.img" >/dev/null
	if [[ $shape_fs == xfs ]]; then
		truncate -s "${data_mib}M" "$work/data.img"
		mkfs.xfs -q -f -L labdata "$work/data.img" >/dev/null
	else
		mkfs.ext4 -q -F -L labdata "$work/data.img" "${data_mib}M" >/dev/null
	fi
	mkfs.ext4 -q -F -L labresults "$work/results.img" "${results_mib}M" >/dev/null
}

# guest_shape_env MEM_MIB: the shape's lines of job.env, for init: the
# swap (LAB_SWAP; LAB_ZRAM_MIB, zram's size: the swap disk's), THP's mode
# (LAB_THP, empty for the kernel's own) and the data disk's filesystem
# (LAB_FS).
# shellcheck disable=SC2154 # shape_* are options.sh's
guest_shape_env() {
	guest_disk_sizes "$1"
	printf 'LAB_SWAP=%s\nLAB_ZRAM_MIB=%s\nLAB_THP=%s\nLAB_FS=%s\n' \
		"$shape_swap" "$swap_mib" "$shape_thp" "$shape_fs"
}

# guest_shape_argv MEM_MIB VCPUS: sets the array shape_argv, QEMU's memory
# and CPU options: -m and -smp, and with --numa a RAM backend and a -numa
# node for each node (its vCPUs, none for a CPU-less node), each vCPU a
# socket of its own (QEMU's default puts every vCPU in one socket, whose
# shared cache would span the nodes: the guest kernel warns, in
# topology_sane(), that an LLC sibling is on another node); with
# --numa-dimm node 0's boot memory is its share less the DIMM, and the
# DIMM a pc-dimm on node 0, cold-plugged: QEMU puts it in the hotplug area above 4 GiB, above
# every node's boot memory, and describes it to the guest as an ACPI
# memory device of node 0.
# shellcheck disable=SC2154 # shape_* are options.sh's
guest_shape_argv() {
	local mem=$1 vcpus=$2 i size cpus
	shape_argv=(-m "${mem}M" -smp "$vcpus")
	((${#shape_node_mib[@]} == 0)) || shape_argv[3]="$vcpus,sockets=$vcpus,cores=1,threads=1"
	((shape_dimm_mib == 0)) || shape_argv[1]="$((mem - shape_dimm_mib))M,slots=1,maxmem=${mem}M"
	for ((i = 0; i < ${#shape_node_mib[@]}; i++)); do
		size=${shape_node_mib[i]}
		((i > 0)) || size=$((size - shape_dimm_mib))
		cpus=${shape_node_cpus[i]}
		if [[ $cpus == *' '* ]]; then
			cpus=",cpus=${cpus%% *}-${cpus##* }"
		elif [[ -n $cpus ]]; then
			cpus=",cpus=$cpus"
		fi
		shape_argv+=(-object "memory-backend-ram,id=lab-node$i,size=${size}M"
			-numa "node,nodeid=$i$cpus,memdev=lab-node$i")
	done
	((shape_dimm_mib == 0)) || shape_argv+=(-object "memory-backend-ram,id=lab-dimm-mem,size=${shape_dimm_mib}M"
		-device "pc-dimm,id=lab-dimm,memdev=lab-dimm-mem,node=0")
}

# guest_resolve FLAVOUR: which kernel and image a boot would use, checked:
# sets guest_kernel_src, guest_kernel_json (release and hashes; "unknown"
# for LAB_KERNEL, with the image's path and checksum), guest_image_src and
# guest_image_sha. A flavour's
# directory is a link to one complete install (build-kernel.sh swaps it
# in one rename), resolved once here, so bzImage and info.json always
# belong together; the image's checksum is part of its file name
# (build-rootfs.sh), so image and checksum cannot disagree either.
# shellcheck disable=SC2034 # guest_*_src are read through ${!src}
guest_resolve() {
	local flavour=$1 kdir img
	if [[ -n ${LAB_KERNEL:-} ]]; then
		guest_kernel_src=$LAB_KERNEL
		[[ -f $guest_kernel_src ]] || die "$EX_MISSING" "kernel $LAB_KERNEL not found"
		# Its checksum names it in comparisons: two images, two kernels.
		guest_kernel_json=$(jq -cn --arg k "$LAB_KERNEL" --arg s "$(sha_stdin <"$LAB_KERNEL")" \
			'{release: null, series_sha: "unknown", config_sha: "unknown", image: $k, image_sha: $s}')
	else
		kdir=$(readlink -f "$LAB_KERNEL_DIR/$flavour" 2>/dev/null) || kdir=$LAB_KERNEL_DIR/$flavour
		guest_kernel_src=$kdir/bzImage
		[[ -f $guest_kernel_src ]] ||
			die "$EX_MISSING" "kernel build/kernels/$flavour/bzImage not found (run $(build_hint "$flavour"))"
		[[ -f $kdir/info.json ]] ||
			die "$EX_MISSING" "no build/kernels/$flavour/info.json (run $(build_hint "$flavour"))"
		guest_kernel_json=$(jq -c '{release, series_sha, config_sha}' "$kdir/info.json") ||
			die "$EX_MISSING" "build/kernels/$flavour/info.json is corrupt (run $(build_hint "$flavour"))"
	fi
	if ! file -b "$guest_kernel_src" | grep -q 'Linux kernel x86 boot executable'; then
		[[ -n ${LAB_KERNEL:-} ]] && die "$EX_MISSING" "kernel $LAB_KERNEL is not a bzImage"
		die "$EX_MISSING" "kernel build/kernels/$flavour/bzImage is not a bzImage (corrupt? run $(build_hint "$flavour"))"
	fi

	[[ -e $LAB_IMAGE ]] ||
		die "$EX_MISSING" "guest image build/image/rootfs.img not found (run $(build_hint image))"
	img=$(readlink -f "$LAB_IMAGE")
	if [[ $(basename "$img") =~ ^rootfs-([0-9a-f]{64})\.img$ ]]; then
		guest_image_sha=${BASH_REMATCH[1]}
	elif [[ -f $LAB_IMAGE.sha256 ]]; then
		guest_image_sha=$(cat "$LAB_IMAGE.sha256")
	else
		die "$EX_MISSING" "guest image build/image/rootfs.img has no checksum (run $(build_hint image))"
	fi
	guest_image_src=$img
}

# guest_prepare FLAVOUR POLICY: guest_resolve, then set accel
# (lab/lib/accel.sh) and cmdline: the policy's parameters, a TCG guest's
# clock from the host's TSC rate, the shape's (shape_cmdline) and the
# caller's --boot-arg's.
# shellcheck disable=SC2154 # boot_args is the caller's
guest_prepare() {
	guest_resolve "$1"
	accel=$(accel_choose "$guest_kernel_src")
	cmdline="$(policy_cmdline "$2") $(guest_clock_params "$accel")"
	[[ -z $shape_cmdline ]] || cmdline+=" $shape_cmdline"
	((${#boot_args[@]} == 0)) || cmdline+=" ${boot_args[*]}"
}

# guest_pin WORKDIR: hard-link (or copy) the resolved kernel and image into
# WORKDIR, so a rebuild during the run cannot swap them, and check the
# image's checksum on that very file. Sets guest[kernel] and guest[image].
guest_pin() {
	local work=$1 f
	for f in kernel image; do
		local src=guest_${f}_src dst=$work/$f
		ln -f "${!src}" "$dst" 2>/dev/null || cp "${!src}" "$dst" ||
			die "$EX_HARNESS" "cannot copy ${!src} into ${work#"$LAB_TOP"/}"
		guest[${f}]=$dst
	done
	[[ $(sha256sum "$work/image" | cut -c1-64) == "$guest_image_sha" ]] ||
		die "$EX_MISSING" "guest image build/image/rootfs.img is corrupt (checksum differs; run $(build_hint image))"
}

# guest_pin_sources WORKDIR: for a run whose workloads read the sources
# disk (file-search: images/build-sources.sh's tree and manifest), pin
# build/image/sources.img into WORKDIR as guest_pin pins the image (a hard
# link, or the file itself where none can be made: it is 1.4 GB) and set
# guest[sources]: guest_qemu_argv adds it read-only as the sixth disk,
# /dev/vdf, which the guest mounts on /sources.
guest_pin_sources() {
	local work=$1 img=$LAB_BUILD/image/sources.img src
	[[ -f $img ]] || die "$EX_MISSING" "no sources disk build/image/sources.img (run $(build_hint image))"
	src=$(readlink -f "$img")
	if ln -f "$src" "$work/sources.img" 2>/dev/null; then
		guest[sources]=$work/sources.img
	else
		guest[sources]=$src
	fi
}

# guest_qemu_argv: sets the array qemu_argv from the array guest. The
# console goes to guest[console] (and, interactive, to the terminal too,
# with QEMU's monitor on Ctrl-A C and Ctrl-A X to quit).
guest_qemu_argv() {
	local cpu=() serial=() gdb=() shape_argv=() accel=${guest[accel]} sources=()
	[[ $accel == kvm ]] && cpu=(-cpu host)
	# TCG runs every vCPU in one host thread. With a thread per vCPU
	# (QEMU 7.2's default) a vCPU could go on running its translation of
	# kernel text that text_poke_bp() had already rewritten: it looped on
	# an int3 that memory no longer held, interrupts off, and the guest
	# livelocked when a static key flipped under load, vanilla 6.1 as
	# well as the lab kernel. One thread did not, and cost no measurable
	# time here (docs/notes/jump-labels.md).
	[[ $accel != tcg ]] || accel=tcg,thread=single
	guest_shape_argv "${guest[mem]}" "${guest[vcpus]}"
	# A guest that hangs can be read with gdb and the kernel's vmlinux
	# (target remote :PORT); only for debugging, never in results.
	[[ -z ${LAB_QEMU_GDB:-} ]] || gdb=(-gdb "tcp:127.0.0.1:$LAB_QEMU_GDB")
	[[ -z ${guest[sources]:-} ]] ||
		sources=(-drive "file=${guest[sources]},if=virtio,format=raw,readonly=on")
	if ((${guest[interactive]:-0})); then
		serial=(-chardev "stdio,id=con,mux=on,signal=off,logfile=${guest[console]}"
			-serial chardev:con -mon chardev=con)
	else
		serial=(-serial "file:${guest[console]}")
	fi
	# shellcheck disable=SC2034 # for the callers
	qemu_argv=(qemu-system-x86_64 -M pc -accel "$accel" "${cpu[@]}"
		"${shape_argv[@]}" -display none -nodefaults -no-reboot
		"${serial[@]}" "${gdb[@]}"
		-kernel "${guest[kernel]}"
		-append "console=ttyS0 root=/dev/vda ro rootfstype=ext4 init=/init panic=-1 oops=panic nokaslr ${guest[cmdline]}"
		-drive "file=${guest[image]},if=virtio,format=raw,readonly=on"
		-drive "file=${guest[work]}/job.img,if=virtio,format=raw,readonly=on"
		-drive "file=${guest[work]}/swap.img,if=virtio,format=raw,cache=none"
		-drive "file=${guest[work]}/data.img,if=virtio,format=raw,cache=none"
		-drive "file=${guest[work]}/results.img,if=virtio,format=raw,cache=none"
		"${sources[@]}")
}

# --- The registry of running guests: build/guests/ID.lock is held (flock)
# by the command that boots guest ID and by its QEMU, which inherits the
# descriptor, so an orphaned QEMU still counts. ID.seen collects the other
# guests that ran at any moment beside ID: each guest, as it registers,
# writes itself into every live guest's .seen and every live guest into
# its own; all under build/guests/.lock.

guest_registry=$LAB_BUILD/guests
guest_reg_fd="" guest_lock_fd="" guest_id=""

# guest_register ID DESCRIPTION
guest_register() {
	local id=$1 f other
	guest_id=$id
	mkdir -p "$guest_registry"
	exec {guest_reg_fd}>>"$guest_registry/.lock"
	flock "$guest_reg_fd"
	: >"$guest_registry/$id.seen"
	for f in "$guest_registry"/*.lock; do
		[[ -e $f ]] || continue
		other=$(basename "$f" .lock)
		if flock -n "$f" true; then
			# Nobody holds it: a guest that ended without unregistering.
			rm -f "$guest_registry/$other".{lock,seen,info}
		else
			echo "$id" >>"$guest_registry/$other.seen"
			echo "$other" >>"$guest_registry/$id.seen"
		fi
	done
	printf '%s\n' "$2" >"$guest_registry/$id.info"
	exec {guest_lock_fd}>"$guest_registry/$id.lock"
	flock -n "$guest_lock_fd"
	flock -u "$guest_reg_fd"
}

# guest_unregister: sets guest[concurrent_ids] (space-separated, sorted)
# and guest[concurrent] (their number).
guest_unregister() {
	[[ -n $guest_id ]] || return 0
	flock "$guest_reg_fd"
	guest[concurrent_ids]=$(sort -u "$guest_registry/$guest_id.seen" 2>/dev/null | tr '\n' ' ')
	guest[concurrent_ids]=${guest[concurrent_ids]% }
	guest[concurrent]=$(wc -w <<<"${guest[concurrent_ids]}")
	rm -f "$guest_registry/$guest_id".{lock,seen,info}
	exec {guest_lock_fd}>&-
	flock -u "$guest_reg_fd"
	exec {guest_reg_fd}>&-
	guest_id=""
}

# --- One guest's life.

guest_pid="" guest_tail_pid="" guest_dog_pid="" guest_stalled=0 guest_starting=0

# guest_start: QEMU in the background. Under timeout(1), which leads its
# own process group (so the terminal's Ctrl-C does not reach QEMU: the
# caller's signal trap stops the group). An interactive guest has no
# timeout and stays in the terminal's process group to read it.
guest_start() {
	guest_qemu_argv
	printf '%q ' "${qemu_argv[@]}" >"${guest[qemu_cmdline]}"
	echo >>"${guest[qemu_cmdline]}"
	: >"${guest[console]}"
	[[ -n ${guest[markers]:-} ]] && printf '%s HOST: qemu start\n' "$EPOCHREALTIME" >>"${guest[markers]}"
	# A signal between the fork and the next line still finds the guest
	# (guest_stop takes $! while guest_starting is set).
	guest_starting=1
	if ((${guest[interactive]:-0})); then
		"${qemu_argv[@]}" 0<&0 &
	else
		timeout -s KILL "${guest[timeout]}" "${qemu_argv[@]}" </dev/null >"${guest[qemu_log]}" 2>&1 &
	fi
	guest_pid=$!
	guest_starting=0
}

# guest_stop: stop the running guest now (its whole process group).
guest_stop() {
	local pid=$guest_pid
	((guest_starting)) && pid=$!
	[[ -n $pid ]] || return 0
	if ((${guest[interactive]:-0})); then
		# TERM: QEMU gives the terminal back as it was.
		kill -TERM "$pid" 2>/dev/null || true
	else
		kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
	fi
}

# guest_watch: until QEMU is gone, read its console as it grows: echo
# each LAB line (with guest[progress] in front) and time-stamp it in
# guest[markers]. A watchdog stops the guest when init has printed nothing
# within guest[boot_limit] seconds, and guest_stalled says so (1). (The
# reading is a plain blocking read: bash's read -t can swallow the exit of
# a signal trap that runs while it waits.)
guest_watch() {
	local fd line stall=${guest[work]}/.boot-stalled
	rm -f "$stall"
	exec {fd}< <(exec tail -n +1 -F --pid="$guest_pid" "${guest[console]}" 2>/dev/null)
	guest_tail_pid=$!
	guest_watchdog "$stall" &
	guest_dog_pid=$!
	while IFS= read -r -u "$fd" line || [[ -n $line ]]; do
		line=${line%$'\r'}
		[[ $line == LAB* ]] || continue
		[[ -n ${guest[markers]:-} ]] && printf '%s %s\n' "$EPOCHREALTIME" "$line" >>"${guest[markers]}"
		[[ -n ${guest[progress]+set} ]] && say "${guest[progress]}$line"
	done
	exec {fd}<&-
	wait "$guest_tail_pid" 2>/dev/null || true
	guest_tail_pid=""
	kill "$guest_dog_pid" 2>/dev/null || true
	wait "$guest_dog_pid" 2>/dev/null || true
	guest_dog_pid=""
	guest_stalled=0
	[[ ! -e $stall ]] || guest_stalled=1
	rm -f "$stall"
}

# guest_watchdog FLAG: in the background, once a second until the guest's
# first LAB line or its end; past guest[boot_limit] seconds without one,
# create FLAG and stop the guest.
guest_watchdog() {
	local limit=${guest[boot_limit]:-0} t
	((limit > 0)) || return 0
	for ((t = 0; t < limit; t++)); do
		sleep 1
		kill -0 "$guest_pid" 2>/dev/null || return 0
		grep -aq '^LAB' "${guest[console]}" 2>/dev/null && return 0
	done
	: >"$1"
	guest_stop
}

# guest_abort: for the callers' signal traps. Stops the guest and its
# console reader, and leaves the registry.
guest_abort() {
	guest_stop
	[[ -z $guest_tail_pid ]] || kill "$guest_tail_pid" 2>/dev/null || true
	[[ -z $guest_dog_pid ]] || kill "$guest_dog_pid" 2>/dev/null || true
	guest_unregister
}

# guest_boot: boot the guest the caller described in the associative
# array guest, as often as a boot stalls (at most guest[retries] times
# more), and wait for it to end. Keys the caller sets:
#   kernel image (guest_pin), work job mem vcpus accel cmdline
#   console qemu_log qemu_cmdline  files (qemu_log unused if interactive)
#   timeout      seconds for one boot (not for an interactive guest)
#   boot_limit   seconds until init's first LAB line (0: wait forever)
#   retries      boots after a stall (stalled consoles are kept as
#                console.boot-stall-N.log beside guest[console])
#   id desc      the registry's name and description of this guest
#   progress     if set, LAB lines go to stderr with this in front
#   markers      if set, a file of "HOSTTIME LINE" per LAB line
#   interactive  1: the console is the terminal's
# and that it gets back: qemu_rc, wall_s (of the last boot), boot_stalls,
# stalled (1: the last boot stalled too), concurrent, concurrent_ids.
guest_boot() {
	local console=${guest[console]} stalls=0 rc t0
	guest[stalled]=0
	guest_register "${guest[id]}" "${guest[desc]}"
	while :; do
		t0=$SECONDS
		guest_start
		guest_watch
		rc=0
		wait "$guest_pid" || rc=$?
		guest_pid=""
		guest[qemu_rc]=$rc
		guest[wall_s]=$((SECONDS - t0))
		((guest_stalled)) || break
		stalls=$((stalls + 1))
		mv "$console" "${console%.log}.boot-stall-$stalls.log"
		if ((stalls > ${guest[retries]:-2})) ||
			[[ -n $(scan_console "${console%.log}.boot-stall-$stalls.log") ]]; then
			cp "${console%.log}.boot-stall-$stalls.log" "$console"
			guest[stalled]=1
			break
		fi
		say "no init within ${guest[boot_limit]}s (boot stall $stalls; console kept as $(basename "${console%.log}").boot-stall-$stalls.log): booting again on fresh disks"
		guest_make_disks "${guest[work]}" "${guest[job]}" "${guest[mem]}"
	done
	guest[boot_stalls]=$stalls
	guest_unregister
}
