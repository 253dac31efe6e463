#include "fioterse.h"

#include "args.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FIELDS_BEFORE_SIDES 5
#define SIDE_FIELDS 41
#define TERSE_FIELDS (FIELDS_BEFORE_SIDES + 2 * SIDE_FIELDS)

static int parse_side(char *const *f, struct fio_side *side)
{
	uint64_t u;

	memset(side, 0, sizeof(*side));
	if (parse_u64(f[0], &side->kib) || parse_double(f[1], &side->kib_per_s) ||
	    parse_double(f[2], &side->iops) || parse_u64(f[3], &side->runtime_ms) ||
	    parse_u64(f[9], &side->clat_max_us) || parse_double(f[10], &side->clat_mean_us))
		return -1;
	for (unsigned i = 0; i < FIO_TERSE_PCTS; i++) {
		char *eq = strchr(f[12 + i], '=');
		double p;

		if (!eq || eq == f[12 + i] || eq[-1] != '%')
			return -1;
		eq[-1] = 0;
		if (parse_double(f[12 + i], &p) || parse_u64(eq + 1, &u))
			return -1;
		if (p == 0)
			continue; /* an unused slot */
		side->pct[side->npct] = p;
		side->pct_us[side->npct++] = u;
	}
	return 0;
}

int fio_terse_parse(const char *line, struct fio_job *job)
{
	char *copy = strdup(line), *f[TERSE_FIELDS], *s, *nl;
	unsigned n = 0;
	uint64_t err;
	int rc = -1;

	if (!copy)
		return -1;
	nl = strchr(copy, '\n');
	if (nl)
		*nl = 0;
	/* The fields after the two sides (CPU, IO depths, disks) vary. */
	for (s = copy; n < TERSE_FIELDS; n++) {
		f[n] = s;
		s = strchr(s, ';');
		if (!s)
			break;
		*s++ = 0;
	}
	if (n < TERSE_FIELDS - 1 || strcmp(f[0], "3") || strlen(f[2]) >= sizeof(job->name) ||
	    parse_u64(f[4], &err) || err > 4095)
		goto out;
	memset(job, 0, sizeof(*job));
	strcpy(job->name, f[2]);
	job->error = (int)err;
	if (parse_side(f + FIELDS_BEFORE_SIDES, &job->read) ||
	    parse_side(f + FIELDS_BEFORE_SIDES + SIDE_FIELDS, &job->write))
		goto out;
	rc = 0;
out:
	free(copy);
	return rc;
}

int64_t fio_side_pct(const struct fio_side *side, double p)
{
	for (unsigned i = 0; i < side->npct; i++)
		if (fabs(side->pct[i] - p) < 1e-9)
			return (int64_t)side->pct_us[i];
	return -1;
}
