/*
 * get-scan: point GETs on LevelDB while threads stream the whole database,
 * cache_ext's GET-SCAN (SOSP'25) and the case MGLRU's scan resistance is
 * for: YCSB's zipfian reads of mix C, with --scan-threads threads (default
 * 1) reading every record in key order, pass after pass, until the reads
 * are done (ycsb/ycsb.c, mix g). Every value the reads and the streams get
 * is verified, and a whole pass must see every record.
 */
#include "leveldb.h"

int main(int argc, char **argv)
{
	void *l = ycsb_leveldb_new();
	int rc = ycsb_main(argc, argv, &ycsb_leveldb, l, "get-scan", "g");

	ycsb_leveldb_free(l);
	return rc;
}
