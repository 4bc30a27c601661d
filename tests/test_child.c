/* test_child.c — runtime/child: messages over the pipe, deadlines, killing a child's
 * whole process group, exit statuses. */
#include <check.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "runtime/child.h"
#include "runtime/gl.h"

/* ------------------------------------------------------------------ helpers */

/* A payload of n bytes with a pattern that catches a shifted or torn copy. */
static char *pattern(size_t n)
{
    char *p = malloc(n ? n : 1);
    ck_assert_ptr_nonnull(p);
    for (size_t i = 0; i < n; i++)
        p[i] = (char)(i * 7 + i / 251);
    return p;
}

static const size_t sizes[] = {0, 1, 3u << 20}; /* 3 MiB: many pipe buffers */

/* Sends one message of each size in sizes (type 10 + i, arg = size). */
static void body_sizes(int fd, void *arg)
{
    (void)arg;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        char *p = pattern(sizes[i]);
        if (gl_child_send(fd, 10 + (uint32_t)i, (uint32_t)sizes[i], p, sizes[i]) != 0)
            _exit(2);
        free(p);
    }
    _exit(0);
}

/* Says nothing for a minute. */
static void body_silent(int fd, void *arg)
{
    (void)fd, (void)arg;
    sleep(60);
}

/* Starts a grandchild that sleeps, sends its pid, then sleeps. */
static void body_grandchild(int fd, void *arg)
{
    (void)arg;
    pid_t g = fork();
    if (g == 0) {
        for (;;)
            pause();
    }
    int32_t pid = (int32_t)g;
    gl_child_send(fd, 1, 0, &pid, sizeof pid);
    for (;;)
        pause();
}

/* Announces 1000 bytes, sends 10, and dies. */
static void body_dies_mid_message(int fd, void *arg)
{
    (void)arg;
    gl_child_send_header(fd, 5, 0, 1000);
    gl_write_all(fd, "0123456789", 10);
    _exit(4);
}

/* Announces more than the reader takes. */
static void body_oversized(int fd, void *arg)
{
    (void)arg;
    char *p = pattern(4096);
    gl_child_send(fd, 6, 0, p, 4096);
    free(p);
}

static void body_exit_7(int fd, void *arg)
{
    (void)fd, (void)arg;
    _exit(7);
}

static void body_segv(int fd, void *arg)
{
    (void)fd, (void)arg;
    raise(SIGSEGV);
}

/* Whether pid still exists (a zombie counts as gone: it was killed). */
static int alive(pid_t pid)
{
    char path[64], state = '?';
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    int ok = fscanf(f, "%*d (%*[^)]) %c", &state) == 1;
    fclose(f);
    return ok && state != 'Z' && state != 'X';
}

/* ------------------------------------------------------------------ tests */

START_TEST(test_messages_of_0_1_and_3_mib_bytes_round_trip)
{
    gl_child c;
    ck_assert_int_eq(gl_child_spawn(&c, NULL, body_sizes, NULL), 0);
    gl_child_msg in = {0};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        ck_assert_int_eq(gl_child_recv(c.fd, &in, 16u << 20, gl_child_now() + 10), GL_MSG_OK);
        ck_assert_uint_eq(in.h.type, 10 + i);
        ck_assert_uint_eq(in.h.arg, sizes[i]);
        ck_assert_uint_eq(in.h.len, sizes[i]);
        char *want = pattern(sizes[i]);
        ck_assert(memcmp(in.data, want, sizes[i]) == 0);
        ck_assert_int_eq(in.data[sizes[i]], '\0');
        free(want);
    }
    ck_assert_int_eq(gl_child_recv(c.fd, &in, 16u << 20, gl_child_now() + 10), GL_MSG_EOF);
    gl_child_msg_free(&in);
    gl_child_exit ex;
    gl_child_close(&c);
    ck_assert_int_eq(gl_child_wait(&c, GL_CHILD_FOREVER, &ex), 1);
    ck_assert(ex.exited && ex.code == 0 && ex.signal == 0);
}
END_TEST

