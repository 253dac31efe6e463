#!/usr/bin/env bash
# Build the guest's root filesystem image without root privileges:
# busybox-static, the lab's workloads and guest tools, trace-cmd, bpftrace,
# perf, stress-ng and the real applications the workloads drive (fio,
# redis, ripgrep, PostgreSQL) with the shared libraries they load, and the
# tracepoint profiles. mkfs.ext4 -d turns the staging directory into an image; the
# guest mounts it read-only.
#
#   build-rootfs.sh            -> build/image/rootfs.img
#
# rootfs.img is a symbolic link to rootfs-<sha256>.img: the image's checksum
# is its name, and a new image replaces the old one in one rename of the
# link, so no reader ever sees an image with another image's checksum (the
# previous image stays beside it for a run that has just resolved it).
set -euo pipefail
lab_prog=build-rootfs
# shellcheck source=../lab/lib/common.sh
source "$(dirname "$0")/../lab/lib/common.sh"

stage=$LAB_BUILD/image/stage
wl_bin=$LAB_BUILD/workloads
[[ -d $wl_bin ]] || die "$EX_MISSING" "no workloads in build/workloads (make workloads)"
busybox=/bin/busybox
file -L "$busybox" | grep -q 'statically linked' ||
	die "$EX_MISSING" "$busybox is not static (install busybox-static)"

rm -rf "$stage"
mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,lab/bin,lab/tracepoints,etc,proc,sys,dev,tmp,run,job,data,results,sources,mnt,root}
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
for prog in /usr/bin/trace-cmd /usr/bin/bpftrace /usr/bin/stress-ng /usr/bin/fio \
	/usr/bin/redis-check-rdb /usr/bin/rg; do
	[[ -x $prog ]] || die "$EX_MISSING" "$prog not found (make deps)"
	copy_with_libs "$prog"
done
# redis-tools' one binary is the server when its argv[0] says so, as
# Debian's redis-server package links it (kv-cache runs it that way).
ln -sf redis-check-rdb "$stage/usr/bin/redis-server"
# PostgreSQL 15 for pgbench: the programs it runs, the server's modules
# (plpgsql, snowball: initdb loads them; not the JIT's bitcode, jit=off),
# its share directory, and the UTC zone of the system tzdata it uses.
pg=/usr/lib/postgresql/15
for prog in initdb postgres pg_isready pgbench psql; do
	[[ -x $pg/bin/$prog ]] || die "$EX_MISSING" "$pg/bin/$prog not found (make deps installs postgresql-15)"
	copy_with_libs "$pg/bin/$prog"
done
mkdir -p "$stage$pg/lib" "$stage/usr/share/postgresql" "$stage/usr/share/zoneinfo/Etc"
find "$pg/lib" -maxdepth 1 -name '*.so' -exec cp {} "$stage$pg/lib/" \;
cp -r /usr/share/postgresql/15 "$stage/usr/share/postgresql/"
cp /usr/share/zoneinfo/UTC "$stage/usr/share/zoneinfo/UTC"
cp /usr/share/zoneinfo/Etc/UTC "$stage/usr/share/zoneinfo/Etc/UTC"
# perf (linux-perf), for --trace perf. Debian 12's /usr/bin/perf is the
# binary itself; older releases made it a wrapper script that runs
# perf_X.Y by the running kernel's release, which in the guest is not the
# host's: carry the versioned binary then, as /usr/bin/perf, so that init
# calls the ELF file directly.
perf_bin=/usr/bin/perf
file -L "$perf_bin" 2>/dev/null | grep -q 'ELF' || perf_bin=/usr/bin/perf_6.1
file -L "$perf_bin" 2>/dev/null | grep -q 'ELF' ||
	die "$EX_MISSING" "no perf binary (/usr/bin/perf or /usr/bin/perf_6.1; make deps installs linux-perf)"
copy_with_libs "$perf_bin"
[[ $perf_bin == /usr/bin/perf ]] || ln -sf "$(basename "$perf_bin")" "$stage/usr/bin/perf"
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

# The guest's own tools: lab-exec (runs a workload, in its cgroup, and
# records its cost), lab-psi (PSI snapshots), lab-switch (--switch-at),
# lab-lrucheck (the LRU lists against their counters after a run),
# lab-reclaim (direct reclaim stalls, kswapd's CPU), lab-coldcheck (do
# MADV_COLD's folios stay inactive; lab.sh stress's lists group): every
# images/guest/lab-*.c, one file a tool.
for src in "$LAB_TOP"/images/guest/lab-*.c; do
	gcc -std=c11 -Wall -Wextra -Werror -O2 -static \
		-o "$stage/lab/bin/$(basename "$src" .c)" "$src"
done
install -m 0755 "$LAB_TOP/images/guest/lab-crash" "$stage/lab/bin/lab-crash"
install -m 0755 "$LAB_TOP/images/guest/init" "$stage/init"
# Job scripts for the non-workload modes (init runs /lab/guest/MODE-job.sh).
mkdir -p "$stage/lab/guest"
for job in "$LAB_TOP"/images/guest/*-job.sh "$LAB_TOP"/images/guest/job-lib.sh; do
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

# root, and postgres: PostgreSQL refuses to run as root (pgbench).
printf 'root:x:0:0:root:/root:/bin/sh\npostgres:x:70:70:PostgreSQL:/tmp:/bin/sh\n' >"$stage/etc/passwd"
printf 'root:x:0:\npostgres:x:70:\n' >"$stage/etc/group"
printf 'PS1="lab-guest:\\w# "\n' >"$stage/etc/profile"

# Size: contents plus 20% and 16 MiB for ext4's own metadata.
kib=$(du -sk "$stage" | cut -f1)
size_mib=$((kib * 12 / 10 / 1024 + 16))
img=$LAB_IMAGE
dir=$(dirname "$img")
tmp=$(mktemp "$dir/.rootfs.XXXXXX")
link=$(mktemp -u "$dir/.rootfs-link.XXXXXX")
trap 'rm -f "$tmp" "$link"' EXIT
mkfs.ext4 -q -F -L labroot -d "$stage" "$tmp" "${size_mib}M" >/dev/null
chmod 0644 "$tmp"
sha=$(sha256sum "$tmp" | cut -c1-64)
prev=$(readlink "$img" 2>/dev/null || true)
mv "$tmp" "$dir/rootfs-$sha.img"
ln -s "rootfs-$sha.img" "$link"
mv -T "$link" "$img"
# The old layout's checksum file, and images older than the previous one.
rm -f "$img.sha256"
for old in "$dir"/rootfs-*.img; do
	[[ $(basename "$old") == "rootfs-$sha.img" || $(basename "$old") == "$prev" ]] || rm -f "$old"
done
say "root filesystem ready: build/image/rootfs.img (rootfs-$sha.img, ${size_mib} MiB)"
