/* spec.c — launch specs (README "Launch specs"): loading and validating the
 * JSON into a gl_spec. The expression evaluator is in spec_expr.c, host buffers in
 * spec_buffer.c, the random generator in spec_rng.c and the JSON writer in spec_json.c.
 *
 * Conventions for gl_value (the union in spec.h): signed integer types use .i, unsigned
 * ones .u, f32/f64 use .f. Scalar f32 values and f32 "values"/"fill" entries are rounded
 * to float when loaded; iota start/step and random min/max stay as parsed doubles (the
 * buffer is computed in double, then rounded once per element). An integer iota step is
 * .i (it may be negative for unsigned types too).
 *
 * Validation reports every problem it finds, one line each ("k.json: grid[1]: ..."); the
 * status is the first problem's (GL_ERR_INPUT, or GL_ERR_LAUNCH for an illegal launch
 * configuration). */
#include "runtime/spec_internal.h"
#include "runtime/arch.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ------------------------------------------------------------------------- types */

static const struct {
    const char *name;
    size_t size;
    bool is_float, is_signed;
    unsigned bits;
} type_info[] = {
    [GL_I8] = {"i8", 1, false, true, 8},    [GL_U8] = {"u8", 1, false, false, 8},
    [GL_I16] = {"i16", 2, false, true, 16}, [GL_U16] = {"u16", 2, false, false, 16},
    [GL_I32] = {"i32", 4, false, true, 32}, [GL_U32] = {"u32", 4, false, false, 32},
    [GL_I64] = {"i64", 8, false, true, 64}, [GL_U64] = {"u64", 8, false, false, 64},
    [GL_F32] = {"f32", 4, true, true, 32},  [GL_F64] = {"f64", 8, true, true, 64},
};
#define NTYPES ((int)(sizeof type_info / sizeof type_info[0]))

size_t spec_type_size(gl_type t)
{
    return type_info[t].size;
}
const char *spec_type_name(gl_type t)
{
    return type_info[t].name;
}
bool spec_type_is_float(gl_type t)
{
    return type_info[t].is_float;
}
bool spec_type_is_signed(gl_type t)
{
    return type_info[t].is_signed;
}

/* Two's-complement reinterpretation without implementation-defined conversions. */
static int64_t i64_of(uint64_t u)
{
    return u <= (uint64_t)INT64_MAX ? (int64_t)u : -(int64_t)(~u) - 1;
}

/* ------------------------------------------------------------- error collection */

typedef struct ctx {
    const char *file;
    const gl_vars *vars;
    gl_error *err;
    gl_status status; /* the first problem's status */
    int nerr;
    size_t used; /* bytes of err->msg in use */
} ctx;

/* Adds the line "file: path: message" (or "file: message" with no path). */
__attribute__((format(printf, 4, 5))) static void cfail(ctx *c, gl_status st, const char *path,
                                                        const char *fmt, ...)
{
    if (c->nerr++ == 0)
        c->status = st;
    if (!c->err)
        return;
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    char full[1400];
    if (path && *path)
        snprintf(full, sizeof full, "%s: %s: %s", c->file, path, line);
    else
        snprintf(full, sizeof full, "%s: %s", c->file, line);
    size_t cap = sizeof c->err->msg;
    size_t need = strlen(full) + (c->used ? 1 : 0);
    if (c->used + need + 1 > cap)
        return; /* the first lines say enough */
    if (c->used)
        c->err->msg[c->used++] = '\n';
    memcpy(c->err->msg + c->used, full, strlen(full) + 1);
    c->used += strlen(full);
    c->err->status = c->status;
}

static const char *json_kind(const cJSON *j)
{
    if (cJSON_IsNull(j))
        return "null";
    if (cJSON_IsBool(j))
        return cJSON_IsTrue(j) ? "true" : "false";
    if (cJSON_IsNumber(j))
        return "a number";
    if (cJSON_IsString(j))
        return "a string";
    if (cJSON_IsArray(j))
        return "an array";
    if (cJSON_IsObject(j))
        return "an object";
    return "an unknown value";
}

/* Levenshtein distance of two short keys (capped), for "did you mean". */
static int edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 31 || lb > 31)
        return 99;
    int d[32][32];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            d[i][j] = best;
        }
    return d[la][lb];
}

/* Reports keys of obj not in allowed (NULL-terminated), and keys given twice. */
static bool check_keys(ctx *c, const cJSON *obj, const char *path, const char *const *allowed)
{
    bool ok = true;
    for (const cJSON *k = obj->child; k; k = k->next) {
        const char *key = k->string ? k->string : "";
        bool known = false;
        for (int i = 0; allowed[i]; i++)
            known |= strcmp(key, allowed[i]) == 0;
        if (!known) {
            const char *close = NULL;
            int best = 3;
            for (int i = 0; allowed[i]; i++) {
                size_t la = strlen(allowed[i]), lk = strlen(key);
                int dist = edit_distance(key, allowed[i]);
                /* "lenght" for "len", "dynamic_shared" for "dynamic_shared_bytes" */
                if (lk >= 3 && la >= 3 && strncmp(key, allowed[i], lk < la ? lk : la) == 0)
                    dist = 0;
                if (dist < best) {
                    best = dist;
                    close = allowed[i];
                }
            }
            if (close) {
                cfail(c, GL_ERR_INPUT, path, "unknown key '%s' (did you mean '%s'?)", key, close);
            } else {
                char list[256] = "";
                for (int i = 0; allowed[i]; i++) {
                    size_t l = strlen(list);
                    snprintf(list + l, sizeof list - l, "%s%s", i ? ", " : "", allowed[i]);
                }
                cfail(c, GL_ERR_INPUT, path, "unknown key '%s' (expected %s)", key, list);
            }
            ok = false;
            continue;
        }
        for (const cJSON *e = obj->child; e != k; e = e->next)
            if (e->string && strcmp(e->string, key) == 0) {
                cfail(c, GL_ERR_INPUT, path, "key '%s' is given twice", key);
                ok = false;
                break;
            }
    }
    return ok;
}

/* --------------------------------------------------------------------- numbers */

