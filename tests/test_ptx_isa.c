/* test_ptx_isa.c — every PTX instruction of the PTX ISA's chapter 9.7 up to sm_90 runs on
 * the simulator: walks tests/isa/instructions.txt (one "@" line per instruction, its
 * "=" forms below it, "!" for the instructions left out and why), wraps each form in a
 * kernel (tests/isa/wrap_head.ptx, the form's body, tests/isa/wrap_tail.ptx), parses
 * and launches it as the other sim tests do, and compares thread 0's result with the
 * value the table states (worked out from the ISA's semantics, not from the
 * simulator). It fails naming every instruction the simulator refuses (does not parse,
 * or stops with "unsupported") or miscomputes, except those the table lists as gaps
 * ("~" lines, with the reason), whose forms must still be refused. tools/isa_gpu_check.sh
 * runs the same table on a GPU.
 *
 * test_every_cvt_row does the same for tests/isa/cvt.txt, every cvt form row by row (PTX
 * ISA §9.7.9.21 cvt, §9.7.9.22 cvt.pack: its header gives the format): all rows in one
 * kernel run by one thread, each row's result compared with its stated bits;
 * tools/cvt_gpu_check.sh runs the same rows on a GPU. test_every_nan_row runs
 * tests/isa/nan.txt the same way: which NaN each float arithmetic form returns, bits
 * recorded on an H200 (tools/nan_table.py, tools/cvt_gpu_check.sh --record), and
 * test_every_sfu_row tests/isa/sfu.txt: rcp, rsqrt, sqrt and ex2 .approx.f32 results
 * sampled from an H200's (tools/sfu_dump.cu); test_every_sincos_row
 * tests/isa/sfu_sincos.txt: sin and cos .approx.f32 the same way; test_every_half_sfu_input the f16 and bf16
 * forms of ex2 and tanh on all 2^16 inputs, and their .x2 forms, against an H200's
 * results of every input (tests/isa/sfu_half/). */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"
#include "tests/fixture.h"

#include <zlib.h>

#define ISA_DIR "tests/isa/"
#define OUT_WORDS 5 /* u64 slots per thread: %r0, %rd0, %f0, %fd0, %p0 */
#define SCRATCH_WORDS 64

/* The kernel around a form: its helper function (the call row calls it) and the entry,
 * whose parameters the head's @IN@/@OUT@/@SCR@/@SH@ name. */
static const char prologue[] =
    ".version 8.7\n.target sm_90\n.address_size 64\n"
    ".shared .align 16 .b8 isa_sh[2048];\n"
    ".func (.param .b32 isa_inc_r) isa_inc(.param .b32 isa_inc_x)\n{\n"
    "  .reg .b32 %t;\n  ld.param.b32 %t, [isa_inc_x];\n  add.u32 %t, %t, 1;\n"
    "  st.param.b32 [isa_inc_r], %t;\n  ret;\n}\n"
    ".visible .entry k(.param .u64 pout, .param .u64 pin, .param .u64 pscr)\n{\n"
    "  .reg .b64 %ai<4>;\n  ld.param.u64 %ai0, [pin];\n  ld.param.u64 %ai1, [pout];\n"
    "  ld.param.u64 %ai2, [pscr];\n  mov.u64 %ai3, isa_sh;\n  cvta.shared.u64 %ai3, %ai3;\n"
    "{\n";
static const char epilogue[] = "}\n  ret;\n}\n";

typedef struct text {
    char *p;
    size_t len, cap;
} text;

static void put(text *t, const char *s, size_t n)
{
    if (t->len + n + 1 > t->cap) {
        t->cap = (t->len + n + 1) * 2;
        t->p = realloc(t->p, t->cap);
        ck_assert_ptr_nonnull(t->p);
    }
    memcpy(t->p + t->len, s, n);
    t->len += n;
    t->p[t->len] = '\0';
}

static void puts_t(text *t, const char *s)
{
    put(t, s, strlen(s));
}

static void printf_t(text *t, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    put(t, buf, n < (int)sizeof buf ? (size_t)n : sizeof buf - 1);
}

