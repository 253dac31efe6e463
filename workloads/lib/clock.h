/* Monotonic time for the timed phase. */
#ifndef LAB_CLOCK_H
#define LAB_CLOCK_H

double clock_now(void);
/* Sleep until clock_now() reaches t (no-op if already past). */
void clock_sleep_until(double t);

#endif
