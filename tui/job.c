/* job.c — runtime calls in a worker process (design in job.h). */
#include "tui/job.h"

#include "runtime/wire.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

double job_now(void)
{
    return gl_child_now();
}

/* The worker sends one message (runtime/child.h), JOB_MSG_RESULT: a job_out in
 * runtime/wire.h's codec. */
enum { JOB_MSG_RESULT = 1 };

/* The most bytes a result may announce (64 GiB: buffers and a trace). */
#define JOB_MSG_MAX ((uint64_t)64 << 30)

/* ----------------------------------------------------------- the worker */

/* Reads back (at most 64 KiB of) what the child's tools wrote to stdout/stderr. */
static char *read_capture(FILE *f)
{
    fflush(stdout);
    fflush(stderr);
    if (!f)
        return NULL;
    long len = (fseek(f, 0, SEEK_END) == 0) ? ftell(f) : -1;
    if (len <= 0 || fseek(f, 0, SEEK_SET) != 0)
        return NULL;
    if (len > 65536)
        len = 65536;
    char *text = malloc((size_t)len + 1);
    if (!text)
        return NULL;
    size_t got = fread(text, 1, (size_t)len, f);
    text[got] = '\0';
    return text;
}

/* In the child: stdin from /dev/null, stdout and stderr into a temporary file (a
 * compiler's chatter must not scribble on the screen), which it returns (NULL if none
 * could be made). */
static FILE *capture_output(void)
{
    FILE *capture = tmpfile();
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0)
        dup2(devnull, STDIN_FILENO), close(devnull);
    if (capture) {
        dup2(fileno(capture), STDOUT_FILENO);
        dup2(fileno(capture), STDERR_FILENO);
    }
    return capture;
}

/* Common start: the worker running body(fd, arg). false with msg set when it could not
 * be started. */
static bool spawn(job *j, job_kind kind, void (*body)(int fd, void *arg), void *arg, char *msg,
                  size_t msg_len)
{
    memset(j, 0, sizeof *j);
    const int rc = gl_child_spawn(&j->child, NULL, body, arg);
    if (rc != 0) {
        snprintf(msg, msg_len, "cannot start a worker: %s: %s",
                 rc == GL_CHILD_ERR_PIPE ? "pipe" : "fork", strerror(errno));
        return false;
    }
    j->kind = kind;
    j->started = job_now();
    return true;
}

/* What a worker sends back: the call's status and message, the tools' chatter, then
 * what the call made (a run's result, with an exercise's part; or a report). */
typedef struct job_out {
    gl_status st;
    const char *msg;
    const char *chatter;
    const gl_run_result *res;     /* run, exercise */
    const gl_exercise_result *ex; /* exercise */
    const gl_grade_report *rep;   /* grading */
} job_out;

static void put_out(gl_wire_out *w, const void *obj)
{
    const job_out *o = obj;
    gl_wire_put_status(w, o->st, o->msg);
    gl_wire_put_str(w, o->chatter);
    if (o->res)
        gl_wire_put_run(w, o->res);
    if (o->ex)
        gl_wire_put_exercise(w, o->ex);
    if (o->rep)
        gl_wire_put_report(w, o->rep);
}

/* Sends *o and exits the worker. */
static void send_out(int fd, const job_out *o)
{
    _exit(gl_wire_send(fd, JOB_MSG_RESULT, 0, put_out, o) == 0 ? 0 : 3);
}

typedef struct job_args {
    const gl_spec *spec; /* run */
    const gl_lesson *l;  /* exercise, grading */
    const char *source;  /* exercise: the learner's; grading: the submission (NULL: starter) */
    int64_t n;           /* exercise */
    const gl_run_opts *opts;
    const gl_grade_opts *gopts;
} job_args;

/* job_start_run's worker (a gl_child body). */
static void run_body(int fd, void *arg)
{
    const job_args *a = arg;
    FILE *capture = capture_output();
    gl_run_result res;
    gl_error err = {0};
    gl_status st = gl_run_spec(a->spec, a->opts, &res, &err);
    char *chatter = read_capture(capture);
    send_out(fd, &(job_out){.st = st, .msg = err.msg, .chatter = chatter, .res = &res});
}

bool job_start_run(job *j, const gl_spec *spec, const gl_run_opts *opts, char *msg, size_t msg_len)
{
    job_args a = {.spec = spec, .opts = opts};
    return spawn(j, JOB_RUN, run_body, &a, msg, msg_len);
}

/* job_start_exercise's worker (a gl_child body). */
static void exercise_body(int fd, void *arg)
{
    const job_args *a = arg;
    FILE *capture = capture_output();
    gl_run_result res;
    gl_exercise_result ex;
    gl_error err = {0};
    gl_status st = exercise_run(a->l, a->source, a->n, a->opts, &res, &err, &ex);
    char *chatter = read_capture(capture);
    send_out(fd, &(job_out){.st = st, .msg = err.msg, .chatter = chatter, .res = &res, .ex = &ex});
}

bool job_start_exercise(job *j, const gl_lesson *l, const char *source, int64_t n,
                        const gl_run_opts *opts, char *msg, size_t msg_len)
{
    job_args a = {.l = l, .source = source, .n = n, .opts = opts};
    return spawn(j, JOB_EXERCISE, exercise_body, &a, msg, msg_len);
}

/* job_start_grade's worker (a gl_child body). */
static void grade_body(int fd, void *arg)
{
    const job_args *a = arg;
    capture_output();
    gl_grade_report rep;
    memset(&rep, 0, sizeof rep);
    gl_error err = {0};
    gl_status st = grade_exercise(a->l, a->source, a->gopts, &rep, &err);
    send_out(fd, &(job_out){.st = st, .msg = err.msg, .rep = &rep});
}

