/* job.h — runs a launch or a grading in a worker process so the TUI stays responsive
 * and a run can be cancelled (Ctrl-C, Esc, c).
 *
 * Design: job_start_* fork()s. The child puts itself in its own process group (so
 * terminal signals such as the SIGINT of Ctrl-C reach only the TUI, which decides),
 * asks to be killed if the TUI dies (Linux PR_SET_PDEATHSIG), points its stdout and
 * stderr at a temporary file (a compiler's chatter must not scribble on the screen),
 * calls gl_run_spec or grade_exercise exactly as the TUI would have (an exercise run:
 * the learner's launch, then the reference's at the same size), and sends the result
 * as one message (runtime/child.h) whose payload is a private binary format (same
 * executable image on both sides, so plain structs are copied as bytes and only the
 * pointers' contents are sent after them); then _exit(0) — never exit(), whose atexit
 * handlers would reset the terminal the parent still owns. The child is started by
 * runtime/child (gl_child_spawn), which does the process group and the death signal.
 * The parent reads the message from its input loop (job_poll) and rebuilds the result
 * once it is whole (job_finish_*). Cancelling kills the whole process group (the
 * compiler a child may have started included) with SIGKILL and reaps it. A child that
 * crashes is reported as such; the TUI is untouched. */
#ifndef GL_TUI_JOB_H
#define GL_TUI_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "runtime/backend.h"
#include "runtime/child.h"
#include "runtime/grade.h"
#include "runtime/lesson.h"

typedef enum job_kind {
    JOB_NONE,
    JOB_RUN,      /* one launch (a step's kernel) */
    JOB_GRADE,    /* grade_exercise */
    JOB_EXERCISE, /* r on an exercise: the learner's launch at one graded size, then the
                     reference's at the same size (job_start_exercise) */
} job_kind;

/* A running (or finished, not yet collected) job. Zero-initialise. */
typedef struct job {
    job_kind kind;
    gl_child child; /* the worker; child.fd -1 when there is none */
    gl_msg_in in;   /* the result message, as far as it arrived */
    bool eof;       /* the result is whole, or the child closed the pipe (died) */
    double started; /* monotonic seconds, for "running for 3 s" */
} job;

/* Seconds on a monotonic clock. */
double job_now(void);

/* The descriptor to wait on (poll) for the worker's result while a job runs, or -1: the
 * UI loop wakes as soon as the worker writes, not at its next tick. */
int job_fd(const job *j);

/* Starts gl_run_spec(spec, opts) in a worker. false with a message in msg when the
 * worker cannot be started (fork or pipe failed). spec and opts are read in the child
 * only (they may be freed once this returns). */
bool job_start_run(job *j, const gl_spec *spec, const gl_run_opts *opts, char *msg, size_t msg_len);
/* Starts grade_exercise(l, submission, opts) in a worker. */
bool job_start_grade(job *j, const gl_lesson *l, const char *submission, const gl_grade_opts *opts,
                     char *msg, size_t msg_len);

enum { JOB_MAX_SIZES = 64 };
/* A reference run slower than this (seconds on the simulator, traced as r traces) marks
 * its size as too slow to be the exercise's default size. */
#define JOB_SIZE_SECONDS 1.0

/* What an exercise run brings back besides the learner's run. */
typedef struct job_exercise {
    int64_t n; /* the size both kernels ran at */
    /* measured (the job was asked to choose n): the graded sizes ascending and the
     * seconds the reference took at each on the simulator, traced as r traces; -1 for
     * sizes not run (a smaller one took JOB_SIZE_SECONDS or more) */
    int nsizes;
    int64_t sizes[JOB_MAX_SIZES];
    double secs[JOB_MAX_SIZES];
    gl_status ref_status; /* GL_OK: ref_buffers hold the reference's output */
    char ref_error[2048];
    gl_buffer *ref_buffers; /* one per argument; caller frees (spec_buffers_free) */
    int ref_nargs;
} job_exercise;

/* Starts r on the exercise of l in a worker: the exercise's launch at size n with the
 * lesson's own input seeds (lesson_exercise_spec, seed offset 0) and `source` run with
 * opts; then the reference, on the simulator, at the same n with the same inputs. n <= 0:
 * the worker first chooses n, once, by timing the reference at every graded size
 * (grade_sizes) from the smallest up on the simulator with opts' tracing: the largest
 * that ran within JOB_SIZE_SECONDS (else the smallest); that run's output is the
 * reference's. */
bool job_start_exercise(job *j, const gl_lesson *l, const char *source, int64_t n,
                        const gl_run_opts *opts, char *msg, size_t msg_len);

/* Reads what the worker has written so far without blocking. Returns true once the
 * worker has finished (the result can be collected). */
bool job_poll(job *j);

/* Kills the worker and its children and forgets the job. */
void job_cancel(job *j);

/* Collects a finished run: *st, *res (initialised in every case, the fault, findings and
 * compiler diagnostics as the worker's run made them; caller frees with
 * gl_run_result_free), the error message, the tools' chatter (*chatter malloc'd or
 * NULL). A worker that died without answering gives GL_ERR_TOOL and a message saying
 * how it died. */
void job_finish_run(job *j, gl_status *st, gl_run_result *res, char *errmsg, size_t errlen,
                    char **chatter);
/* Collects a finished exercise run: the learner's run as job_finish_run, and *ex
 * (initialised in every case; ex->ref_buffers freed by the caller). */
void job_finish_exercise(job *j, gl_status *st, gl_run_result *res, char *errmsg, size_t errlen,
                         char **chatter, job_exercise *ex);
/* Collects a finished grading (rep freed with grade_report_free). */
void job_finish_grade(job *j, gl_status *st, gl_grade_report *rep, char *errmsg, size_t errlen);

#endif
