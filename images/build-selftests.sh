#!/usr/bin/env bash
# Build the kernel's own mm selftests, from the lab source tree, as static
# binaries for the guest image: the vm tests the reliability gate runs
# (images/guest/stress-job.sh) into build/selftests/vm/ and cgroup's
# test_memcontrol into build/selftests/cgroup/. build-rootfs.sh copies
# build/selftests/ into the image's /lab/selftests/.
#
#   build-selftests.sh          (LAB_SELFTESTS_SRC=tree overrides the source)
#
# Incremental: the UAPI headers are reinstalled only when the tree's uapi
# directories changed, and make rebuilds only binaries older than their
# sources (.DELETE_ON_ERROR in the selftests' makefiles removes a failed
# binary, so nothing half-built is ever taken for a test).
set -euo pipefail
lab_prog=build-selftests
# shellcheck source=../lab/lib/common.sh
source "$(dirname "$0")/../lab/lib/common.sh"

# The vm tests the gate runs; the hugetlb, KSM, NUMA, HMM and pkeys ones
# need features the lean guest kernel does not have.
vm_tests=(madv_populate map_fixed_noreplace map_populate mlock2-tests
	mremap_dontunmap mremap_test mrelease_test userfaultfd)
cgroup_tests=(test_memcontrol)

src=${LAB_SELFTESTS_SRC:-$LAB_BUILD/src/lab}
[[ -f $src/Makefile && -d $src/tools/testing/selftests/vm ]] ||
	die "$EX_MISSING" "no kernel source tree in ${src#"$LAB_TOP"/} (run make kernel-lab first)"
out=$LAB_BUILD/selftests
hdr_dir=_out-headers
hdr=$src/$hdr_dir
stamp=$hdr/.lab-headers-installed

# UAPI headers of this very tree, so the tests see the kernel's own ABI.
if [[ ! -f $stamp ]] ||
	[[ -n $(find "$src/include/uapi" "$src/arch/x86/include/uapi" -newer "$stamp" -print -quit) ]]; then
	say "installing the kernel's UAPI headers into ${hdr#"$LAB_TOP"/}"
	mkdir -p "$hdr"
	make -s -C "$src" O="$hdr_dir" headers >"$hdr/headers.log" 2>&1 || {
		tail -n 20 "$hdr/headers.log" >&2
		die "$EX_HARNESS" "make headers failed; log: ${hdr#"$LAB_TOP"/}/headers.log"
	}
	touch "$stamp"
fi

# 6.1's mrelease_test uses __NR_process_mrelease without including
# <sys/syscall.h>, falls back to -1 and always skips: include it for it.
extra_cflags="-include sys/syscall.h"

# build_dir DIR TESTS...: make the given tests of selftests/DIR, static.
build_dir() {
	local dir=$1 t targets=() flags
	shift
	mkdir -p "$out/$dir"
	for t in "$@"; do targets+=("$out/$dir/$t"); done
	# make does not see changed flags: start over when they change.
	flags="KHDR_INCLUDES=-isystem $hdr/usr/include LDFLAGS=-static EXTRA_CFLAGS=$extra_cflags"
	if [[ $(cat "$out/$dir/.flags" 2>/dev/null) != "$flags" ]]; then
		rm -rf "${out:?}/$dir"
		mkdir -p "$out/$dir"
	fi
	if ! make -s -C "$src/tools/testing/selftests/$dir" OUTPUT="$out/$dir" \
		KHDR_INCLUDES="-isystem $hdr/usr/include" LDFLAGS=-static \
		EXTRA_CFLAGS="$extra_cflags" \
		"${targets[@]}" >"$hdr/selftests-$dir.log" 2>&1; then
		tail -n 20 "$hdr/selftests-$dir.log" >&2
		die "$EX_HARNESS" "building selftests/$dir failed; log: ${hdr#"$LAB_TOP"/}/selftests-$dir.log"
	fi
	for t in "${targets[@]}"; do
		file -b "$t" | grep -q 'statically linked' ||
			die "$EX_HARNESS" "${t#"$LAB_TOP"/} is not statically linked"
	done
	printf '%s\n' "$flags" >"$out/$dir/.flags"
}

start=$SECONDS
build_dir vm "${vm_tests[@]}"
build_dir cgroup "${cgroup_tests[@]}"
# The list the guest runs, so image and job script agree on what exists.
printf '%s\n' "${vm_tests[@]}" >"$out/vm/TESTS.tmp"
mv "$out/vm/TESTS.tmp" "$out/vm/TESTS"
say "selftests ready in build/selftests/ ($((SECONDS - start))s): vm: ${vm_tests[*]}; cgroup: ${cgroup_tests[*]}"
