#include "stamp.h"

#include "prng.h"


#define STAMP_STEP 0x9e3779b97f4a7c15ULL

uint64_t stamp_key(uint64_t seed, uint64_t object, uint64_t page, uint64_t gen)
{
	uint64_t k = mix64(seed ^ 0x4c41425354414d50ULL);

	k = mix64(k ^ object);
	k = mix64(k ^ page);
	return mix64(k ^ gen);
}

uint64_t stamp_word(uint64_t key, size_t i)
{
	return key ^ ((uint64_t)i * STAMP_STEP);
}

void stamp_fill(void *page, uint64_t key)
{
	uint64_t *w = page;

	for (size_t i = 0; i < LAB_PAGE_WORDS; i++)
		w[i] = stamp_word(key, i);
}

long stamp_mismatch(const void *page, uint64_t key)
{
	const uint64_t *w = page;

	for (size_t i = 0; i < LAB_PAGE_WORDS; i++)
		if (w[i] != stamp_word(key, i))
			return (long)(i * 8);
	return -1;
}

long zero_mismatch(const void *page)
{
	const uint64_t *w = page;

	for (size_t i = 0; i < LAB_PAGE_WORDS; i++)
		if (w[i])
			return (long)(i * 8);
	return -1;
}
