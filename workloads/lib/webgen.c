#include "webgen.h"

#include "stamp.h"

#include <math.h>
#include <stdlib.h>

static const struct {
	unsigned pages;
	unsigned percent;
} size_mix[] = {
	{ 1, 5 }, { 2, 40 }, { 4, 30 }, { 6, 10 }, { 8, 15 },
};

void webgen_defaults(struct webgen_params *p, uint64_t memtotal)
{
	p->footprint_bytes = memtotal / 2 * 3;
	p->requests = WEBGEN_DEFAULT_REQUESTS;
	p->asus = WEBGEN_DEFAULT_ASUS;
	p->alpha = WEBGEN_DEFAULT_ALPHA;
	p->rate = WEBGEN_DEFAULT_RATE;
	p->seed = 1;
}

/* Four-round Feistel network on 2*half bits, cycle-walked into [0, objects). */
static uint64_t permute(const struct webgen *g, uint64_t x)
{
	unsigned h = g->perm_half_bits;
	uint64_t mask = ((uint64_t)1 << h) - 1;

	do {
		uint64_t l = x >> h, r = x & mask;

		for (int i = 0; i < 4; i++) {
			uint64_t f = mix64(r ^ g->perm_key[i]) & mask;
			uint64_t nl = r;

			r = l ^ f;
			l = nl;
		}
		x = (l << h) | r;
	} while (x >= g->objects);
	return x;
}

int webgen_init(struct webgen *g, const struct webgen_params *p, const char **why)
{
	uint64_t pages = p->footprint_bytes / LAB_PAGE_SIZE;
	double sum = 0;
	struct prng keys;
	unsigned bits = 1;

	*why = NULL;
	g->cdf = NULL;
	g->p = *p;
	if (p->asus < 1 || p->asus > WEBGEN_MAX_ASUS) {
		*why = "ASU count must be 1..64";
		return -1;
	}
	if (!(p->alpha > 0) || p->alpha > 10) {
		*why = "alpha must be in (0, 10]";
		return -1;
	}
	if (!(p->rate > 0) || p->rate > 1e9) {
		*why = "rate must be in (0, 1e9] requests/s";
		return -1;
	}
	g->objects_per_asu = pages / WEBGEN_OBJECT_PAGES / p->asus;
	if (g->objects_per_asu < 1) {
		*why = "footprint too small: need at least one 32 KiB object per ASU";
		return -1;
	}
	if (g->objects_per_asu * WEBGEN_OBJECT_PAGES >= SPC_MAX_PAGE / 2) {
		*why = "footprint too large";
		return -1;
	}
	g->objects = g->objects_per_asu * p->asus;
	g->cdf = malloc(g->objects * sizeof(double));
	if (!g->cdf) {
		*why = "out of memory for the popularity table";
		return -1;
	}
	for (uint64_t r = 0; r < g->objects; r++) {
		sum += pow((double)(r + 1), -p->alpha);
		g->cdf[r] = sum;
	}
	for (uint64_t r = 0; r < g->objects; r++)
		g->cdf[r] /= sum;
	g->cdf[g->objects - 1] = 1.0;

	while (((uint64_t)1 << (2 * bits)) < g->objects)
		bits++;
	g->perm_half_bits = bits;
	/* Separate streams for the permutation and for the requests. */
	prng_seed(&keys, mix64(p->seed ^ 0x7065726d75746521ULL));
	for (int i = 0; i < 4; i++)
		g->perm_key[i] = prng_next(&keys);
	prng_seed(&g->rng, p->seed);
	g->ts_us = 0;
	g->emitted = 0;
	return 0;
}

static uint64_t sample_rank(const struct webgen *g, double u)
{
	uint64_t lo = 0, hi = g->objects - 1;

	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (g->cdf[mid] > u)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

static unsigned sample_pages(struct webgen *g)
{
	unsigned pick = (unsigned)prng_below(&g->rng, 100), acc = 0;

	for (size_t i = 0; i < sizeof(size_mix) / sizeof(size_mix[0]); i++) {
		acc += size_mix[i].percent;
		if (pick < acc)
			return size_mix[i].pages;
	}
	return WEBGEN_OBJECT_PAGES;
}

void webgen_next(struct webgen *g, struct spc_req *out, uint64_t *object)
{
	uint64_t rank = sample_rank(g, prng_unit(&g->rng));
	uint64_t obj = permute(g, rank);
	unsigned pages = sample_pages(g);
	uint64_t offset = prng_below(&g->rng, WEBGEN_OBJECT_PAGES - pages + 1);
	uint64_t first_page = (obj % g->objects_per_asu) * WEBGEN_OBJECT_PAGES + offset;
	double gap = -log1p(-prng_unit(&g->rng)) / g->p.rate * 1e6;
	uint64_t gap_us = (uint64_t)llround(gap);

	g->ts_us += gap_us ? gap_us : 1;
	out->asu = (uint16_t)(obj / g->objects_per_asu);
	out->lba = first_page * (LAB_PAGE_SIZE / SPC_SECTOR);
	out->size = pages * LAB_PAGE_SIZE;
	out->op = 'r';
	out->ts = (double)g->ts_us / 1e6;
	g->emitted++;
	if (object)
		*object = obj;
}

uint64_t webgen_asu_pages(const struct webgen *g)
{
	return g->objects_per_asu * WEBGEN_OBJECT_PAGES;
}

double webgen_rank_probability(const struct webgen *g, uint64_t r)
{
	return r ? g->cdf[r] - g->cdf[r - 1] : g->cdf[0];
}

uint64_t webgen_object_of_rank(const struct webgen *g, uint64_t r)
{
	return permute(g, r);
}

void webgen_free(struct webgen *g)
{
	free(g->cdf);
	g->cdf = NULL;
}
