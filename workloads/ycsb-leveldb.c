/*
 * ycsb-leveldb: the YCSB core workloads (ycsb/ycsb.h) on LevelDB
 * (ycsb/leveldb.c says how the database is set up and read).
 */
#include "leveldb.h"

int main(int argc, char **argv)
{
	void *l = ycsb_leveldb_new();
	int rc = ycsb_main(argc, argv, &ycsb_leveldb, l, NULL, "a");

	ycsb_leveldb_free(l);
	return rc;
}
