# shellcheck shell=bash
# Turn what a guest left on its results disk, and its console, into
# result.json: request.json (what run.sh asked for) merged with what
# happened. Sourced by run.sh.

# result_collect PARTDIR RESULTS_IMG: copy /run from the guest's results
# disk (ext4) into PARTDIR without mounting it.
result_collect() {
	local part=$1 img=$2 tmp=$1/.guest
	mkdir -p "$tmp"
	debugfs -R "rdump /run $tmp" "$img" >/dev/null 2>&1 || return 1
	[[ -d $tmp/run ]] || return 1
	cp -a "$tmp/run/." "$part/"
	rm -rf "$tmp"
}

# key=value lines of the guest's status file.
status_get() {
	local f=$1 key=$2
	[[ -f $f ]] || return 0
	sed -n "s/^$key=//p" "$f" | tail -n1
}

# name value lines (vmstat, policy stats) before/after -> JSON deltas.
delta_json() {
	local before=$1 after=$2
	if [[ ! -f $before || ! -f $after ]]; then
		echo '{}'
		return
	fi
	awk 'NR == FNR { b[$1] = $2; next }
	     ($1 in b) && $2 ~ /^-?[0-9]+$/ { d[$1] = $2 - b[$1]; keys[++n] = $1 }
	     END {
		printf "{"
		for (i = 1; i <= n; i++)
			printf "%s\"%s\":%d", (i > 1 ? "," : ""), keys[i], d[keys[i]]
		printf "}\n"
	     }' "$before" "$after"
}

# The workload's RESULT line as JSON, or null.
workload_json() {
	local f=$1 line
	[[ -f $f ]] || {
		echo null
		return
	}
	line=$(sed -n 's/^RESULT //p' "$f" | tail -n1)
	if [[ -n $line ]] && jq -e . >/dev/null 2>&1 <<<"$line"; then
		jq -c . <<<"$line"
	else
		echo null
	fi
}

