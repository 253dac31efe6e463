# shellcheck shell=bash
# Turn what a guest left on its results disk, and its console, into
# result.json: request.json (what run.sh asked for) merged with what
# happened, written once, by result_write. Sourced by run.sh, after
# perf.sh (a profile's metrics are part of it).
#
# The guest's files (images/guest/init): status (key=value), vmstat and
# policy stats before/after, psi.before/after (lab-psi), switches.jsonl
# (lab-switch), cgroups/NAME.{before,after,info}, and per workload its
# setup.{out,err}, rusage, workload.{out,err}: the main workload's at the
# top, companion N's (--also) in also-N/ with its exit code in also-N/rc.

# Set by the caller: "GUESTPATH<tab>HOSTPATH" of each carried-in file, to
# give error messages back their host paths. Set here: result_write's code.
result_file_map=()
result_code=0

# The layout of result.json (CONTRACTS.md, "schema_version"): raised when a
# key changes meaning or goes; the readers (analysis/stats/runs.h) check it.
# shellcheck disable=SC2034 # run.sh's
result_schema_version=1

# result_host_json: the host a run starts on, as result.json's host:
# name, CPU model, online CPUs and the 1-minute load average, so that
# runs from different machines can be told apart (lab.sh compare warns
# when a table mixes CPU models, and --by host splits it).
result_host_json() {
	local model
	model=$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo | head -n 1)
	[[ -n $model ]] || model=$(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -n 1)
	jq -cn --arg name "$(uname -n)" --arg model "$model" --argjson cores "$(getconf _NPROCESSORS_ONLN)" \
		--argjson load "$(cut -d' ' -f1 /proc/loadavg)" \
		'{name: $name, cpu_model: (if $model == "" then null else $model end), cores: $cores, load_1m: $load}'
}

# result_engine_json: what scheduled the run, {engine, engine_job}, from
# the environment the scheduler gives its jobs: slurm (SLURM_JOB_ID; the
# job as JOBID or ARRAYJOBID_TASK), parallel (GNU parallel's
# PARALLEL_SEQ, the job's row in its --joblog), else local (null).
result_engine_json() {
	local engine=local job=""
	if [[ -n ${SLURM_JOB_ID:-} ]]; then
		engine=slurm job=$SLURM_JOB_ID
		[[ -z ${SLURM_ARRAY_JOB_ID:-} ]] || job=${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID:-}
	elif [[ -n ${PARALLEL_SEQ:-} ]]; then
		engine=parallel job=$PARALLEL_SEQ
	fi
	jq -cn --arg e "$engine" --arg j "$job" '{engine: $e, engine_job: (if $j == "" then null else $j end)}'
}

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

# rusage_json DIR: lab-exec's record of the workload's timed phase, or {}.
rusage_json() {
	if [[ -s $1/rusage ]] && jq -e . "$1/rusage" >/dev/null 2>&1; then
		jq -c . "$1/rusage"
	else
		echo '{}'
	fi
}

