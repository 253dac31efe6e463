# shellcheck shell=bash
# The reliability gate's test groups: the one list of them, read by
# lab.sh stress (which runs a policy through them) and the full gate,
# lab/make/stress-gate.sh (which runs every policy through each shape).
# images/guest/stress-job.sh runs them in this order; lab.sh stress
# passes the chosen ones to it in job.env (LAB_STRESS_GROUPS).
# shellcheck disable=SC2034 # for the scripts that source this

# The groups any guest runs; lab.sh stress's default.
stress_groups="lists history stressng selftests memcg memcontrol switch cgroup"

# The machine shapes' groups: each needs a guest of its shape (on any
# other it is skipped, saying which), and the full gate runs it there.
stress_shape_groups="numa zram thp smp"

# stress_shape_options GROUP: the lab.sh stress options of GROUP's shape:
# two nodes whose spans overlap, zram swap, anonymous THPs and XFS's large
# folios, eight vCPUs.
stress_shape_options() {
	case $1 in
	numa) echo "--mem 512M --numa 2 --numa-dimm 128M" ;;
	zram) echo "--swap zram" ;;
	thp) echo "--thp always --fs xfs" ;;
	smp) echo "--vcpus 8" ;;
	*) die "$EX_HARNESS" "no shape for stress group '$1'" ;;
	esac
}