START_TEST(test_header_and_payload_read_apart_into_the_callers_memory)
{
    gl_child c;
    ck_assert_int_eq(gl_child_spawn(&c, NULL, body_sizes, NULL), 0);
    gl_msg_header h;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        ck_assert_int_eq(gl_child_recv_header(c.fd, &h, 16u << 20, gl_child_now() + 10), GL_MSG_OK);
        ck_assert_uint_eq(h.len, sizes[i]);
        if (i == 1) { /* discarded */
            ck_assert_int_eq(gl_child_recv_payload(c.fd, NULL, h.len, gl_child_now() + 10),
                             GL_MSG_OK);
            continue;
        }
        char *got = malloc(h.len + 1), *want = pattern(h.len);
        ck_assert_int_eq(gl_child_recv_payload(c.fd, got, h.len, gl_child_now() + 10), GL_MSG_OK);
        ck_assert(memcmp(got, want, h.len) == 0);
        free(got), free(want);
    }
    gl_child_stop(&c, GL_CHILD_FOREVER, NULL);
}
END_TEST

START_TEST(test_a_deadline_expires_on_a_silent_child)
{
    gl_child c;
    ck_assert_int_eq(gl_child_spawn(&c, NULL, body_silent, NULL), 0);
    gl_child_msg in = {0};
    double t0 = gl_child_now();
    ck_assert_int_eq(gl_child_recv(c.fd, &in, 100, t0 + 0.3), GL_MSG_TIMEOUT);
    double took = gl_child_now() - t0;
    ck_assert(took >= 0.29 && took < 5);
    /* a deadline already past returns at once */
    t0 = gl_child_now();
    ck_assert_int_eq(gl_child_recv(c.fd, &in, 100, t0 - 1), GL_MSG_TIMEOUT);
    ck_assert(gl_child_now() - t0 < 0.5);
    /* waiting for its end times out too, and leaves it running */
    ck_assert_int_eq(gl_child_wait(&c, gl_child_now() + 0.2, NULL), 0);
    pid_t pid = c.pid;
    ck_assert(alive(pid));
    gl_child_exit ex;
    ck_assert_int_eq(gl_child_stop(&c, GL_CHILD_FOREVER, &ex), 1);
    ck_assert_int_eq(ex.signal, SIGKILL);
    ck_assert(!ex.exited);
    ck_assert_int_eq(c.fd, -1);
    gl_child_msg_free(&in);
}
END_TEST

START_TEST(test_stop_kills_the_whole_group_grandchild_too)
{
    gl_child c;
    ck_assert_int_eq(gl_child_spawn(&c, NULL, body_grandchild, NULL), 0);
    ck_assert(c.own_group);
    ck_assert_int_eq(getpgid(c.pid), c.pid);
    gl_child_msg in = {0};
    ck_assert_int_eq(gl_child_recv(c.fd, &in, 16, gl_child_now() + 10), GL_MSG_OK);
    int32_t g;
    memcpy(&g, in.data, sizeof g);
    gl_child_msg_free(&in);
    ck_assert(g > 0 && alive(g));
    ck_assert_int_eq(getpgid(g), c.pid);
    ck_assert_int_eq(gl_child_stop(&c, GL_CHILD_FOREVER, NULL), 1);
    int gone = 0;
    for (int i = 0; i < 200 && !gone; i++) { /* init reaps the orphan */
        gone = !alive(g);
        if (!gone)
            usleep(10000);
    }
    ck_assert_msg(gone, "the grandchild %d outlived its group", (int)g);
}
END_TEST

START_TEST(test_an_oversized_message_is_refused)
{
    gl_child c;
    ck_assert_int_eq(gl_child_spawn(&c, NULL, body_oversized, NULL), 0);
    gl_child_msg in = {0};
    ck_assert_int_eq(gl_child_recv(c.fd, &in, 4095, gl_child_now() + 10), GL_MSG_TOO_BIG);
    ck_assert_uint_eq(in.h.len, 4096);
    ck_assert_ptr_null(in.data);
    ck_assert_int_eq(gl_child_recv(c.fd, &in, 4095, gl_child_now() + 10), GL_MSG_TOO_BIG);
    gl_child_msg_free(&in);
    gl_msg_header h;
    gl_child_stop(&c, GL_CHILD_FOREVER, NULL);
    /* the header-only reader refuses it too */
    ck_assert_int_eq(gl_child_spawn(&c, NULL, body_oversized, NULL), 0);
    ck_assert_int_eq(gl_child_recv_header(c.fd, &h, 100, gl_child_now() + 10), GL_MSG_TOO_BIG);
    ck_assert_uint_eq(h.type, 6);
    gl_child_stop(&c, GL_CHILD_FOREVER, NULL);
}
END_TEST

