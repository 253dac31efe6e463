# shellcheck shell=bash
# Checks of the options that several commands take (run, matrix, shell,
# stress), so each is refused the same way everywhere: one line on stderr
# and exit 2, before anything boots. Sourced after common.sh.

# opt_mem SIZE: guest memory (e.g. 256M, 1G) -> MiB on stdout.
opt_mem() {
	local mib
	# No leading zero: shell arithmetic would read 0256 as octal.
	[[ $1 =~ ^([1-9][0-9]{0,5})([MG]?)$ ]] || die "$EX_USAGE" "bad --mem '$1' (e.g. 256M or 1G)"
	mib=${BASH_REMATCH[1]}
	[[ ${BASH_REMATCH[2]} == G ]] && mib=$((mib * 1024))
	((mib >= 128 && mib <= 4096)) || die "$EX_USAGE" "--mem must be between 128M and 4G"
	echo "$mib"
}

# opt_seconds OPTION VALUE: a positive whole number of seconds.
opt_seconds() {
	[[ $2 =~ ^[1-9][0-9]{0,5}$ ]] || die "$EX_USAGE" "bad $1 '$2' (seconds, a positive number)"
}

# opt_size OPTION VALUE: a workload size, bytes with K/M/G or N% of MemTotal.
opt_size() {
	[[ $2 =~ ^[1-9][0-9]*[KMG]?$ || $2 =~ ^[1-9][0-9]*%$ ]] ||
		die "$EX_USAGE" "bad $1 '$2' (e.g. 300M, 1G or 150%)"
}

# opt_bytes VALUE: K/M/G suffixed size -> bytes on stdout (no check).
opt_bytes() {
	local n=${1%[KMG]}
	case $1 in
	*K) echo $((n << 10)) ;;
	*M) echo $((n << 20)) ;;
	*G) echo $((n << 30)) ;;
	*) echo "$n" ;;
	esac
}

