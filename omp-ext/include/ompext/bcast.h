/*
 * ompext_bcast: a broadcast of a given number of bytes among the threads of
 * the innermost parallel region.  Link libompext_bcast.so; the same binary
 * runs on omp-ext (the plugin's broadcast, chosen by the cost model per team
 * and message size), on stock libomp and on GCC's libgomp (a portable
 * fallback: a barrier and a copy from the root's published pointer).
 *
 *   #pragma omp parallel
 *   {
 *     double v[64];
 *     if (omp_get_thread_num() == 2)
 *       fill(v);
 *     ompext_bcast(v, sizeof v, 2);   // every thread's v is thread 2's
 *   }
 *
 * Every thread of the team calls it with the same bytes and root.  Buffers
 * may be private or one shared buffer (nothing is then copied onto itself);
 * they must not otherwise overlap.  A team of one (also outside any
 * parallel region) returns at once.  Returns 0, or OMPEXT_BCAST_EINVAL on
 * every thread (one message on stderr, nothing copied) when the root is
 * outside the team, a buffer is NULL with bytes > 0, or the threads
 * disagree on bytes or root.  Like a barrier, it must not be called inside
 * a task or by only some threads of a team.
 */
#ifndef OMPEXT_BCAST_PUBLIC_H
#define OMPEXT_BCAST_PUBLIC_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define OMPEXT_BCAST_EINVAL 22

int ompext_bcast(void *buf, size_t bytes, int root);

#ifdef __cplusplus
}
#endif

#endif
