#!/usr/bin/env bash
# Install the Debian packages the lab needs, when any is missing.
#   deps.sh            install what is missing (needs root and apt)
#   deps.sh --check    only say what is missing; exit 1 if anything is
set -euo pipefail
lab_prog=deps
# shellcheck source=../lib/common.sh
source "$(dirname "$0")/../lib/common.sh"

packages=(
	# kernel source and build
	linux-source-6.1 gcc make flex bison bc libelf-dev libssl-dev ccache
	# today's kernel, the reference beside 6.1 (bookworm-security ships it)
	linux-source-6.12
	# Debian's own kernel configs, for make kernel-check's distribution build
	linux-config-6.1
	xz-utils git file
	# guest and QEMU
	qemu-system-x86 busybox-static e2fsprogs xfsprogs util-linux trace-cmd bpftrace
	linux-libc-dev
	# --trace perf: perf record in the guest, perf script on the host
	linux-perf
	stress-ng
	# the real applications of the workload set, run in the guest (redis:
	# redis-tools' binary is the server, without the host service)
	fio redis-tools ripgrep postgresql-15
	# storage engines of the YCSB workloads (linked statically, LevelDB by g++)
	libleveldb-dev libsnappy-dev libsqlite3-dev g++ strace
	# host tools: results, analysis, plots, report checks
	jq libtracecmd-dev libtracefs-dev libtraceevent-dev libgsl-dev
	libjansson-dev pkg-config gnuplot-nox chromium
	# tests and the patch checks
	shellcheck perl python3-ply python3-git
	# fuzz targets (libFuzzer) and their replay in make test
	clang libclang-rt-14-dev
	# lab.sh matrix's engines: GNU parallel, Slurm (and its munge auth)
	parallel slurmctld slurmd slurm-client munge
)

missing=()
for p in "${packages[@]}"; do
	[[ $(dpkg-query -W -f='${Status}' "$p" 2>/dev/null) == "install ok installed" ]] ||
		missing+=("$p")
done
((${#missing[@]} == 0)) && exit 0
if [[ ${1:-} == --check ]]; then
	say "missing packages: ${missing[*]}"
	exit 1
fi
[[ $(id -u) == 0 ]] || die "$EX_MISSING" "missing packages (${missing[*]}); run 'make deps' as root or: apt-get install ${missing[*]}"
say "installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null ||
	die "$EX_MISSING" "apt-get install failed for: ${missing[*]}"