/* A number as written: an exact integer (sign and magnitude, so both INT64_MIN and
 * UINT64_MAX fit) or a double. */
typedef struct num {
    bool is_float;
    bool neg;
    uint64_t mag;
    double f;
} num;

static num num_int(bool neg, uint64_t mag)
{
    num n = {false, neg && mag != 0, mag, 0};
    return n;
}

static double num_double(num n)
{
    if (n.is_float)
        return n.f;
    return n.neg ? -(double)n.mag : (double)n.mag;
}

static void num_str(num n, char *buf, size_t sz)
{
    if (n.is_float) {
        spec_cloc l;
        spec_cloc_enter(&l);
        if (isfinite(n.f) && n.f == trunc(n.f) && fabs(n.f) < 1e21)
            snprintf(buf, sz, "%.0f", n.f); /* as the integer JSON read: 2^64 in full */
        else
            spec_fmt_float(buf, sz, n.f, false);
        spec_cloc_leave(&l);
    } else {
        snprintf(buf, sz, "%s%" PRIu64, n.neg ? "-" : "", n.mag);
    }
}

#define TWO53 9007199254740992.0

/* Whole-string integer literal: [+-] then decimal digits or 0x hex. Returns false if s
 * is not one; *over when it is one but beyond 64 bits. */
static bool parse_int_literal(const char *s, num *out, bool *over)
{
    *over = false;
    bool neg = false;
    if (*s == '+' || *s == '-')
        neg = *s++ == '-';
    int base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    }
    if (!*s)
        return false;
    uint64_t v = 0;
    for (; *s; s++) {
        int d;
        if (isdigit((unsigned char)*s))
            d = *s - '0';
        else if (base == 16 && isxdigit((unsigned char)*s))
            d = tolower((unsigned char)*s) - 'a' + 10;
        else
            return false;
        if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
            *over = true;
        v = v * (uint64_t)base + (uint64_t)d;
    }
    *out = num_int(neg, v);
    return true;
}

/* Reads a numeric field: a JSON number, or a string holding an integer literal (exact,
 * 64-bit), "nan"/"inf"/"-inf", a decimal float literal, or an integer expression over
 * the spec's variables. Reports and returns false on failure. */
