/* Unit tests of the synthetic web-search trace generator (lib/webgen.c). */
#include "stamp.h"
#include "tap.h"
#include "webgen.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MIB (1024ULL * 1024)

static void params(struct webgen_params *p, uint64_t footprint, uint64_t seed)
{
	webgen_defaults(p, 256 * MIB);
	p->footprint_bytes = footprint;
	p->seed = seed;
}

static int same_request(const struct spc_req *a, const struct spc_req *b)
{
	return a->asu == b->asu && a->lba == b->lba && a->size == b->size && a->op == b->op &&
	       a->ts == b->ts;
}

static void determinism(void)
{
	struct webgen_params p;
	struct webgen a, b, c;
	const char *why;
	int same = 1, differs = 0;

	params(&p, 64 * MIB, 1);
	webgen_init(&a, &p, &why);
	webgen_init(&b, &p, &why);
	p.seed = 2;
	webgen_init(&c, &p, &why);
	for (int i = 0; i < 20000; i++) {
		struct spc_req ra, rb, rc;

		webgen_next(&a, &ra, NULL);
		webgen_next(&b, &rb, NULL);
		webgen_next(&c, &rc, NULL);
		same &= same_request(&ra, &rb);
		differs += !same_request(&ra, &rc);
	}
	tap_ok(same, "same parameters and seed give the same requests");
	tap_ok(differs > 19000, "another seed gives different requests (%d of 20000 differ)",
	       differs);
	webgen_free(&a);
	webgen_free(&b);
	webgen_free(&c);
}

static void shape(void)
{
	struct webgen_params p;
	struct webgen g;
	const char *why;
	unsigned size_count[9] = { 0 };
	int in_bounds = 1, increasing = 1, reads = 1;
	const int n = 100000;
	double last_ts = -1;

	params(&p, 96 * MIB, 5);
	tap_ok(webgen_init(&g, &p, &why) == 0, "96 MiB footprint initialises");
	tap_ok(g.objects == 3072 && webgen_asu_pages(&g) == 8192,
	       "3 ASUs of 1024 32-KiB objects (got %llu objects)", (unsigned long long)g.objects);
	for (int i = 0; i < n; i++) {
		struct spc_req r;
		uint64_t obj, first, last;

		webgen_next(&g, &r, &obj);
		spc_pages(&r, &first, &last);
		in_bounds &= r.asu < 3 && last < webgen_asu_pages(&g) &&
			     first / WEBGEN_OBJECT_PAGES == last / WEBGEN_OBJECT_PAGES &&
			     obj == r.asu * g.objects_per_asu + first / WEBGEN_OBJECT_PAGES &&
			     r.lba % 8 == 0 && r.size % LAB_PAGE_SIZE == 0;
		increasing &= r.ts > last_ts;
		reads &= r.op == 'r';
		last_ts = r.ts;
		if (r.size / LAB_PAGE_SIZE <= 8)
			size_count[r.size / LAB_PAGE_SIZE]++;
	}
	tap_ok(in_bounds, "requests are page aligned and stay inside one object of their ASU");
	tap_ok(increasing, "timestamps increase strictly");
	tap_ok(reads, "every request is a read");
	tap_ok(fabs(last_ts - n / p.rate) < 0.03 * n / p.rate,
	       "arrivals average the requested rate (%.1f s for %d requests at %.0f/s)", last_ts,
	       n, p.rate);
	tap_ok(fabs(size_count[1] / (double)n - 0.05) < 0.01 &&
		       fabs(size_count[2] / (double)n - 0.40) < 0.01 &&
		       fabs(size_count[4] / (double)n - 0.30) < 0.01 &&
		       fabs(size_count[6] / (double)n - 0.10) < 0.01 &&
		       fabs(size_count[8] / (double)n - 0.15) < 0.01,
	       "size mix 4K/8K/16K/24K/32K is 5/40/30/10/15%% (%u %u %u %u %u)", size_count[1],
	       size_count[2], size_count[4], size_count[6], size_count[8]);
	webgen_free(&g);
}

static int desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

static void popularity(void)
{
	struct webgen_params p;
	struct webgen g;
	const char *why;
	const int n = 300000;
	uint64_t *count, top = 0;
	double predicted = 0, observed, hottest;
	int bijective = 1;
	char *seen;

	params(&p, 96 * MIB, 9);
	webgen_init(&g, &p, &why);
	count = calloc(g.objects, sizeof(*count));
	seen = calloc(g.objects, 1);
	for (uint64_t r = 0; r < g.objects; r++) {
		uint64_t o = webgen_object_of_rank(&g, r);

		if (o >= g.objects || seen[o])
			bijective = 0;
		else
			seen[o] = 1;
	}
	tap_ok(bijective, "ranks map one-to-one onto the %llu objects", (unsigned long long)g.objects);
	tap_ok(webgen_object_of_rank(&g, 0) != 0 || webgen_object_of_rank(&g, 1) != 1,
	       "hot ranks are scattered, not objects 0, 1, ...");
	for (int i = 0; i < n; i++) {
		struct spc_req r;
		uint64_t obj;

		webgen_next(&g, &r, &obj);
		count[obj]++;
	}
	hottest = count[webgen_object_of_rank(&g, 0)] / (double)n;
	tap_ok(fabs(hottest - webgen_rank_probability(&g, 0)) < 0.1 * webgen_rank_probability(&g, 0),
	       "rank 0 gets its Zipf share (%.4f vs %.4f)", hottest,
	       webgen_rank_probability(&g, 0));
	qsort(count, g.objects, sizeof(*count), desc);
	for (uint64_t r = 0; r < g.objects / 10; r++) {
		top += count[r];
		predicted += webgen_rank_probability(&g, r);
	}
	observed = top / (double)n;
	tap_ok(observed > 0.4, "the top 10%% of objects get well over 10%% of requests (%.3f)",
	       observed);
	tap_ok(fabs(observed - predicted) < 0.02,
	       "their share matches Zipf(alpha=0.9) (%.3f observed, %.3f predicted)", observed,
	       predicted);
	free(count);
	free(seen);
	webgen_free(&g);
}

static void rejects(void)
{
	struct webgen_params p;
	struct webgen g;
	const char *why = NULL;
	int rc;

	params(&p, 64 * 1024, 1);
	rc = webgen_init(&g, &p, &why);
	tap_ok(rc == -1 && why && strstr(why, "too small"),
	       "a footprint below one object per ASU is rejected (%s)", why ? why : "accepted");
	params(&p, 64 * MIB, 1);
	p.alpha = 0;
	tap_ok(webgen_init(&g, &p, &why) == -1 && strstr(why, "alpha"), "alpha 0 is rejected");
	params(&p, 64 * MIB, 1);
	p.asus = 0;
	tap_ok(webgen_init(&g, &p, &why) == -1 && strstr(why, "ASU"), "0 ASUs are rejected");
}

int main(void)
{
	determinism();
	shape();
	popularity();
	rejects();
	return tap_done();
}
