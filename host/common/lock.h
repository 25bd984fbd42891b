/* lock.h - a plain mutex on POSIX threads (CLSEL_MUTEX_INITIALIZER: one with static
 * storage, ready without clsel_mutex_init). */
#ifndef CLSEL_HOST_LOCK_H
#define CLSEL_HOST_LOCK_H

#include <pthread.h>

typedef pthread_mutex_t clsel_mutex;
#define CLSEL_MUTEX_INITIALIZER PTHREAD_MUTEX_INITIALIZER
static inline int clsel_mutex_init(clsel_mutex *m)
{
    return pthread_mutex_init(m, NULL);
}
static inline void clsel_mutex_lock(clsel_mutex *m)
{
    pthread_mutex_lock(m);
}
static inline void clsel_mutex_unlock(clsel_mutex *m)
{
    pthread_mutex_unlock(m);
}
static inline void clsel_mutex_destroy(clsel_mutex *m)
{
    pthread_mutex_destroy(m);
}

#endif
