# shellcheck shell=sh
# Helpers of the guest's job scripts (busybox sh), in a file of their own
# so that the host's tests can source and check them (tests/stress/
# job-lib.t). Sourced by init and stress-job.sh.

# The framework's files: the policy (sysfs) and its counters (debugfs, a
# debugging aid and not an ABI, so not in sysfs). Absent on vanilla kernels.
# Exported: the jobs' checks that run as sh -c '...' read them too.
PAGE_REPLACE_POLICY=/sys/kernel/mm/page_replace/policy
PAGE_REPLACE_STATS=/sys/kernel/debug/page_replace/stats
export PAGE_REPLACE_POLICY PAGE_REPLACE_STATS

# uptime_cs FILE: centiseconds from a /proc/uptime line ("SECONDS.CC ..."),
# by arithmetic on the two parts of its first field. Deleting the dot
# turned "0.98" into "098", which sh arithmetic rejects as a bad octal
# number: the gate died whenever it reached its first test within a second
# of boot.
uptime_cs() {
	awk '{ n = split($1, p, "."); printf "%d\n", p[1] * 100 + (n > 1 ? substr(p[2] "00", 1, 2) : 0) }' "$1"
}

# now_cs: centiseconds since boot.
now_cs() {
	uptime_cs /proc/uptime
}
