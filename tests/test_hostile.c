/* test_hostile.c — what a hostile submission meets: its bytes read once and
 * never through a link, reports written never through one, text from it escaped for a
 * terminal and made valid UTF-8 for JSON and XML, temporary folders a killed gpulearn
 * left behind swept, and its kernel simulated in a sandbox under a memory budget. Runs
 * from the repository root. */
#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/backend.h"
#include "runtime/child.h"
#include "runtime/gl.h"
#include "runtime/sandbox.h"
#include "runtime/workspace.h"

/* A fresh folder under /tmp (caller removes it with rm_rf). */
static void fresh_dir(char *dir, size_t n)
{
    snprintf(dir, n, "/tmp/gl_hostileXXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void rm_rf(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

/* One row: the bytes, whether lines are kept, what the terminal gets. */
START_TEST(test_text_for_a_terminal_shows_controls_as_text)
{
    static const struct {
        const char *in;
        unsigned flags;
        const char *out;
    } rows[] = {
        {"plain.cu", 0, "plain.cu"},
        {"a\nPASSED", 0, "a\\nPASSED"},
        {"a\nb\tc", GL_ESC_LINES, "a\nb\tc"},
        {"\x1b]0;pwned\x07", 0, "\\033]0;pwned\\007"},
        {"\x1b[2J\r", GL_ESC_LINES, "\\033[2J\\r"},
        {"del\x7f", 0, "del\\177"},
        {"c1 \xc2\x9b"
         "31m",
         0, "c1 \\u009b31m"},
        {"rtl \xe2\x80\xae", 0, "rtl \\u202e"},
        {"bad \xff\xfe", 0, "bad \\xff\\xfe"},
        {"overlong \xc0\xaf", 0, "overlong \\xc0\\xaf"},
        {"surrogate \xed\xa0\x80", 0, "surrogate \\xed\\xa0\\x80"},
        {"cut \xe2\x82", 0, "cut \\xe2\\x82"},
        {"kept: \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 0,
         "kept: \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char out[256];
        const size_t need = gl_escape_term(out, sizeof out, rows[i].in, rows[i].flags);
        ck_assert_msg(strcmp(out, rows[i].out) == 0, "row %zu: '%s', expected '%s'", i, out,
                      rows[i].out);
        ck_assert_uint_eq(need, strlen(rows[i].out));
    }
    /* cut to fit, and the length it needed */
    char small[8];
    ck_assert_uint_eq(gl_escape_term(small, sizeof small, "\x1b\x1b\x1b", 0), 12);
    ck_assert_str_eq(small, "\\033\\03");
}
END_TEST

START_TEST(test_json_and_xml_text_is_valid_utf8)
{
    char *s = gl_utf8_clean("ok \xc3\xa9, bad \xff, cut \xe2\x82, overlong \xc0\xaf.cu");
    ck_assert_str_eq(s, "ok \xc3\xa9, bad \xef\xbf\xbd, cut \xef\xbf\xbd\xef\xbf\xbd, overlong "
                        "\xef\xbf\xbd\xef\xbf\xbd.cu");
    free(s);
    ck_assert_ptr_null(gl_utf8_clean(NULL));
}
END_TEST

/* A submission is read once, from a descriptor opened without following a link, and
 * only when it is a regular file with one link. */
START_TEST(test_a_submission_is_read_once_and_never_through_a_link)
{
    char dir[64], sub[128], secret[128], link_path[128], hard[128];
    fresh_dir(dir, sizeof dir);
    snprintf(sub, sizeof sub, "%s/sub.cu", dir);
    snprintf(secret, sizeof secret, "%s/secret", dir);
    snprintf(link_path, sizeof link_path, "%s/link.cu", dir);
    snprintf(hard, sizeof hard, "%s/hard.cu", dir);
    write_text(sub, "__global__ void k() {}\n");
    write_text(secret, "SECRET\n");
    ck_assert_int_eq(symlink(secret, link_path), 0);
    ck_assert_int_eq(link(secret, hard), 0);
    gl_error err = {0};
    size_t len = 0;
    char *text = gl_read_submission(sub, &len, &err);
    ck_assert_str_eq(text, "__global__ void k() {}\n");
    ck_assert_uint_eq(len, 23);
    free(text);
    ck_assert_ptr_null(gl_read_submission(link_path, &len, &err));
    ck_assert_msg(strstr(err.msg, "is a symbolic link"), "%s", err.msg);
    ck_assert_int_eq(err.status, GL_ERR_INPUT);
    ck_assert_ptr_null(gl_read_submission(hard, &len, &err));
    ck_assert_msg(strstr(err.msg, "has 2 hard links"), "%s", err.msg);
    ck_assert_ptr_null(gl_read_submission("/dev/zero", &len, &err));
    ck_assert_msg(strstr(err.msg, "not a regular file"), "%s", err.msg);
    rm_rf(dir);
}
END_TEST

/* A report never goes through a link in its place, and replaces a file atomically. */
START_TEST(test_a_report_is_never_written_through_a_link)
{
    char dir[64], target[128], out[128];
    fresh_dir(dir, sizeof dir);
    snprintf(target, sizeof target, "%s/precious", dir);
    snprintf(out, sizeof out, "%s/grades.csv", dir);
    write_text(target, "precious\n");
    ck_assert_int_eq(symlink(target, out), 0);
    gl_error err = {0};
    ck_assert_int_eq(gl_write_report(out, "x\n", 2, &err), GL_ERR_INPUT);
    ck_assert_msg(strstr(err.msg, "is a symbolic link"), "%s", err.msg);
    FILE *f = fopen(target, "r");
    char line[32] = "";
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    fclose(f);
    ck_assert_str_eq(line, "precious\n");
    ck_assert_int_eq(unlink(out), 0);
    ck_assert_int_eq(gl_write_report(out, "a,b\n", 4, &err), GL_OK);
    ck_assert_int_eq(gl_write_report(out, "c\n", 2, &err), GL_OK);
    f = fopen(out, "r");
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    fclose(f);
    ck_assert_str_eq(line, "c\n");
    rm_rf(dir);
}
END_TEST

/* The first temporary folder a process makes sweeps those of gpulearns that are gone
 * (unlocked, their pid dead), and leaves a live one's alone. */
START_TEST(test_temporary_folders_of_a_killed_gpulearn_are_swept)
{
    char root[64], dead[200], live[200], old_style[200], mine[300];
    fresh_dir(root, sizeof root);
    setenv("TMPDIR", root, 1);
    /* a pid that is free: a child that has exited and been reaped */
    pid_t gone = fork();
    if (gone == 0)
        _exit(0);
    waitpid(gone, NULL, 0);
    snprintf(dead, sizeof dead, "%s/gpulearn-cc-%ld-AAAAAA", root, (long)gone);
    snprintf(old_style, sizeof old_style, "%s/gpulearn-run-BBBBBB", root);
    ck_assert_int_eq(mkdir(dead, 0700), 0);
    ck_assert_int_eq(mkdir(old_style, 0700), 0); /* no owner in its name, and new */
    char inner[260];
    snprintf(inner, sizeof inner, "%s/src", dead);
    ck_assert_int_eq(mkdir(inner, 0755), 0);
    /* a live gpulearn's: its owner holds the lock (a child here, still running) */
    int sync[2];
    ck_assert_int_eq(pipe(sync), 0);
    pid_t owner = fork();
    if (owner == 0) {
        char d[200];
        if (gl_tmpdir_make(d, sizeof d, "cc") != 0)
            _exit(1);
        if (write(sync[1], d, sizeof d) != (ssize_t)sizeof d)
            _exit(1);
        pause();
        _exit(0);
    }
    ck_assert_int_eq(read(sync[0], live, sizeof live), (ssize_t)sizeof live);
    ck_assert_int_eq(gl_tmpdir_make(mine, sizeof mine, "cc"), 0);
    struct stat st;
    ck_assert_msg(stat(dead, &st) != 0, "the folder of a gpulearn that is gone is still there");
    ck_assert_msg(stat(live, &st) == 0, "a live gpulearn's folder was removed");
    ck_assert_msg(stat(old_style, &st) == 0, "a new folder without an owner was removed");
    ck_assert_int_eq(stat(mine, &st), 0);
    gl_tmpdir_remove(mine);
    ck_assert_int_ne(stat(mine, &st), 0);
    kill(owner, SIGKILL);
    waitpid(owner, NULL, 0);
    unsetenv("TMPDIR");
    rm_rf(root);
}
END_TEST

/* A corrupt progress.json set aside twice within the same second keeps both copies,
 * each under a name of its own that the warning gives. */
START_TEST(test_corrupt_progress_set_aside_twice_keeps_both)
{
    char root[64], prog[128], warning[2048];
    fresh_dir(root, sizeof root);
    setenv("XDG_DATA_HOME", root, 1);
    snprintf(prog, sizeof prog, "%s/gpulearn", root);
    ck_assert_int_eq(mkdir(prog, 0755), 0);
    snprintf(prog, sizeof prog, "%s/gpulearn/progress.json", root);
    char names[2][2048];
    for (int i = 0; i < 2; i++) {
        write_text(prog, i ? "{\"second\": " : "{\"first\": ");
        gl_lesson_progress *p = NULL;
        int n = -1;
        gl_error err = {0};
        ck_assert_int_eq(workspace_progress_load(&p, &n, warning, sizeof warning, &err), GL_OK);
        ck_assert_int_eq(n, 0);
        free(p);
        const char *at = strstr(warning, "set it aside as ");
        ck_assert_msg(at, "%s", warning);
        snprintf(names[i], sizeof names[i], "%.*s", (int)strcspn(at + 16, " "), at + 16);
    }
    ck_assert_str_ne(names[0], names[1]);
    for (int i = 0; i < 2; i++) {
        FILE *f = fopen(names[i], "r");
        ck_assert_msg(f, "%s is gone", names[i]);
        char line[64] = "";
        ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
        fclose(f);
        ck_assert_str_eq(line, i ? "{\"second\": " : "{\"first\": ");
    }
    unsetenv("XDG_DATA_HOME");
    rm_rf(root);
}
END_TEST

/* What the sandboxed run's trace sink saw, in the child, sent back in its ctx. */
typedef struct probe {
    uint64_t events;
    int uid;
    int open_errno;   /* opening a file outside the sandbox */
    int socket_errno; /* making a socket */
} probe;

static void probe_sink(void *ctx, const trace_t *t, const trace_event *ev, const uint64_t *addrs)
{
    (void)t, (void)ev, (void)addrs;
    probe *p = ctx;
    if (p->events++ == 0) {
        p->uid = (int)getuid();
        errno = 0;
        int fd = open("/work/../etc/passwd", O_RDONLY);
        p->open_errno = fd >= 0 ? 0 : errno;
        if (fd >= 0)
            close(fd);
        int s = socket(AF_INET, SOCK_STREAM, 0);
        p->socket_errno = s >= 0 ? 0 : errno;
        if (s >= 0)
            close(s);
    }
}

/* A kernel simulated with gl_run_opts.sandbox runs in a child that is confined (no file
 * outside it, no socket, user nobody when run as root) and whose results come back:
 * the buffers, and the sink's counts. A buffer past the memory budget is refused
 * before anything is allocated, naming the sizes and where the limit comes from. */
START_TEST(test_a_sandboxed_run_is_confined_and_within_its_memory_budget)
{
    if (!gl_sandbox_available()) {
        fprintf(stderr, "SKIP: no Landlock in this kernel: the sandboxed run did not run\n");
        return;
    }
    setenv("GPULEARN_NO_GPU", "1", 1);
    char dir[64], cu[128], json[128];
    fresh_dir(dir, sizeof dir);
    snprintf(cu, sizeof cu, "%s/k.cu", dir);
    snprintf(json, sizeof json, "%s/k.json", dir);
    write_text(cu, "extern \"C\" __global__ void add1(int *x, int n)\n"
                   "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] += 1; }\n");
    write_text(json, "{\"source\": \"k.cu\", \"kernel\": \"add1\", \"grid\": [2, 1, 1], "
                     "\"block\": [32, 1, 1], \"args\": [{\"name\": \"x\", \"type\": \"i32*\", "
                     "\"len\": 50, \"init\": {\"iota\": {\"start\": 0, \"step\": 1}}}, "
                     "{\"name\": \"n\", \"type\": \"i32\", \"value\": 50}]}\n");
    gl_spec spec;
    gl_error err = {0};
    ck_assert_int_eq(spec_load_file(json, &spec, &err), GL_OK);
    probe p = {0};
    gl_run_opts o = {.backend = GL_BACKEND_SIM,
                     .sandbox = 1,
                     .memory_limit = 64 << 20,
                     .trace_sink = probe_sink,
                     .trace_sink_ctx = &p,
                     .trace_sink_ctx_bytes = sizeof p};
    gl_run_result res;
    ck_assert_msg(gl_run_spec(&spec, &o, &res, &err) == GL_OK, "%s", err.msg);
    for (int i = 0; i < 50; i++)
        ck_assert_int_eq(((int *)res.buffers[0].data)[i], i + 1);
    ck_assert_uint_gt(p.events, 0);
    ck_assert_int_eq(p.open_errno, EACCES);
    ck_assert_int_eq(p.socket_errno, EACCES);
    if (geteuid() == 0) {
        uid_t uid;
        gid_t gid;
        gl_sandbox_nobody(&uid, &gid);
        ck_assert_int_eq(p.uid, (int)uid);
    }
    gl_run_result_free(&res);
    /* 1 MiB of budget, 4 MiB of buffer */
    spec.args[0].len = 1 << 20;
    o.memory_limit = 1 << 20;
    o.memory_limit_origin = "--memory-limit";
    ck_assert_int_eq(gl_run_spec(&spec, &o, &res, &err), GL_ERR_LAUNCH);
    ck_assert_msg(strstr(err.msg, "the launch asks for 4 MiB of device memory for args[0] 'x' "
                                  "(0 bytes allocated before it); the memory limit is 1 MiB "
                                  "(--memory-limit)"),
                  "%s", err.msg);
    gl_run_result_free(&res);
    spec_free(&spec);
    rm_rf(dir);
}
END_TEST

/* A thread that waits until its pipe closes (a task the sandbox's user runs). */
static void *wait_for_eof(void *arg)
{
    char c;
    while (read(*(int *)arg, &c, 1) > 0)
        ;
    return NULL;
}

/* The sandboxed child's body: starts 8 processes one after the other and sends how
 * many it could start. */
static void fork_eight(int fd, void *arg)
{
    (void)arg;
    uint32_t started = 0;
    for (int i = 0; i < 8; i++) {
        const pid_t pid = fork();
        if (pid == 0)
            _exit(0);
        if (pid > 0) {
            started++;
            waitpid(pid, NULL, 0);
        }
    }
    _exit(gl_child_send(fd, 1, started, NULL, 0) == 0 ? 0 : 1);
}

/* The sandbox bounds the tasks a child may start beyond those its user runs already,
 * and RLIMIT_NPROC counts threads: with 200 threads of that user alive (another
 * grading's simulator, another test), a sandboxed build still starts its compiler's
 * processes. (CI's grading with nvcc failed when only processes were counted: nvcc's
 * first fork got EAGAIN, and the reference "did not compile".) As root the sandbox is
 * user nobody, so the threads are nobody's. */
START_TEST(test_a_sandboxed_child_starts_processes_beside_many_threads_of_its_user)
{
    if (!gl_sandbox_available()) {
        fprintf(stderr, "SKIP: no Landlock in this kernel: the sandboxed child did not run\n");
        return;
    }
    int ready[2], hold[2];
    ck_assert_int_eq(pipe(ready), 0);
    ck_assert_int_eq(pipe(hold), 0);
    const pid_t helper = fork();
    ck_assert_int_ge(helper, 0);
    if (helper == 0) { /* 200 threads of the sandbox's user, alive until hold closes */
        close(ready[0]);
        close(hold[1]);
        gl_error e = {0};
        if (gl_sandbox_drop_root(&e) != GL_OK)
            _exit(1);
        pthread_t t[200];
        for (int i = 0; i < 200; i++)
            if (pthread_create(&t[i], NULL, wait_for_eof, &hold[0]) != 0)
                _exit(2);
        if (write(ready[1], "r", 1) != 1)
            _exit(3);
        for (int i = 0; i < 200; i++)
            pthread_join(t[i], NULL);
        _exit(0);
    }
    close(ready[1]);
    close(hold[0]);
    char c;
    ck_assert_int_eq(read(ready[0], &c, 1), 1);
    char dir[64];
    fresh_dir(dir, sizeof dir);
    const gl_sandbox_opts so = {.dir = dir};
    gl_child ch;
    ck_assert_int_eq(gl_sandbox_spawn(&ch, &so, fork_eight, NULL), 0);
    gl_child_msg in = {0};
    ck_assert_int_eq(gl_child_recv(ch.fd, &in, 64, gl_child_now() + 60), GL_MSG_OK);
    gl_child_exit ex = {0};
    gl_child_stop(&ch, GL_CHILD_FOREVER, &ex);
    close(hold[1]);
    close(ready[0]);
    int st;
    ck_assert_int_eq(waitpid(helper, &st, 0), helper);
    ck_assert_int_eq(in.h.type, 1);
    ck_assert_msg(in.h.arg == 8, "the sandboxed child started %u of 8 processes", in.h.arg);
    ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    gl_child_msg_free(&in);
    rm_rf(dir);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("hostile");
    TCase *tc = tcase_create("hostile");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_text_for_a_terminal_shows_controls_as_text);
    tcase_add_test(tc, test_json_and_xml_text_is_valid_utf8);
    tcase_add_test(tc, test_a_submission_is_read_once_and_never_through_a_link);
    tcase_add_test(tc, test_a_report_is_never_written_through_a_link);
    tcase_add_test(tc, test_temporary_folders_of_a_killed_gpulearn_are_swept);
    tcase_add_test(tc, test_corrupt_progress_set_aside_twice_keeps_both);
    tcase_add_test(tc, test_a_sandboxed_run_is_confined_and_within_its_memory_budget);
    tcase_add_test(tc, test_a_sandboxed_child_starts_processes_beside_many_threads_of_its_user);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
