#include "timeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void timeline_init(struct timeline *t, const struct event_sources *sources, double interval_s)
{
	memset(t, 0, sizeof(*t));
	t->sources = sources;
	t->interval_s = interval_s;
}

void timeline_free(struct timeline *t)
{
	free(t->cells);
	memset(t, 0, sizeof(*t));
}

double *timeline_row(struct timeline *t, size_t index)
{
	size_t ncols = (size_t)t->sources->ncolumns;

	if (index >= t->capacity) {
		size_t cap = t->capacity ? t->capacity : 64;
		while (cap <= index)
			cap *= 2;
		double *grown = realloc(t->cells, cap * ncols * sizeof(*grown));
		if (grown == NULL)
			return NULL;
		t->cells = grown;
		t->capacity = cap;
	}
	for (; t->nrows <= index; t->nrows++) {
		double *row = &t->cells[t->nrows * ncols];
		for (size_t c = 0; c < ncols; c++)
			row[c] = t->sources->column_is_gauge[c] ? NAN : 0.0;
	}
	return &t->cells[index * ncols];
}

int timeline_mark_loss(struct timeline *t, double start_s, double end_s, long long count)
{
	double iv = t->interval_s;
	size_t first = (size_t)(start_s / iv), last = (size_t)(end_s / iv);

	if (!(end_s > start_s))
		first = last;
	for (size_t i = first; i <= last; i++) {
		double lo = fmax(start_s, (double)i * iv), hi = fmin(end_s, (double)(i + 1) * iv);
		double share = first == last ? 1.0 : (hi - lo) / (end_s - start_s);

		if (first != last && !(share > 0.0) && i != last)
			continue;	/* the gap only touches this interval's end */
		double *row = timeline_row(t, i);
		if (row == NULL)
			return -1;
		row[COL_LOST_GAPS] += 1.0;
		if (count > 0 && share > 0.0)
			row[COL_LOST_EVENTS] += (double)count * share;
	}
	return 0;
}

void timeline_write_csv(const struct timeline *t, FILE *out)
{
	const struct event_sources *s = t->sources;

	fputs("t_s", out);
	for (int c = 0; c < s->ncolumns; c++)
		fprintf(out, ",%s", s->column_names[c]);
	fputc('\n', out);
	for (size_t r = 0; r < t->nrows; r++) {
		const double *row = &t->cells[r * (size_t)s->ncolumns];
		fprintf(out, "%.3f", (double)r * t->interval_s);
		for (int c = 0; c < s->ncolumns; c++) {
			if (!s->column_available[c])
				fputs(",NA", out);
			else if (isnan(row[c]))
				fputc(',', out);
			else
				fprintf(out, ",%.10g", row[c]);
		}
		fputc('\n', out);
	}
}
