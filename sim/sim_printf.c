/* sim_printf.c — device printf (PTX `vprintf`), CUDA C++ Programming Guide
 * "Formatted Output": the format string is a generic address; the arguments are packed
 * into a buffer, each aligned to its own size, float arguments promoted to double.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/ptx_ir.h"

/* Each conversion is formatted by the host's snprintf with a format assembled here from
 * the parsed specification (only flags, width, precision and one conversion, which
 * matches the argument's type), so the format is not a literal by design. */
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

static int append(char **out, size_t *len, size_t *cap, const char *s, size_t n)
{
    if (*len + n + 1 > *cap) {
        size_t nc = (*cap ? *cap : 256);
        while (nc < *len + n + 1)
            nc *= 2;
        char *p = realloc(*out, nc);
        if (!p)
            return 0;
        *out = p;
        *cap = nc;
    }
    memcpy(*out + *len, s, n);
    *len += n;
    (*out)[*len] = 0;
    return 1;
}

int sim_vprintf_format(void *ctx, sim_read_fn rd, uint64_t fmt, uint64_t args, char **out,
                       size_t *len, size_t *cap)
{
    char f[1024];
    size_t fl = 0;
    /* read the format string */
    for (;;) {
        char ch;
        if (!rd(ctx, fmt + fl, &ch, 1))
            return -1;
        if (ch == 0 || fl + 1 >= sizeof f)
            break;
        f[fl++] = ch;
    }
    f[fl] = 0;
    uint64_t ap = args;
    int nargs = 0;
    for (size_t i = 0; i < fl;) {
        if (f[i] != '%') {
            size_t j = i;
            while (j < fl && f[j] != '%')
                j++;
            if (!append(out, len, cap, f + i, j - i))
                return -1;
            i = j;
            continue;
        }
        if (f[i + 1] == '%') {
            append(out, len, cap, "%", 1);
            i += 2;
            continue;
        }
        /* %[flags][width][.precision][length]conversion */
        char spec[64];
        size_t sl = 0;
        size_t j = i + 1;
        spec[sl++] = '%';
        while (j < fl && strchr("-+ #0", f[j]) && sl < 40)
            spec[sl++] = f[j++];
        /* width and precision: digits, or `*` taking an int argument */
        for (int part = 0; part < 2; part++) {
            if (part == 1) {
                if (j >= fl || f[j] != '.')
                    break;
                spec[sl++] = f[j++];
            }
            if (j < fl && f[j] == '*') {
                ap = (ap + 3) / 4 * 4;
                int32_t wv = 0;
                if (!rd(ctx, ap, &wv, 4))
                    return -1;
                ap += 4;
                nargs++;
                if (part == 0 && wv < 0 && sl < 40) { /* negative width: left-justify */
                    spec[sl++] = '-';
                    wv = wv == INT32_MIN ? INT32_MAX : -wv;
                }
                if (part == 1 && wv < 0) { /* negative precision: as if omitted */
                    sl--;
                    wv = -1;
                }
                if (wv > 4096) /* the output buffer is bounded */
                    wv = 4096;
                if (wv >= 0)
                    sl += (size_t)snprintf(spec + sl, sizeof spec - sl, "%d", (int)wv);
                j++;
            } else {
                while (j < fl && f[j] >= '0' && f[j] <= '9' && sl < 56)
                    spec[sl++] = f[j++];
            }
        }
        int longs = 0, shorts = 0;
        while (j < fl && strchr("hlLqjzt", f[j])) {
            if (f[j] == 'l' || f[j] == 'L' || f[j] == 'q' || f[j] == 'j' || f[j] == 'z' ||
                f[j] == 't')
                longs++;
            if (f[j] == 'h')
                shorts++;
            j++;
        }
        if (j >= fl) {
            append(out, len, cap, f + i, fl - i);
            break;
        }
        char conv = f[j++];
        unsigned size = 4;
        if (strchr("fFeEgGaA", conv) || conv == 's' || conv == 'p' || longs)
            size = 8;
        ap = (ap + size - 1) / size * size;
        uint64_t v = 0;
        if (!rd(ctx, ap, &v, size))
            return -1;
        ap += size;
        nargs++;
        /* h / hh: the int argument is converted to short / char before printing */
        if (!longs && shorts == 1)
            v = strchr("di", conv) ? (uint64_t)(int64_t)(int16_t)v : (uint64_t)(uint16_t)v;
        else if (!longs && shorts >= 2)
            v = strchr("di", conv) ? (uint64_t)(int64_t)(int8_t)v : (uint64_t)(uint8_t)v;
        char buf[4200];
        int n = 0;
        switch (conv) {
        case 'd':
        case 'i':
            spec[sl++] = 'l';
            spec[sl++] = 'l';
            spec[sl++] = conv;
            spec[sl] = 0;
            n = snprintf(buf, sizeof buf, spec,
                         size == 8 || shorts ? (long long)(int64_t)v : (long long)(int32_t)v);
            break;
        case 'u':
        case 'x':
        case 'X':
        case 'o':
            spec[sl++] = 'l';
            spec[sl++] = 'l';
            spec[sl++] = conv;
            spec[sl] = 0;
            n = snprintf(buf, sizeof buf, spec,
                         size == 8 || shorts ? (unsigned long long)v
                                             : (unsigned long long)(uint32_t)v);
            break;
        case 'c':
            spec[sl++] = 'c';
            spec[sl] = 0;
            n = snprintf(buf, sizeof buf, spec, (int)(unsigned char)v);
            break;
        case 'p':
            n = snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)v);
            break;
        case 's': {
            char s[512];
            size_t k = 0;
            if (v == 0) {
                strcpy(s, "(null)");
            } else {
                for (; k + 1 < sizeof s; k++) {
                    if (!rd(ctx, v + k, &s[k], 1))
                        return -1;
                    if (!s[k])
                        break;
                }
                s[k] = 0;
            }
            spec[sl++] = 's';
            spec[sl] = 0;
            n = snprintf(buf, sizeof buf, spec, s);
            break;
        }
        default:
            if (strchr("fFeEgGaA", conv)) {
                double d;
                memcpy(&d, &v, 8);
                spec[sl++] = conv;
                spec[sl] = 0;
                n = snprintf(buf, sizeof buf, spec, d);
            } else {
                /* unknown conversion: print it as written */
                n = snprintf(buf, sizeof buf, "%.*s", (int)(j - i), f + i);
            }
        }
        if (n > 0)
            append(out, len, cap, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
        i = j;
    }
    return nargs;
}