static bool get_num(ctx *c, const cJSON *j, const char *path, num *out)
{
    if (cJSON_IsNumber(j)) {
        double v = j->valuedouble;
        if (isfinite(v) && v == trunc(v) && fabs(v) < TWO53 && !(v == 0 && signbit(v)))
            *out = num_int(v < 0, (uint64_t)fabs(v));
        else
            *out = (num){true, false, 0, v};
        return true;
    }
    if (!cJSON_IsString(j)) {
        cfail(c, GL_ERR_INPUT, path, "must be a number, not %s", json_kind(j));
        return false;
    }
    /* Trim surrounding blanks into a bounded copy. */
    const char *s = j->valuestring;
    while (isspace((unsigned char)*s))
        s++;
    char buf[256];
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        n--;
    if (n >= sizeof buf) {
        cfail(c, GL_ERR_INPUT, path, "expression is too long (%zu characters)", n);
        return false;
    }
    memcpy(buf, s, n);
    buf[n] = '\0';
    if (n == 0) {
        cfail(c, GL_ERR_INPUT, path, "must be a number, not an empty string");
        return false;
    }
    bool over;
    if (parse_int_literal(buf, out, &over)) {
        if (over) {
            cfail(c, GL_ERR_INPUT, path, "%s does not fit in 64 bits", buf);
            return false;
        }
        return true;
    }
    const char *b = buf + (buf[0] == '+' || buf[0] == '-');
    if (strcmp(b, "nan") == 0 || strcmp(b, "inf") == 0 || strcmp(b, "infinity") == 0) {
        double v = b[0] == 'n' ? NAN : INFINITY;
        *out = (num){true, false, 0, buf[0] == '-' ? -v : v};
        return true;
    }
    if (strpbrk(buf, ".eE") && (isdigit((unsigned char)*b) || *b == '.')) {
        spec_cloc l;
        spec_cloc_enter(&l);
        char *end;
        double v = strtod(buf, &end);
        spec_cloc_leave(&l);
        if (*end == '\0') {
            *out = (num){true, false, 0, v};
            return true;
        }
    }
    int64_t v;
    char msg[256];
    if (!spec_expr_eval(buf, c->vars, &v, msg, sizeof msg)) {
        cfail(c, GL_ERR_INPUT, path, "%s", msg);
        return false;
    }
    *out = num_int(v < 0, v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
    return true;
}

/* Converts n to type t exactly, reporting values that are not integers or out of
 * range. round: f32 values become the nearest float (else kept as the double). */
static bool num_to(ctx *c, num n, gl_type t, const char *path, bool round, gl_value *out)
{
    char s[64];
    if (spec_type_is_float(t)) {
        double d = num_double(n);
        if (t == GL_F32 && isfinite(d) && isinf((float)d)) {
            num_str(n, s, sizeof s);
            cfail(c, GL_ERR_INPUT, path, "%s is out of range for f32", s);
            return false;
        }
        out->f = (t == GL_F32 && round) ? (double)(float)d : d;
        return true;
    }
    if (n.is_float && isfinite(n.f) && n.f == trunc(n.f) && fabs(n.f) < TWO53)
        n = num_int(n.f < 0, (uint64_t)fabs(n.f)); /* -0.0, or "1e3" as a string */
    if (n.is_float) {
        num_str(n, s, sizeof s);
        if (!isfinite(n.f) || n.f != trunc(n.f)) {
            cfail(c, GL_ERR_INPUT, path, "must be an integer, got %s", s);
            return false;
        }
        /* UINT64_MAX written as a JSON number reads as 2^64: not "out of range" yet. */
        if (fabs(n.f) > 0x1p64) {
            cfail(c, GL_ERR_INPUT, path, "%s is out of range for %s", s, spec_type_name(t));
            return false;
        }
        cfail(c, GL_ERR_INPUT, path,
              "a JSON number this large (%s) may not be exact: write integers beyond 2^53 as "
              "strings (e.g. \"18446744073709551615\")",
              s);
        return false;
    }
    unsigned bits = type_info[t].bits;
    bool ok;
    char lo[32], hi[32];
    if (spec_type_is_signed(t)) {
        uint64_t lim = (uint64_t)1 << (bits - 1); /* |min|; max is lim - 1 */
        ok = n.neg ? n.mag <= lim : n.mag < lim;
        snprintf(lo, sizeof lo, "-%" PRIu64, lim);
        snprintf(hi, sizeof hi, "%" PRIu64, lim - 1);
        out->i = n.neg ? i64_of(0 - n.mag) : (int64_t)(n.mag & (uint64_t)INT64_MAX);
    } else {
        uint64_t max = bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
        ok = !n.neg && n.mag <= max;
        snprintf(lo, sizeof lo, "0");
        snprintf(hi, sizeof hi, "%" PRIu64, max);
        out->u = n.mag;
    }
    if (!ok) {
        num_str(n, s, sizeof s);
        cfail(c, GL_ERR_INPUT, path, "%s is out of range for %s (%s to %s)", s, spec_type_name(t),
              lo, hi);
    }
    return ok;
}

/* get_num + num_to. */
static bool get_value(ctx *c, const cJSON *j, gl_type t, const char *path, bool round,
                      gl_value *out)
{
    num n;
    return get_num(c, j, path, &n) && num_to(c, n, t, path, round, out);
}

/* ----------------------------------------------------------------- launch shape */

/* Limits from the CUDA C++ Programming Guide, "Compute Capabilities", table
 * "Technical Specifications per Compute Capability" (the same for every compute
 * capability since 3.0): grid x <= 2^31-1, grid y/z <= 65535, block x/y <= 1024,
 * block z <= 64, at most 1024 threads per block; and dynamic shared memory up to the
 * most any GPU lets a block opt in to, 227 KiB (compute capability 9.0: ibid., table
 * "Maximum amount of shared memory per thread block"; each back end then checks its
 * device's own limit, and gpulearn opts the kernel in past the default 48 KiB). */
#define GL_MAX_THREADS_PER_BLOCK 1024u
#define GL_MAX_DYNAMIC_SHARED (227u * 1024u)
static const uint64_t grid_limit[3] = {2147483647u, 65535u, 65535u};
static const uint64_t block_limit[3] = {1024u, 1024u, 64u};

static bool get_dims(ctx *c, const cJSON *root, const char *key, unsigned out[3])
{
    out[0] = out[1] = out[2] = 1;
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(root, key);
    if (!j) {
        cfail(c, GL_ERR_INPUT, key, "missing (an array of 1 to 3 positive integers)");
        return false;
    }
    const cJSON *items[3];
    int n = 0;
    bool scalar = false;
    if (cJSON_IsArray(j)) {
        for (const cJSON *e = j->child; e; e = e->next)
            if (n++ < 3)
                items[n - 1] = e;
    } else if (cJSON_IsNumber(j) || cJSON_IsString(j)) {
        items[n++] = j;
        scalar = true;
    }
    if (n < 1 || n > 3) {
        cfail(c, GL_ERR_INPUT, key, "must be an array of 1 to 3 positive integers");
        return false;
    }
    const uint64_t *lim = strcmp(key, "grid") == 0 ? grid_limit : block_limit;
    bool ok = true;
    for (int i = 0; i < n; i++) {
        char path[32];
        if (scalar)
            snprintf(path, sizeof path, "%s", key);
        else
            snprintf(path, sizeof path, "%s[%d]", key, i);
        num v;
        if (!cJSON_IsNumber(items[i]) && !cJSON_IsString(items[i])) {
            cfail(c, GL_ERR_INPUT, path, "must be a positive integer");
            ok = false;
            continue;
        }
        if (!get_num(c, items[i], path, &v)) {
            ok = false;
            continue;
        }
        if (v.is_float || v.neg) {
            cfail(c, GL_ERR_INPUT, path, "must be a positive integer");
            ok = false;
        } else if (v.mag == 0) {
            cfail(c, GL_ERR_LAUNCH, path,
                  "0 is not a legal launch dimension (every dimension must be at least 1)");
            ok = false;
        } else if (v.mag > lim[i]) {
            cfail(c, GL_ERR_LAUNCH, path, "%" PRIu64 " is over the limit of %" PRIu64, v.mag,
                  lim[i]);
            ok = false;
        } else {
            out[i] = (unsigned)v.mag;
        }
    }
    return ok;
}

/* -------------------------------------------------------------------- arguments */

static bool parse_type(const char *s, gl_type *t, bool *is_ptr)
{
    size_t n = strlen(s);
    *is_ptr = n > 0 && s[n - 1] == '*';
    if (*is_ptr)
        n--;
    for (int i = 0; i < NTYPES; i++)
        if (strlen(spec_type_name(i)) == n && strncmp(spec_type_name(i), s, n) == 0) {
            *t = (gl_type)i;
            return true;
        }
    return false;
}

static bool is_identifier(const char *s)
{
    if (!(isalpha((unsigned char)*s) || *s == '_'))
        return false;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_' || *s == '$'))
            return false;
    return true;
}

/* Checks that every element of an integer iota lies in t's range: the sequence is
 * linear, so checking the last element is enough. */
static bool iota_int_in_range(ctx *c, const gl_arg *a, const char *path)
{
    uint64_t last_i = a->len - 1;
    int64_t step = a->init.b.i;
    unsigned bits = type_info[a->type].bits;
    bool ok;
    num last = {0};
    if (spec_type_is_signed(a->type)) {
        int64_t prod, v;
        ok = last_i <= (uint64_t)INT64_MAX &&
             !__builtin_mul_overflow((int64_t)last_i, step, &prod) &&
             !__builtin_add_overflow(a->init.a.i, prod, &v);
        if (ok) {
            int64_t lim = bits == 64 ? INT64_MAX : ((int64_t)1 << (bits - 1)) - 1;
            ok = v <= lim && v >= -lim - 1;
            last = num_int(v < 0, v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
        }
    } else {
        uint64_t mag = step < 0 ? 0 - (uint64_t)step : (uint64_t)step, prod, v = 0;
        ok = !__builtin_mul_overflow(last_i, mag, &prod);
        if (ok && step >= 0) {
            ok = !__builtin_add_overflow(a->init.a.u, prod, &v);
            last = num_int(false, v);
        } else if (ok) {
            ok = prod <= a->init.a.u;
            last = num_int(!ok, ok ? a->init.a.u - prod : prod - a->init.a.u);
        }
        if (ok)
            ok = bits == 64 || v <= ((uint64_t)1 << bits) - 1;
    }
    if (!ok) {
        char s[64];
        num_str(last, s, sizeof s);
        if (last.mag == 0 && !last.neg)
            snprintf(s, sizeof s, "beyond 64 bits");
        cfail(c, GL_ERR_INPUT, path, "element %" PRIu64 " would be %s, out of range for %s", last_i,
              s, spec_type_name(a->type));
    }
    return ok;
}

static const char *const init_keys[] = {"values", "fill", "iota", "random", NULL};
static const char *const iota_keys[] = {"start", "step", NULL};
static const char *const random_keys[] = {"seed",    "min",       "max", "class",
                                          "quantum", "nonfinite", NULL};

/* The smallest and largest value of integer type t, as its gl_value. */
static void int_limits(gl_type t, gl_value *lo, gl_value *hi)
{
    const unsigned bits = (unsigned)(8 * spec_type_size(t));
    if (spec_type_is_signed(t)) {
        hi->i = (int64_t)(UINT64_MAX >> (65 - bits));
        lo->i = -hi->i - 1;
    } else {
        lo->u = 0;
        hi->u = UINT64_MAX >> (64 - bits);
    }
}

/* A "random" init's optional "class" (uniform, full_range, bit_ranges), "quantum" and
 * "nonfinite" (spec.h gl_random_class; its min and max already parsed), at path sub. */
static bool parse_random_class(ctx *c, const cJSON *v, gl_arg *a, const char *sub)
{
    char p[160];
    const bool is_f = spec_type_is_float(a->type);
    const cJSON *cls = cJSON_GetObjectItemCaseSensitive(v, "class");
    const cJSON *qu = cJSON_GetObjectItemCaseSensitive(v, "quantum");
    const cJSON *nf = cJSON_GetObjectItemCaseSensitive(v, "nonfinite");
    a->init.rclass = GL_RANDOM_UNIFORM;
    if (cls) {
        snprintf(p, sizeof p, "%s.class", sub);
        const char *n = cJSON_IsString(cls) ? cls->valuestring : "";
        if (strcmp(n, "full_range") == 0) {
            a->init.rclass = GL_RANDOM_FULL_RANGE;
        } else if (strcmp(n, "bit_ranges") == 0) {
            a->init.rclass = GL_RANDOM_BIT_RANGES;
        } else if (strcmp(n, "uniform") != 0) {
            cfail(c, GL_ERR_INPUT, p, "must be \"uniform\", \"full_range\" or \"bit_ranges\"");
            return false;
        }
    }
    if (a->init.rclass == GL_RANDOM_BIT_RANGES) {
        gl_value lo, hi;
        if (is_f) {
            cfail(c, GL_ERR_INPUT, sub, "bit_ranges draws integer keys, not %s",
                  spec_type_name(a->type));
            return false;
        }
        int_limits(a->type, &lo, &hi);
        if (lo.u != a->init.a.u || hi.u != a->init.b.u) {
            cfail(c, GL_ERR_INPUT, sub,
                  "bit_ranges draws from every value of %s: min and max must be its limits",
                  spec_type_name(a->type));
            return false;
        }
    }
    const bool float_full = is_f && a->init.rclass == GL_RANDOM_FULL_RANGE;
    if ((qu || nf) && !float_full) {
        snprintf(p, sizeof p, "%s.%s", sub, qu ? "quantum" : "nonfinite");
        cfail(c, GL_ERR_INPUT, p, "only a full_range of f32 or f64 takes this key");
        return false;
    }
    if (nf) {
        snprintf(p, sizeof p, "%s.nonfinite", sub);
        if (!cJSON_IsBool(nf)) {
            cfail(c, GL_ERR_INPUT, p, "must be true or false");
            return false;
        }
        a->init.nonfinite = cJSON_IsTrue(nf);
    }
    if (qu) {
        snprintf(p, sizeof p, "%s.quantum", sub);
        const double smallest = a->type == GL_F32 ? 0x1p-149 : 0x1p-1074;
        int e;
        if (!cJSON_IsNumber(qu) || !(qu->valuedouble >= smallest) ||
            frexp(qu->valuedouble, &e) != 0.5 || (a->type == GL_F32 && e > 128)) {
            cfail(c, GL_ERR_INPUT, p,
                  "must be a power of two that %s can hold (0.0009765625 = 2^-10)",
                  spec_type_name(a->type));
            return false;
        }
        a->init.quantum = qu->valuedouble;
        if (fmod(a->init.a.f, a->init.quantum) != 0 || fmod(a->init.b.f, a->init.quantum) != 0) {
            cfail(c, GL_ERR_INPUT, p, "min and max must be multiples of the quantum");
            return false;
        }
    }
    return true;
}

static bool parse_init(ctx *c, const cJSON *j, gl_arg *a, const char *apath)
{
    char path[96], sub[128];
    snprintf(path, sizeof path, "%s.init", apath);
    if (!cJSON_IsObject(j)) {
        cfail(c, GL_ERR_INPUT, path, "must be an object with one of values, fill, iota, random");
        return false;
    }
    if (!check_keys(c, j, path, init_keys))
        return false;
    if (!j->child) {
        cfail(c, GL_ERR_INPUT, path, "empty: give one of values, fill, iota, random");
        return false;
    }
    if (j->child->next) {
        cfail(c, GL_ERR_INPUT, path, "give only one of values, fill, iota, random (got %s and %s)",
              j->child->string, j->child->next->string);
        return false;
    }
    const cJSON *v = j->child;
    const char *kind = v->string;
    gl_type t = a->type;
    bool is_f = spec_type_is_float(t);
    snprintf(sub, sizeof sub, "%s.%s", path, kind);
    if (strcmp(kind, "values") == 0) {
        a->init.kind = GL_INIT_VALUES;
        if (!cJSON_IsArray(v)) {
            cfail(c, GL_ERR_INPUT, sub, "must be an array, not %s", json_kind(v));
            return false;
        }
        size_t n = (size_t)cJSON_GetArraySize(v);
        if (n > a->len) {
            cfail(c, GL_ERR_INPUT, sub, "%zu values for a buffer of len %zu", n, a->len);
            return false;
        }
        a->init.values = calloc(n ? n : 1, sizeof *a->init.values);
        if (!a->init.values) {
            cfail(c, GL_ERR_NOMEM, sub, "out of memory");
            return false;
        }
        a->init.count = n;
        bool ok = true;
        size_t i = 0;
        for (const cJSON *e = v->child; e; e = e->next, i++) {
            char ep[160];
            snprintf(ep, sizeof ep, "%s[%zu]", sub, i);
            ok &= get_value(c, e, t, ep, true, &a->init.values[i]);
        }
        return ok;
    }
    if (strcmp(kind, "fill") == 0) {
        a->init.kind = GL_INIT_FILL;
        return get_value(c, v, t, sub, true, &a->init.a);
    }
    if (strcmp(kind, "iota") == 0) {
        a->init.kind = GL_INIT_IOTA;
        if (!cJSON_IsObject(v)) {
            cfail(c, GL_ERR_INPUT, sub, "must be an object {\"start\": ..., \"step\": ...}");
            return false;
        }
        if (!check_keys(c, v, sub, iota_keys))
            return false;
        /* start defaults to 0 and step to 1 */
        if (is_f) {
            a->init.a.f = 0;
            a->init.b.f = 1;
        } else {
            a->init.a.u = 0;
            a->init.b.i = 1;
        }
        const cJSON *st = cJSON_GetObjectItemCaseSensitive(v, "start");
        const cJSON *sp = cJSON_GetObjectItemCaseSensitive(v, "step");
        char p1[160], p2[160];
        snprintf(p1, sizeof p1, "%s.start", sub);
        snprintf(p2, sizeof p2, "%s.step", sub);
        bool ok = true;
        if (st)
            ok &= get_value(c, st, t, p1, false, &a->init.a);
        if (sp)
            ok &= get_value(c, sp, is_f ? t : GL_I64, p2, false, &a->init.b);
        if (!ok)
            return false;
        if (!is_f)
            return iota_int_in_range(c, a, sub);
        double last = a->init.a.f + (double)(a->len - 1) * a->init.b.f;
        if (!isfinite(a->init.a.f) || !isfinite(a->init.b.f) || !isfinite(last) ||
            (t == GL_F32 && isinf((float)last))) {
            char s[64];
            num_str((num){true, false, 0, last}, s, sizeof s);
            cfail(c, GL_ERR_INPUT, sub, "element %zu would be %s, out of range for %s", a->len - 1,
                  s, spec_type_name(t));
            return false;
        }
        return true;
    }
    /* random */
    a->init.kind = GL_INIT_RANDOM;
    if (!cJSON_IsObject(v)) {
        cfail(c, GL_ERR_INPUT, sub,
              "must be an object {\"seed\": ..., \"min\": ..., \"max\": ...} (and optionally "
              "\"class\", \"quantum\", \"nonfinite\")");
        return false;
    }
    if (!check_keys(c, v, sub, random_keys))
        return false;
    bool ok = true;
    gl_value seed = {0};
    for (int k = 0; k < 3; k++) {
        const char *key = random_keys[k];
        const cJSON *e = cJSON_GetObjectItemCaseSensitive(v, key);
        char p[160];
        snprintf(p, sizeof p, "%s.%s", sub, key);
        if (!e) {
            cfail(c, GL_ERR_INPUT, p, "missing");
            ok = false;
            continue;
        }
        gl_value *dst = k == 0 ? &seed : k == 1 ? &a->init.a : &a->init.b;
        if (!get_value(c, e, k == 0 ? GL_U64 : t, p, false, dst)) {
            ok = false;
        } else if (k > 0 && is_f && !isfinite(dst->f)) {
            cfail(c, GL_ERR_INPUT, p, "must be finite");
            ok = false;
        }
    }
    if (!ok)
        return false;
    a->init.seed = seed.u;
    bool gt = is_f                     ? a->init.a.f > a->init.b.f
              : spec_type_is_signed(t) ? a->init.a.i > a->init.b.i
                                       : a->init.a.u > a->init.b.u;
    if (gt) {
        cfail(c, GL_ERR_INPUT, sub, "min is greater than max");
        return false;
    }
    if (!parse_random_class(c, v, a, sub))
        return false;
    if (is_f && a->init.rclass == GL_RANDOM_UNIFORM && !isfinite(a->init.b.f - a->init.a.f)) {
        cfail(c, GL_ERR_INPUT, sub, "max - min is too large for f64");
        return false;
    }
    return true;
}

static const char *const arg_keys[] = {"name", "type", "len", "value", "init", "shape", NULL};

/* Largest buffer a spec may ask for (bytes): a guard against typos like len 1e12. */
#define GL_MAX_BUFFER_BYTES ((uint64_t)1 << 32)

static bool parse_arg(ctx *c, const cJSON *j, int idx, gl_spec *s)
{
    gl_arg *a = &s->args[idx];
    char apath[32], path[64];
    snprintf(apath, sizeof apath, "args[%d]", idx);
    if (!cJSON_IsObject(j)) {
        cfail(c, GL_ERR_INPUT, apath, "must be an object {\"name\", \"type\", ...}, not %s",
              json_kind(j));
        return false;
    }
    bool ok = check_keys(c, j, apath, arg_keys);

    const cJSON *name = cJSON_GetObjectItemCaseSensitive(j, "name");
    snprintf(path, sizeof path, "%s.name", apath);
    if (!name) {
        cfail(c, GL_ERR_INPUT, path, "missing");
        ok = false;
    } else if (!cJSON_IsString(name)) {
        cfail(c, GL_ERR_INPUT, path, "must be a string, not %s", json_kind(name));
        ok = false;
    } else if (!is_identifier(name->valuestring)) {
        cfail(c, GL_ERR_INPUT, path, "'%s' is not a name (letters, digits and _)",
              name->valuestring);
        ok = false;
    } else {
        for (int k = 0; k < idx; k++)
            if (s->args[k].name && strcmp(s->args[k].name, name->valuestring) == 0) {
                cfail(c, GL_ERR_INPUT, path, "'%s' is already the name of args[%d]",
                      name->valuestring, k);
                ok = false;
            }
        a->name = strdup(name->valuestring);
        if (!a->name) {
            cfail(c, GL_ERR_NOMEM, path, "out of memory");
            return false;
        }
    }

    const cJSON *type = cJSON_GetObjectItemCaseSensitive(j, "type");
    snprintf(path, sizeof path, "%s.type", apath);
    if (!type) {
        cfail(c, GL_ERR_INPUT, path,
              "missing (one of i8 u8 i16 u16 i32 u32 i64 u64 f32 f64, "
              "with * for a pointer)");
        return false;
    }
    if (!cJSON_IsString(type)) {
        cfail(c, GL_ERR_INPUT, path, "must be a string, not %s", json_kind(type));
        return false;
    }
    if (!parse_type(type->valuestring, &a->type, &a->is_ptr)) {
        cfail(c, GL_ERR_INPUT, path,
              "unknown type '%s' (expected i8 u8 i16 u16 i32 u32 i64 u64 f32 f64, with * for a "
              "pointer)",
              type->valuestring);
        return false;
    }

    const cJSON *len = cJSON_GetObjectItemCaseSensitive(j, "len");
    const cJSON *value = cJSON_GetObjectItemCaseSensitive(j, "value");
    const cJSON *init = cJSON_GetObjectItemCaseSensitive(j, "init");
    if (!a->is_ptr) {
        snprintf(path, sizeof path, "%s.value", apath);
        if (len) {
            cfail(c, GL_ERR_INPUT, apath, "'len' is for pointer arguments; %s is a scalar %s",
                  a->name ? a->name : "this", spec_type_name(a->type));
            ok = false;
        }
        if (init) {
            cfail(c, GL_ERR_INPUT, apath,
                  "'init' is for pointer arguments; a scalar takes 'value'");
            ok = false;
        }
        if (!value) {
            cfail(c, GL_ERR_INPUT, path, "missing (a scalar argument needs a value)");
            return false;
        }
        return get_value(c, value, a->type, path, true, &a->value) && ok;
    }
    if (value) {
        cfail(c, GL_ERR_INPUT, apath,
              "'value' is for scalar arguments; a pointer takes 'len' and 'init'");
        ok = false;
    }
    snprintf(path, sizeof path, "%s.len", apath);
    if (!len) {
        cfail(c, GL_ERR_INPUT, path, "missing (a pointer argument needs a length in elements)");
        return false;
    }
    num n;
    if (!get_num(c, len, path, &n))
        return false;
    if (n.is_float) {
        char sv[64];
        num_str(n, sv, sizeof sv);
        cfail(c, GL_ERR_INPUT, path, "must be an integer, got %s", sv);
        return false;
    }
    if (n.neg || n.mag == 0) {
        cfail(c, GL_ERR_INPUT, path, "must be > 0");
        return false;
    }
    if (n.mag > GL_MAX_BUFFER_BYTES / spec_type_size(a->type)) {
        cfail(c, GL_ERR_INPUT, path,
              "%" PRIu64 " elements of %s is over the 4 GiB limit per buffer", n.mag,
              spec_type_name(a->type));
        return false;
    }
    a->len = (size_t)n.mag;
    a->init.kind = GL_INIT_ZERO;
    if (init && !parse_init(c, init, a, apath))
        return false;
    const cJSON *shape = cJSON_GetObjectItemCaseSensitive(j, "shape");
    if (shape) { /* [rows, cols], numbers or expressions, rows * cols == len */
        snprintf(path, sizeof path, "%s.shape", apath);
        if (!cJSON_IsArray(shape) || cJSON_GetArraySize(shape) != 2) {
            cfail(c, GL_ERR_INPUT, path,
                  "must be [rows, cols] (a row-major matrix of len elements)");
            return false;
        }
        uint64_t dim[2];
        for (unsigned k = 0; k < 2; k++) {
            char dpath[sizeof path + 16];
            snprintf(dpath, sizeof dpath, "%s[%u]", path, k);
            num d;
            if (!get_num(c, cJSON_GetArrayItem(shape, k), dpath, &d))
                return false;
            if (d.is_float || d.neg || d.mag == 0) {
                cfail(c, GL_ERR_INPUT, dpath, "must be an integer > 0");
                return false;
            }
            dim[k] = d.mag;
        }
        if (dim[0] > a->len || dim[1] > a->len || dim[0] * dim[1] != a->len) {
            cfail(c, GL_ERR_INPUT, path, "%" PRIu64 " x %" PRIu64 " is not len = %zu elements",
                  dim[0], dim[1], a->len);
            return false;
        }
        a->rows = (size_t)dim[0];
        a->cols = (size_t)dim[1];
    }
    return ok;
}

/* ------------------------------------------------------------------------ specs */

static const char *const spec_keys[] = {
    "source",  "kernel",      "grid",  "block", "dynamic_shared_bytes",
    "args",    "bytes_moved", "flops", "arch",  "reference_library",
    "cluster", NULL};

static char *join_path(const char *dir, const char *rel)
{
    if (rel[0] == '/' || !dir || !*dir || strcmp(dir, ".") == 0)
        return strdup(rel);
    size_t n = strlen(dir) + strlen(rel) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", rel);
    return p;
}

gl_status spec_from_json(const struct cJSON *json, const char *file, const char *base_dir,
                         const gl_vars *vars, gl_spec *out, gl_error *err)
{
    memset(out, 0, sizeof *out);
    ctx c = {.file = file ? file : "<spec>", .vars = vars, .err = err, .status = GL_OK};
    if (err) {
        err->msg[0] = '\0';
        err->status = GL_OK;
    }
    out->file = strdup(c.file);
    if (!out->file)
        return gl_fail(err, GL_ERR_NOMEM, "out of memory");
    if (!cJSON_IsObject(json)) {
        cfail(&c, GL_ERR_INPUT, NULL, "a launch spec must be a JSON object, not %s",
              json ? json_kind(json) : "nothing");
        goto done;
    }
    check_keys(&c, json, NULL, spec_keys);

    const cJSON *src = cJSON_GetObjectItemCaseSensitive(json, "source");
    if (!src) {
        cfail(&c, GL_ERR_INPUT, "source", "missing (the .cu file, relative to the spec)");
    } else if (!cJSON_IsString(src) || !*src->valuestring) {
        cfail(&c, GL_ERR_INPUT, "source", "must be a file name (a non-empty string)");
    } else {
        out->source = join_path(base_dir, src->valuestring);
        struct stat st;
        if (!out->source)
            cfail(&c, GL_ERR_NOMEM, "source", "out of memory");
        else if (stat(out->source, &st) != 0)
            cfail(&c, GL_ERR_INPUT, "source", "cannot read '%s': %s", out->source, strerror(errno));
        else if (S_ISDIR(st.st_mode))
            cfail(&c, GL_ERR_INPUT, "source", "'%s' is a folder, not a .cu file", out->source);
    }

    const cJSON *kernel = cJSON_GetObjectItemCaseSensitive(json, "kernel");
    if (!kernel) {
        cfail(&c, GL_ERR_INPUT, "kernel", "missing (the name of the __global__ function)");
    } else if (!cJSON_IsString(kernel)) {
        cfail(&c, GL_ERR_INPUT, "kernel", "must be a string, not %s", json_kind(kernel));
    } else if (!is_identifier(kernel->valuestring)) {
        cfail(&c, GL_ERR_INPUT, "kernel", "'%s' is not a function name", kernel->valuestring);
    } else if (!(out->kernel = strdup(kernel->valuestring))) {
        cfail(&c, GL_ERR_NOMEM, "kernel", "out of memory");
    }

    bool gok = get_dims(&c, json, "grid", out->grid);
    bool bok = get_dims(&c, json, "block", out->block);
    if (bok) {
        uint64_t threads = (uint64_t)out->block[0] * out->block[1] * out->block[2];
        if (threads > GL_MAX_THREADS_PER_BLOCK)
            cfail(&c, GL_ERR_LAUNCH, "block",
                  "%u x %u x %u = %" PRIu64 " threads, over the limit of %u threads per block",
                  out->block[0], out->block[1], out->block[2], threads, GL_MAX_THREADS_PER_BLOCK);
    }

    const cJSON *dyn = cJSON_GetObjectItemCaseSensitive(json, "dynamic_shared_bytes");
    if (dyn) {
        num n;
        const char *p = "dynamic_shared_bytes";
        if (get_num(&c, dyn, p, &n)) {
            if (n.is_float || n.neg)
                cfail(&c, GL_ERR_INPUT, p, "must be an integer >= 0");
            else if (n.mag > GL_MAX_DYNAMIC_SHARED)
                cfail(&c, GL_ERR_LAUNCH, p,
                      "%" PRIu64 " is over %u bytes (227 KiB), the most shared memory any GPU "
                      "allows a block",
                      n.mag, GL_MAX_DYNAMIC_SHARED);
            else
                out->dynamic_shared_bytes = (unsigned)n.mag;
        }
    }

    /* "cluster": [x, y, z] (CUDA C++ Programming Guide "Thread Block Clusters"): the grid
     * a whole number of clusters of at most 8 CTAs (the portable size); the target's
     * compute capability (9.0) is checked at launch */
    if (cJSON_GetObjectItemCaseSensitive(json, "cluster")) {
        unsigned *cl = out->cluster;
        cl[0] = cl[1] = cl[2] = 1;
        if (get_dims(&c, json, "cluster", cl) && cl[0] * cl[1] * cl[2] > 8)
            cfail(&c, GL_ERR_LAUNCH, "cluster",
                  "%u x %u x %u = %u CTAs, over the portable maximum of 8 CTAs per cluster", cl[0],
                  cl[1], cl[2], cl[0] * cl[1] * cl[2]);
        else if (gok && (out->grid[0] % cl[0] || out->grid[1] % cl[1] || out->grid[2] % cl[2]))
            cfail(&c, GL_ERR_LAUNCH, "cluster",
                  "grid %u x %u x %u is not a whole number of %u x %u x %u clusters: each "
                  "grid dimension must be a multiple of the cluster's",
                  out->grid[0], out->grid[1], out->grid[2], cl[0], cl[1], cl[2]);
    }

    const cJSON *arch = cJSON_GetObjectItemCaseSensitive(json, "arch");
    char why[160];
    if (arch && !cJSON_IsString(arch))
        cfail(&c, GL_ERR_INPUT, "arch", "must be a target such as \"sm_80\", not %s",
              json_kind(arch));
    else if (arch && !gl_arch_known(arch->valuestring, out->arch, why, sizeof why))
        cfail(&c, GL_ERR_INPUT, "arch", "%s", why);

    /* Declared work for timing: >= 0, integers or floats or expressions. */
    static const char *const work_keys[] = {"bytes_moved", "flops"};
    double *work_out[] = {&out->bytes_moved, &out->flops};
    for (int w = 0; w < 2; w++) {
        const cJSON *j = cJSON_GetObjectItemCaseSensitive(json, work_keys[w]);
        num n;
        if (!j || !get_num(&c, j, work_keys[w], &n))
            continue;
        if (n.neg || (n.is_float && !(isfinite(n.f) && n.f >= 0)))
            cfail(&c, GL_ERR_INPUT, work_keys[w], "must be a number >= 0 (%s of one launch)",
                  w == 0 ? "bytes read and written" : "floating-point operations");
        else
            *work_out[w] = n.is_float ? n.f : (double)n.mag;
    }

    /* "reference_library": the library run beside the kernel on a GPU, one of
     * {"sgemm": [M, N, K]}, {"gemm_f16": [M, N, K]}, {"cub_reduce_sum": [n]},
     * {"cub_exclusive_sum": [n]} */
    const cJSON *lib = cJSON_GetObjectItemCaseSensitive(json, "reference_library");
    static const struct {
        const char *name;
        int dims;
        gl_cub_op cub;
    } libs[] = {{"sgemm", 3, GL_CUB_NONE},
                {"cub_reduce_sum", 1, GL_CUB_REDUCE_SUM},
                {"cub_exclusive_sum", 1, GL_CUB_EXCLUSIVE_SUM},
                {"gemm_f16", 3, GL_CUB_NONE}};
    int which = -1;
    for (int i = 0; lib && cJSON_IsObject(lib) && cJSON_GetArraySize(lib) == 1 && i < 4; i++)
        if (strcmp(lib->child->string, libs[i].name) == 0 && cJSON_IsArray(lib->child) &&
            cJSON_GetArraySize(lib->child) == libs[i].dims)
            which = i;
    if (lib && which < 0)
        cfail(&c, GL_ERR_INPUT, "reference_library",
              "must be {\"sgemm\": [M, N, K]}, {\"gemm_f16\": [M, N, K]}, "
              "{\"cub_reduce_sum\": [n]} or {\"cub_exclusive_sum\": [n]}");
    for (int d = 0; which >= 0 && d < libs[which].dims; d++) {
        num n;
        char p[48];
        const int gemm = libs[which].dims == 3;
        const int64_t max = gemm ? 1 << 20 : INT32_MAX;
        snprintf(p, sizeof p, "reference_library.%s[%d]", libs[which].name, d);
        if (!get_num(&c, cJSON_GetArrayItem(lib->child, d), p, &n))
            continue;
        if (n.is_float || n.neg || n.mag == 0 || n.mag > (uint64_t)max)
            cfail(&c, GL_ERR_INPUT, p, "must be an integer from 1 to %lld", (long long)max);
        else if (gemm)
            out->ref_sgemm[d] = (int64_t)n.mag, out->ref_gemm_f16 = which == 3;
        else {
            out->ref_cub = libs[which].cub;
            out->ref_cub_n = (int64_t)n.mag;
        }
    }

    const cJSON *args = cJSON_GetObjectItemCaseSensitive(json, "args");
    if (args && !cJSON_IsArray(args)) {
        cfail(&c, GL_ERR_INPUT, "args", "must be an array, not %s", json_kind(args));
    } else if (args) {
        int n = cJSON_GetArraySize(args);
        out->args = calloc(n ? (size_t)n : 1, sizeof *out->args);
        if (!out->args) {
            cfail(&c, GL_ERR_NOMEM, "args", "out of memory");
        } else {
            out->nargs = n;
            int i = 0;
            for (const cJSON *a = args->child; a; a = a->next, i++)
                parse_arg(&c, a, i, out);
        }
    }

done:
    if (c.nerr) {
        spec_free(out);
        return c.status;
    }
    return GL_OK;
}

/* Line and column (from 1) of pos in text. */
static void line_col(const char *text, const char *pos, int *line, int *col)
{
    *line = 1;
    *col = 1;
    for (const char *p = text; p < pos && *p; p++) {
        if (*p == '\n') {
            (*line)++;
            *col = 1;
        } else {
            (*col)++;
        }
    }
}

gl_status spec_load_file(const char *path, gl_spec *out, gl_error *err)
{
    memset(out, 0, sizeof *out);
    size_t len;
    char *text = gl_read_file(path, &len, err);
    if (!text)
        return err ? err->status : GL_ERR_INPUT;
    const char *end = NULL;
    /* return_parse_end is where cJSON stopped, the same as cJSON_GetErrorPtr() but not
     * a global. Requiring the NUL catches trailing garbage. */
    cJSON *json = cJSON_ParseWithOpts(text, &end, 1);
    if (!json) {
        int line, col;
        if (!end)
            end = text;
        if (end > text + len)
            end = text + len;
        line_col(text, end, &line, &col);
        /* cJSON often stops just past the offending character: show the line up to
         * where it stopped and a little after. */
        const char *ls = end, *le = end;
        while (ls > text && ls[-1] != '\n' && end - ls < 32)
            ls--;
        while (*ls == ' ' || *ls == '\t')
            ls++;
        while (*le && *le != '\n' && le - end < 8)
            le++;
        char near[48];
        size_t k = 0;
        for (const char *p = ls; p < le && k < sizeof near - 1; p++)
            near[k++] = isprint((unsigned char)*p) ? *p : '?';
        while (k > 0 && near[k - 1] == ' ')
            k--;
        near[k] = '\0';
        gl_status st;
        if (k == 0 && strspn(end, " \t\r\n") == strlen(end))
            st = gl_fail(err, GL_ERR_INPUT, "%s:%d:%d: malformed JSON: unexpected end of file",
                         path, line, col);
        else
            st = gl_fail(err, GL_ERR_INPUT, "%s:%d:%d: malformed JSON near '%s'", path, line, col,
                         near);
        free(text);
        return st;
    }
    free(text);
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, (size_t)(slash - path) + (slash == path)) : strdup(".");
    gl_status st;
    if (!dir)
        st = gl_fail(err, GL_ERR_NOMEM, "out of memory");
    else
        st = spec_from_json(json, path, dir, NULL, out, err);
    free(dir);
    cJSON_Delete(json);
    return st;
}

void spec_free(gl_spec *s)
{
    if (!s)
        return;
    free(s->file);
    free(s->source);
    free(s->kernel);
    for (int i = 0; i < s->nargs; i++) {
        free(s->args[i].name);
        free(s->args[i].init.values);
    }
    free(s->args);
    memset(s, 0, sizeof *s);
}

bool spec_eval(const char *expr, const gl_vars *vars, int64_t *out, char *msg, size_t msglen)
{
    return spec_expr_eval(expr, vars, out, msg, msglen);
}

int spec_find_arg(const gl_spec *s, const char *name)
{
    for (int i = 0; i < s->nargs; i++)
        if (s->args[i].name && strcmp(s->args[i].name, name) == 0)
            return i;
    return -1;
}
