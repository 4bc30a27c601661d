/* sandbox.c — Landlock rules for untrusted compilations (see sandbox.h). The kernel's
 * Landlock API has no C library wrappers in glibc 2.36, so the three system calls are
 * made with syscall(2) as the kernel documentation shows. */
#define _GNU_SOURCE /* O_PATH */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <seccomp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "runtime/sandbox.h"

#if defined(__linux__) && defined(SYS_landlock_create_ruleset)
#include <linux/landlock.h>
#define GL_HAVE_LANDLOCK 1
#endif

#ifdef GL_HAVE_LANDLOCK
/* Rights a rule on a regular file (not a folder) may carry. */
#define FILE_RIGHTS_V1                                                                             \
    (LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE)
#define READ_RIGHTS                                                                                \
    (LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR)
#define WRITE_RIGHTS_V1                                                                            \
    (LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR |                               \
     LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR | \
     LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO |   \
     LANDLOCK_ACCESS_FS_MAKE_BLOCK | LANDLOCK_ACCESS_FS_MAKE_SYM)
#endif

int gl_sandbox_available(void)
{
#ifdef GL_HAVE_LANDLOCK
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    return abi > 0 ? (int)abi : 0;
#else
    return 0;
#endif
}

#ifdef GL_HAVE_LANDLOCK
/* Adds one rule: `rights` on the tree (or file) at path; 0, 1 when path does not exist,
 * -1 on error. */
static int add_rule(int ruleset, const char *path, uint64_t rights, uint64_t file_rights)
{
    int fd = open(path, O_PATH | O_CLOEXEC);
    if (fd < 0) /* absent or out of reach: nothing to grant (a missing rule only denies) */
        return 1;
    struct stat st;
    if (fstat(fd, &st) != 0) {
        close(fd);
        return -1;
    }
    struct landlock_path_beneath_attr rule = {
        .allowed_access = S_ISDIR(st.st_mode) ? rights : rights & file_rights,
        .parent_fd = fd,
    };
    long r = syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
    close(fd);
    return r == 0 ? 0 : -1;
}
#endif

/* The seccomp filter (libseccomp, seccomp(2)): every system call is allowed except those
 * below, which fail with EACCES: sockets of every family (no network, no local daemon),
 * reading or writing other processes (ptrace, process_vm_*), and kernel facilities a
 * compiler never needs (bpf, perf_event_open, keyrings, mounts, namespaces, modules).
 * System calls of another architecture's ABI (i386 int 0x80 on x86-64) kill the process:
 * libseccomp's default for architectures the filter does not name. program: a whole
 * program's host code: the same calls and new processes (fork, vfork, clone without
 * CLONE_THREAD) raise SIGSYS (SCMP_ACT_TRAP) instead; clone3, whose flags a filter
 * cannot read, fails with ENOSYS, so that the C library falls back to clone for threads
 * (glibc's __clone_internal does). */
static gl_status deny_syscalls(int program, gl_error *err)
{
    static const char *const denied[] = {
        "socket",      "socketpair",      "ptrace",        "process_vm_readv", "process_vm_writev",
        "bpf",         "perf_event_open", "keyctl",        "add_key",          "request_key",
        "mount",       "umount2",         "pivot_root",    "unshare",          "setns",
        "init_module", "finit_module",    "delete_module", "kexec_load",       "kexec_file_load",
        "userfaultfd"};
    scmp_filter_ctx f = seccomp_init(SCMP_ACT_ALLOW);
    if (!f)
        return gl_fail(err, GL_ERR_TOOL, "seccomp_init failed");
    int rc = 0;
    const uint32_t action = program ? SCMP_ACT_TRAP : SCMP_ACT_ERRNO(EACCES);
    for (size_t i = 0; i < sizeof denied / sizeof denied[0] && rc == 0; i++) {
        const int nr = seccomp_syscall_resolve_name(denied[i]);
        if (nr != __NR_SCMP_ERROR)
            rc = seccomp_rule_add(f, action, nr, 0);
    }
    if (program && rc == 0)
        rc = seccomp_rule_add(f, SCMP_ACT_TRAP, SCMP_SYS(fork), 0);
    if (program && rc == 0)
        rc = seccomp_rule_add(f, SCMP_ACT_TRAP, SCMP_SYS(vfork), 0);
    if (program && rc == 0)
        rc = seccomp_rule_add(f, SCMP_ACT_TRAP, SCMP_SYS(clone), 1,
                              SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0));
    if (program && rc == 0)
        rc = seccomp_rule_add(f, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
    if (rc == 0)
        rc = seccomp_load(f);
    seccomp_release(f);
    return rc == 0 ? GL_OK : gl_fail(err, GL_ERR_TOOL, "seccomp filter: %s", strerror(-rc));
}

