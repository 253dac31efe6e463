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
	((mib >= 128 && mib <= 16384)) || die "$EX_USAGE" "--mem must be between 128M and 16G"
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
LAB_OWN_BOOT_KEYS=(console root rootfstype ro rw init panic oops nokaslr
	page_replace tsc_early_khz tsc)

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
		if [[ $p == vanilla* ]] || ! in_list "$p" "${LAB_POLICIES[@]}" "${LAB_TEST_POLICIES[@]}"; then
			die "$EX_USAGE" "bad --switch-at policy '$p' (a lab kernel policy: ${LAB_POLICIES[*]:1}; on --kernel test also ${LAB_TEST_POLICIES[*]})"
		fi
		out+=("$t" "$p")
		prev=$t
	done
	printf '%s\n' "${out[@]}" | jq -R . | jq -sc '[range(0; length; 2) as $i
		| {t_s: (.[$i] | tonumber), to: .[$i + 1]}]'
}
