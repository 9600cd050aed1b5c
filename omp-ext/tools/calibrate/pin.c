/*
 * Pinned thread teams.
 *
 * Every measurement places its threads on chosen PUs; an unpinned thread
 * would measure whatever the scheduler decided, so a pinning failure stops
 * the calibration instead of producing numbers.
 *
 * cal_team_run creates the threads, each pins itself and reports; only
 * when all are pinned does the team start (a start gate), otherwise no
 * thread runs the measurement and the caller gets the first failure.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "calibrate.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

int cal_pin_self(int os_pu, char *err, size_t cap) {
  if (os_pu < 0 || os_pu >= CPU_SETSIZE) {
    snprintf(err, cap, "cannot pin a thread to CPU %d: out of range", os_pu);
    return -1;
  }
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(os_pu, &set);
  int rc = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
  if (rc != 0) {
    snprintf(err, cap,
             "cannot pin a thread to CPU %d (pthread_setaffinity_np: %s)",
             os_pu, strerror(rc));
    return -1;
  }
  /* Check: the kernel may accept a mask and still run us elsewhere only in
     broken setups, but the mask itself must read back. */
  cpu_set_t got;
  CPU_ZERO(&got);
  rc = pthread_getaffinity_np(pthread_self(), sizeof(got), &got);
  if (rc != 0 || CPU_COUNT(&got) != 1 || !CPU_ISSET(os_pu, &got)) {
    snprintf(err, cap, "cannot pin a thread to CPU %d (affinity not applied)",
             os_pu);
    return -1;
  }
  return 0;
}

typedef struct team {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int reported;   /* threads that tried to pin */
  int go;         /* 0 wait, 1 run, -1 abort */
  int failed;
  char err[256];
  cal_role_fn fn;
  void *arg;
} team_t;

typedef struct member {
  team_t *team;
  int role;
  int pu;
} member_t;

static void *member_main(void *p) {
  member_t *m = p;
  team_t *t = m->team;
  char err[256];
  int rc = cal_pin_self(m->pu, err, sizeof(err));
  pthread_mutex_lock(&t->mu);
  if (rc != 0 && !t->failed) {
    t->failed = 1;
    snprintf(t->err, sizeof(t->err), "%s", err);
  }
  t->reported++;
  pthread_cond_broadcast(&t->cv);
  while (t->go == 0)
    pthread_cond_wait(&t->cv, &t->mu);
  int go = t->go;
  pthread_mutex_unlock(&t->mu);
  if (go > 0)
    t->fn(m->role, t->arg);
  return NULL;
}

int cal_team_run(int n, const int *pus, cal_role_fn fn, void *arg, char *err,
                 size_t cap) {
  if (n < 1) {
    snprintf(err, cap, "empty team");
    return -1;
  }
  team_t t;
  memset(&t, 0, sizeof(t));
  pthread_mutex_init(&t.mu, NULL);
  pthread_cond_init(&t.cv, NULL);
  t.fn = fn;
  t.arg = arg;
  pthread_t *th = calloc((size_t)n, sizeof(pthread_t));
  member_t *mem = calloc((size_t)n, sizeof(member_t));
  if (!th || !mem) {
    free(th);
    free(mem);
    snprintf(err, cap, "out of memory");
    return -1;
  }
  int created = 0;
  for (int i = 0; i < n; ++i) {
    mem[i].team = &t;
    mem[i].role = i;
    mem[i].pu = pus[i];
    int rc = pthread_create(&th[i], NULL, member_main, &mem[i]);
    if (rc != 0) {
      pthread_mutex_lock(&t.mu);
      if (!t.failed) {
        t.failed = 1;
        snprintf(t.err, sizeof(t.err), "cannot create a thread: %s",
                 strerror(rc));
      }
      pthread_mutex_unlock(&t.mu);
      break;
    }
    ++created;
  }
  pthread_mutex_lock(&t.mu);
  while (t.reported < created)
    pthread_cond_wait(&t.cv, &t.mu);
  t.go = t.failed ? -1 : 1;
  pthread_cond_broadcast(&t.cv);
  pthread_mutex_unlock(&t.mu);
  for (int i = 0; i < created; ++i)
    pthread_join(th[i], NULL);
  int failed = t.failed;
  if (failed)
    snprintf(err, cap, "%s", t.err);
  pthread_mutex_destroy(&t.mu);
  pthread_cond_destroy(&t.cv);
  free(th);
  free(mem);
  return failed ? -1 : 0;
}

void *cal_pages_alloc(size_t bytes) {
  size_t len = (bytes + CAL_PAGE - 1) / CAL_PAGE * CAL_PAGE;
  if (len == 0)
    len = CAL_PAGE;
  void *p = NULL;
  if (posix_memalign(&p, CAL_PAGE, len) != 0)
    return NULL;
  memset(p, 0, len);
  return p;
}

void *cal_zalloc(size_t bytes) {
  size_t len = (bytes + CAL_PAD - 1) / CAL_PAD * CAL_PAD;
  if (len == 0)
    len = CAL_PAD;
  void *p = NULL;
  if (posix_memalign(&p, CAL_PAD, len) != 0)
    return NULL;
  memset(p, 0, len);
  return p;
}