/* How many tasks (threads: what RLIMIT_NPROC counts, each thread of a process one) the
 * real user id runs now, from the "Uid:" and "Threads:" lines of /proc/<pid>/status (not
 * the owner of /proc/<pid>, which is root for a process that gave up root, as every
 * sandboxed child run by root has), or -1. */
static long tasks_of_user(void)
{
    DIR *d = opendir("/proc");
    if (!d)
        return -1;
    const uid_t uid = getuid();
    long n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        char path[300], line[256];
        snprintf(path, sizeof path, "/proc/%s/status", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f) /* ended meanwhile */
            continue;
        long real = -1, threads = 1;
        while (fgets(line, sizeof line, f)) {
            if (strncmp(line, "Uid:", 4) == 0)
                real = atol(line + 4);
            else if (strncmp(line, "Threads:", 8) == 0 && atol(line + 8) > 0)
                threads = atol(line + 8);
        }
        fclose(f);
        if (real == (long)uid)
            n += threads;
    }
    closedir(d);
    return n;
}

/* The tasks a sandboxed process may start beyond those its user runs already:
 * GL_SANDBOX_PROCESSES for each online processor, since as many sandboxed children as
 * processors (a grading's --jobs) run at once as one user, each counted against every
 * other's limit. */
static long task_headroom(void)
{
    const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    return GL_SANDBOX_PROCESSES * (cpus > 0 ? cpus : 1);
}

void gl_sandbox_nobody(uid_t *uid, gid_t *gid)
{
    *uid = GL_SANDBOX_NOBODY;
    *gid = GL_SANDBOX_NOBODY;
    const struct passwd *pw = getpwnam("nobody");
    if (pw && pw->pw_uid != 0) {
        *uid = pw->pw_uid;
        *gid = pw->pw_gid;
    }
}

gl_status gl_sandbox_drop_root(gl_error *err)
{
    if (geteuid() != 0)
        return GL_OK;
    uid_t uid;
    gid_t gid;
    gl_sandbox_nobody(&uid, &gid);
    if (setgroups(0, NULL) != 0 || setgid(gid) != 0 || setuid(uid) != 0)
        return gl_fail(err, GL_ERR_TOOL, "cannot become user nobody (%u): %s", (unsigned)uid,
                       strerror(errno));
    if (setuid(0) == 0)
        return gl_fail(err, GL_ERR_TOOL, "dropped root but could take it back");
    return GL_OK;
}

/* gl_sandbox_restrict, with a whole program's filter when program is 1. */
static gl_status restrict_self(const char *const *read, int nread, const char *const *write,
                               int nwrite, int program, gl_error *err)
{
#ifdef GL_HAVE_LANDLOCK
    int abi = gl_sandbox_available();
    if (abi <= 0)
        return gl_fail(err, GL_ERR_TOOL,
                       "the kernel offers no Landlock (Linux 5.13 or later "
                       "with landlock in its LSM list)");
    /* every file-system right this ABI knows is handled (denied unless a rule allows) */
    uint64_t write_rights = WRITE_RIGHTS_V1, file_rights = FILE_RIGHTS_V1;
#ifdef LANDLOCK_ACCESS_FS_REFER
    if (abi >= 2)
        write_rights |= LANDLOCK_ACCESS_FS_REFER;
#endif
#ifdef LANDLOCK_ACCESS_FS_TRUNCATE
    if (abi >= 3) {
        write_rights |= LANDLOCK_ACCESS_FS_TRUNCATE;
        file_rights |= LANDLOCK_ACCESS_FS_TRUNCATE;
    }
#endif
    struct landlock_ruleset_attr attr = {.handled_access_fs = READ_RIGHTS | write_rights};
    int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0);
    if (ruleset < 0)
        return gl_fail(err, GL_ERR_TOOL, "landlock_create_ruleset: %s", strerror(errno));
    for (int i = 0; i < nread; i++)
        if (add_rule(ruleset, read[i], READ_RIGHTS, file_rights) < 0) {
            int e = errno;
            close(ruleset);
            return gl_fail(err, GL_ERR_TOOL, "landlock rule for %s: %s", read[i], strerror(e));
        }
    for (int i = 0; i < nwrite; i++)
        if (add_rule(ruleset, write[i], READ_RIGHTS | write_rights, file_rights) < 0) {
            int e = errno;
            close(ruleset);
            return gl_fail(err, GL_ERR_TOOL, "landlock rule for %s: %s", write[i], strerror(e));
        }
    /* a bounded number of new processes: RLIMIT_NPROC counts the user's tasks */
    const long now = tasks_of_user();
    if (now >= 0) {
        const struct rlimit np = {(rlim_t)(now + task_headroom()), (rlim_t)(now + task_headroom())};
        setrlimit(RLIMIT_NPROC, &np);
    }
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
        syscall(SYS_landlock_restrict_self, ruleset, 0) != 0) {
        int e = errno;
        close(ruleset);
        return gl_fail(err, GL_ERR_TOOL, "landlock_restrict_self: %s", strerror(e));
    }
    close(ruleset);
    return deny_syscalls(program, err);