# opt_cgroup SPEC: NAME[:LIMIT] of --cgroup. NAME is one directory under
# /sys/fs/cgroup: a letter or digit, then letters, digits, _ and -, at most
# 64 (no dots: cgroup v2 keeps "name.file" for its interface files, and
# the lab uses lab-* itself). LIMIT is memory.max: bytes with K/M/G, at
# least 8M, or 1% to 100% of the guest's MemTotal. Prints the JSON object
# recorded as params.cgroup: {name, limit, limit_bytes}; limit_bytes is
# null for a percentage (the guest computes it; result.json's cgroup
# object has the value applied).
opt_cgroup() {
	local spec=$1 name limit="" bytes=null
	name=${spec%%:*}
	[[ $spec == *:* ]] && limit=${spec#*:}
	[[ $name =~ ^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$ && $name != lab-* ]] ||
		die "$EX_USAGE" "bad --cgroup name '$name' (letters, digits, _ and -; not lab-*)"
	if [[ $spec == *: ]]; then
		die "$EX_USAGE" "bad --cgroup '$spec': the limit after ':' is empty"
	elif [[ -z $limit ]]; then
		:
	elif [[ $limit =~ ^([1-9][0-9]?|100)%$ ]]; then
		:
	elif [[ $limit =~ ^[1-9][0-9]{0,12}[KMG]?$ ]]; then
		bytes=$(opt_bytes "$limit")
		((bytes >= 8 << 20)) || die "$EX_USAGE" "bad --cgroup limit '$limit' (at least 8M)"
	else
		die "$EX_USAGE" "bad --cgroup limit '$limit' (e.g. 200M, 1G or 75% of MemTotal)"
	fi
	jq -cn --arg name "$name" --arg limit "$limit" --argjson bytes "$bytes" \
		'{name: $name, limit: (if $limit == "" then null else $limit end), limit_bytes: $bytes}'
}

# The kernel parameters the lab sets itself (guest_qemu_argv, policy_cmdline,
# guest_clock_params): --boot-arg may not set them again.
# memhp_default_state and swiotlb are the shape's (--numa-dimm:
# shape_check); transparent_hugepage= would be --thp's, which 6.1 ignores
# below 512 MiB of RAM (the guest's init sets THP's mode through sysfs).
LAB_OWN_BOOT_KEYS=(console root rootfstype ro rw init panic oops nokaslr
	page_replace tsc_early_khz tsc transparent_hugepage memhp_default_state swiotlb)

# opt_boot_arg K=V: one word appended to the guest's kernel command line.
# KEY is a kernel parameter name (letters, digits, _ - and dots for a
# subsystem's parameters, as page_replace.clockpro_insert); VALUE has no
# spaces or quotes. The lab's own parameters (LAB_OWN_BOOT_KEYS) and lab.*
# are refused: they would change what the lab boots behind its back.
opt_boot_arg() {
	local kv=$1 key
	[[ $kv =~ ^[A-Za-z0-9_][A-Za-z0-9_.-]*=[A-Za-z0-9_.,:/+@%-]*$ ]] ||
		die "$EX_USAGE" "bad --boot-arg '$kv' (KEY=VALUE, e.g. page_replace.clockpro_insert=paper)"
	key=${kv%%=*}
	key=${key//-/_}
	if in_list "$key" "${LAB_OWN_BOOT_KEYS[@]}" || [[ $key == lab.* ]]; then
		die "$EX_USAGE" "--boot-arg '$kv' would override the lab's own '${kv%%=*}=' (use the lab's options instead)"
	fi
}

# opt_switch_at SPEC: T:POLICY[,T:POLICY...] of --switch-at. T is seconds
# into the timed phase (a positive number, e.g. 10 or 2.5), strictly
# increasing; POLICY a policy of the lab kernel (or of the test kernel's,
# which a lab kernel refuses in the guest: the switch is recorded failed).
# Prints the JSON array
# recorded as params.switch_at: [{t_s, to}].
opt_switch_at() {
	local spec=$1 item t p prev=0 items=() out=()
	[[ -n $spec ]] || die "$EX_USAGE" "bad --switch-at '' (T:POLICY[,T:POLICY...])"
	IFS=, read -r -a items <<<"$spec"
	[[ $spec != *, ]] || die "$EX_USAGE" "bad --switch-at '$spec': empty item after ','"
	for item in "${items[@]}"; do
		[[ $item == *:* ]] || die "$EX_USAGE" "bad --switch-at item '$item' (T:POLICY, e.g. 10:clockpro)"
		t=${item%%:*} p=${item#*:}
		if ! [[ $t =~ ^(0|[1-9][0-9]{0,4})(\.[0-9]{1,3})?$ ]] || ! awk -v t="$t" 'BEGIN { exit !(t > 0) }'; then
			die "$EX_USAGE" "bad --switch-at time '$t' (seconds into the timed phase, a positive number)"
		fi
		awk -v a="$prev" -v b="$t" 'BEGIN { exit !(b > a) }' ||
			die "$EX_USAGE" "bad --switch-at '$spec': times must increase ($t after $prev)"
		if ! policy_known "$p" || policy_vanilla "$p"; then
			die "$EX_USAGE" "bad --switch-at policy '$p' (a lab kernel policy: $(lab_policies); on --kernel test also ${LAB_TEST_POLICIES[*]})"
		fi
		out+=("$t" "$p")
		prev=$t
	done
	printf '%s\n' "${out[@]}" | jq -R . | jq -sc '[range(0; length; 2) as $i
		| {t_s: (.[$i] | tonumber), to: .[$i + 1]}]'
}

# --- The machine's shape: NUMA nodes and a DIMM on node 0, swap, THP and
# the data disk's filesystem. run, matrix, shell and stress take the same
# options: their option loops hand them to shape_take, and shape_check
# checks them once --mem and --vcpus are known. guest.sh boots the shape
# (QEMU's -numa nodes and pc-dimm, the disks), images/guest/init sets it
# up (swap, the data disk) and records what the guest kernel saw, and
# result.json has the request under params (numa, swap, thp, fs).

# The values as given; shape_check sets the rest.
shape_numa="" shape_dimm="" shape_swap=disk shape_thp="" shape_fs=ext4
shape_node_mib=() shape_node_cpus=() shape_dimm_mib=0 shape_cmdline=""
shape_json='{"numa":null,"swap":"disk","thp":null,"fs":"ext4"}'
# The smallest node, boot memory (node 0 without its DIMM) included.
SHAPE_NODE_MIN_MIB=32
# The guest's memory block: hot-added memory comes in whole blocks.
SHAPE_DIMM_ALIGN_MIB=128

# shape_usage: the shape options' lines of a command's --help.
shape_usage() {
	cat <<'USAGE'
  --numa N[:SIZE,...]
                    N NUMA nodes (1 to 8, QEMU's -numa node): --mem split
                    evenly in 4 MiB units, or SIZE for each node (each a
                    multiple of 4M and at least 32M, adding up to --mem);
                    the vCPUs split evenly in blocks (0-1 on node 0, 2-3
                    on node 1, ...); with more nodes than vCPUs the last
                    nodes have memory and no CPU
  --numa-dimm SIZE  SIZE of node 0's memory (a multiple of 128M, the
                    guest's memory block) is a cold-plugged pc-dimm that
                    QEMU places above 4 GiB and the guest onlines at boot
                    (memhp_default_state=online): node 0's span then holds
                    node 1's memory. Needs --numa 2 or more; --mem stays
                    the guest's total (the DIMM is taken out of node 0)
  --swap KIND       disk (default: a virtio disk of 4 x --mem, at least
                    1G), zram (/dev/zram0 of the same size, lzo-rle) or none
  --thp MODE        always|madvise|never, written to /sys/kernel/mm/
                    transparent_hugepage/enabled before the workload
                    (default: the kernel's own: never below 512 MiB of
                    RAM, which 6.1 imposes on small machines whatever
                    transparent_hugepage= says; madvise from 512 MiB)
  --fs FS           the data disk's filesystem: ext4 (default) or xfs
                    (large folios in the page cache)
USAGE
}

# shape_take OPTION VALUE: keep the value of a shape option; returns 1
# when OPTION is not one.
shape_take() {
	case $1 in
	--numa) shape_numa=$2 ;;
	--numa-dimm) shape_dimm=$2 ;;
	--swap) shape_swap=$2 ;;
	--thp) shape_thp=$2 ;;
	--fs) shape_fs=$2 ;;
	*) return 1 ;;
	esac
}