/* s with the head's placeholders replaced by the entry's registers. */
static void put_wrapped(text *t, const char *s)
{
    static const char *const from[] = {"@IN@", "@OUT@", "@SCR@", "@SH@"};
    static const char *const to[] = {"%ai0", "%ai1", "%ai2", "%ai3"};
    while (*s) {
        int k = -1;
        for (int i = 0; i < 4 && k < 0; i++)
            if (!strncmp(s, from[i], strlen(from[i])))
                k = i;
        if (k >= 0) {
            puts_t(t, to[k]);
            s += strlen(from[k]);
        } else {
            put(t, s++, 1);
        }
    }
}

/* One "=" line: kind | threads | a | b | c | want | body. */
typedef struct form {
    char kind; /* r d f F p: the result compared; t: the launch must stop with a trap */
    unsigned threads;
    int cluster; /* threads "1c": launched in a thread block cluster of one CTA */
    uint64_t a, b, c, want, tol;
    const char *body;
} form;

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    char *e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
        *--e = '\0';
    return s;
}

/* Splits s at the first n-1 '|' into f[0..n-1] (the last keeps any further '|'). */
static int split(char *s, char **f, int n)
{
    int k = 0;
    while (k < n - 1) {
        char *bar = strchr(s, '|');
        if (!bar)
            break;
        *bar = '\0';
        f[k++] = trim(s);
        s = bar + 1;
    }
    f[k++] = trim(s);
    return k;
}

static int parse_u64(const char *s, uint64_t *v)
{
    char *end;
    int neg = *s == '-';
    *v = strtoull(neg ? s + 1 : s, &end, 0);
    if (neg)
        *v = (uint64_t)0 - *v;
    return end != s && *end == '\0';
}

/* The result thread 0 left for kind, from out (OUT_WORDS per thread). */
static uint64_t pick(const uint64_t *out, char kind)
{
    switch (kind) {
    case 'r': return out[0] & 0xffffffffu;
    case 'd': return out[1];
    case 'f': return out[2] & 0xffffffffu;
    case 'F': return out[3];
    default: return out[4] & 1;
    }
}

/* Runs one form; returns NULL when it gives the stated result, else why not (malloc'd). */
static char *run_form(const form *fm, const char *head, const char *tail, int *refused)
{
    text t = {0};
    puts_t(&t, prologue);
    put_wrapped(&t, head);
    puts_t(&t, fm->body);
    puts_t(&t, "\n");
    put_wrapped(&t, tail);
    puts_t(&t, epilogue);
    text why = {0};
    ptx_module_t *m = NULL;
    char *diag = NULL;
    *refused = 0;
    if (ptx_parse(t.p, t.len, "isa.ptx", &m, &diag) != SIM_OK) {
        *refused = 1;
        char *nl = diag ? strchr(diag, '\n') : NULL;
        if (nl)
            *nl = '\0';
        printf_t(&why, "refused: %s", diag ? diag : "parse failed");
        free(diag);
        free(t.p);
        return why.p;
    }
    free(diag);
    const sim_config cfg = {.cluster = {1, 1, 1}};
    sim_t *s = sim_new(fm->cluster ? &cfg : NULL);
    ck_assert_ptr_nonnull(s);
    uint64_t in[3] = {fm->a, fm->b, fm->c}, scr[SCRATCH_WORDS];
    uint64_t *out = calloc((size_t)fm->threads * OUT_WORDS, sizeof *out);
    ck_assert_ptr_nonnull(out);
    for (unsigned i = 0; i < SCRATCH_WORDS; i++)
        scr[i] = i;
    uint64_t din = 0, dout = 0, dscr = 0;
    const size_t outsz = (size_t)fm->threads * OUT_WORDS * sizeof *out;
    ck_assert_int_eq(sim_malloc(s, sizeof in, "in", &din), SIM_OK);
    ck_assert_int_eq(sim_malloc(s, outsz, "out", &dout), SIM_OK);
    ck_assert_int_eq(sim_malloc(s, sizeof scr, "scratch", &dscr), SIM_OK);
    sim_memcpy_htod(s, din, in, sizeof in);
    sim_memcpy_htod(s, dout, out, outsz);
    sim_memcpy_htod(s, dscr, scr, sizeof scr);
    void *params[] = {&dout, &din, &dscr};
    unsigned g[3] = {1, 1, 1}, b[3] = {fm->threads, 1, 1};
    sim_result res;
    sim_status st = sim_launch(s, m, "k", g, b, 0, params, &res);
    if (fm->kind == 't') {
        if (st == SIM_OK || res.fault.kind != SIM_FAULT_TRAP)
            printf_t(&why, "did not stop with a trap (%s)",
                     st == SIM_OK ? "completed" : res.fault.message);
    } else if (st != SIM_OK) {
        *refused = strstr(res.fault.message, "unsupported") != NULL;
        printf_t(&why, "%s: %s", *refused ? "refused" : "launch failed", res.fault.message);
    } else {
        sim_memcpy_dtoh(s, out, dout, outsz);
        uint64_t got = pick(out, fm->kind);
        uint64_t d = got > fm->want ? got - fm->want : fm->want - got;
        if (d > fm->tol)
            printf_t(&why, "miscomputed: got 0x%llx, want 0x%llx", (unsigned long long)got,
                     (unsigned long long)fm->want);
    }
    sim_result_free(&res);
    sim_free(s);
    ptx_module_free(m);
    free(out);
    free(t.p);
    return why.p;
}

