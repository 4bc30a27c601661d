/* spec_buffer.c — a spec's host buffers: storing and reading elements of every gl_type,
 * and allocating and initialising the buffers of a launch (values, fill, iota, random). */
#include "runtime/spec_internal.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---------------------------------------------------------------------- buffers */

/* Stores the low bits of an integer (two's complement) as element i. */
void spec_store_bits(void *dst, gl_type t, size_t i, uint64_t v)
{
    unsigned char *p = (unsigned char *)dst + i * spec_type_size(t);
    switch (spec_type_size(t)) {
    case 1: {
        uint8_t x = (uint8_t)v;
        memcpy(p, &x, 1);
        break;
    }
    case 2: {
        uint16_t x = (uint16_t)v;
        memcpy(p, &x, 2);
        break;
    }
    case 4: {
        uint32_t x = (uint32_t)v;
        memcpy(p, &x, 4);
        break;
    }
    default: memcpy(p, &v, 8); break;
    }
}

/* Stores a double as element i of a float buffer (rounded to nearest for f32). */
void spec_store_float(void *dst, gl_type t, size_t i, double d)
{
    if (t == GL_F32) {
        float x = (float)d;
        memcpy((unsigned char *)dst + i * 4, &x, 4);
    } else {
        memcpy((unsigned char *)dst + i * 8, &d, 8);
    }
}

void spec_store_value(void *dst, gl_type t, size_t i, gl_value v)
{
    if (spec_type_is_float(t))
        spec_store_float(dst, t, i, v.f);
    else
        spec_store_bits(dst, t, i, v.u);
}

/* The integer of `size` bytes (1, 2, 4 or 8) at p, zero-extended. */
static uint64_t load_bits(const unsigned char *p, size_t size)
{
    switch (size) {
    case 1: return *p;
    case 2: {
        uint16_t x;
        memcpy(&x, p, 2);
        return x;
    }
    case 4: {
        uint32_t x;
        memcpy(&x, p, 4);
        return x;
    }
    default: {
        uint64_t x;
        memcpy(&x, p, 8);
        return x;
    }
    }
}

gl_value spec_buffer_get(const void *data, gl_type t, size_t i)
{
    const size_t size = spec_type_size(t);
    uint64_t bits = load_bits((const unsigned char *)data + i * size, size);
    gl_value v;
    if (t == GL_F32) {
        uint32_t b = (uint32_t)bits;
        float x;
        memcpy(&x, &b, 4);
        v.f = x;
    } else if (t == GL_F64) {
        memcpy(&v.f, &bits, 8);
    } else {
        /* signed types: sign-extend; .i and .u share the bits */
        if (spec_type_is_signed(t) && size < 8 && (bits >> (8 * size - 1)))
            bits |= UINT64_MAX << (8 * size);
        v.u = bits;
    }
    return v;
}

/* GL_DEVICE_MEMORY_CAP, or a quarter of this machine's memory if that is less (bytes). */
static uint64_t spec_memory_cap(void)
{
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    uint64_t cap = GL_DEVICE_MEMORY_CAP;
    if (pages > 0 && page > 0 && (uint64_t)pages * (uint64_t)page / 4 < cap)
        cap = (uint64_t)pages * (uint64_t)page / 4;
    return cap;
}

gl_status spec_buffers_sized(const gl_spec *s, gl_buffer **out, gl_error *err)
{
    *out = NULL;
    /* every buffer lives in the simulator's memory, or in host memory and the GPU's:
     * their total is bounded before anything is allocated */
    uint64_t total = 0;
    for (int k = 0; k < s->nargs; k++)
        if (s->args[k].is_ptr)
            total += (uint64_t)s->args[k].len * spec_type_size(s->args[k].type);
    const uint64_t cap = spec_memory_cap();
    if (total > cap)
        return gl_fail(err, GL_ERR_INPUT,
                       "%s: the buffers take %.1f MiB in all, over the limit of %.1f MiB of "
                       "device memory per launch (the smaller of %llu GiB and a quarter of "
                       "this machine's memory)",
                       s->file, (double)total / 1048576.0, (double)cap / 1048576.0,
                       (unsigned long long)(GL_DEVICE_MEMORY_CAP >> 30));
    gl_buffer *b = calloc(s->nargs ? (size_t)s->nargs : 1, sizeof *b);
    if (!b)
        return gl_fail(err, GL_ERR_NOMEM, "%s: out of memory", s->file);
    for (int k = 0; k < s->nargs; k++)
        if (s->args[k].is_ptr)
            b[k].bytes = s->args[k].len * spec_type_size(s->args[k].type);
    *out = b;
    return GL_OK;
}

void spec_buffer_fill(const gl_arg *a, void *dst)
{
    const gl_init *in = &a->init;
    const gl_type t = a->type;
    size_t done = a->len; /* elements written; the rest are zeros */
    switch (in->kind) {
    case GL_INIT_ZERO: done = 0; break;
    case GL_INIT_VALUES:
        done = in->count < a->len ? in->count : a->len;
        for (size_t i = 0; i < done; i++)
            spec_store_value(dst, t, i, in->values[i]);
        break;
    case GL_INIT_FILL: {
        /* one element, then the filled part copied after itself, doubling: the same
         * bytes as storing each element */
        const size_t size = spec_type_size(t), bytes = a->len * size;
        unsigned char *d = dst;
        if (a->len)
            spec_store_value(dst, t, 0, in->a);
        for (size_t have = size; have < bytes; have *= 2)
            memcpy(d + have, d, have < bytes - have ? have : bytes - have);
        break;
    }
    case GL_INIT_IOTA:
        if (spec_type_is_float(t))
            for (size_t i = 0; i < a->len; i++)
                spec_store_float(dst, t, i, in->a.f + (double)i * in->b.f);
        else
            for (size_t i = 0; i < a->len; i++)
                spec_store_bits(dst, t, i, in->a.u + (uint64_t)i * in->b.u);
        break;
    case GL_INIT_RANDOM: spec_random_fill_init(dst, t, a->len, in); break;
    }
    const size_t size = spec_type_size(t);
    memset((unsigned char *)dst + done * size, 0, (a->len - done) * size);
}

gl_status spec_buffers_new(const gl_spec *s, gl_buffer **out, gl_error *err)
{
    gl_buffer *b;
    gl_status st = spec_buffers_sized(s, &b, err);
    if (st != GL_OK)
        return st;
    for (int k = 0; k < s->nargs; k++) {
        const gl_arg *a = &s->args[k];
        if (!a->is_ptr)
            continue;
        /* zeros from calloc, untouched until used; the rest written once */
        const size_t bytes = b[k].bytes;
        const int zero = a->init.kind == GL_INIT_ZERO;
        b[k].data = zero ? calloc(bytes ? bytes : 1, 1) : malloc(bytes ? bytes : 1);
        if (!b[k].data) {
            spec_buffers_free(b, s->nargs);
            return gl_fail(err, GL_ERR_NOMEM, "%s: args[%d] (%s): out of memory for %zu bytes",
                           s->file, k, a->name, bytes);
        }
        if (!zero)
            spec_buffer_fill(a, b[k].data);
    }
    *out = b;
    return GL_OK;
}

void spec_buffers_free(gl_buffer *b, int nargs)
{
    if (!b)
        return;
    for (int i = 0; i < nargs; i++)
        free(b[i].data);
    free(b);
}
