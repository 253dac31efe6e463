/*
 * Page stamps: every 4 KiB page of a data set is filled with a pattern
 * derived from (seed, object, page, generation), so any lost, stale,
 * misplaced or corrupted page is detected by comparing the whole page.
 * Word i of a page is key ^ (i * golden ratio): one multiply per word,
 * cheap enough under QEMU TCG.
 */
#ifndef LAB_STAMP_H
#define LAB_STAMP_H

#include <stddef.h>
#include <stdint.h>

#define LAB_PAGE_SIZE 4096u
#define LAB_PAGE_WORDS (LAB_PAGE_SIZE / 8)

uint64_t stamp_key(uint64_t seed, uint64_t object, uint64_t page, uint64_t gen);
uint64_t stamp_word(uint64_t key, size_t i);
void stamp_fill(void *page, uint64_t key);

/* Byte offset of the first word that differs from the stamp, or -1. */
long stamp_mismatch(const void *page, uint64_t key);
/* Byte offset of the first non-zero word, or -1. */
long zero_mismatch(const void *page);

#endif