START_TEST(test_every_instruction_runs)
{
    size_t n;
    char *table = fixture_read(ISA_DIR "instructions.txt", &n);
    char *head = fixture_read(ISA_DIR "wrap_head.ptx", &n);
    char *tail = fixture_read(ISA_DIR "wrap_tail.ptx", &n);
    ck_assert_msg(table && head && tail, "cannot read " ISA_DIR " (run tests from the repo root)");
    text report = {0};
    int ninsn = 0, nforms = 0, nexcluded = 0, nbad_insn = 0, nrefused_insn = 0, ngaps = 0;
    char insn[64] = "", section[32] = "";
    int insn_bad = 0, insn_refused = 0, insn_forms = 0, lineno = 0, insn_gap = 0;
    char *save = NULL;
    for (char *line = strtok_r(table, "\n", &save);; line = strtok_r(NULL, "\n", &save)) {
        /* close the previous instruction at its next "@", "!" or the end */
        if (insn[0] && (!line || line[0] == '@' || line[0] == '!' || line[0] == '~')) {
            ck_assert_msg(insn_forms > 0, "instructions.txt: '%s' has no form", insn);
            nbad_insn += insn_bad;
            nrefused_insn += insn_refused;
            insn[0] = '\0';
        }
        if (!line)
            break;
        lineno++;
        char *f[7];
        if (line[0] == '@' || line[0] == '~') {
            insn_gap = line[0] == '~';
            int k = split(line + 1, f, insn_gap ? 6 : 5);
            ck_assert_msg(k == (insn_gap ? 6 : 5), "instructions.txt: bad instruction line '%s'",
                          line);
            snprintf(insn, sizeof insn, "%s", f[0]);
            snprintf(section, sizeof section, "%s", f[1]);
            ninsn++;
            ngaps += insn_gap;
            insn_bad = insn_refused = insn_forms = 0;
        } else if (line[0] == '!') {
            ck_assert_msg(split(line + 1, f, 3) == 3, "instructions.txt: bad exclusion '%s'", line);
            nexcluded++;
        } else if (line[0] == '=') {
            ck_assert_msg(insn[0], "instructions.txt: a form before any instruction");
            ck_assert_msg(split(line + 1, f, 7) == 7, "instructions.txt: bad form '%s'", line);
            form fm = {0};
            fm.kind = f[0][0];
            fm.threads = (unsigned)atoi(f[1]);
            fm.cluster = strchr(f[1], 'c') != NULL;
            char *tilde = strchr(f[5], '~');
            if (tilde) {
                *tilde = '\0';
                ck_assert(parse_u64(trim(tilde + 1), &fm.tol));
            }
            ck_assert_msg(strchr("rdfFpt", fm.kind) && fm.kind &&
                              (fm.threads == 1 || fm.threads == 32) && parse_u64(f[2], &fm.a) &&
                              parse_u64(f[3], &fm.b) && parse_u64(f[4], &fm.c) &&
                              parse_u64(trim(f[5]), &fm.want),
                          "instructions.txt: bad fields in the form of %s: '%s'", insn, f[6]);
            fm.body = f[6];
            nforms++;
            insn_forms++;
            int refused;
            char *why = run_form(&fm, head, tail, &refused);
            if (insn_gap) { /* a known gap: it must still be refused */
                if (!refused) {
                    printf_t(&report, "  %s (PTX ISA %s) `%s`: listed as a gap (~) but %s\n", insn,
                             section, fm.body, why ? why : "runs right: make its line '@'");
                    insn_bad = 1;
                }
                free(why);
            } else if (why) {
                printf_t(&report, "  %s (PTX ISA %s) `%s`: %s\n", insn, section, fm.body, why);
                insn_bad = 1;
                insn_refused |= refused;
                free(why);
            }
        } else {
            ck_assert_msg(line[0] == '#' || trim(line)[0] == '\0',
                          "instructions.txt: unknown line '%s'", line);
        }
    }
    printf("%d instructions (%d forms), %d left out, %d known gaps; %d not right, %d of them "
           "refused\n",
           ninsn, nforms, nexcluded, ngaps, nbad_insn, nrefused_insn);
    ck_assert_msg(ninsn > 100, "instructions.txt lists only %d instructions", ninsn);
    if (report.p) /* Check's own message cannot hold the list */
        fputs(report.p, stdout);
    fflush(stdout);
    ck_assert_msg(nbad_insn == 0,
                  "%d of %d instructions are refused or miscomputed by the simulator (%d "
                  "refused; the forms are listed above)",
                  nbad_insn, ninsn, nrefused_insn);
    free(report.p);
    free(table);
    free(head);
    free(tail);
}
END_TEST

