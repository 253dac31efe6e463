# The sources of each analysis tool, relative to analysis/: the one list
# that analysis/Makefile builds the tools from and fuzz/Makefile builds its
# targets from, so a file added to a tool reaches both.
# sim/sizes.c: the number parser the trace tools' options share with the
# simulator's.
TRACE_TIMELINE_SRCS := trace/trace_timeline.c trace/event_sources.c trace/timeline.c \
	trace/summary.c trace/scan.c trace/lost.c trace/atomic_output.c trace/trace_open.c \
	sim/sizes.c
TRACE_PAGE_CACHE_SRCS := trace/trace_page_cache.c trace/page_cache.c trace/hot_pages.c \
	trace/lost.c trace/atomic_output.c trace/trace_open.c sim/sizes.c
LABSTAT_SRCS := stats/labstat.c stats/runs.c stats/experiment.c stats/metric.c \
	stats/compare.c stats/report.c stats/table.c stats/bound.c stats/headline.c \
	stats/sample_stats.c registry/registry.c trace/atomic_output.c
PERF_COMMON_SRCS := perf/script.c perf/folded.c perf/strmap.c perf/classify.c \
	perf/profile.c perf/metrics.c perf/top_option.c registry/registry.c trace/atomic_output.c
PERF_RECLAIM_SRCS := perf/perf_reclaim.c perf/report.c $(PERF_COMMON_SRCS)
PERF_DIFF_SRCS := perf/perf_diff.c $(PERF_COMMON_SRCS)
