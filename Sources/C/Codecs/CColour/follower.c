#define _GNU_SOURCE
#include "CColour.h"
#include "matshaper.h"

#include <pthread.h>
#include <stdlib.h>

/* Rows are handed to the second thread in batches: one wake-up per batch, not per row. */
#define BATCH_ROWS 16

struct bacolour_follower {
    const bacolour_rows *rows;
    uint32_t *first;
    uint32_t width, stride;
    pthread_mutex_t lock;
    pthread_cond_t more;
    uint32_t finished;  /* rows the decoder has finished (written under `lock`, or alone when inline) */
    uint32_t announced; /* rows handed to the thread so far (under `lock`) */
    uint32_t converted; /* rows the thread has converted (its own) */
    int done;           /* the decoder finished: convert what is left and stop */
    int threaded;       /* 0: rows are converted on the decoder's thread as they finish */
    pthread_t thread;
};

static uint32_t *row_at(const bacolour_follower *f, uint32_t index) { return f->first + (size_t)index * f->stride; }

static void *follow(void *argument) {
    bacolour_follower *f = argument;
    pthread_mutex_lock(&f->lock);
    for (;;) {
        while (f->converted == f->announced && !f->done) pthread_cond_wait(&f->more, &f->lock);
        uint32_t end = f->announced;
        if (f->converted == end && f->done) break;
        pthread_mutex_unlock(&f->lock);
        for (; f->converted < end; f->converted++) bacolour_rows_convert(f->rows, row_at(f, f->converted), f->width);
        pthread_mutex_lock(&f->lock);
    }
    pthread_mutex_unlock(&f->lock);
    return NULL;
}

static int start_thread(bacolour_follower *f) {
    pthread_attr_t attributes;
    if (pthread_attr_init(&attributes) != 0) return 0;
    int started = pthread_attr_setstacksize(&attributes, BACOLOUR_THREAD_STACK_BYTES) == 0 &&
                  pthread_create(&f->thread, &attributes, follow, f) == 0;
    pthread_attr_destroy(&attributes);
    return started;
}

bacolour_follower *bacolour_follower_start(const bacolour_rows *rows, uint32_t *first, uint32_t width,
                                           uint32_t stride) {
    bacolour_follower *f = calloc(1, sizeof *f);
    if (!f) return NULL;
    *f = (bacolour_follower){.rows = rows, .first = first, .width = width, .stride = stride};
    pthread_mutex_init(&f->lock, NULL);
    pthread_cond_init(&f->more, NULL);
    f->threaded = bacolour_usable_cpus(2) > 1 && start_thread(f);
    return f;
}

/* Hands the finished rows to the thread. */
static void announce(bacolour_follower *f) {
    pthread_mutex_lock(&f->lock);
    f->announced = f->finished;
    pthread_cond_signal(&f->more);
    pthread_mutex_unlock(&f->lock);
}

void bacolour_follower_row_done(bacolour_follower *f) {
    if (!f->threaded) {
        bacolour_rows_convert(f->rows, row_at(f, f->finished++), f->width);
        return;
    }
    if (++f->finished % BATCH_ROWS == 0) announce(f);
}

void bacolour_follower_finish(bacolour_follower *f) {
    if (!f) return;
    if (f->threaded) {
        pthread_mutex_lock(&f->lock);
        f->announced = f->finished;
        f->done = 1;
        pthread_cond_signal(&f->more);
        pthread_mutex_unlock(&f->lock);
        pthread_join(f->thread, NULL);
    }
    pthread_cond_destroy(&f->more);
    pthread_mutex_destroy(&f->lock);
    free(f);
}
