#!/usr/bin/env bash
# One guest with the run options of the kernel issues, checked from what
# the guest's kernel reported: the workload ran in /sys/fs/cgroup/work
# (/proc/PID/cgroup of the workload process) under memory.max = 64M and
# hit it; a companion workload (--also) ran at the same time in a sibling
# cgroup without a limit, and both verified their data; the --boot-arg is
# on the guest's /proc/cmdline; PSI was recorded over the timed phase; the
# --switch-at (lru to clockpro) was attempted and its outcome agrees with
# the policy active at the end.
set -euo pipefail
# shellcheck source=tap.sh
source "$(dirname "$0")/tap.sh"
export LAB_RESULTS=$tmp/res
need_guest lab

rc=0
"$top/lab.sh" run lru cyclic-anon --size 96M --cgroup work:64M \
	--boot-arg page_replace.clockpro_insert=paper --switch-at 0.5:clockpro --timeout 900 -- --passes 2 \
	--also cyclic-file --cgroup other --size 96M -- --passes 2 \
	>"$tmp/out" 2>"$tmp/err" || rc=$?
r=$(last_line "$tmp/out")/result.json
is "$rc" 0 "the run exits 0"
[[ -f $r ]] || {
	not_ok "result.json written" "$(tail -n 5 "$tmp/err")"
	done_testing
}
j() { jq -r "$@" "$r"; }
diag "wall_s $(j .wall_s), psi $(j -c .psi), cgroup $(j -c .cgroup), switches $(j -c .switches)"

is "$(j .verified)/$(j .workload_result.verified)" true/true "the main workload verified its data"
is "$(j -c .params.cgroup)" '{"name":"work","limit":"64M","limit_bytes":67108864}' \
	"params.cgroup records the request"
is "$(j .cgroup.path)" /work "the workload process was in /sys/fs/cgroup/work (its /proc/PID/cgroup)"
is "$(j .cgroup.memory_max_bytes)" $((64 * 1024 * 1024)) "the guest applied memory.max = 64 MiB"
check "the cgroup hit its limit (memory.events max > 0): the 96 MiB were charged there" \
	test "$(j '.cgroup.events.max // 0')" -gt 0
check "its peak stayed within the limit" test "$(j '.cgroup.memory_peak_bytes // 0')" -le $((64 * 1024 * 1024))
check "its PSI was recorded (full <= some)" jq -e '.cgroup.psi.full_us <= .cgroup.psi.some_us' "$r"

is "$(j '.also | length')" 1 "one companion recorded"
is "$(j '.also[0].workload')/$(j '.also[0].verified')" cyclic-file/true "the companion verified its data"
check "the companion reported its own RESULT (2 passes)" jq -e '.also[0].workload_result.passes == 2' "$r"
is "$(j '.also[0].cgroup.path')" /other "the companion ran in the sibling cgroup /sys/fs/cgroup/other"
is "$(j '.also[0].cgroup.memory_max_bytes')" null "... which had no limit (memory.max = max)"
check "the two timed phases overlapped (each shorter than the run's)" \
	jq -e '.also[0].wall_s <= .wall_s + 1 and .guest_wall_s <= .wall_s + 1' "$r"

is "$(j -c .params.boot_args)" '["page_replace.clockpro_insert=paper"]' "params.boot_args records the request"
check "the guest kernel's command line has it" grep -q 'page_replace.clockpro_insert=paper' <<<"$(j .guest_cmdline)"

check "PSI: some_us, full_us and elapsed_us are numbers, full <= some" \
	jq -e '(.psi | [.some_us, .full_us, .elapsed_us] | all(type == "number")) and .psi.full_us <= .psi.some_us' "$r"
check "PSI: memory pressure was seen (some_us > 0) under a 64M limit" test "$(j '.psi.some_us // 0')" -gt 0
# The guest's clock against the host's, over the same timed phase.
check "PSI: elapsed_us matches the host's wall_s within 20% + 1 s" \
	jq -e '((.psi.elapsed_us / 1e6) - .wall_s | fabs) <= 0.2 * .wall_s + 1' "$r"

is "$(j '.switches | length')/$(j '.switches[0].to')/$(j '.switches[0].t_s')" 1/clockpro/0.5 "the switch is recorded"
if [[ $(j '.switches[0].ok') == true ]]; then
	is "$(j .policy_active_end)" clockpro "the kernel took the switch: clockpro is active at the end"
	check "... at 0.5 s or later" jq -e '.switches[0].at_s >= 0.5 and .switches[0].error == null' "$r"
else
	check "the kernel refused the switch (no run-time switching yet): its error is recorded" \
		jq -e '(.switches[0].error | type) == "string" and (.switches[0].error | length) > 0' "$r"
	is "$(j .policy_active_end)" lru "... and lru, the policy booted, is active at the end"
fi
done_testing
