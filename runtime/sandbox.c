/* sandbox.c — Landlock rules for untrusted compilations (see sandbox.h). The kernel's
 * Landlock API has no C library wrappers in glibc 2.36, so the three system calls are
 * made with syscall(2) as the kernel documentation shows. */
#define _GNU_SOURCE /* O_PATH */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/prctl.h>
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
#define FILE_RIGHTS_V1 (LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | \
                        LANDLOCK_ACCESS_FS_READ_FILE)
#define READ_RIGHTS (LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE | \
                     LANDLOCK_ACCESS_FS_READ_DIR)
#define WRITE_RIGHTS_V1 (LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR | \
                         LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_MAKE_CHAR | \
                         LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |    \
                         LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO |  \
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

gl_status gl_sandbox_restrict(const char *const *read, int nread, const char *const *write,
                              int nwrite, gl_error *err)
{
#ifdef GL_HAVE_LANDLOCK
    int abi = gl_sandbox_available();
    if (abi <= 0)
        return gl_fail(err, GL_ERR_TOOL, "the kernel offers no Landlock (Linux 5.13 or later "
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
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
        syscall(SYS_landlock_restrict_self, ruleset, 0) != 0) {
        int e = errno;
        close(ruleset);
        return gl_fail(err, GL_ERR_TOOL, "landlock_restrict_self: %s", strerror(e));
    }
    close(ruleset);
    return GL_OK;
#else
    (void)read, (void)nread, (void)write, (void)nwrite;
    return gl_fail(err, GL_ERR_TOOL, "this build has no Landlock (not Linux)");
#endif
}