# shape_mib OPTION VALUE: a size with M or G (M without) -> MiB on stdout.
shape_mib() {
	local mib
	[[ $2 =~ ^([1-9][0-9]{0,5})([MG]?)$ ]] || die "$EX_USAGE" "bad $1 size '$2' (e.g. 128M or 1G)"
	mib=${BASH_REMATCH[1]}
	[[ ${BASH_REMATCH[2]} == G ]] && mib=$((mib * 1024))
	echo "$mib"
}

# shape_check MEM_MIB VCPUS: check the shape against the guest's memory
# and vCPUs, each fault one line and exit 2. Sets shape_node_mib (each
# node's MiB, its DIMM included), shape_node_cpus (each node's vCPUs,
# space-separated, empty for none), shape_dimm_mib (0 for none),
# shape_cmdline (kernel parameters the shape needs) and shape_json (the
# params fields: {numa, swap, thp, fs}; numa is {nodes, node_mib,
# node_cpus, dimm_mib} or null without --numa).
# shellcheck disable=SC2034 # shape_json is for the callers
shape_check() {
	local mem_mib=$1 vcpus=$2 n=0 spec sizes=() s mib i sum=0 units first per extra
	shape_node_mib=() shape_node_cpus=() shape_dimm_mib=0 shape_cmdline=""
	in_list "$shape_swap" disk zram none || die "$EX_USAGE" "bad --swap '$shape_swap' (disk|zram|none)"
	[[ -z $shape_thp ]] || in_list "$shape_thp" always madvise never ||
		die "$EX_USAGE" "bad --thp '$shape_thp' (always|madvise|never)"
	in_list "$shape_fs" ext4 xfs || die "$EX_USAGE" "bad --fs '$shape_fs' (ext4|xfs)"
	if [[ -n $shape_numa ]]; then
		[[ $shape_numa =~ ^([1-8])(:(.*))?$ ]] ||
			die "$EX_USAGE" "bad --numa '$shape_numa' (N or N:SIZE,SIZE,..., N from 1 to 8, e.g. 2 or 2:192M,64M)"
		n=${BASH_REMATCH[1]} spec=${BASH_REMATCH[3]}
		if [[ $shape_numa == *:* ]]; then
			[[ $spec =~ ^[^,]+(,[^,]+)*$ ]] ||
				die "$EX_USAGE" "bad --numa '$shape_numa' (N:SIZE,SIZE,..., no size left empty)"
			IFS=, read -r -a sizes <<<"$spec"
			((${#sizes[@]} == n)) ||
				die "$EX_USAGE" "bad --numa '$shape_numa': $n nodes need $n sizes, not ${#sizes[@]}"
			for s in "${sizes[@]}"; do
				mib=$(shape_mib --numa "$s")
				((mib % 4 == 0)) || die "$EX_USAGE" "bad --numa size '$s' (a multiple of 4M)"
				shape_node_mib+=("$mib")
			done
		else
			((mem_mib % 4 == 0)) ||
				die "$EX_USAGE" "--numa $n: --mem ${mem_mib}M does not split into 4 MiB units (give a multiple of 4M)"
			units=$((mem_mib / 4))
			for ((i = 0; i < n; i++)); do
				shape_node_mib+=($(((units / n + (i < units % n ? 1 : 0)) * 4)))
			done
		fi
		for mib in "${shape_node_mib[@]}"; do sum=$((sum + mib)); done
		((sum == mem_mib)) ||
			die "$EX_USAGE" "bad --numa '$shape_numa': the nodes add up to ${sum}M, not --mem ${mem_mib}M"
		# vCPUs in blocks, the first nodes one more when they do not split.
		first=0 per=$((vcpus / n)) extra=$((vcpus % n))
		for ((i = 0; i < n; i++)); do
			s=$((per + (i < extra ? 1 : 0)))
			shape_node_cpus+=("$(seq -s ' ' "$first" $((first + s - 1)))")
			first=$((first + s))
		done
	fi
	if [[ -n $shape_dimm ]]; then
		((n >= 2)) || die "$EX_USAGE" "--numa-dimm needs --numa 2 or more (node 0's DIMM lies above node 1)"
		shape_dimm_mib=$(shape_mib --numa-dimm "$shape_dimm")
		((shape_dimm_mib % SHAPE_DIMM_ALIGN_MIB == 0)) ||
			die "$EX_USAGE" "bad --numa-dimm '$shape_dimm' (a multiple of ${SHAPE_DIMM_ALIGN_MIB}M, the guest's memory block)"
		((shape_node_mib[0] - shape_dimm_mib >= SHAPE_NODE_MIN_MIB)) ||
			die "$EX_USAGE" "--numa-dimm ${shape_dimm_mib}M leaves node 0 $((shape_node_mib[0] - shape_dimm_mib))M to boot with, less than ${SHAPE_NODE_MIN_MIB}M (give node 0 more: --numa $n:SIZE,...)"
		# The DIMM's hotplug area makes the guest's possible memory reach
		# past 4 GiB, and then the kernel sets aside a 32-64 MiB bounce
		# buffer for devices that address only 32 bits. The guest has
		# none (virtio addresses 64 bits): noforce keeps that memory the
		# workload's, as in every other shape.
		shape_cmdline+=" memhp_default_state=online swiotlb=noforce"
	fi
	for ((i = 0; i < n; i++)); do
		((shape_node_mib[i] >= SHAPE_NODE_MIN_MIB)) ||
			die "$EX_USAGE" "bad --numa '$shape_numa': node $i has ${shape_node_mib[i]}M, less than ${SHAPE_NODE_MIN_MIB}M"
	done
	shape_cmdline=${shape_cmdline# }
	if [[ $shape_fs == xfs ]] && ! command -v mkfs.xfs >/dev/null; then
		die "$EX_MISSING" "--fs xfs needs mkfs.xfs on this host (make deps installs xfsprogs)"
	fi
	shape_json=$(jq -cn --argjson n "$n" --arg swap "$shape_swap" --arg thp "$shape_thp" --arg fs "$shape_fs" \
		--argjson dimm "$shape_dimm_mib" \
		--argjson mib "$(printf '%s\n' "${shape_node_mib[@]}" | jq -R 'select(. != "") | tonumber' | jq -sc .)" \
		--argjson cpus "$(printf '%s\n' "${shape_node_cpus[@]}" | jq -R '[splits(" ") | select(. != "") | tonumber]' | jq -sc .)" \
		'{numa: (if $n == 0 then null
		         else {nodes: $n, node_mib: $mib, node_cpus: $cpus[:$n], dimm_mib: $dimm} end),
		  swap: $swap, thp: (if $thp == "" then null else $thp end), fs: $fs}')
}

# shape_words: the shape for a progress line, what differs from the
# default (", 2 NUMA nodes 192+64M (a 128M DIMM on node 0), zram swap"),
# or nothing.
shape_words() {
	local w="" sizes
	if ((${#shape_node_mib[@]})); then
		sizes=${shape_node_mib[*]}
		w+=", ${#shape_node_mib[@]} NUMA nodes ${sizes// /+}M"
		((shape_dimm_mib == 0)) || w+=" (a ${shape_dimm_mib}M DIMM on node 0)"
	fi
	[[ $shape_swap == disk ]] || w+=", $shape_swap swap"
	[[ -z $shape_thp ]] || w+=", THP $shape_thp"
	[[ $shape_fs == ext4 ]] || w+=", $shape_fs data"
	printf '%s' "$w"
}

# shape_options: the shape options as given, those that are not the
# default, for a command line that repeats a run ("--numa 2 --swap zram").
shape_options() {
	local o=()
	[[ -z $shape_numa ]] || o+=(--numa "$shape_numa")
	[[ -z $shape_dimm ]] || o+=(--numa-dimm "$shape_dimm")
	[[ $shape_swap == disk ]] || o+=(--swap "$shape_swap")
	[[ -z $shape_thp ]] || o+=(--thp "$shape_thp")
	[[ $shape_fs == ext4 ]] || o+=(--fs "$shape_fs")
	printf '%s' "${o[*]}"
}