bool job_start_grade(job *j, const gl_lesson *l, const char *submission, const gl_grade_opts *opts,
                     char *msg, size_t msg_len)
{
    job_args a = {.l = l, .source = submission, .gopts = opts};
    return spawn(j, JOB_GRADE, grade_body, &a, msg, msg_len);
}

/* ------------------------------------------------------------ the parent */

int job_fd(const job *j)
{
    return j->kind != JOB_NONE && !j->eof ? j->child.fd : -1;
}

bool job_poll(job *j)
{
    if (j->kind == JOB_NONE)
        return false;
    /* Read for up to 50 ms per call while bytes keep coming: the child refills the pipe
     * as fast as we read (a run's trace is tens of MB), and the UI loop calls only every
     * 80 ms. Nothing there yet: return at once. */
    const double until = job_now() + 0.05;
    while (!j->eof) {
        size_t before = j->in.got;
        gl_msg_rc r =
            gl_child_recv(j->child.fd, &j->in, JOB_MSG_MAX, before ? job_now() + 0.005 : job_now());
        if (r != GL_MSG_TIMEOUT)
            j->eof = true; /* whole, or the child closed or broke the pipe */
        else if (j->in.got == before || job_now() >= until)
            break;
    }
    return j->eof;
}

/* Closes the pipe, reaps the child (killing its process group first if kill_it);
 * returns how it ended. */
static gl_child_exit job_reap(job *j, bool kill_it)
{
    gl_child_exit ex;
    if (kill_it)
        gl_child_stop(&j->child, GL_CHILD_FOREVER, &ex);
    else {
        gl_child_close(&j->child);
        gl_child_wait(&j->child, GL_CHILD_FOREVER, &ex);
    }
    gl_child_msg_free(&j->in);
    memset(j, 0, sizeof *j);
    j->child.fd = -1;
    return ex;
}

void job_cancel(job *j)
{
    if (j->kind == JOB_NONE)
        return;
    job_reap(j, true);
}

/* Why a worker gave no result: how it died, or that what it sent does not decode. */
static void how_it_died(gl_child_exit ex, bool sent, char *msg, size_t len, const char *what)
{
    if (ex.signal)
        snprintf(msg, len, "the %s's worker process died (signal %d, %s) before it answered", what,
                 ex.signal, strsignal(ex.signal));
    else if (sent)
        snprintf(msg, len, "the %s's worker process sent a result that cannot be read", what);
    else
        snprintf(msg, len, "the %s's worker process ended (status %d) before it answered", what,
                 ex.exited ? ex.code : -1);
}

/* Decodes the worker's message into *st, errmsg, *chatter and what the job's kind
 * brings (res, ex, rep: those not NULL), then reaps the worker. A message that did not
 * all come or does not decode gives GL_ERR_TOOL with how the worker ended; the outputs
 * are then empty (zeroed) and it returns false. */
static bool finish(job *j, gl_status *st, char *errmsg, size_t errlen, char **chatter,
                   gl_run_result *res, gl_exercise_result *ex, gl_grade_report *rep,
                   const char *what)
{
    const bool whole = j->in.done && j->in.data && j->in.h.type == JOB_MSG_RESULT;
    gl_wire_in in = whole ? gl_wire_in_of(j->in.data, (size_t)j->in.h.len) : gl_wire_in_of(NULL, 0);
    gl_wire_get_status(&in, st, errmsg, errlen);
    char *chat = gl_wire_get_str(&in);
    if (res)
        gl_wire_get_run(&in, res);
    if (ex)
        gl_wire_get_exercise(&in, ex);
    if (rep)
        gl_wire_get_report(&in, rep);
    if (in.ok && in.p != in.end) /* more than the call made: not its message */
        in.ok = 0;
    if (in.ok) {
        if (chatter)
            *chatter = chat, chat = NULL;
        job_reap(j, false);
    } else {
        if (res)
            gl_run_result_free(res);
        if (ex)
            exercise_result_free(ex);
        if (rep)
            grade_report_free(rep), memset(rep, 0, sizeof *rep);
        *st = GL_ERR_TOOL;
        how_it_died(job_reap(j, false), whole, errmsg, errlen, what);
    }
    free(chat);
    return in.ok;
}

/* job_finish_run and job_finish_exercise: the run, then (ex not NULL) the exercise
 * part. */
static void finish_run(job *j, gl_status *st, gl_run_result *res, char *errmsg, size_t errlen,
                       char **chatter, gl_exercise_result *ex)
{
    *chatter = NULL;
    const bool ok = finish(j, st, errmsg, errlen, chatter, res, ex, NULL, "run");
    if (!res->stdout_text)
        res->stdout_text = strdup("");
    if (ex && !ok) { /* no reference either */
        ex->cmp.first_arg = -1;
        ex->ref_status = GL_ERR_TOOL;
        snprintf(ex->ref_error, sizeof ex->ref_error, "%s", errmsg);
    }
}

void job_finish_run(job *j, gl_status *st, gl_run_result *res, char *errmsg, size_t errlen,
                    char **chatter)
{
    finish_run(j, st, res, errmsg, errlen, chatter, NULL);
}

void job_finish_exercise(job *j, gl_status *st, gl_run_result *res, char *errmsg, size_t errlen,
                         char **chatter, gl_exercise_result *ex)
{
    finish_run(j, st, res, errmsg, errlen, chatter, ex);
}

void job_finish_grade(job *j, gl_status *st, gl_grade_report *rep, char *errmsg, size_t errlen)
{
    finish(j, st, errmsg, errlen, NULL, NULL, NULL, rep, "grading");
}
