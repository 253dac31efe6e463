# shellcheck shell=bash
# A run's job disk: what the guest's init reads (images/guest/init).
#   job.env         LAB_* settings, sourced by init
#   args            the main workload's arguments, one per line
#   also-N.args     companion workload N's (--also)
#   files/K/NAME    host files the arguments name, carried in read-only
# and the host-side check of those files, with the workload's own parser,
# before anything boots. Sourced by run.sh after common.sh.

# job_map_args OUT_ARRAY FIRST_K ARG...: the arguments as the guest sees
# them: a host file becomes /job/files/K/NAME (K counts from FIRST_K, so
# two files of one name never meet), --emit-refs goes to the guest's
# results disk. Sets OUT_ARRAY, job_carried (more "HOST<tab>GUEST" lines)
# and job_next_k.
job_carried=()
job_next_k=1
job_map_args() {
	local -n job_map_out=$1
	local k=$2 i=0 a
	shift 2
	local in=("$@")
	job_map_out=()
	while ((i < ${#in[@]})); do
		a=${in[i]}
		if [[ $a == --emit-refs ]]; then
			job_map_out+=(--emit-refs /results/run/refs.bin)
			# A value given on the host names nothing in the guest.
			if ((i + 1 < ${#in[@]})) && [[ ${in[i + 1]} != -* ]]; then i=$((i + 1)); fi
		elif [[ $a != -* && -f $a ]]; then
			[[ $a != *$'\t'* ]] || die "$EX_USAGE" "file names with tabs cannot be carried in: '$a'"
			job_carried+=("$(realpath "$a")"$'\t'"/job/files/$k/$(basename "$a")")
			job_map_out+=("/job/files/$k/$(basename "$a")")
			k=$((k + 1))
		else
			job_map_out+=("$a")
		fi
		i=$((i + 1))
	done
	# shellcheck disable=SC2034 # the caller's
	job_next_k=$k
}

# job_check_files WORKLOAD ARG...: when the arguments (as given on the
# host) name files, the workload parses them here first: a malformed file
# ends the run now with the workload's own message (FILE:LINE), exit 2.
# A workload whose --help names --check-only (all of workloads/ do: its
# driver) parses its options and inputs and touches nothing else; one
# without it is not checked here.
job_check_files() {
	local wl=$1 bin=$LAB_BUILD/workloads/$1 scratch err rc=0 a files=0 args=() skip=0
	shift
	for a in "$@"; do
		if ((skip)); then
			skip=0
			[[ $a != -* ]] && continue
		fi
		if [[ $a == --emit-refs ]]; then
			skip=1
			continue
		fi
		[[ $a != -* && -f $a ]] && files=1
		args+=("$a")
	done
	((files)) || return 0
	[[ -x $bin ]] || die "$EX_MISSING" "build/workloads/$wl not found (run $(build_hint workloads))"
	scratch=$(mktemp -d)
	if "$bin" --help 2>/dev/null | grep -q -- '--check-only'; then
		err=$(cd "$scratch" && timeout 120 "$bin" --check-only "${args[@]}" 2>&1 >/dev/null) || rc=$?
	fi
	rm -rf "$scratch"
	((rc != 2)) || die "$EX_USAGE" "$(grep -v '^[[:space:]]*$' <<<"$err" | tail -n1)"
}

# job_copy_files JOBDIR: copy the carried files into JOBDIR/files/K/.
job_copy_files() {
	local job=$1 c dst
	for c in "${job_carried[@]}"; do
		dst=$job${c#*$'\t'/job}
		mkdir -p "$(dirname "$dst")"
		cp "${c%%$'\t'*}" "$dst"
	done
}
