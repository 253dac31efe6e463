#!/usr/bin/env bash
# Build the guest's root filesystem image without root privileges:
# busybox-static, the lab's workloads and guest tools, trace-cmd, bpftrace
# and stress-ng with the shared libraries they load, and the tracepoint
# profiles. mkfs.ext4 -d turns the staging directory into an image; the
# guest mounts it read-only.
#
#   build-rootfs.sh            -> build/image/rootfs.img
set -euo pipefail
lab_prog=build-rootfs
# shellcheck source=../lab/common.sh
source "$(dirname "$0")/../lab/common.sh"

stage=$LAB_BUILD/image/stage
wl_bin=$LAB_BUILD/workloads
[[ -d $wl_bin ]] || die "$EX_MISSING" "no workloads in build/workloads (make workloads)"
busybox=/bin/busybox
file -L "$busybox" | grep -q 'statically linked' ||
	die "$EX_MISSING" "$busybox is not static (install busybox-static)"

rm -rf "$stage"
mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,lab/bin,lab/tracepoints,etc,proc,sys,dev,tmp,run,job,data,results,mnt,root}
chmod 1777 "$stage/tmp"

cp "$busybox" "$stage/bin/busybox"
while read -r applet; do
	[[ $applet == bin/busybox ]] && continue
	ln -sf /bin/busybox "$stage/$applet"
done < <("$busybox" --list-full)

# Host programs with every shared library they load, at the same paths.
copy_with_libs() {
	local prog=$1 lib
	install -D "$prog" "$stage$prog"
	while read -r lib; do
		[[ -e $stage$lib ]] || install -D "$lib" "$stage$lib"
	done < <(ldd "$prog" | awk '/=> \// {print $3} /^\t\/lib/ {print $1}')
}
for prog in /usr/bin/trace-cmd /usr/bin/bpftrace /usr/bin/stress-ng; do
	[[ -x $prog ]] || die "$EX_MISSING" "$prog not found (make deps)"
	copy_with_libs "$prog"
done
# trace-cmd's event parsing plugins, when the package ships them.
for d in /usr/lib/x86_64-linux-gnu/traceevent /usr/lib/x86_64-linux-gnu/trace-cmd; do
	if [[ -d $d ]]; then
		mkdir -p "$stage$d"
		cp -a "$d/." "$stage$d/"
	fi
done

# bpftrace compiles its programs with clang, which needs the kernel's UAPI
# headers (the guest kernel has no BTF): linux-libc-dev's, about 7 MB.
mkdir -p "$stage/usr/include"
cp -r /usr/include/linux /usr/include/asm-generic "$stage/usr/include/"
cp -r /usr/include/x86_64-linux-gnu/asm "$stage/usr/include/asm"

gcc -std=c11 -Wall -Wextra -Werror -O2 -static \
	-o "$stage/lab/bin/lab-exec" "$LAB_TOP/images/guest/lab-exec.c"
install -m 0755 "$LAB_TOP/images/guest/lab-crash" "$stage/lab/bin/lab-crash"
install -m 0755 "$LAB_TOP/images/guest/init" "$stage/init"
# Job scripts for the non-workload modes (init runs /lab/guest/MODE-job.sh).
mkdir -p "$stage/lab/guest"
for job in "$LAB_TOP"/images/guest/*-job.sh; do
	[[ -e $job ]] && install -m 0755 "$job" "$stage/lab/guest/"
done
# The kernel's own selftests, when images/build-selftests.sh has built them.
if [[ -d $LAB_BUILD/selftests ]]; then
	mkdir -p "$stage/lab/selftests"
	cp -a "$LAB_BUILD/selftests/." "$stage/lab/selftests/"
fi
for w in "${LAB_WORKLOADS[@]}" webtrace-gen; do
	[[ -x $wl_bin/$w ]] || die "$EX_MISSING" "build/workloads/$w missing (make workloads)"
	install -m 0755 "$wl_bin/$w" "$stage/lab/bin/$w"
done
cp -r "$LAB_TOP/tracepoints/." "$stage/lab/tracepoints/"

printf 'root:x:0:0:root:/root:/bin/sh\n' >"$stage/etc/passwd"
printf 'root:x:0:\n' >"$stage/etc/group"
printf 'PS1="lab-guest:\\w# "\n' >"$stage/etc/profile"

# Size: contents plus 20% and 16 MiB for ext4's own metadata.
kib=$(du -sk "$stage" | cut -f1)
size_mib=$((kib * 12 / 10 / 1024 + 16))
img=$LAB_IMAGE
tmp=$img.tmp
rm -f "$tmp"
mkfs.ext4 -q -F -L labroot -d "$stage" "$tmp" "${size_mib}M" >/dev/null
mv "$tmp" "$img"
sha256sum "$img" | cut -c1-64 >"$img.sha256"
say "root filesystem ready: build/image/rootfs.img (${size_mib} MiB)"