/* ---------------------------------------------------------------- tests/isa/cvt.txt */

/* One row's block: a, b, c (u64 at in + 24 i) into %aN/%bN/%cN (N = 8, 16, 32, 64: their
 * low bits), %dN zero, the row's instruction, %dN zero-extended to out[i] (the register
 * the instruction names; cvt.txt's header). */
static void put_cvt_row(text *t, unsigned i, const char *body)
{
    static const char *const res[] = {"mov.b64 %a64, %d64;", "cvt.u64.u32 %a64, %d32;",
                                      "cvt.u64.u16 %a64, %d16;", "cvt.u64.u8 %a64, %d8;"};
    const int k = strstr(body, "%d64")   ? 0
                  : strstr(body, "%d32") ? 1
                  : strstr(body, "%d16") ? 2
                                         : 3;
    puts_t(t, "{\n.reg .b8 %a8, %d8;\n.reg .b16 %a16, %b16, %c16, %d16;\n"
              ".reg .b32 %a32, %b32, %c32, %d32;\n.reg .b64 %a64, %b64, %c64, %d64;\n");
    static const char regs[] = "abc";
    for (int r = 0; r < 3; r++) {
        const char x = regs[r];
        printf_t(t,
                 "ld.global.u64 %%%c64, [%%ai0+%u];\ncvt.u32.u64 %%%c32, %%%c64;\n"
                 "cvt.u16.u64 %%%c16, %%%c64;\n",
                 x, 24 * i + 8 * (unsigned)r, x, x, x, x);
    }
    puts_t(t, "cvt.u8.u64 %a8, %a64;\nmov.b16 %d16, 0;\nmov.b32 %d32, 0;\nmov.b64 %d64, 0;\n"
              "cvt.u8.u16 %d8, %d16;\n");
    puts_t(t, body);
    printf_t(t, "\n%s\nst.global.u64 [%%ai1+%u], %%a64;\n}\n", res[k], 8 * i);
}

/* A module of one kernel k(out, in) running rows[0..n-1]'s bodies. */
static char *cvt_module(const char *const *bodies, unsigned n)
{
    text t = {0};
    puts_t(&t, ".version 8.7\n.target sm_90\n.address_size 64\n"
               ".visible .entry k(.param .u64 pout, .param .u64 pin)\n{\n"
               "  .reg .b64 %ai<2>;\n  ld.param.u64 %ai0, [pin];\n  ld.param.u64 %ai1, [pout];\n");
    for (unsigned i = 0; i < n; i++)
        put_cvt_row(&t, i, bodies[i]);
    puts_t(&t, "  ret;\n}\n");
    return t.p;
}

typedef struct cvt_row {
    int line;
    const char *status, *body;
    uint64_t in[3], want;
} cvt_row;

/* Whether got is right for an `order` row (nan.txt: an .f64 form with two different NaN
 * operands): any of its NaN operands made quiet, sign and payload kept. */
static int order_ok(const cvt_row *r, uint64_t got)
{
    if (strcmp(r->status, "order") != 0)
        return 0;
    for (int k = 0; k < 3; k++) {
        const uint64_t x = r->in[k];
        if (((x >> 52) & 0x7ff) == 0x7ff && (x & 0xfffffffffffffull) && got == (x | 1ull << 51))
            return 1;
    }
    return 0;
}