#else
    (void)read, (void)nread, (void)write, (void)nwrite, (void)program;
    return gl_fail(err, GL_ERR_TOOL, "this build has no Landlock (not Linux)");
#endif
}

gl_status gl_sandbox_restrict(const char *const *read, int nread, const char *const *write,
                              int nwrite, gl_error *err)
{
    return restrict_self(read, nread, write, nwrite, 0, err);
}

gl_status gl_sandbox_restrict_program(const char *const *read, int nread, const char *const *write,
                                      int nwrite, gl_error *err)
{
    return restrict_self(read, nread, write, nwrite, 1, err);
}

/* ------------------------------------------------------------ sandboxed children */

/* What gl_sandbox_spawn's child needs (on the parent's stack: the fork copies it). */
typedef struct spawn_args {
    const gl_sandbox_opts *o;
    void (*body)(int fd, void *arg);
    void *arg;
} spawn_args;

/* Sets one resource limit (soft and hard) when v > 0. */
static void limit(int resource, uint64_t v)
{
    if (v == 0)
        return;
    const struct rlimit r = {(rlim_t)v, (rlim_t)v};
    setrlimit(resource, &r);
}

/* gl_sandbox_spawn's setup hook: the limits, before anything else runs. */
static void spawn_limits(void *ctx)
{
    const gl_sandbox_opts *o = ctx;
    const struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    limit(RLIMIT_CPU, o->cpu_s);
    limit(RLIMIT_FSIZE, o->file_bytes);
#ifndef __SANITIZE_ADDRESS__
    limit(RLIMIT_AS, o->address_space);
    limit(RLIMIT_DATA, o->data_bytes);
#endif
}

/* The child's body: confine, then the caller's body. */
static void spawn_body(int fd, void *arg)
{
    const spawn_args *a = arg;
    const gl_sandbox_opts *o = a->o;
    gl_error e = {0};
    gl_status st = o->prepare ? o->prepare(o->ctx, &e) : GL_OK;
    if (st == GL_OK && geteuid() == 0) {
        uid_t uid;
        gid_t gid;
        gl_sandbox_nobody(&uid, &gid);
        if (chown(o->dir, uid, gid) != 0)
            st = gl_fail(&e, GL_ERR_TOOL, "cannot hand the sandbox's folder %s to user nobody: %s",
                         o->dir, strerror(errno));
        else
            st = gl_sandbox_drop_root(&e);
    }
    gl_child_rebind(); /* becoming nobody cleared the death signal */
    /* what compilers and the dynamic loader read; no /etc, /proc, /home, lessons */
    static const char *const sys[] = {
        "/usr/bin",  "/usr/lib",  "/usr/lib64",  "/usr/libexec",     "/usr/include",
        "/bin",      "/lib",      "/lib64",      "/etc/ld.so.cache", "/etc/alternatives",
        "/dev/null", "/dev/zero", "/dev/urandom"};
    const int nsys = (int)(sizeof sys / sizeof sys[0]);
    const char **read = calloc((size_t)(nsys + o->nread) + 1, sizeof *read);
    int nread = 0;
    for (int i = 0; read && i < nsys; i++)
        read[nread++] = sys[i];
    for (int i = 0; read && i < o->nread; i++)
        if (o->read[i] && *o->read[i])
            read[nread++] = o->read[i];
    const char *const write[] = {o->dir, "/dev/null"};
    if (st == GL_OK && !read)
        st = gl_fail(&e, GL_ERR_NOMEM, "out of memory");
    if (st == GL_OK && (setenv("TMPDIR", o->dir, 1) != 0 || chdir(o->dir) != 0))
        st = gl_fail(&e, GL_ERR_TOOL, "cannot enter the sandbox's folder %s: %s", o->dir,
                     strerror(errno));
    if (st == GL_OK)
        st = restrict_self(read, nread, write, 2, o->program, &e);
    free(read);
    if (st != GL_OK) {
        gl_child_send(fd, GL_SANDBOX_MSG_ERROR, (uint32_t)st, e.msg, strlen(e.msg));
        _exit(126);
    }
    a->body(fd, a->arg);
}

int gl_sandbox_spawn(gl_child *c, const gl_sandbox_opts *o, void (*body)(int fd, void *arg),
                     void *arg)
{
    spawn_args a = {o, body, arg};
    const gl_child_opts co = {.setup = spawn_limits, .setup_ctx = (void *)o};
    return gl_child_spawn(c, &co, spawn_body, &a);
}
