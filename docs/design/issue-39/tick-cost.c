// tick-cost.c: the CPU one thread spends per 1-ms clock_nanosleep (the watchdog's look period) over 5 s; arg: timer slack in ns.
// cc -O2 tick-cost.c -o tick-cost && ./tick-cost
#include <time.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/prctl.h>
#include <stdlib.h>
int main(int c, char **v) {
  long slack = c > 1 ? atol(v[1]) : 0; if (slack) prctl(PR_SET_TIMERSLACK, slack);
  struct timespec r = {0, 1000000}, a, b; clock_gettime(CLOCK_MONOTONIC, &a); long n = 0;
  do { clock_nanosleep(CLOCK_MONOTONIC, 0, &r, NULL); n++; clock_gettime(CLOCK_MONOTONIC, &b); } while (b.tv_sec - a.tv_sec < 5);
  struct rusage u; getrusage(RUSAGE_SELF, &u);
  double cpu = u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
  printf("slack %ld ns: %ld ticks, %.0f ms CPU, %.2f us per tick\n", slack, n, cpu * 1000, cpu * 1e6 / n);
}
