/* pool.h — independent jobs in worker processes, a bounded number at a time.
 *
 * Job j runs body(fd, j, ctx) in a child of its own (gl_child_spawn: its own process
 * group, SIGKILL when this process dies, so a kill of gpulearn ends every worker and
 * what the workers started), which sends its result as messages (child.h) on fd. Jobs
 * start in index order, at most `workers` at once, as soon as a slot is free; the
 * caller takes each job's messages with gl_pool_wait in whatever order it likes (the
 * grader: index order, so that its report is the one a single process writes). While it
 * waits, every running worker's pipe is drained, so no worker stalls on a full pipe. */
#ifndef GL_POOL_H
#define GL_POOL_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/child.h"

/* The cores this process may run on (sched_getaffinity, else the online processors),
 * at least 1. */
int gl_pool_cores(void);

/* The largest worker count gpulearn accepts (--jobs, GPULEARN_JOBS). */
#define GL_POOL_MAX_WORKERS 1024

/* The workers to run at once: arg (--jobs; NULL: none given), else the environment's
 * GPULEARN_JOBS, else gl_pool_cores(). -1 with why (a sentence naming --jobs or
 * GPULEARN_JOBS) when the one given is not a whole number from 1 to
 * GL_POOL_MAX_WORKERS. */
int gl_pool_workers(const char *arg, char *why, size_t why_len);

/* How to run a pool's jobs. */
typedef struct gl_pool_opts {
    int workers; /* jobs running at once, >= 1 */
    int njobs;
    /* In the worker: job's work, its result sent on fd (messages); it may _exit with a
     * code of its own, else the worker exits 0 when it returns. */
    void (*body)(int fd, int job, void *ctx);
    void *ctx;
    uint64_t max_message; /* the largest payload a message may announce, bytes */
    double job_timeout_s; /* a job running longer is killed (timed_out); 0: no limit */
    /* After each job ends and about once a second while the caller waits (a progress
     * line); NULL: none. */
    void (*progress)(void *ctx, int done, int njobs);
    void *progress_ctx;
} gl_pool_opts;

/* How a job ended. */
typedef struct gl_pool_result {
    gl_child_msg *msgs; /* its messages, whole, in the order sent (data NUL-terminated) */
    int nmsgs;
    gl_msg_rc end; /* GL_MSG_EOF: the worker closed its pipe (it ended); GL_MSG_ERROR or
                        GL_MSG_TOO_BIG: a message that does not fit, and it was killed;
                        GL_MSG_TIMEOUT: past job_timeout_s, killed */
    gl_child_exit exit;
    int start_errno; /* > 0: the worker could not be started (fork or pipe: errno) */
} gl_pool_result;

typedef struct gl_pool gl_pool;

/* A pool for o's jobs (copied); nothing starts before the first gl_pool_wait. NULL when
 * out of memory. */
gl_pool *gl_pool_new(const gl_pool_opts *o);

/* Runs jobs until job has ended, and returns how: the pool's until gl_pool_free (the
 * caller may take payloads out of its messages: gl_child_msg_take). NULL for a job
 * cancelled or out of range. */
gl_pool_result *gl_pool_wait(gl_pool *p, int job);

/* The caller will not wait for job: it never starts, or is killed if it runs. */
void gl_pool_cancel(gl_pool *p, int job);

/* Kills every worker still running (with what it started), waits for them and frees
 * everything. p may be NULL. */
void gl_pool_free(gl_pool *p);

#endif
