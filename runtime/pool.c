/* pool.c — jobs in worker processes (pool.h). */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "runtime/pool.h"

#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int gl_pool_cores(void)
{
    long n = 0;
#ifdef __linux__
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        n = CPU_COUNT(&set);
#endif
    if (n <= 0)
        n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > GL_POOL_MAX_WORKERS ? GL_POOL_MAX_WORKERS : (int)n;
}

int gl_pool_workers(const char *arg, char *why, size_t why_len)
{
    const char *env = getenv("GPULEARN_JOBS");
    const char *v = arg ? arg : env && *env ? env : NULL;
    if (!v)
        return gl_pool_cores();
    char *end = NULL;
    errno = 0;
    const long n = strtol(v, &end, 10);
    if (!*v || *end || errno || n < 1 || n > GL_POOL_MAX_WORKERS) {
        snprintf(why, why_len,
                 "%s must be a whole number from 1 to %d (worker processes), not '%.100s'",
                 arg ? "--jobs" : "GPULEARN_JOBS", GL_POOL_MAX_WORKERS, v);
        return -1;
    }
    return (int)n;
}

enum { JOB_PENDING, JOB_RUNNING, JOB_DONE, JOB_CANCELLED };

typedef struct pool_job {
    int state;
    gl_child ch;
    gl_child_msg in; /* the message being received */
    double deadline;
    gl_pool_result res;
} pool_job;

struct gl_pool {
    gl_pool_opts o;
    pool_job *jobs;
    int next;    /* no job below it is pending */
    int running; /* jobs running now */
    int done;    /* jobs ended or cancelled */
    double tick; /* the next progress call without a job's end */
};

gl_pool *gl_pool_new(const gl_pool_opts *o)
{
    gl_pool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->o = *o;
    if (p->o.workers < 1)
        p->o.workers = 1;
    p->jobs = calloc((size_t)(o->njobs > 0 ? o->njobs : 1), sizeof *p->jobs);
    if (!p->jobs) {
        free(p);
        return NULL;
    }
    for (int i = 0; i < o->njobs; i++)
        p->jobs[i].ch = (gl_child){-1, -1, 0};
    p->tick = gl_child_now() + 1;
    return p;
}

/* What a worker runs: the pool's body for one job. */
typedef struct pool_start {
    gl_pool *p;
    int job;
} pool_start;

/* In the worker: its launches run their blocks on its share of the cores (cores over
 * the workers running at once, at least 1; run.c reads GPULEARN_SIM_THREADS), so that N
 * workers do not start a thread per core each. A count the user set (--sim-threads,
 * GPULEARN_SIM_THREADS) stands. Results do not depend on it (docs/architecture.md,
 * "Blocks on all cores"). */
static void pool_child(int fd, void *arg)
{
    const pool_start *s = arg;
    const char *set = getenv("GPULEARN_SIM_THREADS");
    if (!set || !*set) {
        const int at_once = s->p->o.workers < s->p->o.njobs ? s->p->o.workers : s->p->o.njobs;
        const int share = gl_pool_cores() / (at_once > 0 ? at_once : 1);
        char v[16];
        snprintf(v, sizeof v, "%d", share > 1 ? share : 1);
        setenv("GPULEARN_SIM_THREADS", v, 1);
    }
    s->p->o.body(fd, s->job, s->p->o.ctx);
}

static void progress(gl_pool *p)
{
    if (p->o.progress)
        p->o.progress(p->o.progress_ctx, p->done, p->o.njobs);
    p->tick = gl_child_now() + 1;
}

/* Job j has ended (end: how its pipe ended); kill: it may still run. */
static void finish(gl_pool *p, int j, gl_msg_rc end, int kill)
{
    pool_job *b = &p->jobs[j];
    b->res.end = end;
    gl_child_msg_free(&b->in);
    if (kill)
        gl_child_stop(&b->ch, GL_CHILD_FOREVER, &b->res.exit);
    else {
        gl_child_close(&b->ch);
        gl_child_wait(&b->ch, GL_CHILD_FOREVER, &b->res.exit);
    }
    b->state = JOB_DONE;
    p->running--;
    p->done++;
    progress(p);
}