/* Runs every row of the table `name` in tests/isa/ (cvt.txt's layout) on the simulator:
 * each row's result must equal its want, each `!` form must be refused; at least
 * `min_rows` rows. */
static void run_row_table(const char *name, unsigned min_rows)
{
    size_t n;
    char path[256];
    snprintf(path, sizeof path, ISA_DIR "%s", name);
    char *table = fixture_read(path, &n);
    ck_assert_msg(table, "cannot read %s (run tests from the repo root)", path);
    cvt_row *rows = NULL;
    unsigned nrows = 0, cap = 0, nbad = 0, nrefused = 0;
    text report = {0};
    int lineno = 0;
    for (char *line = table, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        lineno++;
        if (line[0] == '!') { /* not PTX: must be refused */
            char *g[2];
            ck_assert_msg(split(line + 1, g, 2) == 2, "%s: bad line '%s'", name, line);
            char *src = cvt_module((const char *const *)&g[1], 1), *diag = NULL;
            ptx_module_t *m = NULL;
            if (ptx_parse(src, strlen(src), "cvt.ptx", &m, &diag) == SIM_OK) {
                printf_t(&report, "  %s:%d `%s`: accepted, but it is not PTX (ptxas: %s)\n", name,
                         lineno, g[1], g[0]);
                nbad++;
            }
            nrefused++;
            ptx_module_free(m);
            free(diag);
            free(src);
            continue;
        }
        if (line[0] != '=') {
            ck_assert_msg(line[0] == '#' || line[0] == '\0', "%s: unknown line '%s'", name, line);
            continue;
        }
        char *f[7];
        ck_assert_msg(split(line + 1, f, 7) == 7, "%s: bad row '%s'", name, line);
        if (nrows == cap) {
            cap = cap ? cap * 2 : 1024;
            rows = realloc(rows, cap * sizeof *rows);
            ck_assert_ptr_nonnull(rows);
        }
        cvt_row *r = &rows[nrows++];
        r->line = lineno;
        r->status = f[1];
        r->body = f[6];
        ck_assert_msg(parse_u64(f[2], &r->in[0]) && parse_u64(f[3], &r->in[1]) &&
                          parse_u64(f[4], &r->in[2]) && parse_u64(f[5], &r->want) &&
                          (!strcmp(f[1], "isa") || !strcmp(f[1], "unspec") ||
                           !strcmp(f[1], "gpu") || !strcmp(f[1], "order")),
                      "%s: bad fields in '%s'", name, f[6]);
    }
    ck_assert_msg(nrows >= min_rows, "%s has only %u rows", name, nrows);
    /* each row parsed alone first, so that a refused form is named */
    const char **ok = malloc(nrows * sizeof *ok);
    unsigned *okrow = malloc(nrows * sizeof *okrow), nok = 0;
    ck_assert(ok && okrow);
    for (unsigned i = 0; i < nrows; i++) {
        char *src = cvt_module(&rows[i].body, 1), *diag = NULL;
        ptx_module_t *m = NULL;
        if (ptx_parse(src, strlen(src), "cvt.ptx", &m, &diag) == SIM_OK) {
            ok[nok] = rows[i].body;
            okrow[nok++] = i;
        } else {
            char *nl = diag ? strchr(diag, '\n') : NULL;
            if (nl)
                *nl = '\0';
            printf_t(&report, "  %s:%d `%s`: refused: %s\n", name, rows[i].line, rows[i].body,
                     diag ? diag : "parse failed");
            nbad++;
        }
        ptx_module_free(m);
        free(diag);
        free(src);
    }
    /* in kernels of at most 2000 rows (the parser's limit on a function's registers) */
    sim_t *s = sim_new(NULL);
    ck_assert_ptr_nonnull(s);
    uint64_t *in = calloc((size_t)nok * 3 + 1, sizeof *in), *out = calloc(nok + 1, sizeof *out);
    ck_assert(in && out);
    for (unsigned i = 0; i < nok; i++)
        memcpy(&in[3 * i], rows[okrow[i]].in, sizeof rows[0].in);
    for (unsigned off = 0; off < nok; off += 2000) {
        const unsigned k = nok - off < 2000 ? nok - off : 2000;
        char *src = cvt_module(ok + off, k), *diag = NULL;
        ptx_module_t *m = NULL;
        ck_assert_msg(ptx_parse(src, strlen(src), "cvt.ptx", &m, &diag) == SIM_OK, "%s", diag);
        free(diag);
        uint64_t din = 0, dout = 0;
        ck_assert_int_eq(sim_malloc(s, ((size_t)k * 3 + 1) * 8, "in", &din), SIM_OK);
        ck_assert_int_eq(sim_malloc(s, ((size_t)k + 1) * 8, "out", &dout), SIM_OK);
        sim_memcpy_htod(s, din, in + 3 * (size_t)off, ((size_t)k * 3 + 1) * 8);
        sim_memcpy_htod(s, dout, out + off, ((size_t)k + 1) * 8);
        void *params[] = {&dout, &din};
        unsigned g[3] = {1, 1, 1}, b[3] = {1, 1, 1};
        sim_result res;
        sim_status st = sim_launch(s, m, "k", g, b, 0, params, &res);
        ck_assert_msg(st == SIM_OK, "the %s kernel stopped: %s", name, res.fault.message);
        sim_memcpy_dtoh(s, out + off, dout, ((size_t)k + 1) * 8);
        sim_result_free(&res);
        ptx_module_free(m);
        free(src);
    }
    for (unsigned i = 0; i < nok; i++) {
        const cvt_row *r = &rows[okrow[i]];
        if (out[i] != r->want && !order_ok(r, out[i])) {
            printf_t(&report,
                     "  %s:%d %s `%s` a=0x%llx b=0x%llx c=0x%llx: got 0x%llx, want 0x%llx\n", name,
                     r->line, r->status, r->body, (unsigned long long)r->in[0],
                     (unsigned long long)r->in[1], (unsigned long long)r->in[2],
                     (unsigned long long)out[i], (unsigned long long)r->want);
            nbad++;
        }
    }
    printf("%s: %u rows and %u forms that are not PTX; %u wrong\n", name, nrows, nrefused, nbad);
    if (report.p)
        fputs(report.p, stdout);
    fflush(stdout);
    ck_assert_msg(nbad == 0,
                  "%u of %u rows of %s and forms that are not PTX are wrong: refused, "
                  "miscomputed or accepted (listed above)",
                  nbad, nrows + nrefused, name);
    sim_free(s);
    free(report.p);
    free(in);
    free(out);
    free(ok);
    free(okrow);
    free(rows);
    free(table);
}

