/*
 * fio's terse output, version 3 (fio --output-format=terse
 * --terse-version=3; fio's HOWTO, "Terse output"): one line of
 * semicolon-separated fields per job. After five fields (terse version,
 * fio version, job name, group id, error) come the read side and the write
 * side, 41 fields each: KiB, KiB/s, IOPS, runtime (ms), submission latency
 * (min, max, mean, deviation), completion latency (the same four), the
 * completion latency percentiles (20 fields "P%=V", the unused ones "0%=0"),
 * total latency (four fields) and bandwidth statistics (five fields).
 * Latencies are in microseconds.
 */
#ifndef LAB_FIOTERSE_H
#define LAB_FIOTERSE_H

#include <stdint.h>

#define FIO_TERSE_PCTS 20

struct fio_side {
	uint64_t kib;
	double kib_per_s;
	double iops;
	uint64_t runtime_ms;
	double clat_mean_us;
	uint64_t clat_max_us;
	unsigned npct; /* percentiles fio printed (those of its percentile_list) */
	double pct[FIO_TERSE_PCTS];       /* which: 50, 99, 99.9, ... */
	uint64_t pct_us[FIO_TERSE_PCTS];  /* the completion latency there */
};

struct fio_job {
	char name[64];
	int error; /* fio's error number for the job (0: none; EILSEQ: verify) */
	struct fio_side read, write;
};

/* Parse one terse line (without or with its newline). 0, or -1 when the
 * line is not a terse version 3 job line. */
int fio_terse_parse(const char *line, struct fio_job *job);

/* The completion latency at percentile p in us, or -1 when fio printed no
 * such percentile. */
int64_t fio_side_pct(const struct fio_side *side, double p);

#endif
