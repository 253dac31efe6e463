/* --top N, the rows a perf tool's report or table keeps: the one parser
 * perf-reclaim and perf-diff share. */
#ifndef TOP_OPTION_H
#define TOP_OPTION_H

/* Sets *top to text, a whole number from 1 to max; returns 0, or -1 after
 * one line on stderr naming prog. */
int top_option_parse(const char *prog, const char *text, long max, int *top);

#endif