# workload_error DIR WORKLOAD: the workload's own last error line (CONTRACTS:
# "NAME: message" on stderr), of its timed phase or else of its setup; the
# last line of that stderr if none has the workload's name. Guest paths of
# carried-in files are given back as the host paths (result_file_map).
workload_error() {
	local dir=$1 wl=$2 f line="" map
	for f in "$dir/workload.err" "$dir/setup.err"; do
		[[ -s $f ]] || continue
		line=$(grep -a "^$wl: " "$f" | tail -n1) || true
		[[ -n $line ]] || line=$(grep -av '^[[:space:]]*$' "$f" | tail -n1) || true
		[[ -z $line ]] || break
	done
	for map in "${result_file_map[@]}"; do
		line=${line//"${map%%$'\t'*}"/"${map#*$'\t'}"}
	done
	printf '%s' "$line" | tr -d '\r' | cut -c1-400
}

# psi_json BEFORE AFTER [ELAPSED]: lab-psi snapshots -> {some_us, full_us}
# deltas of the PSI totals, with elapsed_us (the guest's monotonic clock
# between the snapshots) when ELAPSED is set; null without both files.
psi_json() {
	local d
	if [[ ! -s $1 || ! -s $2 ]]; then
		echo null
		return
	fi
	d=$(delta_json "$1" "$2")
	jq -c --arg el "${3:-}" '{some_us, full_us} + (if $el == "" then {} else {elapsed_us: .mono_us} end)' <<<"$d"
}

# reclaim_json PART: what reclaim cost over the timed phase (lab-reclaim
# in the guest): the direct reclaim stalls (count, of them in memcg
# reclaim, total, p50, p99, max in us, how many above 8.3 ms, unpaired
# events, events the trace instance lost) and kswapd's CPU seconds; null
# when the guest recorded neither.
reclaim_json() {
	local part=$1 stalls=null kswapd=null
	if [[ -s $part/reclaim.stalls ]] && grep -q '^stalls [0-9]' "$part/reclaim.stalls"; then
		stalls=$(jq -R -s -c 'split("\n") | map(select(length > 0) | split(" ")
			| {(.[0]): (.[1] | tonumber)}) | add' "$part/reclaim.stalls")
	fi
	if [[ -s $part/kswapd.before && -s $part/kswapd.after ]]; then
		kswapd=$(jq -R -s -c 'split("\n") | map(select(startswith("kswapd_cpu_s "))
			| .[13:] | tonumber) | if length == 2 then (.[1] - .[0]) * 100 | round / 100 else null end' \
			"$part/kswapd.before" "$part/kswapd.after")
	fi
	if [[ $stalls == null && $kswapd == null ]]; then
		echo null
		return
	fi
	jq -n -c --argjson s "$stalls" --argjson k "$kswapd" '($s // {}) + {kswapd_cpu_s: $k}'
}

# lru_check_json FILE: lab-lrucheck's verdict after the run ({flagged,
# counted, passes, nodes_checked, nodes_differing, agree}: pages on the
# LRU lists by PG_lru and by the size counters, in total and per node),
# or null when the guest did not check. An older guest's file has no
# node lines: 0 nodes checked.
lru_check_json() {
	if [[ ! -s $1 ]] || ! grep -q '^flagged [0-9]' "$1"; then
		echo null
		return
	fi
	awk '$1 ~ /^(flagged|counted|passes|nodes_checked|nodes_differing)$/ { printf "%s %s\n", $1, $2 }' "$1" |
		jq -R -s -c 'split("\n") | map(select(length > 0) | split(" ") | {(.[0]): (.[1] | tonumber)}) | add
			| {nodes_checked: 0, nodes_differing: 0} + .
			| . + {agree: (.flagged == .counted and .nodes_differing == 0)}'
}

# cgroup_json PART NAME: what the guest measured of cgroup NAME over the
# timed phase, or null: memory.max as applied (null for "max"),
# memory.peak, deltas of memory.events and of memory.pressure's totals.
cgroup_json() {
	local dir=$1/cgroups name=$2 info
	[[ -n $name && -f $dir/$name.info ]] || {
		echo null
		return
	}
	info=$(awk '{ printf "%s\t%s\n", $1, $2 }' "$dir/$name.info" |
		jq -R -s -c 'split("\n") | map(select(length > 0) | split("\t") | {(.[0]): .[1]}) | add // {}')
	jq -cn --arg name "$name" --argjson info "$info" \
		--argjson ev "$(delta_json "$dir/$name.events.before" "$dir/$name.events.after")" \
		--argjson psi "$(psi_json "$dir/$name.psi.before" "$dir/$name.psi.after")" \
		'def num: if . == null or . == "max" then null else tonumber end;
		{name: $name,
		 memory_max_bytes: ($info.memory_max | num),
		 memory_peak_bytes: ($info.memory_peak | num),
		 events: $ev, psi: $psi}'
}

# machine_json PART: what the guest kernel made of the machine (init's
# machine file), or null when the guest wrote none: nodes (each with its
# CPUs, MemTotal, the pfn span of its populated zones and the zones),
# swaps (/proc/swaps), zram (its compressor, size and, after the run, its
# mm_stat; null without --swap zram), thp (the active mode) and data_fs.
machine_json() {
	local f=$1/machine
	if [[ ! -s $f ]]; then
		echo null
		return
	fi
	jq -R -s -c 'def num: if . == null or . == "" then null else tonumber end;
		def cpus: if . == null or . == "" then []
			else split(",") | map(split("-") | map(tonumber)
				| if length == 2 then [range(.[0]; .[1] + 1)] else . end) | add end;
		split("\n") | map(select(length > 0) | split(" ")) as $l
		| ($l | map(select(.[0] == "zone") | {node: (.[1] | num), zone: .[2],
			start_pfn: (.[3] | num), spanned: (.[4] | num), present: (.[5] | num)})) as $zones
		| ($l | map(select(.[0] == "zram")) | first) as $zram
		| ($l | map(select(.[0] == "zram_mm_stat")) | first) as $mm
		| {nodes: ($l | map(select(.[0] == "node") | (.[1] | num) as $n
			| ($zones | map(select(.node == $n))) as $z
			| {node: $n, cpus: (.[2] | cpus), mem_total_kb: (.[3] | num),
			   start_pfn: ($z | map(.start_pfn) | min),
			   end_pfn: ($z | map(.start_pfn + .spanned) | max),
			   zones: ($z | map(del(.node)))})),
		   swaps: ($l | map(select(.[0] == "swap") | {device: .[1], type: .[2],
			size_kb: (.[3] | num), priority: (.[4] | num)})),
		   zram: (if $zram == null then null
			else {comp_algorithm: $zram[1], disksize_bytes: ($zram[2] | num)}
			+ (if $mm == null then {} else {orig_data_size: ($mm[1] | num),
			   compr_data_size: ($mm[2] | num), mem_used_total: ($mm[3] | num),
			   mem_used_max: ($mm[5] | num), same_pages: ($mm[6] | num),
			   huge_pages: ($mm[8] | num)} end) end),
		   thp: ($l | map(select(.[0] == "thp")) | first | .[1] // null),
		   data_fs: ($l | map(select(.[0] == "data_fs")) | first | .[1] // null)}' "$f" 2>/dev/null || echo null
}

# workload_rc_of PART N: exit code of workload N (0: the main one; empty
# when it never ran).
workload_rc_of() {
	if (($2 == 0)); then
		status_get "$1/status" workload_rc
	else
		cat "$1/also-$2/rc" 2>/dev/null || true
	fi
}

# switches_json PART: each --switch-at as done in the guest (lab-switch:
# at_s, ok, error) or, when the timed phase ended first, not done.
switches_json() {
	local part=$1 did='[]'
	[[ -s $part/switches.jsonl ]] && did=$(jq -s -c . "$part/switches.jsonl" 2>/dev/null || echo '[]')
	jq -c --argjson did "$did" '(.params.switch_at // []) as $want
		| [range(0; $want | length) as $i | $want[$i] + (
			if $i < ($did | length) then $did[$i] | {at_s, ok, error}
			else {at_s: null, ok: false, error: "not reached: the timed phase ended first"} end)]' \
		"$part/request.json"
}

# result_write PARTDIR TIMEOUT_S: classify the run, write result.json;
# sets result_code to the lab's exit code for it. Reads what guest_boot
# left in the array guest (guest.sh): qemu_rc, wall_s, boot_limit,
# boot_stalls, stalled, concurrent, concurrent_ids.
# shellcheck disable=SC2154 # guest is guest.sh's
result_write() {
	local part=$1 timeout_s=$2 qemu_rc=${guest[qemu_rc]} qemu_s=${guest[wall_s]}
	local st=$part/status console=$part/console.log req=$part/request.json
	local policy exit_class code active lru_gen note="" n nalso i rc wl dir err
	policy=$(jq -r .policy "$req")
	nalso=$(jq '.params.also | length' "$req")
	active=$(status_get "$st" policy_active)
	lru_gen=$(status_get "$st" lru_gen_enabled)
	active=$(policy_observed "$policy" "$active" "$lru_gen" "$(status_get "$st" uname)")

	local crash='Kernel panic|BUG: |Oops: |general protection fault'
	if grep -qE "$crash" "$console" 2>/dev/null; then
		exit_class=panic code=$EX_PANIC
		note=$(grep -m1 -E "$crash" "$console")
	elif ((guest[stalled])); then
		exit_class=boot-stall code=$EX_TIMEOUT
		note="guest never reached init within ${guest[boot_limit]}s, ${guest[boot_stalls]} boots"
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
	else
		exit_class=ok code=$EX_OK
		# The first workload that lost data, else the first that failed,
		# else the first that never ran (its setup or a companion's failed).
		for n in verify fail missing; do
			for ((i = 0; i <= nalso; i++)); do
				rc=$(workload_rc_of "$part" "$i")
				case $n:$rc in
				*:0 | verify:[!3]* | verify: | fail: | missing:?*) continue ;;
				esac
				dir=$part wl=$(jq -r .workload "$req")
				((i == 0)) || dir=$part/also-$i wl=$(jq -r ".params.also[$((i - 1))].workload" "$req")
				local what="workload $wl"
				((i == 0)) || what="companion workload $i ($wl)"
				if [[ $rc == 3 ]]; then
					exit_class=verify-failed code=$EX_VERIFY note="$what found lost data (exit 3)"
				else
					exit_class=workload-failed code=$EX_WORKLOAD note="$what exited with status ${rc:-?}"
					[[ -z $rc ]] && note="$what did not run"
				fi
				[[ -s $dir/rusage ]] || note+=" in its setup phase"
				err=$(workload_error "$dir" "$wl")
				[[ -z $err ]] || note+=": $err"
				break 2
			done
		done
	fi

	# Wall time of the timed phase on the host's clock (see guest_watch).
	local host_wall=null boot_to_run=null t_run t_end t_start
	if [[ -f $part/markers ]]; then
		t_run=$(awk '$2 == "LAB:" && $3 == "phase" && $4 == "run" {print $1; exit}' "$part/markers")
		t_end=$(awk '$2 == "LAB:" && $3 == "run" && $4 == "finished" {print $1; exit}' "$part/markers")
		[[ -n $t_run && -n $t_end ]] && host_wall=$(awk -v a="$t_run" -v b="$t_end" 'BEGIN {printf "%.3f", b - a}')
		t_start=$(awk '$2 == "HOST:" && $4 == "start" {print $1; exit}' "$part/markers")
		[[ -n $t_start && -n $t_run ]] && boot_to_run=$(awk -v a="$t_start" -v b="$t_run" 'BEGIN {printf "%.3f", b - a}')
	fi

	local rusage wres vmstat pstats verified=false
	rusage=$(rusage_json "$part")
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
		# The data disk's page-cache insertions, when the profile recorded
		# them (trace-page-cache; exit 3: it did not).
		# With the reference string (--refs) and the workload's object
		# inodes, also how the page cache kept its hot set (data_page_cache.hot).
		local dpc dpc_rc=0 data_dev inodes hot=()
		data_dev=$(status_get "$st" data_dev)
		inodes=$(jq -r '.object_inodes // empty' <<<"$wres" 2>/dev/null || true)
		[[ ! -s $part/refs.bin || -z $inodes ]] || hot=(--refs "$part/refs.bin" --object-inodes "$inodes")
		if [[ -n $data_dev ]]; then
			dpc=$("$LAB_BUILD/analysis/trace-page-cache" --dev "$data_dev" --json "${hot[@]}" \
				"$part/trace.dat" 2>/dev/null) || dpc_rc=$?
			case $dpc_rc in
			0) tracekeys=$(jq -c --argjson d "$dpc" '. + {data_page_cache: $d}' <<<"$tracekeys") ;;
			3) ;;
			*) tracekeys=$(jq -c '. + {data_page_cache: null}' <<<"$tracekeys") ;;
			esac
		fi
	fi

	# The companion workloads (--also), each as the main one is recorded.
	local also='[]' a_json a_rc a_ok
	for ((i = 1; i <= nalso; i++)); do
		dir=$part/also-$i
		wl=$(jq -r ".params.also[$((i - 1))].workload" "$req")
		a_rc=$(workload_rc_of "$part" "$i")
		a_ok=false
		[[ $exit_class == ok && $a_rc == 0 ]] &&
			[[ $(workload_json "$dir/workload.out" | jq -r '.verified // false') == true ]] && a_ok=true
		a_json=$(jq -cn --arg wl "$wl" --argjson p "$(jq -c ".params.also[$((i - 1))]" "$req")" \
			--arg rc "$a_rc" --argjson verified "$a_ok" --argjson rusage "$(rusage_json "$dir")" \
			--argjson wres "$(workload_json "$dir/workload.out")" \
			--argjson cg "$(cgroup_json "$part" "$(jq -r ".params.also[$((i - 1))].cgroup.name // empty" "$req")")" \
			--arg err "$( [[ $a_rc == 0 ]] || workload_error "$dir" "$wl")" \
			'{workload: $wl, params: ($p | del(.workload)),
			  exit_code: (if $rc == "" then null else ($rc | tonumber) end),
			  verified: $verified, wall_s: $rusage.wall_s, majflt: $rusage.majflt,
			  minflt: $rusage.minflt, workload_result: $wres,
			  cgroup: (if $cg == null then null else $cg + {path: $rusage.cgroup} end),
			  workload_error: (if $err == "" then null else $err end)}')
		also=$(jq -c --argjson a "$a_json" '. + [$a]' <<<"$also")
	done

	local werr=""
	[[ $(workload_rc_of "$part" 0) == 0 ]] || werr=$(workload_error "$part" "$(jq -r .workload "$req")")
	jq --arg active "${active:-unknown}" --arg uname "$(status_get "$st" uname)" \
		--arg exit "$exit_class" --arg note "$note" --argjson verified "$verified" \
		--argjson rusage "$rusage" --argjson vmstat "$vmstat" --argjson wres "$wres" \
		--argjson pstats "$pstats" --arg mem_avail "$(status_get "$st" mem_available_kb)" \
		--arg lru_gen "$lru_gen" --arg ifaces "$(status_get "$st" net_ifaces)" \
		--argjson qemu_s "$qemu_s" --argjson host_wall "$host_wall" \
		--argjson boot_to_run "$boot_to_run" --arg up_init "$(status_get "$st" uptime_at_init_s)" \
		--arg up_run "$(status_get "$st" uptime_at_run_s)" \
		--argjson tracekeys "$tracekeys" --arg buffer_kb "$(status_get "$st" trace_buffer_kb)" \
		--arg profile "$(status_get "$st" trace_profile)" \
		--argjson psi "$(psi_json "$part/psi.before" "$part/psi.after" elapsed)" \
		--argjson cg "$(cgroup_json "$part" "$(jq -r '.params.cgroup.name // empty' "$req")")" \
		--argjson switches "$(switches_json "$part")" --argjson also "$also" \
		--argjson lru_check "$(lru_check_json "$part/lru_check")" \
		--argjson reclaim "$(reclaim_json "$part")" \
		--argjson machine "$(machine_json "$part")" \
		--arg active_end "$(status_get "$st" policy_active_end)" \
		--arg cmdline "$(status_get "$st" cmdline)" --arg werr "$werr" \
		--argjson stalls "${guest[boot_stalls]}" --argjson conc "${guest[concurrent]:-0}" \
		--arg conc_ids "${guest[concurrent_ids]:-}" \
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
		  uptime_at_run_s: (if $up_run == "" then null else ($up_run | tonumber) end),
		  psi: $psi, reclaim: $reclaim,
		  cgroup: (if $cg == null then null else $cg + {path: $rusage.cgroup} end),
		  switches: $switches, lru_check: $lru_check, machine: $machine,
		  policy_active_end: (if $active_end == "" then null else $active_end end),
		  also: $also,
		  workload_error: (if $werr == "" then null else $werr end),
		  guest_cmdline: (if $cmdline == "" then null else $cmdline end),
		  boot_stalls: $stalls,
		  concurrent_guests: $conc,
		  concurrent_guest_ids: ($conc_ids | split(" ") | map(select(. != "")))}
		| . + $tracekeys
		| if $buffer_kb == "" then . else .trace_buffer_kb = ($buffer_kb | tonumber) end
		| if $profile == "" then . else .trace_profile = $profile end
		| .kernel.release = (if $uname == "" then .kernel.release else $uname end)' \
		"$req" >"$part/result.json.tmp" || {
		rm -f "$part/result.json.tmp"
		say "cannot write result.json in $part"
		result_code=$EX_HARNESS
		return 0
	}
	# A profile's metrics read the counters above: added before the one
	# write of result.json.
	local perf
	perf=$(perf_metrics "$part" "$part/result.json.tmp")
	if [[ -n $perf ]]; then
		jq --argjson perf "$perf" '.perf = $perf' "$part/result.json.tmp" >"$part/result.json.perf" &&
			mv "$part/result.json.perf" "$part/result.json.tmp"
	fi
	mv "$part/result.json.tmp" "$part/result.json"
	[[ -n $note ]] && say "$(jq -r '"[rep \(.rep)]"' "$req") $exit_class: $note"
	# shellcheck disable=SC2034 # the caller's
	result_code=$code
}
