#!/usr/bin/env bash
# What a run puts together before it boots, with the lab's own functions:
# carried-in files keep apart when their names are equal, --emit-refs goes
# to the results disk, and the kernel and image a run pins are whole (a
# kernel install swapped in meanwhile does not split bzImage from
# info.json; an image whose bytes differ from its checksum is refused).
set -euo pipefail
# shellcheck source=tap.sh
source "$(dirname "$0")/tap.sh"
kernel=$top/build/kernels/vanilla/bzImage
export LAB_BUILD=$tmp/build
# shellcheck source=../../lab/lib/common.sh
source "$top/lab/lib/common.sh"
# shellcheck source=../../lab/lib/guest.sh
source "$top/lab/lib/guest.sh"
# shellcheck source=../../lab/lib/job.sh
source "$top/lab/lib/job.sh"

# Two host files of one name, in two directories.
mkdir -p "$tmp/a" "$tmp/b" "$tmp/job"
echo first >"$tmp/a/trace.spc"
echo second >"$tmp/b/trace.spc"
out=()
job_map_args out 1 --spc "$tmp/a/trace.spc" --other "$tmp/b/trace.spc" --emit-refs /host/refs.bin --passes 2
is "${out[*]}" "--spc /job/files/1/trace.spc --other /job/files/2/trace.spc --emit-refs /results/run/refs.bin --passes 2" \
	"two files of one name get two guest paths; --emit-refs and its host value map to the results disk"
is "$job_next_k" 3 "the next workload's files are numbered on"
job_copy_files "$tmp/job"
is "$(cat "$tmp/job/files/1/trace.spc")/$(cat "$tmp/job/files/2/trace.spc")" first/second \
	"each file is carried in with its own content"
is "${#job_carried[@]}" 2 "both are recorded for the error messages' host paths"

if [[ ! -f $kernel ]]; then
	skip "kernel and image pinning" "no vanilla kernel built (make kernel-vanilla)"
	done_testing
fi
# A kernel flavour as build-kernel.sh installs it: a link to one install.
kd=$LAB_KERNEL_DIR
mkdir -p "$kd/.lab-A" "$kd/.lab-B" "$LAB_BUILD/image"
for v in A B; do
	cp "$kernel" "$kd/.lab-$v/bzImage"
	jq -n --arg v "$v" '{release: ("6.1-" + $v), series_sha: $v, config_sha: $v}' >"$kd/.lab-$v/info.json"
done
ln -s .lab-A "$kd/lab"
# An image named by its checksum, as build-rootfs.sh makes it.
head -c 1M /dev/urandom >"$tmp/img"
sha=$(sha256sum "$tmp/img" | cut -c1-64)
mv "$tmp/img" "$LAB_BUILD/image/rootfs-$sha.img"
ln -s "rootfs-$sha.img" "$LAB_IMAGE"

guest_resolve lab
# build-kernel.sh installs B while this run has resolved A.
ln -sfn .lab-B "$kd/lab.new" && mv -T "$kd/lab.new" "$kd/lab"
mkdir -p "$tmp/work"
guest_pin "$tmp/work"
is "$(stat -c %i "${guest[kernel]}")" "$(stat -c %i "$kd/.lab-A/bzImage")" \
	"the run boots the install it resolved (A), although the link moved to B"
is "$(jq -r .series_sha <<<"$guest_kernel_json")" A "... and records A's info.json"
is "$(sha256sum <"${guest[image]}" | cut -c1-64)" "$sha" "the pinned image is the checksummed one"

# One byte of the image changed: refused with exit 8, naming the cause.
printf 'x' | dd of="$LAB_BUILD/image/rootfs-$sha.img" bs=1 seek=100 conv=notrunc 2>/dev/null
rc=0
mkdir -p "$tmp/work2"
(guest_resolve lab && guest_pin "$tmp/work2") 2>"$tmp/err" || rc=$?
is "$rc" 8 "an image that differs from its checksum: exit 8"
check "... saying so" grep -q 'rootfs.img is corrupt (checksum differs; run make image)' "$tmp/err"
rm -f "$LAB_IMAGE"
rc=0
(guest_resolve lab) 2>"$tmp/err" || rc=$?
is "$rc:$(cat "$tmp/err")" "8:lab: guest image build/image/rootfs.img not found (run make image)" \
	"no image: exit 8 naming the command that builds it"
rm "$kd/lab"
rc=0
(guest_resolve debug) 2>"$tmp/err" || rc=$?
is "$rc:$(cat "$tmp/err")" "8:lab: kernel build/kernels/debug/bzImage not found (run make kernel-debug)" \
	"no debug kernel: exit 8 naming make kernel-debug"
done_testing
