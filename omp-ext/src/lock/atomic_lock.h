/*
 * The runtime's global atomic lock (ops->atomic_acquire/atomic_release):
 * the lock GCC's GOMP_atomic_start/GOMP_atomic_end take around an update
 * they cannot make atomic (an array reduction's combine, a long double), and
 * with it every other user of that one lock in the runtime (see abi.h).
 */
#ifndef OMPEXT_ATOMIC_LOCK_H
#define OMPEXT_ATOMIC_LOCK_H

/* Polls a waiter spins before it yields its processor at every poll, when
   the team fits the processors and waiting is active (else none). */
void ompext_atomic_lock_set_spin(unsigned polls);

void ompext_atomic_lock_acquire(int gtid);
void ompext_atomic_lock_release(int gtid);

#endif /* OMPEXT_ATOMIC_LOCK_H */
