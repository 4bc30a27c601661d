/* record.c — cudart's record channel; see record.h. */
#define _GNU_SOURCE
#include "cudart/record.h"

#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static struct {
    int init;
    int fd; /* -1: no records */
    struct timespec t0;
    uintptr_t exe_base;       /* the executable's load bias (0 for a non-PIE) */
    uintptr_t exe_lo, exe_hi; /* its executable segment's addresses */
} R = {.fd = -1};

static void grow(cr_json *j, size_t more)
{
    if (j->oom || j->n + more + 1 <= j->cap)
        return;
    size_t cap = j->cap ? j->cap : 256;
    while (cap < j->n + more + 1)
        cap *= 2;
    char *p = realloc(j->p, cap);
    if (!p) {
        j->oom = 1;
        return;
    }
    j->p = p;
    j->cap = cap;
}

void cr_json_raw(cr_json *j, const char *s)
{
    size_t k = strlen(s);
    grow(j, k);
    if (j->oom)
        return;
    memcpy(j->p + j->n, s, k + 1);
    j->n += k;
}

void cr_json_fmt(cr_json *j, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (k < 0)
        return;
    if ((size_t)k < sizeof buf) {
        cr_json_raw(j, buf);
        return;
    }
    grow(j, (size_t)k);
    if (j->oom)
        return;
    va_start(ap, fmt);
    vsnprintf(j->p + j->n, (size_t)k + 1, fmt, ap);
    va_end(ap);
    j->n += (size_t)k;
}

void cr_json_str(cr_json *j, const char *s)
{
    if (!s) {
        cr_json_raw(j, "null");
        return;
    }
    grow(j, strlen(s) * 6 + 2);
    if (j->oom)
        return;
    char *o = j->p + j->n;
    *o++ = '"';
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (*c == '"' || *c == '\\') {
            *o++ = '\\';
            *o++ = (char)*c;
        } else if (*c == '\n') {
            *o++ = '\\', *o++ = 'n';
        } else if (*c == '\t') {
            *o++ = '\\', *o++ = 't';
        } else if (*c < 0x20 || *c == 0x7f) {
            o += sprintf(o, "\\u%04x", *c);
        } else {
            *o++ = (char)*c;
        }
    }
    *o++ = '"';
    *o = '\0';
    j->n = (size_t)(o - j->p);
}

void cr_json_free(cr_json *j)
{
    free(j->p);
    memset(j, 0, sizeof *j);
}

/* dl_iterate_phdr's first object is the executable: its load bias and its executable
 * PT_LOAD segment. */
static int find_exe(struct dl_phdr_info *info, size_t size, void *ctx)
{
    (void)size, (void)ctx;
    R.exe_base = info->dlpi_addr;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
            R.exe_lo = info->dlpi_addr + ph->p_vaddr;
            R.exe_hi = R.exe_lo + ph->p_memsz;
        }
    }
    return 1;
}

static void rec_init(void)
{
    if (R.init)
        return;
    R.init = 1;
    clock_gettime(CLOCK_MONOTONIC, &R.t0);
    const char *path = getenv("GPULEARN_PROG_RECORD");
    if (path && *path)
        R.fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    dl_iterate_phdr(find_exe, NULL);
}

int cr_rec_on(void)
{
    rec_init();
    return R.fd >= 0;
}

void cr_rec_write(cr_json *j)
{
    if (R.fd < 0 || j->oom || !j->p) {
        j->n = 0, j->oom = 0;
        return;
    }
    cr_json_raw(j, "\n");
    for (size_t off = 0; !j->oom && off < j->n;) {
        ssize_t k = write(R.fd, j->p + off, j->n - off);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        off += (size_t)k;
    }
    j->n = 0, j->oom = 0;
}

double cr_wall_ns(void)
{
    rec_init();
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - R.t0.tv_sec) * 1e9 + (double)(t.tv_nsec - R.t0.tv_nsec);
}

uint64_t cr_exe_address(const void *ra)
{
    rec_init();
    const uintptr_t a = (uintptr_t)ra;
    if (!a || a < R.exe_lo || a >= R.exe_hi)
        return 0;
    return (uint64_t)(a - 1 - R.exe_base); /* inside the call instruction */
}