/* Starts pending jobs while there are free slots. */
static void start_jobs(gl_pool *p)
{
    while (p->running < p->o.workers && p->next < p->o.njobs) {
        const int j = p->next++;
        pool_job *b = &p->jobs[j];
        if (b->state != JOB_PENDING)
            continue;
        pool_start s = {p, j};
        if (gl_child_spawn(&b->ch, NULL, pool_child, &s) != 0) {
            b->res.start_errno = errno ? errno : EAGAIN;
            b->res.end = GL_MSG_ERROR;
            gl_child_decode(-1, &b->res.exit);
            b->state = JOB_DONE;
            p->done++;
            progress(p);
            continue;
        }
        b->state = JOB_RUNNING;
        b->deadline =
            p->o.job_timeout_s > 0 ? gl_child_now() + p->o.job_timeout_s : GL_CHILD_FOREVER;
        p->running++;
    }
}

/* Reads what job j's worker has sent so far; ends the job at the end of its pipe. */
static void drain(gl_pool *p, int j)
{
    pool_job *b = &p->jobs[j];
    for (;;) {
        const gl_msg_rc rc = gl_child_recv(b->ch.fd, &b->in, p->o.max_message, 0);
        if (rc == GL_MSG_TIMEOUT)
            return;
        if (rc != GL_MSG_OK) {
            finish(p, j, rc, rc != GL_MSG_EOF);
            return;
        }
        gl_child_msg *m = realloc(b->res.msgs, (size_t)(b->res.nmsgs + 1) * sizeof *m);
        if (!m) {
            finish(p, j, GL_MSG_ERROR, 1);
            return;
        }
        b->res.msgs = m;
        m[b->res.nmsgs++] = b->in;
        memset(&b->in, 0, sizeof b->in);
    }
}

/* One turn: start what may start, wait for a worker's pipe (or a deadline, at most a
 * second) and read what came. */
static void turn(gl_pool *p)
{
    start_jobs(p);
    struct pollfd *fds = calloc((size_t)p->running + 1, sizeof *fds);
    int *which = calloc((size_t)p->running + 1, sizeof *which);
    int n = 0;
    double now = gl_child_now(), wake = p->tick;
    for (int j = 0; fds && which && j < p->o.njobs && n < p->running; j++) {
        pool_job *b = &p->jobs[j];
        if (b->state != JOB_RUNNING)
            continue;
        if (b->deadline <= now) {
            finish(p, j, GL_MSG_TIMEOUT, 1);
            continue;
        }
        wake = b->deadline < wake ? b->deadline : wake;
        fds[n] = (struct pollfd){.fd = b->ch.fd, .events = POLLIN};
        which[n++] = j;
    }
    if (!fds || !which) { /* no memory for the poll: wait a little */
        free(fds);
        free(which);
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
        return;
    }
    const double left = wake - now;
    const int ms = left <= 0 ? 0 : (int)(left * 1000) + 1;
    const int r = n ? poll(fds, (nfds_t)n, ms) : 0;
    for (int i = 0; r > 0 && i < n; i++)
        if (fds[i].revents)
            drain(p, which[i]);
    free(fds);
    free(which);
    if (gl_child_now() >= p->tick)
        progress(p);
}

gl_pool_result *gl_pool_wait(gl_pool *p, int job)
{
    if (!p || job < 0 || job >= p->o.njobs)
        return NULL;
    pool_job *b = &p->jobs[job];
    while (b->state == JOB_PENDING || b->state == JOB_RUNNING)
        turn(p);
    return b->state == JOB_DONE ? &b->res : NULL;
}

void gl_pool_cancel(gl_pool *p, int job)
{
    if (!p || job < 0 || job >= p->o.njobs)
        return;
    pool_job *b = &p->jobs[job];
    if (b->state == JOB_RUNNING) {
        gl_child_msg_free(&b->in);
        gl_child_stop(&b->ch, GL_CHILD_FOREVER, NULL);
        p->running--;
    }
    if (b->state == JOB_RUNNING || b->state == JOB_PENDING) {
        b->state = JOB_CANCELLED;
        p->done++;
    }
}

void gl_pool_free(gl_pool *p)
{
    if (!p)
        return;
    for (int j = 0; j < p->o.njobs; j++) {
        pool_job *b = &p->jobs[j];
        if (b->state == JOB_RUNNING) {
            gl_child_msg_free(&b->in);
            gl_child_stop(&b->ch, GL_CHILD_FOREVER, NULL);
        }
        for (int i = 0; i < b->res.nmsgs; i++)
            gl_child_msg_free(&b->res.msgs[i]);
        free(b->res.msgs);
    }
    free(p->jobs);
    free(p);
}
