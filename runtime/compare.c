/* compare.c — what a launch changed, and whether two launches did the same work (see
 * compare.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/compare.h"

size_t gl_compare_count_changed(gl_type t, size_t len, const void *before, const void *after,
                                size_t *first)
{
    const size_t es = spec_type_size(t);
    const unsigned char *p = before, *q = after;
    size_t n = 0;
    if (first)
        *first = len;
    for (size_t i = 0; i < len; i++)
        if (memcmp(p + i * es, q + i * es, es) != 0) {
            if (first && n == 0)
                *first = i;
            n++;
        }
    return n;
}

void gl_compare_work_of(const gl_spec *s, const gl_buffer *before, const gl_buffer *after,
                        int nafter, gl_work *w)
{
    memset(w, 0, sizeof *w);
    snprintf(w->kernel, sizeof w->kernel, "%s", s->kernel ? s->kernel : "");
    w->blocks = (uint64_t)s->grid[0] * s->grid[1] * s->grid[2];
    w->threads = w->blocks * s->block[0] * s->block[1] * s->block[2];
    w->flops = s->flops;
    w->bytes_moved = s->bytes_moved;
    for (int i = 0; i < s->nargs && w->nbuf < GL_WORK_MAX_BUFFERS; i++) {
        const gl_arg *a = &s->args[i];
        if (!a->is_ptr)
            continue;
        struct gl_work_buffer *b = &w->buf[w->nbuf++];
        snprintf(b->name, sizeof b->name, "%s", a->name);
        b->len = a->len;
        b->changed = SIZE_MAX;
        b->first = a->len;
        const size_t bytes = a->len * spec_type_size(a->type);
        if (i >= nafter || !after || !after[i].data || after[i].bytes < bytes)
            continue;
        if (before && before[i].data && before[i].bytes >= bytes) {
            b->changed =
                gl_compare_count_changed(a->type, a->len, before[i].data, after[i].data, &b->first);
            continue;
        }
        void *init = malloc(bytes ? bytes : 1);
        if (!init)
            continue;
        spec_buffer_fill(a, init);
        b->changed = gl_compare_count_changed(a->type, a->len, init, after[i].data, &b->first);
        free(init);
    }
}

/* The buffer of w called name, or NULL. */
static const struct gl_work_buffer *work_buffer(const gl_work *w, const char *name)
{
    for (int i = 0; i < w->nbuf; i++)
        if (strcmp(w->buf[i].name, name) == 0)
            return &w->buf[i];
    return NULL;
}

/* " (4096 threads in 16 blocks against 1024 in 4)" when the launches differ, else "". */
static void shapes(const gl_work *cur, const gl_work *prev, char *buf, size_t len)
{
    buf[0] = '\0';
    if (cur->threads != prev->threads || cur->blocks != prev->blocks)
        snprintf(buf, len, " (%llu threads in %llu blocks against %llu in %llu)",
                 (unsigned long long)cur->threads, (unsigned long long)cur->blocks,
                 (unsigned long long)prev->threads, (unsigned long long)prev->blocks);
}

int gl_compare_work_same(const gl_work *prev, const gl_work *cur, char *buf, size_t len)
{
    char scratch[8], shape[160];
    if (!buf || len == 0)
        buf = scratch, len = sizeof scratch;
    buf[0] = '\0';
    shapes(cur, prev, shape, sizeof shape);
    /* names: the kernels, or "it" and "the previous run" when the same kernel ran */
    const int same_kernel = strcmp(cur->kernel, prev->kernel) == 0;
    const char *me = same_kernel ? "it" : cur->kernel;
    const char *them = same_kernel ? "the previous run" : prev->kernel;
    static const char lead[] = "not the same work as the previous run: ";
    if (cur->flops > 0 && prev->flops > 0 && cur->flops != prev->flops) {
        snprintf(buf, len, "%sthe launch declares %.0f FLOPs for %s, %.0f for %s%s", lead,
                 cur->flops, me, prev->flops, them, shape);
        return 0;
    }
    if (cur->bytes_moved > 0 && prev->bytes_moved > 0 && cur->bytes_moved != prev->bytes_moved) {
        snprintf(buf, len, "%sthe launch declares %.0f bytes moved for %s, %.0f for %s%s", lead,
                 cur->bytes_moved, me, prev->bytes_moved, them, shape);
        return 0;
    }
    for (int i = 0; i < cur->nbuf; i++) {
        const struct gl_work_buffer *c = &cur->buf[i], *p = work_buffer(prev, c->name);
        if (!p) {
            snprintf(buf, len, "%s%s has no buffer %s%s", lead, them, c->name, shape);
            return 0;
        }
        if (p->len != c->len) {
            snprintf(buf, len, "%s%s holds %zu elements for %s, %zu for %s%s", lead, c->name,
                     c->len, me, p->len, them, shape);
            return 0;
        }
        if (c->changed != SIZE_MAX && p->changed != SIZE_MAX && c->changed != p->changed) {
            snprintf(buf, len, "%s%s changed %zu of the %zu elements of %s, %s %zu%s", lead, me,
                     c->changed, c->len, c->name, them, p->changed, shape);
            return 0;
        }
    }
    if (shape[0]) {
        /* name the first output: the buffer both changed most of */
        const struct gl_work_buffer *out = NULL;
        for (int i = 0; i < cur->nbuf; i++)
            if (cur->buf[i].changed != SIZE_MAX && cur->buf[i].changed > 0 &&
                (!out || cur->buf[i].changed > out->changed))
                out = &cur->buf[i];
        if (out)
            snprintf(buf, len,
                     "the same work as the previous run in another shape: %s ran %llu threads "
                     "in %llu blocks, %s %llu in %llu, and each changed %zu of the %zu "
                     "elements of %s",
                     me, (unsigned long long)cur->threads, (unsigned long long)cur->blocks, them,
                     (unsigned long long)prev->threads, (unsigned long long)prev->blocks,
                     out->changed, out->len, out->name);
        else
            snprintf(buf, len,
                     "the same work as the previous run in another shape: %s ran %llu threads "
                     "in %llu blocks, %s %llu in %llu",
                     me, (unsigned long long)cur->threads, (unsigned long long)cur->blocks, them,
                     (unsigned long long)prev->threads, (unsigned long long)prev->blocks);
    }
    return 1;
}