START_TEST(test_eof_when_the_child_dies_mid_message)
{
    gl_child c;
    ck_assert_int_eq(gl_child_spawn(&c, NULL, body_dies_mid_message, NULL), 0);
    gl_child_msg in = {0};
    ck_assert_int_eq(gl_child_recv(c.fd, &in, 4096, gl_child_now() + 10), GL_MSG_EOF);
    ck_assert(!in.done);
    ck_assert_uint_eq(in.got, sizeof(gl_msg_header) + 10);
    gl_child_msg_free(&in);
    gl_child_exit ex;
    gl_child_close(&c);
    ck_assert_int_eq(gl_child_wait(&c, GL_CHILD_FOREVER, &ex), 1);
    ck_assert(ex.exited);
    ck_assert_int_eq(ex.code, 4);
}
END_TEST

START_TEST(test_exit_status_and_signal_are_decoded)
{
    gl_child c;
    gl_child_exit ex;
    ck_assert_int_eq(gl_child_spawn(&c, NULL, body_exit_7, NULL), 0);
    ck_assert_int_eq(gl_child_wait(&c, gl_child_now() + 10, &ex), 1);
    ck_assert(ex.exited && ex.code == 7 && ex.signal == 0);
    ck_assert_int_eq(c.pid, 0);
    gl_child_close(&c);

    ck_assert_int_eq(gl_child_spawn(&c, NULL, body_segv, NULL), 0);
    ck_assert_int_eq(gl_child_wait(&c, gl_child_now() + 10, &ex), 1);
    ck_assert(!ex.exited);
    ck_assert_int_eq(ex.signal, SIGSEGV);
    gl_child_close(&c);

    /* a program: exec'd, and 127 when it cannot be started */
    char sh[] = "/bin/sh", dc[] = "-c", cmd[] = "exit 5", missing[] = "/nonexistent/program";
    char *const ok_argv[] = {sh, dc, cmd, NULL}, *const bad_argv[] = {missing, NULL};
    ck_assert_int_eq(gl_child_exec(&c, NULL, ok_argv), 0);
    ck_assert_int_eq(c.fd, -1);
    ck_assert_int_eq(gl_child_wait(&c, GL_CHILD_FOREVER, &ex), 1);
    ck_assert(ex.exited && ex.code == 5);
    ck_assert_int_eq(gl_child_exec(&c, NULL, bad_argv), 0);
    ck_assert_int_eq(gl_child_wait(&c, GL_CHILD_FOREVER, &ex), 1);
    ck_assert(ex.exited && ex.code == 127);

    gl_child_decode(-1, &ex);
    ck_assert(!ex.exited && ex.signal == 0 && ex.status == -1);
}
END_TEST

START_TEST(test_share_group_keeps_the_callers_group)
{
    gl_child c;
    char sh[] = "/bin/sh", dc[] = "-c", cmd[] = "exit 0";
    char *const argv[] = {sh, dc, cmd, NULL};
    const gl_child_opts o = {.flags = GL_CHILD_SHARE_GROUP};
    ck_assert_int_eq(gl_child_exec(&c, &o, argv), 0);
    ck_assert(!c.own_group);
    gl_child_exit ex;
    ck_assert_int_eq(gl_child_wait(&c, GL_CHILD_FOREVER, &ex), 1);
    ck_assert(ex.exited && ex.code == 0);
}
END_TEST

/* The setup hook runs in the child before the body: here it exits with 9. */
static void setup_exit_9(void *ctx)
{
    (void)ctx;
    _exit(9);
}

START_TEST(test_the_setup_hook_runs_in_the_child_first)
{
    gl_child c;
    gl_child_exit ex;
    const gl_child_opts o = {.setup = setup_exit_9};
    ck_assert_int_eq(gl_child_spawn(&c, &o, body_silent, NULL), 0);
    ck_assert_int_eq(gl_child_wait(&c, gl_child_now() + 10, &ex), 1);
    ck_assert(ex.exited && ex.code == 9);
    gl_child_close(&c);
}
END_TEST

static Suite *child_suite(void)
{
    Suite *s = suite_create("child");
    TCase *tc = tcase_create("child");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_messages_of_0_1_and_3_mib_bytes_round_trip);
    tcase_add_test(tc, test_header_and_payload_read_apart_into_the_callers_memory);
    tcase_add_test(tc, test_a_deadline_expires_on_a_silent_child);
    tcase_add_test(tc, test_stop_kills_the_whole_group_grandchild_too);
    tcase_add_test(tc, test_an_oversized_message_is_refused);
    tcase_add_test(tc, test_eof_when_the_child_dies_mid_message);
    tcase_add_test(tc, test_exit_status_and_signal_are_decoded);
    tcase_add_test(tc, test_share_group_keeps_the_callers_group);
    tcase_add_test(tc, test_the_setup_hook_runs_in_the_child_first);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(child_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
