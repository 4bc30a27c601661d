/* job.h — runs a runtime call (a launch, an exercise run, a grading) in a worker process
 * so the TUI stays responsive and a run can be cancelled (Ctrl-C, Esc, c).
 *
 * Design: job_start_* starts the worker with runtime/child (gl_child_spawn: its own
 * process group, so terminal signals such as the SIGINT of Ctrl-C reach only the TUI,
 * which decides; killed if the TUI dies). The worker points its stdout and stderr at a
 * temporary file (a compiler's chatter must not scribble on the screen), makes the call
 * exactly as the TUI would have (gl_run_spec, exercise_run, grade_exercise) and sends its
 * result as one message in runtime/wire.h's codec; then _exit — never exit(), whose
 * atexit handlers would reset the terminal the parent still owns. The parent reads the
 * message from its input loop (job_poll) and decodes it once it is whole (job_finish_*).
 * Cancelling kills the whole process group (the compiler a child may have started
 * included) with SIGKILL and reaps it. A child that crashes, or sends what does not
 * decode, is reported as such; the TUI is untouched. */
#ifndef GL_TUI_JOB_H
#define GL_TUI_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "runtime/backend.h"
#include "runtime/child.h"
#include "runtime/exercise.h"
#include "runtime/grade.h"
#include "runtime/lesson.h"

typedef enum job_kind {
    JOB_NONE,
    JOB_RUN,      /* one launch (a step's kernel) */
    JOB_GRADE,    /* grade_exercise */
    JOB_EXERCISE, /* r on an exercise: exercise_run (job_start_exercise) */
} job_kind;

/* A running (or finished, not yet collected) job. Zero-initialise. */
typedef struct job {
    job_kind kind;
    gl_child child;  /* the worker; child.fd -1 when there is none */
    gl_child_msg in; /* the result message, as far as it arrived */
    bool eof;        /* the result is whole, or the child closed the pipe (died) */
    double started;  /* monotonic seconds, for "running for 3 s" */
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

/* Starts exercise_run(l, source, n, opts) in a worker (runtime/exercise.h: the
 * learner's launch at size n, or at the size it chooses when n <= 0, then the
 * reference's at the same size, compared as the grader compares). */
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
 * (initialised in every case; the caller frees it with exercise_result_free). */
void job_finish_exercise(job *j, gl_status *st, gl_run_result *res, char *errmsg, size_t errlen,
                         char **chatter, gl_exercise_result *ex);
/* Collects a finished grading (rep freed with grade_report_free). */
void job_finish_grade(job *j, gl_status *st, gl_grade_report *rep, char *errmsg, size_t errlen);

#endif