START_TEST(test_every_cvt_row)
{
    run_row_table("cvt.txt", 1000);
}
END_TEST

/* tests/isa/nan.txt: which NaN each float arithmetic form returns, as an H200 does. */
START_TEST(test_every_nan_row)
{
    run_row_table("nan.txt", 5000);
}
END_TEST

/* tests/isa/sfu.txt: rcp, rsqrt, sqrt and ex2 .approx.f32 bit for bit as an H200 gives
 * them (sim/sfu.h). */
START_TEST(test_every_sfu_row)
{
    run_row_table("sfu.txt", 2000);
}
END_TEST

/* tests/isa/sfu_sincos.txt: sin and cos .approx.f32 bit for bit as an H200 gives them
 * (sim/sfu.h sfu_sin, sfu_cos). */
START_TEST(test_every_sincos_row)
{
    run_row_table("sfu_sincos.txt", 700);
}
END_TEST

/* An H200's results of a half form over all 2^16 inputs, in input order (tools/
 * sfu_dump.cu: little-endian u16, gzip'd) into out. */
static void read_half_golden(const char *name, uint16_t *out)
{
    char path[256];
    snprintf(path, sizeof path, ISA_DIR "sfu_half/%s.u16.gz", name);
    gzFile f = gzopen(path, "rb");
    ck_assert_msg(f != NULL, "%s: cannot open", path);
    unsigned char b[2 * 65536];
    ck_assert_int_eq(gzread(f, b, sizeof b), (int)sizeof b);
    gzclose(f);
    for (unsigned i = 0; i < 65536; i++)
        out[i] = (uint16_t)(b[2 * i] | b[2 * i + 1] << 8);
}

/* ex2.approx.f16, ex2.approx.ftz.bf16, tanh.approx.f16 and tanh.approx.bf16 (PTX ISA
 * §9.7.4.9-10; sim/sfu.h) equal an H200 on every input: thread i of a 65536-thread
 * launch computes the form on i, and the .x2 form on the pair (i, i ^ 0x8001) (the other
 * half a different input, of the other sign), both halves checked. */