# result_write PARTDIR QEMU_RC QEMU_SECONDS TIMEOUT_SECONDS: classify the
# run, write result.json, return the lab's exit code for it.
result_write() {
	local part=$1 qemu_rc=$2 qemu_s=$3 timeout_s=$4
	local st=$part/status console=$part/console.log req=$part/request.json
	local policy exit_class code active wrc lru_gen note=""
	policy=$(jq -r .policy "$req")
	active=$(status_get "$st" policy_active)
	wrc=$(status_get "$st" workload_rc)
	lru_gen=$(status_get "$st" lru_gen_enabled)
	# The unpatched kernel with MGLRU switched on through sysfs.
	if [[ $policy == vanilla-mglru && $active == vanilla && -n $lru_gen &&
		$lru_gen != none && $lru_gen != 0x0000 ]]; then
		active=vanilla-mglru
	fi

	local crash='Kernel panic|BUG: |Oops: |general protection fault'
	if grep -qE "$crash" "$console" 2>/dev/null; then
		exit_class=panic code=$EX_PANIC
		note=$(grep -m1 -E "$crash" "$console")
	elif ((qemu_rc != 0)) && ((qemu_s >= timeout_s)); then
		exit_class=timeout code=$EX_TIMEOUT note="guest did not finish within ${timeout_s}s"
	elif ((qemu_rc != 0)); then
		exit_class=harness-error code=$EX_HARNESS note="qemu exited with status $qemu_rc (see qemu.log)"
	elif [[ $(cat "$part/DONE" 2>/dev/null) != "done" ]]; then
		exit_class=harness-error code=$EX_HARNESS
		note=$(grep -m1 '^LAB-ERROR' "$console" 2>/dev/null ||
			echo "guest left no complete results (results disk full or unreadable?)")
	elif [[ $active != "$policy" ]]; then
		exit_class=policy-mismatch code=$EX_POLICY note="asked for $policy, guest runs ${active:-nothing}"
	elif [[ $wrc == 0 ]]; then
		exit_class=ok code=$EX_OK
	elif [[ $wrc == 3 ]]; then
		exit_class=verify-failed code=$EX_VERIFY note="workload found lost data (exit 3)"
	else
		exit_class=workload-failed code=$EX_WORKLOAD note="workload exited with status ${wrc:-?}"
	fi

	# Wall time of the timed phase on the host's clock (see run.sh).
	local host_wall=null boot_to_run=null t_run t_end t_start
	if [[ -f $part/markers ]]; then
		t_run=$(awk '$2 == "LAB:" && $3 == "phase" && $4 == "run" {print $1; exit}' "$part/markers")
		t_end=$(awk '$2 == "LAB:" && $3 == "run" && $4 == "finished" {print $1; exit}' "$part/markers")
		[[ -n $t_run && -n $t_end ]] && host_wall=$(awk -v a="$t_run" -v b="$t_end" 'BEGIN {printf "%.3f", b - a}')
		t_start=$(awk '$2 == "HOST:" && $4 == "start" {print $1; exit}' "$part/markers")
		[[ -n $t_start && -n $t_run ]] && boot_to_run=$(awk -v a="$t_start" -v b="$t_run" 'BEGIN {printf "%.3f", b - a}')
	fi

	local rusage wres vmstat pstats verified=false
	rusage='{}'
	if [[ -s $part/rusage ]] && jq -e . "$part/rusage" >/dev/null 2>&1; then
		rusage=$(jq -c . "$part/rusage")
	fi
	wres=$(workload_json "$part/workload.out")
	vmstat=$(delta_json "$part/vmstat.before" "$part/vmstat.after")
	pstats=$(delta_json "$part/policy_stats.before" "$part/policy_stats.after")
	[[ $exit_class == ok ]] && [[ $(jq -r '.verified // false' <<<"$wres") == true ]] && verified=true
	# What the trace lost (trace-timeline --lost-json; CONTRACTS.md); null
	# when trace.dat cannot be read.
	local tracekeys='{}' tt=$LAB_BUILD/analysis/trace-timeline
	if [[ -s $part/trace.dat ]]; then
		tracekeys=$("$tt" --lost-json "$part/trace.dat" 2>/dev/null) ||
			tracekeys='{"trace_events":null,"trace_lost_events":null,"trace_lost_unknown_gaps":null}'
	fi

	jq --arg active "${active:-unknown}" --arg uname "$(status_get "$st" uname)" \
		--arg exit "$exit_class" --arg note "$note" --argjson verified "$verified" \
		--argjson rusage "$rusage" --argjson vmstat "$vmstat" --argjson wres "$wres" \
		--argjson pstats "$pstats" --arg mem_avail "$(status_get "$st" mem_available_kb)" \
		--arg lru_gen "$lru_gen" --arg ifaces "$(status_get "$st" net_ifaces)" \
		--argjson qemu_s "$qemu_s" --argjson host_wall "$host_wall" \
		--argjson boot_to_run "$boot_to_run" --arg up_init "$(status_get "$st" uptime_at_init_s)" \
		--arg up_run "$(status_get "$st" uptime_at_run_s)" \
		--argjson tracekeys "$tracekeys" --arg buffer_kb "$(status_get "$st" trace_buffer_kb)" \
		'. + {policy_active: $active, exit: $exit, note: $note, verified: $verified,
		  wall_s: $host_wall, guest_wall_s: $rusage.wall_s,
		  majflt: $rusage.majflt, minflt: $rusage.minflt,
		  vmstat: $vmstat,
		  mem_available_pages: (if $mem_avail == "" then null
		                        else ($mem_avail | tonumber / 4 | floor) end),
		  workload_result: $wres, policy_stats: $pstats, lru_gen_enabled: $lru_gen,
		  guest_net_ifaces: ($ifaces | split(" ") | map(select(. != ""))),
		  boot_to_exit_s: $qemu_s, host_boot_to_run_s: $boot_to_run,
		  uptime_at_init_s: (if $up_init == "" then null else ($up_init | tonumber) end),
		  uptime_at_run_s: (if $up_run == "" then null else ($up_run | tonumber) end)}
		| . + $tracekeys
		| if $buffer_kb == "" then . else .trace_buffer_kb = ($buffer_kb | tonumber) end
		| .kernel.release = (if $uname == "" then .kernel.release else $uname end)' \
		"$req" >"$part/result.json.tmp" || {
		rm -f "$part/result.json.tmp"
		say "cannot write result.json in $part"
		return "$EX_HARNESS"
	}
	mv "$part/result.json.tmp" "$part/result.json"
	[[ -n $note ]] && say "$(jq -r '"[rep \(.rep)]"' "$req") $exit_class: $note"
	return "$code"
}
