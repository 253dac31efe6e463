/* LevelDB as an engine of the YCSB core (ycsb.h): ycsb-leveldb's and
 * get-scan's. */
#ifndef LAB_YCSB_LEVELDB_H
#define LAB_YCSB_LEVELDB_H

#include "ycsb.h"

extern const struct ycsb_engine ycsb_leveldb;

/* The engine's state for ycsb_main (it also has LevelDB read its tables
 * with pread, not mmap); ycsb_leveldb_free releases it. */
void *ycsb_leveldb_new(void);
void ycsb_leveldb_free(void *state);

#endif