START_TEST(test_every_half_sfu_input)
{
    static const struct {
        const char *golden, *ins, *type;
    } forms[] = {{"ex2_f16", "ex2.approx", "f16"},
                 {"ex2_bf16", "ex2.approx.ftz", "bf16"},
                 {"tanh_f16", "tanh.approx", "f16"},
                 {"tanh_bf16", "tanh.approx", "bf16"}};
    static uint16_t gpu[65536];
    for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
        read_half_golden(forms[f].golden, gpu);
        char ptx[2048];
        snprintf(ptx, sizeof ptx,
                 ".version 8.0\n.target sm_90\n.address_size 64\n"
                 ".visible .entry k(.param .u64 out)\n{\n"
                 "  .reg .b32 %%r<9>;\n  .reg .b16 %%h<3>;\n  .reg .b64 %%rd<4>;\n"
                 "  mov.u32 %%r1, %%ctaid.x;\n  mov.u32 %%r2, %%ntid.x;\n"
                 "  mov.u32 %%r3, %%tid.x;\n  mad.lo.u32 %%r4, %%r1, %%r2, %%r3;\n"
                 "  cvt.u16.u32 %%h1, %%r4;\n  %s.%s %%h2, %%h1;\n"
                 "  xor.b32 %%r5, %%r4, 0x8001;\n  shl.b32 %%r6, %%r5, 16;\n"
                 "  or.b32 %%r6, %%r6, %%r4;\n  %s.%sx2 %%r7, %%r6;\n"
                 "  cvt.u32.u16 %%r8, %%h2;\n"
                 "  ld.param.u64 %%rd1, [out];\n  mul.wide.u32 %%rd2, %%r4, 8;\n"
                 "  add.u64 %%rd3, %%rd1, %%rd2;\n  st.global.v2.u32 [%%rd3], {%%r8, %%r7};\n"
                 "  ret;\n}\n",
                 forms[f].ins, forms[f].type, forms[f].ins, forms[f].type);
        ptx_module_t *m = NULL;
        char *diag = NULL;
        ck_assert_msg(ptx_parse(ptx, strlen(ptx), "half.ptx", &m, &diag) == SIM_OK, "%s: %s",
                      forms[f].golden, diag ? diag : "");
        free(diag);
        sim_t *s = sim_new(NULL);
        ck_assert_ptr_nonnull(s);
        uint64_t dout = 0;
        ck_assert_int_eq(sim_malloc(s, 65536 * 8, "out", &dout), SIM_OK);
        void *params[] = {&dout};
        unsigned g[3] = {256, 1, 1}, b[3] = {256, 1, 1};
        sim_result res;
        ck_assert_msg(sim_launch(s, m, "k", g, b, 0, params, &res) == SIM_OK, "%s: %s",
                      forms[f].golden, res.fault.message);
        sim_result_free(&res);
        uint32_t *out = malloc(65536 * 8);
        ck_assert_ptr_nonnull(out);
        sim_memcpy_dtoh(s, out, dout, 65536 * 8);
        unsigned differ = 0, first = 0;
        for (unsigned i = 0; i < 65536; i++) {
            const uint32_t pair = (uint32_t)gpu[i ^ 0x8001] << 16 | gpu[i];
            if ((out[2 * i] != gpu[i] || out[2 * i + 1] != pair) && !differ++)
                first = i;
        }
        ck_assert_msg(differ == 0,
                      "%s.%s: %u of 65536 inputs differ from the H200; first 0x%04x: got 0x%04x "
                      "(x2 0x%08x), the GPU 0x%04x (x2 0x%08x)",
                      forms[f].ins, forms[f].type, differ, first, out[2 * first],
                      out[2 * first + 1], gpu[first],
                      (uint32_t)gpu[first ^ 0x8001] << 16 | gpu[first]);
        free(out);
        sim_free(s);
        ptx_module_free(m);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("ptx_isa");
    TCase *tc = tcase_create("isa");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_every_instruction_runs);
    tcase_add_test(tc, test_every_cvt_row);
    tcase_add_test(tc, test_every_nan_row);
    tcase_add_test(tc, test_every_sfu_row);
    tcase_add_test(tc, test_every_sincos_row);
    tcase_add_test(tc, test_every_half_sfu_input);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int nf = srunner_ntests_failed(sr);
    srunner_free(sr);
    return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
