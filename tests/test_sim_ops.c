/* test_sim_ops.c — instruction semantics, one table row per case (STYLE.md "Tests as
 * data"): a few lines of PTX wrapped into a kernel by wrap_scalar()/wrap_warp(), the
 * inputs, and the expected bits. The expected values were computed independently of
 * the simulator (by hand from the PTX ISA, and with Python's exact arithmetic for
 * rounding cases); each row cites what it checks.
 *
 * Scalar rows: the kernel loads a, b, c (64-bit) into %rd1..%rd3 and their views %r1..%r3
 * (low 32 bits), %f1..%f3 (f32 bits of %r), %fd1..%fd3 (f64 bits of %rd), %p1..%p3
 * (value != 0) and %h1..%h3 (low 16 bits); the body leaves its result in %r0, %rd0, %f0,
 * %fd0 or %p0, picked by the row's kind ('r', 'd', 'f', 'F', 'p').
 *
 * Warp rows: 32 lanes (or fewer); %r1 = in[lane], %r2 = %laneid; results %r0 and %p0
 * (as 0/1) per lane are compared with want[] and wantp[] (wantp only when has_p). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/exec_async.h"
#include "sim/sim.h"

typedef struct op_case {
    const char *name;
    const char *body;
    char kind;
    uint64_t a, b, c;
    uint64_t want;
    uint64_t ulp; /* 0: bit-exact; else the allowed distance in f32/f64 ulps */
} op_case;

static const char scalar_head[] =
    ".version 8.1\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
    "  .reg .b32 %r<16>;\n  .reg .b64 %rd<16>;\n  .reg .f32 %f<16>;\n"
    "  .reg .f64 %fd<16>;\n  .reg .pred %p<8>;\n  .reg .b16 %h<8>;\n"
    "  ld.param.u64 %rd10, [in];\n  ld.param.u64 %rd11, [out];\n"
    "  ld.global.u64 %rd1, [%rd10];\n  ld.global.u64 %rd2, [%rd10+8];\n"
    "  ld.global.u64 %rd3, [%rd10+16];\n"
    "  cvt.u32.u64 %r1, %rd1;\n  cvt.u32.u64 %r2, %rd2;\n  cvt.u32.u64 %r3, %rd3;\n"
    "  mov.b32 %f1, %r1;\n  mov.b32 %f2, %r2;\n  mov.b32 %f3, %r3;\n"
    "  mov.b64 %fd1, %rd1;\n  mov.b64 %fd2, %rd2;\n  mov.b64 %fd3, %rd3;\n"
    "  setp.ne.u64 %p1, %rd1, 0;\n  setp.ne.u64 %p2, %rd2, 0;\n  setp.ne.u64 %p3, %rd3, 0;\n"
    "  cvt.u16.u64 %h1, %rd1;\n  cvt.u16.u64 %h2, %rd2;\n  cvt.u16.u64 %h3, %rd3;\n"
    "  mov.u32 %r0, 0;\n  mov.u64 %rd0, 0;\n  mov.f32 %f0, 0f00000000;\n"
    "  mov.f64 %fd0, 0d0000000000000000;\n  setp.ne.u32 %p0, 0, 0;\n";
static const char scalar_tail[] =
    "\n  st.global.u32 [%rd11], %r0;\n  st.global.u64 [%rd11+8], %rd0;\n"
    "  st.global.f32 [%rd11+16], %f0;\n  st.global.f64 [%rd11+24], %fd0;\n"
    "  selp.u32 %r9, 1, 0, %p0;\n  st.global.u32 [%rd11+32], %r9;\n  ret;\n}\n";

/* Runs body with inputs a, b, c; returns the result picked by kind, or fails. */
static uint64_t run_scalar(const op_case *oc)
{
    size_t n = strlen(scalar_head) + strlen(oc->body) + strlen(scalar_tail) + 1;
    char *text = malloc(n);
    ck_assert_ptr_nonnull(text);
    snprintf(text, n, "%s%s%s", scalar_head, oc->body, scalar_tail);
    ptx_module_t *m = NULL;
    char *diag = NULL;
    sim_status st = ptx_parse(text, strlen(text), oc->name, &m, &diag);
    ck_assert_msg(st == SIM_OK, "%s: parse failed:\n%s\n%s", oc->name, diag ? diag : "", text);
    free(diag);
    sim_t *s = sim_new(NULL);
    uint64_t in[3] = {oc->a, oc->b, oc->c}, out[5] = {0, 0, 0, 0, 0};
    uint64_t din = 0, dout = 0;
    ck_assert_int_eq(sim_malloc(s, sizeof in, "in", &din), SIM_OK);
    ck_assert_int_eq(sim_malloc(s, sizeof out, "out", &dout), SIM_OK);
    sim_memcpy_htod(s, din, in, sizeof in);
    sim_memcpy_htod(s, dout, out, sizeof out);
    void *params[] = {&dout, &din};
    unsigned g[3] = {1, 1, 1}, b[3] = {1, 1, 1};
    sim_result res;
    st = sim_launch(s, m, "k", g, b, 0, params, &res);
    ck_assert_msg(st == SIM_OK, "%s: launch failed: %s", oc->name, res.fault.message);
    sim_memcpy_dtoh(s, out, dout, sizeof out);
    sim_result_free(&res);
    sim_free(s);
    ptx_module_free(m);
    free(text);
    switch (oc->kind) {
    case 'r': return out[0] & 0xffffffffu;
    case 'd': return out[1];
    case 'f': return out[2] & 0xffffffffu;
    case 'F': return out[3];
    default: return out[4] & 1;
    }
}

static uint64_t ulp_dist(uint64_t x, uint64_t y, int is64)
{
    /* ordered integer representation of the float bits */
    int64_t a, b;
    if (is64) {
        a = (int64_t)x < 0 ? (int64_t)(0x8000000000000000ull - x) : (int64_t)x;
        b = (int64_t)y < 0 ? (int64_t)(0x8000000000000000ull - y) : (int64_t)y;
    } else {
        int32_t xa = (int32_t)(uint32_t)x, ya = (int32_t)(uint32_t)y;
        a = xa < 0 ? (int64_t)(int32_t)(0x80000000u - (uint32_t)xa) : xa;
        b = ya < 0 ? (int64_t)(int32_t)(0x80000000u - (uint32_t)ya) : ya;
    }
    return a > b ? (uint64_t)(a - b) : (uint64_t)(b - a);
}

static const op_case cases[] = {
    {"add.s32 wraps on overflow", "add.s32 %r0, %r1, %r2;", 'r', 0x7fffffffull, 0x1ull, 0x0ull,
     0x80000000ull, 0},
    {"sub.u32 wraps below zero", "sub.u32 %r0, %r1, %r2;", 'r', 0x1ull, 0x2ull, 0x0ull,
     0xffffffffull, 0},
    {"add.s16 on 16-bit registers", "add.s16 %h4, %h1, %h2; cvt.u32.u16 %r0, %h4;", 'r', 0x7fffull,
     0x1ull, 0x0ull, 0x8000ull, 0},
    {"mul.lo.s32 keeps the low half", "mul.lo.s32 %r0, %r1, %r2;", 'r', 0x10000ull, 0x10001ull,
     0x0ull, 0x10000ull, 0},
    {"mul.hi.s32 of negative operands", "mul.hi.s32 %r0, %r1, %r2;", 'r', 0xfffffffffffffffdull,
     0x40000000ull, 0x0ull, 0xffffffffull, 0},
    {"mul.hi.u32", "mul.hi.u32 %r0, %r1, %r2;", 'r', 0xffffffffull, 0xffffffffull, 0x0ull,
     0xfffffffeull, 0},
    {"mul.wide.s32 sign-extends", "mul.wide.s32 %rd0, %r1, %r2;", 'd', 0xfffffffffffffffeull,
     0x7fffffffull, 0x0ull, 0xffffffff00000002ull, 0},
    {"mul.wide.u32", "mul.wide.u32 %rd0, %r1, %r2;", 'd', 0xffffffffull, 0xffffffffull, 0x0ull,
     0xfffffffe00000001ull, 0},
    {"mul.hi.u64", "mul.hi.u64 %rd0, %rd1, %rd2;", 'd', 0xffffffffffffffffull, 0x3ull, 0x0ull,
     0x2ull, 0},
    {"mul.hi.s64 negative", "mul.hi.s64 %rd0, %rd1, %rd2;", 'd', 0xfffffffffffffffbull,
     0x4000000000000000ull, 0x0ull, 0xfffffffffffffffeull, 0},
    {"mul.lo.u64", "mul.lo.u64 %rd0, %rd1, %rd2;", 'd', 0x123456789ull, 0x987654321ull, 0x0ull,
     0xd77d742cce1833a9ull, 0},
    {"mad.lo.s32", "mad.lo.s32 %r0, %r1, %r2, %r3;", 'r', 0xfffffffffffffff9ull, 0x6ull, 0x64ull,
     0x3aull, 0},
    {"mad.hi.u32", "mad.hi.u32 %r0, %r1, %r2, %r3;", 'r', 0x80000000ull, 0x4ull, 0x5ull, 0x7ull, 0},
    {"mad.wide.u32 adds a 64-bit c", "mad.wide.u32 %rd0, %r1, %r2, %rd3;", 'd', 0xffffffffull,
     0x2ull, 0x10000000000ull, 0x101fffffffeull, 0},
    {"div.s32 truncates toward zero", "div.s32 %r0, %r1, %r2;", 'r', 0xfffffffffffffff9ull, 0x2ull,
     0x0ull, 0xfffffffdull, 0},
    {"div.u32", "div.u32 %r0, %r1, %r2;", 'r', 0xfffffff0ull, 0x10ull, 0x0ull, 0xfffffffull, 0},
    {"rem.s32 takes the dividend's sign", "rem.s32 %r0, %r1, %r2;", 'r', 0xfffffffffffffff9ull,
     0x3ull, 0x0ull, 0xffffffffull, 0},
    {"rem.u64", "rem.u64 %rd0, %rd1, %rd2;", 'd', 0xde0b6b3a7640007ull, 0x3b9aca00ull, 0x0ull,
     0x7ull, 0},
    {"div.s64 negative", "div.s64 %rd0, %rd1, %rd2;", 'd', 0xfffc72815b398000ull, 0x7ull, 0x0ull,
     0xffff7e127abf124aull, 0},
    {"min.s32 signed", "min.s32 %r0, %r1, %r2;", 'r', 0xffffffffffffffffull, 0x1ull, 0x0ull,
     0xffffffffull, 0},
    {"min.u32 unsigned", "min.u32 %r0, %r1, %r2;", 'r', 0xffffffffffffffffull, 0x1ull, 0x0ull,
     0x1ull, 0},
    {"max.s64", "max.s64 %rd0, %rd1, %rd2;", 'd', 0xffffff0000000000ull, 0xffffffffffffffffull,
     0x0ull, 0xffffffffffffffffull, 0},
    {"max.u16", "max.u16 %h4, %h1, %h2; cvt.u32.u16 %r0, %h4;", 'r', 0xffffull, 0x1ull, 0x0ull,
     0xffffull, 0},
    {"abs.s32 of INT_MIN stays INT_MIN", "abs.s32 %r0, %r1;", 'r', 0x80000000ull, 0x0ull, 0x0ull,
     0x80000000ull, 0},
    {"abs.s32", "abs.s32 %r0, %r1;", 'r', 0xffffffffffffffd6ull, 0x0ull, 0x0ull, 0x2aull, 0},
    {"neg.s32", "neg.s32 %r0, %r1;", 'r', 0x5ull, 0x0ull, 0x0ull, 0xfffffffbull, 0},
    {"neg.s64", "neg.s64 %rd0, %rd1;", 'd', 0x5ull, 0x0ull, 0x0ull, 0xfffffffffffffffbull, 0},
    {"and.b32", "and.b32 %r0, %r1, %r2;", 'r', 0xf0f0ull, 0xff00ull, 0x0ull, 0xf000ull, 0},
    {"or.b32", "or.b32 %r0, %r1, %r2;", 'r', 0xf0f0ull, 0xff00ull, 0x0ull, 0xfff0ull, 0},
    {"xor.b64", "xor.b64 %rd0, %rd1, %rd2;", 'd', 0xffffffffffffffffull, 0xffull, 0x0ull,
     0xffffffffffffff00ull, 0},
    {"not.b32", "not.b32 %r0, %r1;", 'r', 0xf0f0f0full, 0x0ull, 0x0ull, 0xf0f0f0f0ull, 0},
    {"cnot.b32 of zero is one", "cnot.b32 %r0, %r1;", 'r', 0x0ull, 0x0ull, 0x0ull, 0x1ull, 0},
    {"cnot.b32 of nonzero is zero", "cnot.b32 %r0, %r1;", 'r', 0x7ull, 0x0ull, 0x0ull, 0x0ull, 0},
    {"shl.b32 by 33 gives 0", "shl.b32 %r0, %r1, %r2;", 'r', 0x1ull, 0x21ull, 0x0ull, 0x0ull, 0},
    {"shl.b64", "shl.b64 %rd0, %rd1, %r2;", 'd', 0x1ull, 0x3full, 0x0ull, 0x8000000000000000ull, 0},
    {"shr.s32 by 40 fills with the sign", "shr.s32 %r0, %r1, %r2;", 'r', 0xfffffffffffffff8ull,
     0x28ull, 0x0ull, 0xffffffffull, 0},
    {"shr.s32 arithmetic", "shr.s32 %r0, %r1, %r2;", 'r', 0xfffffffffffffff8ull, 0x1ull, 0x0ull,
     0xfffffffcull, 0},
    {"shr.u32 logical", "shr.u32 %r0, %r1, %r2;", 'r', 0x80000000ull, 0x1full, 0x0ull, 0x1ull, 0},
    {"shr.b32 is logical", "shr.b32 %r0, %r1, %r2;", 'r', 0x80000000ull, 0x4ull, 0x0ull,
     0x8000000ull, 0},
    {"bfe.u32", "bfe.u32 %r0, %r1, 8, 8;", 'r', 0x12345678ull, 0x0ull, 0x0ull, 0x56ull, 0},
    {"bfe.s32 sign-extends the field", "bfe.s32 %r0, %r1, 4, 4;", 'r', 0xf0ull, 0x0ull, 0x0ull,
     0xffffffffull, 0},
    {"bfe.u32 len 0 gives 0", "bfe.u32 %r0, %r1, 4, 0;", 'r', 0xffffffffull, 0x0ull, 0x0ull, 0x0ull,
     0},
    {"bfe.s32 pos past the width gives the sign", "bfe.s32 %r0, %r1, 40, 4;", 'r', 0x80000000ull,
     0x0ull, 0x0ull, 0xffffffffull, 0},
    {"bfe.u64", "bfe.u64 %rd0, %rd1, 32, 16;", 'd', 0xabcd00000000ull, 0x0ull, 0x0ull, 0xabcdull,
     0},
    {"bfi.b32 inserts a field", "bfi.b32 %r0, %r1, %r2, 8, 8;", 'r', 0xabull, 0x11111111ull, 0x0ull,
     0x1111ab11ull, 0},
    {"bfi.b32 len past the width is clamped", "bfi.b32 %r0, %r1, %r2, 28, 8;", 'r', 0xffull, 0x0ull,
     0x0ull, 0xf0000000ull, 0},
    {"brev.b32", "brev.b32 %r0, %r1;", 'r', 0x1ull, 0x0ull, 0x0ull, 0x80000000ull, 0},
    {"brev.b64", "brev.b64 %rd0, %rd1;", 'd', 0x3ull, 0x0ull, 0x0ull, 0xc000000000000000ull, 0},
    {"popc.b32", "popc.b32 %r0, %r1;", 'r', 0xf0f0f0f1ull, 0x0ull, 0x0ull, 0x11ull, 0},
    {"popc.b64 gives a u32", "popc.b64 %r0, %rd1;", 'r', 0xffffffffffffffffull, 0x0ull, 0x0ull,
     0x40ull, 0},
    {"clz.b32 of zero is 32", "clz.b32 %r0, %r1;", 'r', 0x0ull, 0x0ull, 0x0ull, 0x20ull, 0},
    {"clz.b32", "clz.b32 %r0, %r1;", 'r', 0x10000ull, 0x0ull, 0x0ull, 0xfull, 0},
    {"clz.b64", "clz.b64 %r0, %rd1;", 'r', 0x1ull, 0x0ull, 0x0ull, 0x3full, 0},
    {"bfind.u32", "bfind.u32 %r0, %r1;", 'r', 0x10010ull, 0x0ull, 0x0ull, 0x10ull, 0},
    {"bfind.u32 of zero is 0xffffffff", "bfind.u32 %r0, %r1;", 'r', 0x0ull, 0x0ull, 0x0ull,
     0xffffffffull, 0},
    {"bfind.s32 of a negative finds the top 0 bit", "bfind.s32 %r0, %r1;", 'r',
     0xffffffffffffff00ull, 0x0ull, 0x0ull, 0x7ull, 0},
    {"bfind.shiftamt.u32", "bfind.shiftamt.u32 %r0, %r1;", 'r', 0x10010ull, 0x0ull, 0x0ull, 0xfull,
     0},
    {"bfind.u64", "bfind.u64 %r0, %rd1;", 'r', 0x10000000000ull, 0x0ull, 0x0ull, 0x28ull, 0},
    {"prmt.b32 default selects bytes", "prmt.b32 %r0, %r1, %r2, %r3;", 'r', 0x44332211ull,
     0x88776655ull, 0x7531ull, 0x88664422ull, 0},
    {"prmt.b32 default replicates the sign (msb of selector nibble)",
     "prmt.b32 %r0, %r1, %r2, %r3;", 'r', 0x44332211ull, 0x88776655ull, 0x8f0eull, 0xff1100ull, 0},
    {"prmt.b32.f4e selector 1", "prmt.b32.f4e %r0, %r1, %r2, %r3;", 'r', 0x44332211ull,
     0x88776655ull, 0x1ull, 0x55443322ull, 0},
    {"prmt.b32.f4e selector 3", "prmt.b32.f4e %r0, %r1, %r2, %r3;", 'r', 0x44332211ull,
     0x88776655ull, 0x3ull, 0x77665544ull, 0},
    {"prmt.b32.b4e selector 1", "prmt.b32.b4e %r0, %r1, %r2, %r3;", 'r', 0x44332211ull,
     0x88776655ull, 0x1ull, 0x77881122ull, 0},
    {"prmt.b32.b4e selector 3", "prmt.b32.b4e %r0, %r1, %r2, %r3;", 'r', 0x44332211ull,
     0x88776655ull, 0x3ull, 0x11223344ull, 0},
    {"prmt.b32.rc8 selector 1", "prmt.b32.rc8 %r0, %r1, %r2, %r3;", 'r', 0x44332211ull,
     0x88776655ull, 0x1ull, 0x22222222ull, 0},
    {"prmt.b32.rc8 selector 3", "prmt.b32.rc8 %r0, %r1, %r2, %r3;", 'r', 0x44332211ull,
     0x88776655ull, 0x3ull, 0x44444444ull, 0},
    {"prmt.b32.ecl selector 1", "prmt.b32.ecl %r0, %r1, %r2, %r3;", 'r', 0x44332211ull,
     0x88776655ull, 0x1ull, 0x44332222ull, 0},
    {"prmt.b32.ecl selector 3", "prmt.b32.ecl %r0, %r1, %r2, %r3;", 'r', 0x44332211ull,
     0x88776655ull, 0x3ull, 0x44444444ull, 0},
    {"prmt.b32.ecr selector 1", "prmt.b32.ecr %r0, %r1, %r2, %r3;", 'r', 0x44332211ull,
     0x88776655ull, 0x1ull, 0x22222211ull, 0},
    {"prmt.b32.ecr selector 3", "prmt.b32.ecr %r0, %r1, %r2, %r3;", 'r', 0x44332211ull,
     0x88776655ull, 0x3ull, 0x44332211ull, 0},
    {"prmt.b32.rc16 selector 1", "prmt.b32.rc16 %r0, %r1, %r2, %r3;", 'r', 0x44332211ull,
     0x88776655ull, 0x1ull, 0x44334433ull, 0},
    {"prmt.b32.rc16 selector 3", "prmt.b32.rc16 %r0, %r1, %r2, %r3;", 'r', 0x44332211ull,
     0x88776655ull, 0x3ull, 0x44334433ull, 0},
    {"shf.l.wrap.b32", "shf.l.wrap.b32 %r0, %r1, %r2, %r3;", 'r', 0x80000001ull, 0x3ull, 0x24ull,
     0x38ull, 0},
    {"shf.r.clamp.b32 by 40 gives b", "shf.r.clamp.b32 %r0, %r1, %r2, %r3;", 'r', 0x11111111ull,
     0x22222222ull, 0x28ull, 0x22222222ull, 0},
    {"shf.r.wrap.b32", "shf.r.wrap.b32 %r0, %r1, %r2, %r3;", 'r', 0xffull, 0xfull, 0x4ull,
     0xf000000full, 0},
    {"lop3.b32 0x96 is a^b^c", "lop3.b32 %r0, %r1, %r2, %r3, 0x96;", 'r', 0xff00ff00ull,
     0xf0f0f0f0ull, 0xccccccccull, 0xc33cc33cull, 0},
    {"lop3.b32 0xe8 is majority", "lop3.b32 %r0, %r1, %r2, %r3, 0xe8;", 'r', 0xff00ff00ull,
     0xf0f0f0f0ull, 0xccccccccull, 0xfcc0fcc0ull, 0},
    {"lop3.b32 0x80 is a&b&c", "lop3.b32 %r0, %r1, %r2, %r3, 0x80;", 'r', 0xff00ff00ull,
     0xf0f0f0f0ull, 0xccccccccull, 0xc000c000ull, 0},
    {"sad.u32", "sad.u32 %r0, %r1, %r2, %r3;", 'r', 0x3ull, 0xaull, 0x64ull, 0x6bull, 0},
    {"sad.s32", "sad.s32 %r0, %r1, %r2, %r3;", 'r', 0xfffffffffffffffdull, 0xaull, 0x64ull, 0x71ull,
     0},
    {"mul24.lo.s32 uses 24-bit operands", "mul24.lo.s32 %r0, %r1, %r2;", 'r', 0x1800000ull, 0x2ull,
     0x0ull, 0xff000000ull, 0},
    {"mul24.hi.u32 gives bits 47..16", "mul24.hi.u32 %r0, %r1, %r2;", 'r', 0xffffffull, 0xffffffull,
     0x0ull, 0xfffffe00ull, 0},
    {"mad24.lo.u32", "mad24.lo.u32 %r0, %r1, %r2, %r3;", 'r', 0x3e8ull, 0x3e8ull, 0x7ull,
     0xf4247ull, 0},
    {"add.cc/addc.u32 chain a 64-bit add",
     "add.cc.u32 %r4, %r1, %r2; addc.u32 %r5, %r3, 0; mov.b64 %rd0, {%r4, %r5};", 'd',
     0xffffffffull, 0x1ull, 0x5ull, 0x600000000ull, 0},
    {"sub.cc/subc.u32 borrow",
     "sub.cc.u32 %r4, %r1, %r2; subc.u32 %r5, %r3, 0; mov.b64 %rd0, {%r4, %r5};", 'd', 0x0ull,
     0x1ull, 0x5ull, 0x4ffffffffull, 0},
    {"mad.lo.cc/madc.hi.u32 chain",
     "mad.lo.cc.u32 %r4, %r1, %r2, %r3; madc.hi.u32 %r5, %r1, %r2, 0; mov.b64 %rd0, {%r4, %r5};",
     'd', 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffff00000000ull, 0},
    {"addc.cc.u64 carry out", "add.cc.u64 %rd4, %rd1, %rd2; addc.u64 %rd0, 0, 0;", 'd',
     0xffffffffffffffffull, 0x1ull, 0x0ull, 0x1ull, 0},
    {"dp4a.s32.s32", "dp4a.s32.s32 %r0, %r1, %r2, %r3;", 'r', 0xff02fe01ull, 0x7f80ff03ull, 0xaull,
     0xfffffe90ull, 0},
    {"dp4a.u32.u32", "dp4a.u32.u32 %r0, %r1, %r2, %r3;", 'r', 0xff02fe01ull, 0x7f80ff03ull, 0xaull,
     0x17c90ull, 0},
    {"and.pred", "and.pred %p0, %p1, %p2;", 'p', 0x1ull, 0x0ull, 0x0ull, 0x0ull, 0},
    {"or.pred", "or.pred %p0, %p1, %p2;", 'p', 0x1ull, 0x0ull, 0x0ull, 0x1ull, 0},
    {"xor.pred", "xor.pred %p0, %p1, %p2;", 'p', 0x1ull, 0x1ull, 0x0ull, 0x0ull, 0},
    {"not.pred", "not.pred %p0, %p1;", 'p', 0x0ull, 0x0ull, 0x0ull, 0x1ull, 0},
    {"setp.lt.s32 is signed", "setp.lt.s32 %p0, %r1, %r2;", 'p', 0xffffffffffffffffull, 0x0ull,
     0x0ull, 0x1ull, 0},
    {"setp.lo.u32 is unsigned", "setp.lo.u32 %p0, %r1, %r2;", 'p', 0xffffffffffffffffull, 0x0ull,
     0x0ull, 0x0ull, 0},
    {"setp.hs.u64", "setp.hs.u64 %p0, %rd1, %rd2;", 'p', 0x5ull, 0x5ull, 0x0ull, 0x1ull, 0},
    {"setp.ne.b16", "setp.ne.b16 %p0, %h1, %h2;", 'p', 0x10001ull, 0x1ull, 0x0ull, 0x0ull, 0},
    {"setp.eq.f32 1 vs 2", "setp.eq.f32 %p0, %f1, %f2;", 'p', 0x3f800000ull, 0x40000000ull, 0x0ull,
     0x0ull, 0},
    {"setp.eq.f32 with a NaN", "setp.eq.f32 %p0, %f1, %f2;", 'p', 0x3f800000ull, 0x7fc00000ull,
     0x0ull, 0x0ull, 0},
    {"setp.ne.f32 1 vs 2", "setp.ne.f32 %p0, %f1, %f2;", 'p', 0x3f800000ull, 0x40000000ull, 0x0ull,
     0x1ull, 0},
    {"setp.ne.f32 with a NaN", "setp.ne.f32 %p0, %f1, %f2;", 'p', 0x3f800000ull, 0x7fc00000ull,
     0x0ull, 0x0ull, 0},
    {"setp.lt.f32 1 vs 2", "setp.lt.f32 %p0, %f1, %f2;", 'p', 0x3f800000ull, 0x40000000ull, 0x0ull,
     0x1ull, 0},
    {"setp.lt.f32 with a NaN", "setp.lt.f32 %p0, %f1, %f2;", 'p', 0x3f800000ull, 0x7fc00000ull,
     0x0ull, 0x0ull, 0},
    {"setp.le.f32 1 vs 2", "setp.le.f32 %p0, %f1, %f2;", 'p', 0x3f800000ull, 0x40000000ull, 0x0ull,
     0x1ull, 0},
    {"setp.le.f32 with a NaN", "setp.le.f32 %p0, %f1, %f2;", 'p', 0x3f800000ull, 0x7fc00000ull,
     0x0ull, 0x0ull, 0},
    {"setp.gt.f32 1 vs 2", "setp.gt.f32 %p0, %f1, %f2;", 'p', 0x3f800000ull, 0x40000000ull, 0x0ull,
     0x0ull, 0},
    {"setp.gt.f32 with a NaN", "setp.gt.f32 %p0, %f1, %f2;", 'p', 0x3f800000ull, 0x7fc00000ull,
     0x0ull, 0x0ull, 0},
    {"setp.ge.f32 1 vs 2", "setp.ge.f32 %p0, %f1, %f2;", 'p', 0x3f800000ull, 0x40000000ull, 0x0ull,
     0x0ull, 0},
    {"setp.ge.f32 with a NaN", "setp.ge.f32 %p0, %f1, %f2;", 'p', 0x3f800000ull, 0x7fc00000ull,
     0x0ull, 0x0ull, 0},
    {"setp.equ.f32 1 vs 2", "setp.equ.f32 %p0, %f1, %f2;", 'p', 0x3f800000ull, 0x40000000ull,
     0x0ull, 0x0ull, 0},
    {"setp.equ.f32 with a NaN", "setp.equ.f32 %p0, %f1, %f2;", 'p', 0x3f800000ull, 0x7fc00000ull,
     0x0ull, 0x1ull, 0},
    {"setp.neu.f32 1 vs 2", "setp.neu.f32 %p0, %f1, %f2;", 'p', 0x3f800000ull, 0x40000000ull,
     0x0ull, 0x1ull, 0},
    {"setp.neu.f32 with a NaN", "setp.neu.f32 %p0, %f1, %f2;", 'p', 0x3f800000ull, 0x7fc00000ull,
     0x0ull, 0x1ull, 0},
    {"setp.ltu.f32 1 vs 2", "setp.ltu.f32 %p0, %f1, %f2;", 'p', 0x3f800000ull, 0x40000000ull,
     0x0ull, 0x1ull, 0},
    {"setp.ltu.f32 with a NaN", "setp.ltu.f32 %p0, %f1, %f2;", 'p', 0x3f800000ull, 0x7fc00000ull,
     0x0ull, 0x1ull, 0},
    {"setp.leu.f32 1 vs 2", "setp.leu.f32 %p0, %f1, %f2;", 'p', 0x3f800000ull, 0x40000000ull,
     0x0ull, 0x1ull, 0},
    {"setp.leu.f32 with a NaN", "setp.leu.f32 %p0, %f1, %f2;", 'p', 0x3f800000ull, 0x7fc00000ull,
     0x0ull, 0x1ull, 0},
    {"setp.gtu.f32 1 vs 2", "setp.gtu.f32 %p0, %f1, %f2;", 'p', 0x3f800000ull, 0x40000000ull,
     0x0ull, 0x0ull, 0},
    {"setp.gtu.f32 with a NaN", "setp.gtu.f32 %p0, %f1, %f2;", 'p', 0x3f800000ull, 0x7fc00000ull,
     0x0ull, 0x1ull, 0},
    {"setp.geu.f32 1 vs 2", "setp.geu.f32 %p0, %f1, %f2;", 'p', 0x3f800000ull, 0x40000000ull,
     0x0ull, 0x0ull, 0},
    {"setp.geu.f32 with a NaN", "setp.geu.f32 %p0, %f1, %f2;", 'p', 0x3f800000ull, 0x7fc00000ull,
     0x0ull, 0x1ull, 0},
    {"setp.num.f32 1 vs 2", "setp.num.f32 %p0, %f1, %f2;", 'p', 0x3f800000ull, 0x40000000ull,
     0x0ull, 0x1ull, 0},
    {"setp.num.f32 with a NaN", "setp.num.f32 %p0, %f1, %f2;", 'p', 0x3f800000ull, 0x7fc00000ull,
     0x0ull, 0x0ull, 0},
    {"setp.nan.f32 1 vs 2", "setp.nan.f32 %p0, %f1, %f2;", 'p', 0x3f800000ull, 0x40000000ull,
     0x0ull, 0x0ull, 0},
    {"setp.nan.f32 with a NaN", "setp.nan.f32 %p0, %f1, %f2;", 'p', 0x3f800000ull, 0x7fc00000ull,
     0x0ull, 0x1ull, 0},
    {"setp.lt.and.s32 combines with c", "setp.lt.and.s32 %p0, %r1, %r2, %p3;", 'p', 0x1ull, 0x2ull,
     0x0ull, 0x0ull, 0},
    {"setp.lt.or.s32 combines with c", "setp.lt.or.s32 %p0, %r1, %r2, %p3;", 'p', 0x3ull, 0x2ull,
     0x1ull, 0x1ull, 0},
    {"setp.lt.xor.s32 with !c", "setp.lt.xor.s32 %p0, %r1, %r2, !%p3;", 'p', 0x1ull, 0x2ull, 0x1ull,
     0x1ull, 0},
    {"setp p|q writes the complement to q", "setp.gt.s32 %p4|%p0, %r1, %r2;", 'p', 0x1ull, 0x2ull,
     0x0ull, 0x1ull, 0},
    {"setp p|q with .and: q = !(a<b) and c", "setp.lt.and.s32 %p4|%p0, %r1, %r2, %p3;", 'p', 0x3ull,
     0x2ull, 0x1ull, 0x1ull, 0},
    {"setp.gt.f64", "setp.gt.f64 %p0, %fd1, %fd2;", 'p', 0x4004000000000000ull,
     0xbff0000000000000ull, 0x0ull, 0x1ull, 0},
    {"set.lt.u32.s32 gives all ones", "set.lt.u32.s32 %r0, %r1, %r2;", 'r', 0xffffffffffffffffull,
     0x0ull, 0x0ull, 0xffffffffull, 0},
    {"set.eq.f32.f32 gives 1.0f", "set.eq.f32.f32 %f0, %f1, %f2;", 'f', 0x3f800000ull,
     0x3f800000ull, 0x0ull, 0x3f800000ull, 0},
    {"set.nan.u32.f32", "set.nan.u32.f32 %r0, %f1, %f2;", 'r', 0x3f800000ull, 0x7fc00000ull, 0x0ull,
     0xffffffffull, 0},
    {"set.gt.and.u32.s32", "set.gt.and.u32.s32 %r0, %r1, %r2, %p3;", 'r', 0x5ull, 0x2ull, 0x0ull,
     0x0ull, 0},
    {"selp.b32", "selp.b32 %r0, %r1, %r2, %p3;", 'r', 0xbull, 0x16ull, 0x0ull, 0x16ull, 0},
    {"selp.f64", "selp.f64 %fd0, %fd1, %fd2, %p3;", 'F', 0x3ff8000000000000ull,
     0x4004000000000000ull, 0x1ull, 0x3ff8000000000000ull, 0},
    {"slct.s32 c >= 0 picks a", "slct.b32.s32 %r0, %r1, %r2, %r3;", 'r', 0x1ull, 0x2ull, 0x0ull,
     0x1ull, 0},
    {"slct.s32 c < 0 picks b", "slct.b32.s32 %r0, %r1, %r2, %r3;", 'r', 0x1ull, 0x2ull,
     0xfffffffffffffffbull, 0x2ull, 0},
    {"slct.f32 on -0.0 picks a", "slct.u32.f32 %r0, %r1, %r2, %f3;", 'r', 0x1ull, 0x2ull,
     0x80000000ull, 0x1ull, 0},
    {"add.f32 rounds to nearest", "add.f32 %f0, %f1, %f2;", 'f', 0x3f800000ull, 0x33c00000ull,
     0x0ull, 0x3f800001ull, 0},
    {"add.rz.f32 truncates", "add.rz.f32 %f0, %f1, %f2;", 'f', 0x3f800000ull, 0x33c00000ull, 0x0ull,
     0x3f800000ull, 0},
    {"add.rm.f32 of a negative", "add.rm.f32 %f0, %f1, %f2;", 'f', 0xbf800000ull, 0xb3000000ull,
     0x0ull, 0xbf800001ull, 0},
    {"add.rp.f32", "add.rp.f32 %f0, %f1, %f2;", 'f', 0x3f800000ull, 0x30800000ull, 0x0ull,
     0x3f800001ull, 0},
    {"sub.f32", "sub.f32 %f0, %f1, %f2;", 'f', 0x3fc00000ull, 0x3e800000ull, 0x0ull, 0x3fa00000ull,
     0},
    {"mul.rn.f32", "mul.rn.f32 %f0, %f1, %f2;", 'f', 0x3f8ccccdull, 0x3f8ccccdull, 0x0ull,
     0x3f9ae148ull, 0},
    {"mul.rz.f32", "mul.rz.f32 %f0, %f1, %f2;", 'f', 0x3f8ccccdull, 0x3f8ccccdull, 0x0ull,
     0x3f9ae148ull, 0},
    {"fma.rn.f32 rounds once", "fma.rn.f32 %f0, %f1, %f2, %f3;", 'f', 0x3f8ccccdull, 0x3fa66666ull,
     0xbfb70a3dull, 0x33051eb8ull, 0},
    {"fma.rz.f32", "fma.rz.f32 %f0, %f1, %f2, %f3;", 'f', 0x3f8ccccdull, 0x3fa66666ull,
     0xbfb70a3dull, 0x33051eb8ull, 0},
    {"mad.rn.f32 is fused", "mad.rn.f32 %f0, %f1, %f2, %f3;", 'f', 0x3f8ccccdull, 0x3fa66666ull,
     0xbfb70a3dull, 0x33051eb8ull, 0},
    {"fma.rn.f64", "fma.rn.f64 %fd0, %fd1, %fd2, %fd3;", 'F', 0x3fb999999999999aull,
     0x4024000000000000ull, 0xbff0000000000000ull, 0x3c90000000000000ull, 0},
    {"add.ftz.f32 flushes a subnormal input", "add.ftz.f32 %f0, %f1, %f2;", 'f', 0x1ull, 0x0ull,
     0x0ull, 0x0ull, 0},
    {"add.f32 keeps subnormals without .ftz", "add.f32 %f0, %f1, %f2;", 'f', 0x1ull, 0x0ull, 0x0ull,
     0x1ull, 0},
    {"mul.ftz.f32 flushes a subnormal result to signed zero", "mul.ftz.f32 %f0, %f1, %f2;", 'f',
     0x83800000ull, 0x3a800000ull, 0x0ull, 0x80000000ull, 0},
    {"add.sat.f32 clamps to 1", "add.sat.f32 %f0, %f1, %f2;", 'f', 0x3f400000ull, 0x3f000000ull,
     0x0ull, 0x3f800000ull, 0},
    {"mul.sat.f32 clamps negatives to 0", "mul.sat.f32 %f0, %f1, %f2;", 'f', 0xbf400000ull,
     0x3f000000ull, 0x0ull, 0x0ull, 0},
    {"add.sat.f32 of NaN is 0", "add.sat.f32 %f0, %f1, %f2;", 'f', 0x7fc00000ull, 0x3f800000ull,
     0x0ull, 0x0ull, 0},
    {"add.f32 NaN gives the canonical NaN", "add.f32 %f0, %f1, %f2;", 'f', 0xffc00001ull,
     0x3f800000ull, 0x0ull, 0x7fffffffull, 0},
    {"sub.f32 inf-inf gives the canonical NaN", "sub.f32 %f0, %f1, %f2;", 'f', 0x7f800000ull,
     0x7f800000ull, 0x0ull, 0x7fffffffull, 0},
    {"add.f64", "add.f64 %fd0, %fd1, %fd2;", 'F', 0x3fb999999999999aull, 0x3fc999999999999aull,
     0x0ull, 0x3fd3333333333334ull, 0},
    {"add.rz.f64", "add.rz.f64 %fd0, %fd1, %fd2;", 'F', 0x3ff0000000000000ull,
     0x3ca8000000000000ull, 0x0ull, 0x3ff0000000000000ull, 0},
    {"mul.rp.f64", "mul.rp.f64 %fd0, %fd1, %fd2;", 'F', 0x3ff0000000000001ull,
     0x3ff0000000000001ull, 0x0ull, 0x3ff0000000000003ull, 0},
    {"div.rn.f32 1/3", "div.rn.f32 %f0, %f1, %f2;", 'f', 0x3f800000ull, 0x40400000ull, 0x0ull,
     0x3eaaaaabull, 0},
    {"div.rz.f32 1/3", "div.rz.f32 %f0, %f1, %f2;", 'f', 0x3f800000ull, 0x40400000ull, 0x0ull,
     0x3eaaaaaaull, 0},
    {"div.full.f32 within 2 ulp", "div.full.f32 %f0, %f1, %f2;", 'f', 0x40000000ull, 0x40400000ull,
     0x0ull, 0x3f2aaaabull, 2},
    {"div.approx.f32 within 2 ulp", "div.approx.f32 %f0, %f1, %f2;", 'f', 0x40a00000ull,
     0x40e00000ull, 0x0ull, 0x3f36db6eull, 2},
    {"div.approx.f32 by |b| > 2^126 gives 0", "div.approx.ftz.f32 %f0, %f1, %f2;", 'f',
     0x3f800000ull, 0x7f000000ull, 0x0ull, 0x0ull, 0},
    /* subnormal divisors without .ftz: scaled, as on an H100 (probed there; libdevice's
     * fmodf divides subnormals this way) */
    {"div.approx.f32 2^-149 / 2^-149 is 1", "div.approx.f32 %f0, %f1, %f2;", 'f', 0x1ull, 0x1ull,
     0x0ull, 0x3f800000ull, 0},
    {"div.approx.f32 by 2^-149 scales the divisor", "div.approx.f32 %f0, %f1, %f2;", 'f',
     0x00c00000ull, 0x1ull, 0x0ull, 0x4b400000ull, 0},
    {"div.rn.f64", "div.rn.f64 %fd0, %fd1, %fd2;", 'F', 0x3ff0000000000000ull,
     0x4008000000000000ull, 0x0ull, 0x3fd5555555555555ull, 0},
    {"rcp.rn.f32", "rcp.rn.f32 %f0, %f1;", 'f', 0x40400000ull, 0x0ull, 0x0ull, 0x3eaaaaabull, 0},
    {"rcp.approx.f32 within 1 ulp", "rcp.approx.f32 %f0, %f1;", 'f', 0x40e00000ull, 0x0ull, 0x0ull,
     0x3e124925ull, 1},
    {"rcp.rn.f64", "rcp.rn.f64 %fd0, %fd1;", 'F', 0x4008000000000000ull, 0x0ull, 0x0ull,
     0x3fd5555555555555ull, 0},
    {"rcp.approx.ftz.f64 within 2^-20 relative", "rcp.approx.ftz.f64 %fd0, %fd1;", 'F',
     0x4008000000000000ull, 0x0ull, 0x0ull, 0x3fd5555555555555ull, 8589934592},
    {"sqrt.rn.f32", "sqrt.rn.f32 %f0, %f1;", 'f', 0x40000000ull, 0x0ull, 0x0ull, 0x3fb504f3ull, 0},
    {"sqrt.approx.f32 within 1 ulp", "sqrt.approx.f32 %f0, %f1;", 'f', 0x40000000ull, 0x0ull,
     0x0ull, 0x3fb504f3ull, 1},
    {"sqrt.rn.f64", "sqrt.rn.f64 %fd0, %fd1;", 'F', 0x4000000000000000ull, 0x0ull, 0x0ull,
     0x3ff6a09e667f3bcdull, 0},
    {"sqrt.rn.f32 of a negative is NaN", "sqrt.rn.f32 %f0, %f1;", 'f', 0xbf800000ull, 0x0ull,
     0x0ull, 0x7fffffffull, 0},
    {"rsqrt.approx.f32 of 4 is 0.5", "rsqrt.approx.f32 %f0, %f1;", 'f', 0x40800000ull, 0x0ull,
     0x0ull, 0x3f000000ull, 0},
    {"rsqrt.approx.f32 within 1 ulp", "rsqrt.approx.ftz.f32 %f0, %f1;", 'f', 0x40400000ull, 0x0ull,
     0x0ull, 0x3f13cd3aull, 1},
    {"rsqrt.approx.f64", "rsqrt.approx.f64 %fd0, %fd1;", 'F', 0x4030000000000000ull, 0x0ull, 0x0ull,
     0x3fd0000000000000ull, 0},
    {"ex2.approx.f32 of an integer is exact", "ex2.approx.f32 %f0, %f1;", 'f', 0x40400000ull,
     0x0ull, 0x0ull, 0x41000000ull, 0},
    {"ex2.approx.ftz.f32 within 2 ulp", "ex2.approx.ftz.f32 %f0, %f1;", 'f', 0x3e99999aull, 0x0ull,
     0x0ull, 0x3f9d9624ull, 2},
    {"ex2.approx.f32 of -inf is +0", "ex2.approx.f32 %f0, %f1;", 'f', 0xff800000ull, 0x0ull, 0x0ull,
     0x0ull, 0},
    {"lg2.approx.f32 of 8 is 3", "lg2.approx.f32 %f0, %f1;", 'f', 0x41000000ull, 0x0ull, 0x0ull,
     0x40400000ull, 0},
    {"lg2.approx.f32 of 0 is -inf", "lg2.approx.ftz.f32 %f0, %f1;", 'f', 0x0ull, 0x0ull, 0x0ull,
     0xff800000ull, 0},
    {"lg2.approx.f32 within 2 ulp", "lg2.approx.f32 %f0, %f1;", 'f', 0x41200000ull, 0x0ull, 0x0ull,
     0x40549a78ull, 2},
    {"sin.approx.f32 of 0 is 0", "sin.approx.f32 %f0, %f1;", 'f', 0x0ull, 0x0ull, 0x0ull, 0x0ull,
     0},
    {"cos.approx.f32 of 0 is 1", "cos.approx.ftz.f32 %f0, %f1;", 'f', 0x0ull, 0x0ull, 0x0ull,
     0x3f800000ull, 0},
    {"sin.approx.f32 of 1 within 2^-20.9 absolute", "sin.approx.f32 %f0, %f1;", 'f', 0x3f800000ull,
     0x0ull, 0x0ull, 0x3f576aa4ull, 8},
    {"cos.approx.f32 of inf is NaN", "cos.approx.f32 %f0, %f1;", 'f', 0x7f800000ull, 0x0ull, 0x0ull,
     0x7fffffffull, 0},
    /* the argument in turns on a 2^-25 grid, as on an H100 (probed there: its own output
     * has fewer bits, hence the wide tolerance; libm's sin(1e-6) is 713,000 ulp away) */
    {"sin.approx.f32 of 1e-6 is 5 steps of 2^-25 turns", "sin.approx.f32 %f0, %f1;", 'f',
     0x358637bdull, 0x0ull, 0x0ull, 0x357b5680ull, 1024},
    {"sin.approx.f32 below 2 pi 2^-25 is 0", "sin.approx.f32 %f0, %f1;", 'f', 0x34266666ull, 0x0ull,
     0x0ull, 0x0ull, 0},
    {"sin.approx.f32 of -2^-149 is -0", "sin.approx.f32 %f0, %f1;", 'f', 0x80000001ull, 0x0ull,
     0x0ull, 0x80000000ull, 0},
    {"cos.approx.f32 of 2^100 is 1 (no fraction of a turn left)", "cos.approx.f32 %f0, %f1;", 'f',
     0x71800000ull, 0x0ull, 0x0ull, 0x3f800000ull, 0},
    {"tanh.approx.f32 within 2^-10.987 relative", "tanh.approx.f32 %f0, %f1;", 'f', 0x3f000000ull,
     0x0ull, 0x0ull, 0x3eec9a9full, 8192},
    {"min.f32 with one NaN gives the number", "min.f32 %f0, %f1, %f2;", 'f', 0x7fc00000ull,
     0x3f800000ull, 0x0ull, 0x3f800000ull, 0},
    {"max.f32 with one NaN gives the number", "max.f32 %f0, %f1, %f2;", 'f', 0x3f800000ull,
     0x7fc00000ull, 0x0ull, 0x3f800000ull, 0},
    {"min.f32 of two NaNs is the canonical NaN", "min.f32 %f0, %f1, %f2;", 'f', 0xffc00000ull,
     0x7fc00000ull, 0x0ull, 0x7fffffffull, 0},
    {"min.NaN.f32 propagates NaN", "min.NaN.f32 %f0, %f1, %f2;", 'f', 0x7fc00000ull, 0x3f800000ull,
     0x0ull, 0x7fffffffull, 0},
    {"min.f32 of -0 and +0 is -0", "min.f32 %f0, %f1, %f2;", 'f', 0x0ull, 0x80000000ull, 0x0ull,
     0x80000000ull, 0},
    {"max.f32 of -0 and +0 is +0", "max.f32 %f0, %f1, %f2;", 'f', 0x80000000ull, 0x0ull, 0x0ull,
     0x0ull, 0},
    {"max.ftz.f32 flushes subnormals", "max.ftz.f32 %f0, %f1, %f2;", 'f', 0x5ull, 0x80000000ull,
     0x0ull, 0x0ull, 0},
    {"min.f64 with one NaN", "min.f64 %fd0, %fd1, %fd2;", 'F', 0x7ff8000000000000ull,
     0xc008000000000000ull, 0x0ull, 0xc008000000000000ull, 0},
    {"max.f64", "max.f64 %fd0, %fd1, %fd2;", 'F', 0x4000000000000000ull, 0xc008000000000000ull,
     0x0ull, 0x4000000000000000ull, 0},
    {"abs.f32 of -0 is +0", "abs.f32 %f0, %f1;", 'f', 0x80000000ull, 0x0ull, 0x0ull, 0x0ull, 0},
    {"abs.f32 of a NaN is the canonical NaN (H200: tests/isa/nan.txt)", "abs.f32 %f0, %f1;", 'f',
     0xffc00001ull, 0x0ull, 0x0ull, 0x7fffffffull, 0},
    {"neg.f32 flips the sign", "neg.f32 %f0, %f1;", 'f', 0x3fc00000ull, 0x0ull, 0x0ull,
     0xbfc00000ull, 0},
    {"neg.f64", "neg.f64 %fd0, %fd1;", 'F', 0x4000000000000000ull, 0x0ull, 0x0ull,
     0xc000000000000000ull, 0},
    {"abs.f64", "abs.f64 %fd0, %fd1;", 'F', 0xc000000000000000ull, 0x0ull, 0x0ull,
     0x4000000000000000ull, 0},
    {"copysign.f32 takes a's sign", "copysign.f32 %f0, %f1, %f2;", 'f', 0xbf800000ull,
     0x40400000ull, 0x0ull, 0xc0400000ull, 0},
    /* copysign is a bit operation: a NaN keeps its payload, verified on H200
     * (tests/corpus/float_special: copysignf(0x7fc00000, -0.0f) is 0xffc00000) */
    {"copysign.f32 keeps a NaN's payload (verified on H200)", "copysign.f32 %f0, %f1, %f2;", 'f',
     0x80000000ull, 0x7fc00000ull, 0x0ull, 0xffc00000ull, 0},
    {"copysign.f32 of a NaN with a positive sign (verified on H200)", "copysign.f32 %f0, %f1, %f2;",
     'f', 0x3f800000ull, 0x7fc00000ull, 0x0ull, 0x7fc00000ull, 0},
    {"copysign.f64", "copysign.f64 %fd0, %fd1, %fd2;", 'F', 0x3ff0000000000000ull,
     0xc008000000000000ull, 0x0ull, 0x4008000000000000ull, 0},
    {"testp.finite.f32 0x3f800000", "testp.finite.f32 %p0, %f1;", 'p', 0x3f800000ull, 0x0ull,
     0x0ull, 0x1ull, 0},
    {"testp.finite.f32 0x7f800000", "testp.finite.f32 %p0, %f1;", 'p', 0x7f800000ull, 0x0ull,
     0x0ull, 0x0ull, 0},
    {"testp.finite.f32 0x7fc00000", "testp.finite.f32 %p0, %f1;", 'p', 0x7fc00000ull, 0x0ull,
     0x0ull, 0x0ull, 0},
    {"testp.infinite.f32 0xff800000", "testp.infinite.f32 %p0, %f1;", 'p', 0xff800000ull, 0x0ull,
     0x0ull, 0x1ull, 0},
    {"testp.infinite.f32 0x3f800000", "testp.infinite.f32 %p0, %f1;", 'p', 0x3f800000ull, 0x0ull,
     0x0ull, 0x0ull, 0},
    {"testp.number.f32 0x7fc00000", "testp.number.f32 %p0, %f1;", 'p', 0x7fc00000ull, 0x0ull,
     0x0ull, 0x0ull, 0},
    {"testp.number.f32 0x7f800000", "testp.number.f32 %p0, %f1;", 'p', 0x7f800000ull, 0x0ull,
     0x0ull, 0x1ull, 0},
    {"testp.notanumber.f32 0x7fc00000", "testp.notanumber.f32 %p0, %f1;", 'p', 0x7fc00000ull,
     0x0ull, 0x0ull, 0x1ull, 0},
    {"testp.notanumber.f32 0x00000000", "testp.notanumber.f32 %p0, %f1;", 'p', 0x0ull, 0x0ull,
     0x0ull, 0x0ull, 0},
    {"testp.normal.f32 0x3f800000", "testp.normal.f32 %p0, %f1;", 'p', 0x3f800000ull, 0x0ull,
     0x0ull, 0x1ull, 0},
    {"testp.normal.f32 0x00000001", "testp.normal.f32 %p0, %f1;", 'p', 0x1ull, 0x0ull, 0x0ull,
     0x0ull, 0},
    {"testp.normal.f32 0x00000000", "testp.normal.f32 %p0, %f1;", 'p', 0x0ull, 0x0ull, 0x0ull,
     0x0ull, 0},
    {"testp.subnormal.f32 0x00000001", "testp.subnormal.f32 %p0, %f1;", 'p', 0x1ull, 0x0ull, 0x0ull,
     0x1ull, 0},
    {"testp.subnormal.f32 0x3f800000", "testp.subnormal.f32 %p0, %f1;", 'p', 0x3f800000ull, 0x0ull,
     0x0ull, 0x0ull, 0},
    {"testp.subnormal.f32 0x00000000", "testp.subnormal.f32 %p0, %f1;", 'p', 0x0ull, 0x0ull, 0x0ull,
     0x0ull, 0},
    {"testp.subnormal.f64", "testp.subnormal.f64 %p0, %fd1;", 'p', 0x1ull, 0x0ull, 0x0ull, 0x1ull,
     0},
    {"cvt.rni.s32.f32 rounds half to even", "cvt.rni.s32.f32 %r0, %f1;", 'r', 0x40200000ull, 0x0ull,
     0x0ull, 0x2ull, 0},
    {"cvt.rni.s32.f32 -2.5", "cvt.rni.s32.f32 %r0, %f1;", 'r', 0xc0200000ull, 0x0ull, 0x0ull,
     0xfffffffeull, 0},
    {"cvt.rzi.s32.f32 truncates", "cvt.rzi.s32.f32 %r0, %f1;", 'r', 0xc02ccccdull, 0x0ull, 0x0ull,
     0xfffffffeull, 0},
    {"cvt.rmi.s32.f32 floors", "cvt.rmi.s32.f32 %r0, %f1;", 'r', 0xc0200000ull, 0x0ull, 0x0ull,
     0xfffffffdull, 0},
    {"cvt.rpi.s32.f32 ceils", "cvt.rpi.s32.f32 %r0, %f1;", 'r', 0x40066666ull, 0x0ull, 0x0ull,
     0x3ull, 0},
    {"cvt.rzi.s32.f32 saturates large values", "cvt.rzi.s32.f32 %r0, %f1;", 'r', 0x4f32d05eull,
     0x0ull, 0x0ull, 0x7fffffffull, 0},
    {"cvt.rzi.s32.f32 saturates small values", "cvt.rzi.s32.f32 %r0, %f1;", 'r', 0xcf32d05eull,
     0x0ull, 0x0ull, 0x80000000ull, 0},
    {"cvt.rzi.s32.f32 of NaN is 0", "cvt.rzi.s32.f32 %r0, %f1;", 'r', 0x7fc00000ull, 0x0ull, 0x0ull,
     0x0ull, 0},
    /* NaN to integer: the PTX ISA leaves it open; verified on H200
     * (tests/corpus/cvt_float_int, cvt_double): f32 to a 32-bit integer gives 0, any
     * 64-bit destination its sign bit alone (.u64 too), f64 to .s32 0x80000000 */
    {"cvt.rni.u32.f32 of NaN is 0 (verified on H200)", "cvt.rni.u32.f32 %r0, %f1;", 'r',
     0x7fc00000ull, 0x0ull, 0x0ull, 0x0ull, 0},
    {"cvt.rzi.s64.f32 of NaN is 0x8000000000000000 (verified on H200)",
     "cvt.rzi.s64.f32 %rd0, %f1;", 'd', 0x7fc00000ull, 0x0ull, 0x0ull, 0x8000000000000000ull, 0},
    {"cvt.rzi.u64.f32 of NaN is 0x8000000000000000 (verified on H200)",
     "cvt.rzi.u64.f32 %rd0, %f1;", 'd', 0x7fc00000ull, 0x0ull, 0x0ull, 0x8000000000000000ull, 0},
    {"cvt.rni.s32.f64 of NaN is 0x80000000 (verified on H200)", "cvt.rni.s32.f64 %r0, %fd1;", 'r',
     0x7ff8000000000000ull, 0x0ull, 0x0ull, 0x80000000ull, 0},
    {"cvt.rzi.s64.f64 of NaN is 0x8000000000000000 (verified on H200)",
     "cvt.rzi.s64.f64 %rd0, %fd1;", 'd', 0x7ff8000000000000ull, 0x0ull, 0x0ull,
     0x8000000000000000ull, 0},
    {"cvt.rzi.u64.f64 of NaN is 0x8000000000000000 (verified on H200)",
     "cvt.rzi.u64.f64 %rd0, %fd1;", 'd', 0x7ff8000000000000ull, 0x0ull, 0x0ull,
     0x8000000000000000ull, 0},
    {"cvt.rzi.u32.f32 of a negative is 0", "cvt.rzi.u32.f32 %r0, %f1;", 'r', 0xbf800000ull, 0x0ull,
     0x0ull, 0x0ull, 0},
    {"cvt.rzi.u32.f32 saturates", "cvt.rzi.u32.f32 %r0, %f1;", 'r', 0x4f9502f9ull, 0x0ull, 0x0ull,
     0xffffffffull, 0},
    {"cvt.rni.s64.f64", "cvt.rni.s64.f64 %rd0, %fd1;", 'd', 0xc30c6bf526340004ull, 0x0ull, 0x0ull,
     0xfffc72815b398000ull, 0},
    {"cvt.rzi.u64.f64 saturates", "cvt.rzi.u64.f64 %rd0, %fd1;", 'd', 0x4415af1d78b58c40ull, 0x0ull,
     0x0ull, 0xffffffffffffffffull, 0},
    {"cvt.rzi.s16.f32 saturates and sign-extends", "cvt.rzi.s16.f32 %r0, %f1;", 'r', 0xc71c4000ull,
     0x0ull, 0x0ull, 0xffff8000ull, 0},
    {"cvt.rzi.u8.f32 saturates", "cvt.rzi.u8.f32 %r0, %f1;", 'r', 0x43960000ull, 0x0ull, 0x0ull,
     0xffull, 0},
    {"cvt.sat.u8.s32 clamps", "cvt.sat.u8.s32 %r0, %r1;", 'r', 0x12cull, 0x0ull, 0x0ull, 0xffull,
     0},
    {"cvt.sat.s8.s32 clamps negatives", "cvt.sat.s8.s32 %r0, %r1;", 'r', 0xfffffffffffffed4ull,
     0x0ull, 0x0ull, 0xffffff80ull, 0},
    {"cvt.u8.u32 truncates", "cvt.u8.u32 %r0, %r1;", 'r', 0x12cull, 0x0ull, 0x0ull, 0x2cull, 0},
    {"cvt.s8.s32 truncates and sign-extends", "cvt.s8.s32 %r0, %r1;", 'r', 0xffull, 0x0ull, 0x0ull,
     0xffffffffull, 0},
    {"cvt.s64.s32 sign-extends", "cvt.s64.s32 %rd0, %r1;", 'd', 0xfffffffffffffffbull, 0x0ull,
     0x0ull, 0xfffffffffffffffbull, 0},
    {"cvt.u64.u32 zero-extends", "cvt.u64.u32 %rd0, %r1;", 'd', 0xfffffffffffffffbull, 0x0ull,
     0x0ull, 0xfffffffbull, 0},
    {"cvt.sat.u32.s64", "cvt.sat.u32.s64 %r0, %rd1;", 'r', 0x10000000000ull, 0x0ull, 0x0ull,
     0xffffffffull, 0},
    {"cvt.sat.s32.u32", "cvt.sat.s32.u32 %r0, %r1;", 'r', 0x80000000ull, 0x0ull, 0x0ull,
     0x7fffffffull, 0},
    {"cvt.rn.f32.s32 rounds to even", "cvt.rn.f32.s32 %f0, %r1;", 'f', 0x1000001ull, 0x0ull, 0x0ull,
     0x4b800000ull, 0},
    {"cvt.rz.f32.u32", "cvt.rz.f32.u32 %f0, %r1;", 'f', 0xffffffffull, 0x0ull, 0x0ull,
     0x4f7fffffull, 0},
    {"cvt.rp.f32.s32", "cvt.rp.f32.s32 %f0, %r1;", 'f', 0x1000001ull, 0x0ull, 0x0ull, 0x4b800001ull,
     0},
    {"cvt.rm.f32.s32 of a negative", "cvt.rm.f32.s32 %f0, %r1;", 'f', 0xfffffffffeffffffull, 0x0ull,
     0x0ull, 0xcb800001ull, 0},
    {"cvt.rn.f64.s64", "cvt.rn.f64.s64 %fd0, %rd1;", 'F', 0xffdfffffffffffffull, 0x0ull, 0x0ull,
     0xc340000000000000ull, 0},
    {"cvt.rn.f32.u64", "cvt.rn.f32.u64 %f0, %rd1;", 'f', 0xffffffffffffffffull, 0x0ull, 0x0ull,
     0x5f800000ull, 0},
    {"cvt.rn.f32.f64", "cvt.rn.f32.f64 %f0, %fd1;", 'f', 0x3fb999999999999aull, 0x0ull, 0x0ull,
     0x3dcccccdull, 0},
    {"cvt.rz.f32.f64", "cvt.rz.f32.f64 %f0, %fd1;", 'f', 0x3fb999999999999aull, 0x0ull, 0x0ull,
     0x3dccccccull, 0},
    {"cvt.rp.f32.f64", "cvt.rp.f32.f64 %f0, %fd1;", 'f', 0x3fb999999999999aull, 0x0ull, 0x0ull,
     0x3dcccccdull, 0},
    {"cvt.rm.f32.f64", "cvt.rm.f32.f64 %f0, %fd1;", 'f', 0xbfb999999999999aull, 0x0ull, 0x0ull,
     0xbdcccccdull, 0},
    {"cvt.f64.f32 is exact", "cvt.f64.f32 %fd0, %f1;", 'F', 0x3dcccccdull, 0x0ull, 0x0ull,
     0x3fb99999a0000000ull, 0},
    {"cvt.ftz.f32.f32 flushes", "cvt.ftz.f32.f32 %f0, %f1;", 'f', 0x3ull, 0x0ull, 0x0ull, 0x0ull,
     0},
    {"cvt.sat.f32.f32 clamps", "cvt.sat.f32.f32 %f0, %f1;", 'f', 0x3fc00000ull, 0x0ull, 0x0ull,
     0x3f800000ull, 0},
    {"cvt.rni.f32.f32 rounds to an integer", "cvt.rni.f32.f32 %f0, %f1;", 'f', 0x40600000ull,
     0x0ull, 0x0ull, 0x40800000ull, 0},
    {"cvt.rmi.f64.f64 floors", "cvt.rmi.f64.f64 %fd0, %fd1;", 'F', 0xbfe0000000000000ull, 0x0ull,
     0x0ull, 0xbff0000000000000ull, 0},
    {"cvt.rzi.f32.f32 keeps -0", "cvt.rzi.f32.f32 %f0, %f1;", 'f', 0xbf000000ull, 0x0ull, 0x0ull,
     0x80000000ull, 0},
    {"cvt.rn.f16.f32 1/3", "cvt.rn.f16.f32 %h0, %f1; cvt.u32.u16 %r0, %h0;", 'r', 0x3eaaaaabull,
     0x0ull, 0x0ull, 0x3555ull, 0},
    {"cvt.rn.f16.f32 overflows to inf", "cvt.rn.f16.f32 %h0, %f1; cvt.u32.u16 %r0, %h0;", 'r',
     0x477ff000ull, 0x0ull, 0x0ull, 0x7c00ull, 0},
    {"cvt.rz.f16.f32 clamps to the largest finite",
     "cvt.rz.f16.f32 %h0, %f1; cvt.u32.u16 %r0, %h0;", 'r', 0x477ff000ull, 0x0ull, 0x0ull,
     0x7bffull, 0},
    {"cvt.rn.f16.f32 subnormal", "cvt.rn.f16.f32 %h0, %f1; cvt.u32.u16 %r0, %h0;", 'r',
     0x34400000ull, 0x0ull, 0x0ull, 0x3ull, 0},
    {"cvt.rn.f16.f32 of NaN is 0x7fff", "cvt.rn.f16.f32 %h0, %f1; cvt.u32.u16 %r0, %h0;", 'r',
     0x7fc00000ull, 0x0ull, 0x0ull, 0x7fffull, 0},
    {"cvt.f32.f16 is exact", "cvt.f32.f16 %f0, %h1;", 'f', 0xbc00ull, 0x0ull, 0x0ull, 0xbf800000ull,
     0},
    {"cvt.f32.f16 of a subnormal", "cvt.f32.f16 %f0, %h1;", 'f', 0x1ull, 0x0ull, 0x0ull,
     0x33800000ull, 0},
    {"cvt.rn.bf16.f32 rounds to even", "cvt.rn.bf16.f32 %h0, %f1; cvt.u32.u16 %r0, %h0;", 'r',
     0x3f808000ull, 0x0ull, 0x0ull, 0x3f80ull, 0},
    {"cvt.rn.bf16.f32 rounds up", "cvt.rn.bf16.f32 %h0, %f1; cvt.u32.u16 %r0, %h0;", 'r',
     0x3f818001ull, 0x0ull, 0x0ull, 0x3f82ull, 0},
    {"cvt.f32.bf16", "cvt.f32.bf16 %f0, %h1;", 'f', 0x4049ull, 0x0ull, 0x0ull, 0x40490000ull, 0},
    {"cvt.rzi.s32.f16", "cvt.rzi.s32.f16 %r0, %h1;", 'r', 0xc500ull, 0x0ull, 0x0ull, 0xfffffffbull,
     0},
    {"cvt.rn.f16.s32", "cvt.rn.f16.s32 %h0, %r1; cvt.u32.u16 %r0, %h0;", 'r', 0x801ull, 0x0ull,
     0x0ull, 0x6800ull, 0},
    {"cvt.rn.f16x2.f32 packs a high, b low", "cvt.rn.f16x2.f32 %r0, %f1, %f2;", 'r', 0x3f800000ull,
     0xc0000000ull, 0x0ull, 0x3c00c000ull, 0},
    {"add.f16", "add.f16 %h0, %h1, %h2; cvt.u32.u16 %r0, %h0;", 'r', 0x3c00ull, 0x3c00ull, 0x0ull,
     0x4000ull, 0},
    {"mul.f16 rounds once", "mul.f16 %h0, %h1, %h2; cvt.u32.u16 %r0, %h0;", 'r', 0x3555ull,
     0x4200ull, 0x0ull, 0x3c00ull, 0},
    {"fma.rn.f16", "fma.rn.f16 %h0, %h1, %h2, %h3; cvt.u32.u16 %r0, %h0;", 'r', 0x4000ull,
     0x4200ull, 0xbc00ull, 0x4500ull, 0},
    {"add.f16x2 adds both halves", "add.f16x2 %r0, %r1, %r2;", 'r', 0x3c004000ull, 0x3c00bc00ull,
     0x0ull, 0x40003c00ull, 0},
    {"neg.bf16", "neg.bf16 %h0, %h1; cvt.u32.u16 %r0, %h0;", 'r', 0x3f80ull, 0x0ull, 0x0ull,
     0xbf80ull, 0},
    {"max.f16 with NaN gives the number", "max.f16 %h0, %h1, %h2; cvt.u32.u16 %r0, %h0;", 'r',
     0x7e00ull, 0x3c00ull, 0x0ull, 0x3c00ull, 0},
    {"setp.lt.f16", "setp.lt.f16 %p0, %h1, %h2;", 'p', 0xbc00ull, 0x3c00ull, 0x0ull, 0x1ull, 0},
    /* 3 * 87 = 261 is a tie between the bf16 values 260 and 262; the addend 2^-100 lies
     * past double precision and must still round it up (one rounding, PTX ISA §9.7.4.4) */
    {"fma.rn.bf16 rounds once, a tiny addend breaks a tie",
     "fma.rn.bf16 %h0, %h1, %h2, %h3; cvt.u32.u16 %r0, %h0;", 'r', 0x4040ull, 0x42aeull, 0x0d80ull,
     0x4383ull, 0},
    {"fma.rn.relu.f16 clamps a negative result to +0",
     "fma.rn.relu.f16 %h0, %h1, %h2, %h3; cvt.u32.u16 %r0, %h0;", 'r', 0x3c00ull, 0xc000ull,
     0x3c00ull, 0x0ull, 0},
    {"fma.rn.relu.bf16x2 clamps each half", "fma.rn.relu.bf16x2 %r0, %r1, %r2, %r3;", 'r',
     0x3f80bf80ull, 0x40004000ull, 0x00000000ull, 0x40000000ull, 0},
    {"cvt.rn.satfinite.relu.f16.f32 of +inf is the largest finite f16",
     "cvt.rn.satfinite.relu.f16.f32 %h0, %f1; cvt.u32.u16 %r0, %h0;", 'r', 0x7f800000ull, 0x0ull,
     0x0ull, 0x7bffull, 0},
    {"cvt.rn.satfinite.relu.f16.f32 of -inf is +0",
     "cvt.rn.relu.satfinite.f16.f32 %h0, %f1; cvt.u32.u16 %r0, %h0;", 'r', 0xff800000ull, 0x0ull,
     0x0ull, 0x0ull, 0},
    /* f16/bf16 NaN results, PTX ISA §9.7.4 (which says only "NaN"), as measured on an H100
     * (corpus half_arith_*, bf16_arith_*, half2_arith*): the canonical 0x7fff, whatever
     * the inputs' signs and payloads, in each half of an x2 form */
    {"add.f16 of a NaN payload gives 0x7fff", "add.f16 %h0, %h1, %h2; cvt.u32.u16 %r0, %h0;", 'r',
     0xfd01ull, 0x3c00ull, 0x0ull, 0x7fffull, 0},
    {"mul.f16 of inf and 0 gives 0x7fff", "mul.f16 %h0, %h1, %h2; cvt.u32.u16 %r0, %h0;", 'r',
     0xfc00ull, 0x0ull, 0x0ull, 0x7fffull, 0},
    {"fma.rn.bf16 of a NaN addend gives 0x7fff",
     "fma.rn.bf16 %h0, %h1, %h2, %h3; cvt.u32.u16 %r0, %h0;", 'r', 0x3f80ull, 0x3f80ull, 0xffa1ull,
     0x7fffull, 0},
    {"sub.bf16x2 with a NaN in the high half", "sub.bf16x2 %r0, %r1, %r2;", 'r', 0xff813f80ull,
     0x3f803f80ull, 0x0ull, 0x7fff0000ull, 0},
    {"neg.f16 of a NaN is 0x7fff, no sign flip", "neg.f16 %h0, %h1; cvt.u32.u16 %r0, %h0;", 'r',
     0x7e00ull, 0x0ull, 0x0ull, 0x7fffull, 0},
    {"neg.f16 of a negative NaN is 0x7fff", "neg.f16 %h0, %h1; cvt.u32.u16 %r0, %h0;", 'r',
     0xfd00ull, 0x0ull, 0x0ull, 0x7fffull, 0},
    {"abs.bf16 of a negative NaN is 0x7fff", "abs.bf16 %h0, %h1; cvt.u32.u16 %r0, %h0;", 'r',
     0xffc1ull, 0x0ull, 0x0ull, 0x7fffull, 0},
    {"neg.f16x2 of a NaN half is 0x7fff there", "neg.f16x2 %r0, %r1;", 'r', 0x7e003c00ull, 0x0ull,
     0x0ull, 0x7fffbc00ull, 0},
    {"min.f16 of a NaN and a number gives the number",
     "min.f16 %h0, %h1, %h2; cvt.u32.u16 %r0, %h0;", 'r', 0x7d00ull, 0xc000ull, 0x0ull, 0xc000ull,
     0},
    {"min.f16 of two NaNs gives 0x7fff", "min.f16 %h0, %h1, %h2; cvt.u32.u16 %r0, %h0;", 'r',
     0xfe01ull, 0x7d00ull, 0x0ull, 0x7fffull, 0},
    {"min.NaN.f16 of a number and a NaN gives 0x7fff",
     "min.NaN.f16 %h0, %h1, %h2; cvt.u32.u16 %r0, %h0;", 'r', 0x3c00ull, 0x7d00ull, 0x0ull,
     0x7fffull, 0},
    {"max.NaN.bf16 of a NaN and a number gives 0x7fff",
     "max.NaN.bf16 %h0, %h1, %h2; cvt.u32.u16 %r0, %h0;", 'r', 0x7fa0ull, 0x3f80ull, 0x0ull,
     0x7fffull, 0},
    {"min.NaN.f16x2: only the half with a NaN is 0x7fff", "min.NaN.f16x2 %r0, %r1, %r2;", 'r',
     0x7d003c00ull, 0x40004000ull, 0x0ull, 0x7fff3c00ull, 0},
    {"max.bf16x2 of one NaN per half gives the numbers", "max.bf16x2 %r0, %r1, %r2;", 'r',
     0x7fc14000ull, 0xc000ffc0ull, 0x0ull, 0xc0004000ull, 0},
    {"min.f16 of +0 and -0 is -0", "min.f16 %h0, %h1, %h2; cvt.u32.u16 %r0, %h0;", 'r', 0x0ull,
     0x8000ull, 0x0ull, 0x8000ull, 0},
    {"max.f16 of -0 and +0 is +0", "max.f16 %h0, %h1, %h2; cvt.u32.u16 %r0, %h0;", 'r', 0x8000ull,
     0x0ull, 0x0ull, 0x0ull, 0},
    /* .relu of -0.0 is +0.0 (measured on an H100: corpus half_arith_edges,
     * cvt_relu_satfinite); a NaN stays the canonical NaN */
    {"fma.rn.relu.f16 of a -0 result gives +0",
     "fma.rn.relu.f16 %h0, %h1, %h2, %h3; cvt.u32.u16 %r0, %h0;", 'r', 0x8000ull, 0x0ull, 0x8000ull,
     0x0ull, 0},
    {"fma.rn.relu.bf16x2 of -0 results gives +0 in both halves",
     "fma.rn.relu.bf16x2 %r0, %r1, %r2, %r3;", 'r', 0x80000000ull, 0x8000ull, 0x80008000ull, 0x0ull,
     0},
    {"fma.rn.relu.f16 of a NaN gives 0x7fff",
     "fma.rn.relu.f16 %h0, %h1, %h2, %h3; cvt.u32.u16 %r0, %h0;", 'r', 0x7e00ull, 0xbc00ull, 0x0ull,
     0x7fffull, 0},
    {"cvt.rn.relu.f16.f32 of -0.0 is +0", "cvt.rn.relu.f16.f32 %h0, %f1; cvt.u32.u16 %r0, %h0;",
     'r', 0x80000000ull, 0x0ull, 0x0ull, 0x0ull, 0},
    {"cvt.rn.relu.bf16.f32 of -0.0 is +0", "cvt.rn.relu.bf16.f32 %h0, %f1; cvt.u32.u16 %r0, %h0;",
     'r', 0x80000000ull, 0x0ull, 0x0ull, 0x0ull, 0},
    {"cvt.rn.relu.f16x2.f32 of (NaN, -0.0)", "cvt.rn.relu.f16x2.f32 %r0, %f1, %f2;", 'r',
     0xffc00001ull, 0x80000000ull, 0x0ull, 0x7fff0000ull, 0},
    /* cvt.f32.bf16 of a NaN keeps sign and payload, cvt.f32.f16 gives the canonical f32
     * NaN (measured on an H100: corpus half_roundtrip_bf16, half_roundtrip_f16) */
    {"cvt.f32.bf16 keeps a NaN's payload", "cvt.f32.bf16 %f0, %h1;", 'f', 0x7f81ull, 0x0ull, 0x0ull,
     0x7f810000ull, 0},
    {"cvt.f32.bf16 keeps a negative NaN's sign and payload", "cvt.f32.bf16 %f0, %h1;", 'f',
     0xffc1ull, 0x0ull, 0x0ull, 0xffc10000ull, 0},
    {"cvt.f32.f16 of a NaN is 0x7fffffff", "cvt.f32.f16 %f0, %h1;", 'f', 0xfc01ull, 0x0ull, 0x0ull,
     0x7fffffffull, 0},
    /* set with half operands, PTX ISA §9.7.5.1: 1.0 in an .f16/.bf16 destination, all
     * ones per half in an integer one */
    {"set.nan.f16.f16 of a NaN is 1.0 in f16",
     "set.nan.f16.f16 %h0, %h1, %h1; cvt.u32.u16 %r0, %h0;", 'r', 0x7e00ull, 0x0ull, 0x0ull,
     0x3c00ull, 0},
    {"set.lt.bf16.bf16 true is 1.0 in bf16",
     "set.lt.bf16.bf16 %h0, %h1, %h2; cvt.u32.u16 %r0, %h0;", 'r', 0xbf80ull, 0x3f80ull, 0x0ull,
     0x3f80ull, 0},
    {"set.lt.f16.f16 false is 0", "set.lt.f16.f16 %h0, %h1, %h2; cvt.u32.u16 %r0, %h0;", 'r',
     0x3f80ull, 0xbf80ull, 0x0ull, 0x0ull, 0},
    {"set.lt.u32.f16x2 compares each half", "set.lt.u32.f16x2 %r0, %r1, %r2;", 'r', 0x3c004000ull,
     0x40003c00ull, 0x0ull, 0xffff0000ull, 0},
    {"set.gt.f16x2.f16x2 writes 1.0 per half", "set.gt.f16x2.f16x2 %r0, %r1, %r2;", 'r',
     0x3c004000ull, 0x40003c00ull, 0x0ull, 0x3c00ull, 0},
    {"atom.global.add.u32 returns the old value", "atom.global.add.u32 %r0, [%rd10], %r2;", 'r',
     0x7ull, 0x5ull, 0x0ull, 0x7ull, 0},
    {"atom.global.add.u32 updates memory",
     "atom.global.add.u32 %r5, [%rd10], %r2; ld.global.u32 %r0, [%rd10];", 'r', 0x7ull, 0x5ull,
     0x0ull, 0xcull, 0},
    {"atom.global.add.u64", "atom.global.add.u64 %rd5, [%rd10], %rd2; ld.global.u64 %rd0, [%rd10];",
     'd', 0x10000000000ull, 0x10000000000ull, 0x0ull, 0x20000000000ull, 0},
    {"atom.global.add.f32", "atom.global.add.f32 %f5, [%rd10], %f2; ld.global.f32 %f0, [%rd10];",
     'f', 0x3fc00000ull, 0x40100000ull, 0x0ull, 0x40700000ull, 0},
    {"atom.global.add.f64", "atom.global.add.f64 %fd5, [%rd10], %fd2; ld.global.f64 %fd0, [%rd10];",
     'F', 0x3ff8000000000000ull, 0x4002000000000000ull, 0x0ull, 0x400e000000000000ull, 0},
    {"atom.global.min.s32", "atom.global.min.s32 %r5, [%rd10], %r2; ld.global.u32 %r0, [%rd10];",
     'r', 0x3ull, 0xfffffffffffffffcull, 0x0ull, 0xfffffffcull, 0},
    {"atom.global.max.u32", "atom.global.max.u32 %r5, [%rd10], %r2; ld.global.u32 %r0, [%rd10];",
     'r', 0x3ull, 0xfffffffffffffffcull, 0x0ull, 0xfffffffcull, 0},
    {"atom.global.min.u64", "atom.global.min.u64 %rd5, [%rd10], %rd2; ld.global.u64 %rd0, [%rd10];",
     'd', 0x3ull, 0xfffffffffffffffcull, 0x0ull, 0x3ull, 0},
    {"atom.global.max.s64", "atom.global.max.s64 %rd5, [%rd10], %rd2; ld.global.u64 %rd0, [%rd10];",
     'd', 0x3ull, 0xfffffffffffffffcull, 0x0ull, 0x3ull, 0},
    {"atom.global.and.b32", "atom.global.and.b32 %r5, [%rd10], %r2; ld.global.u32 %r0, [%rd10];",
     'r', 0xffull, 0xf0ull, 0x0ull, 0xf0ull, 0},
    {"atom.global.or.b32", "atom.global.or.b32 %r5, [%rd10], %r2; ld.global.u32 %r0, [%rd10];", 'r',
     0xf00ull, 0xf0ull, 0x0ull, 0xff0ull, 0},
    {"atom.global.xor.b32", "atom.global.xor.b32 %r5, [%rd10], %r2; ld.global.u32 %r0, [%rd10];",
     'r', 0xffull, 0xf0ull, 0x0ull, 0xfull, 0},
    {"atom.global.and.b64", "atom.global.and.b64 %rd5, [%rd10], %rd2; ld.global.u64 %rd0, [%rd10];",
     'd', 0xffffffffffffffffull, 0x4000000000000ull, 0x0ull, 0x4000000000000ull, 0},
    {"atom.global.exch.b32 returns the old value", "atom.global.exch.b32 %r0, [%rd10], %r2;", 'r',
     0x7ull, 0x9ull, 0x0ull, 0x7ull, 0},
    {"atom.global.exch.b64",
     "atom.global.exch.b64 %rd5, [%rd10], %rd2; ld.global.u64 %rd0, [%rd10];", 'd', 0x7ull,
     0x1000000000000000ull, 0x0ull, 0x1000000000000000ull, 0},
    {"atom.global.cas.b32 swaps when equal",
     "atom.global.cas.b32 %r5, [%rd10], %r2, %r3; ld.global.u32 %r0, [%rd10];", 'r', 0x7ull, 0x7ull,
     0x9ull, 0x9ull, 0},
    {"atom.global.cas.b32 keeps when different",
     "atom.global.cas.b32 %r5, [%rd10], %r2, %r3; ld.global.u32 %r0, [%rd10];", 'r', 0x7ull, 0x8ull,
     0x9ull, 0x7ull, 0},
    {"atom.global.cas.b64",
     "atom.global.cas.b64 %rd5, [%rd10], %rd2, %rd3; ld.global.u64 %rd0, [%rd10];", 'd',
     0x10000000000ull, 0x10000000000ull, 0x5ull, 0x5ull, 0},
    {"atom.global.inc.u32 wraps to 0 at b",
     "atom.global.inc.u32 %r5, [%rd10], %r2; ld.global.u32 %r0, [%rd10];", 'r', 0x5ull, 0x5ull,
     0x0ull, 0x0ull, 0},
    {"atom.global.inc.u32 increments below b",
     "atom.global.inc.u32 %r5, [%rd10], %r2; ld.global.u32 %r0, [%rd10];", 'r', 0x4ull, 0x5ull,
     0x0ull, 0x5ull, 0},
    {"atom.global.dec.u32 wraps from 0 to b",
     "atom.global.dec.u32 %r5, [%rd10], %r2; ld.global.u32 %r0, [%rd10];", 'r', 0x0ull, 0x5ull,
     0x0ull, 0x5ull, 0},
    {"atom.global.dec.u32 above b gives b",
     "atom.global.dec.u32 %r5, [%rd10], %r2; ld.global.u32 %r0, [%rd10];", 'r', 0x9ull, 0x5ull,
     0x0ull, 0x5ull, 0},
    {"atom.global.dec.u32 decrements",
     "atom.global.dec.u32 %r5, [%rd10], %r2; ld.global.u32 %r0, [%rd10];", 'r', 0x3ull, 0x5ull,
     0x0ull, 0x2ull, 0},
    {"red.global.add.u32", "red.global.add.u32 [%rd10], %r2; ld.global.u32 %r0, [%rd10];", 'r',
     0x28ull, 0x2ull, 0x0ull, 0x2aull, 0},
    {"red.global.max.s32", "red.global.max.s32 [%rd10], %r2; ld.global.u32 %r0, [%rd10];", 'r',
     0xffffffffffffffd8ull, 0xfffffffffffffffeull, 0x0ull, 0xfffffffeull, 0},
    {"atom.add.u32 through a generic address",
     "cvta.to.global.u64 %rd5, %rd10; cvta.global.u64 %rd6, %rd5; atom.add.u32 %r5, [%rd6], %r2; "
     "ld.u32 %r0, [%rd6];",
     'r', 0x1ull, 0x2ull, 0x0ull, 0x3ull, 0},
    {"atom.relaxed.gpu.global.add.u32",
     "atom.relaxed.gpu.global.add.u32 %r5, [%rd10], %r2; ld.relaxed.gpu.global.u32 %r0, [%rd10];",
     'r', 0x1ull, 0x2ull, 0x0ull, 0x3ull, 0},
    {"atom.acq_rel.sys.global.exch.b32",
     "atom.acq_rel.sys.global.exch.b32 %r5, [%rd10], %r2; ld.acquire.gpu.global.u32 %r0, [%rd10];",
     'r', 0x1ull, 0x2ull, 0x0ull, 0x2ull, 0},
    {"st.release.gpu / ld.volatile",
     "st.release.gpu.global.u32 [%rd10], %r2; ld.volatile.global.u32 %r0, [%rd10];", 'r', 0x1ull,
     0x4dull, 0x0ull, 0x4dull, 0},
    {"ld.global.nc", "ld.global.nc.u32 %r0, [%rd10+8];", 'r', 0x1ull, 0x4dull, 0x0ull, 0x4dull, 0},
    {"st/ld .v2.u32",
     "st.global.v2.u32 [%rd10], {%r2, %r3}; ld.global.v2.u32 {%r4, %r5}, [%rd10]; sub.u32 %r0, "
     "%r4, %r5;",
     'r', 0x0ull, 0xaull, 0x3ull, 0x7ull, 0},
    {"st/ld .v4.f32",
     "st.global.v4.f32 [%rd10], {%f2, %f3, %f2, %f3}; ld.global.v4.f32 {%f4, %f5, %f6, %f7}, "
     "[%rd10]; add.f32 %f0, %f4, %f7;",
     'f', 0x0ull, 0x3fc00000ull, 0x40000000ull, 0x40600000ull, 0},
    {"ld.global.v2.u64", "ld.global.v2.u64 {%rd4, %rd5}, [%rd10]; add.u64 %rd0, %rd4, %rd5;", 'd',
     0x5ull, 0x6ull, 0x0ull, 0xbull, 0},
    {"shared: st/ld and atom.shared.add",
     ".shared .align 4 .u32 sh[4];\n st.shared.u32 [sh+4], %r1; atom.shared.add.u32 %r5, [sh+4], "
     "%r2; ld.shared.u32 %r0, [sh+4];",
     'r', 0xaull, 0x5ull, 0x0ull, 0xfull, 0},
    {"shared: atom.cas through cvta.shared",
     ".shared .align 8 .u64 sh2[2];\n st.shared.u64 [sh2], %rd1; mov.u64 %rd4, sh2; "
     "cvta.shared.u64 %rd5, %rd4; atom.cas.b64 %rd6, [%rd5], %rd1, %rd2; ld.shared.u64 %rd0, "
     "[sh2];",
     'd', 0x3ull, 0x9ull, 0x0ull, 0x9ull, 0},
    {"local: st.local/ld.local",
     ".local .align 4 .b8 buf[16];\n st.local.u32 [buf+12], %r1; ld.local.u32 %r0, [buf+12];", 'r',
     0x4d2ull, 0x0ull, 0x0ull, 0x4d2ull, 0},
    {"isspacep.shared",
     ".shared .align 4 .u32 sh3[1];\n mov.u64 %rd4, sh3; cvta.shared.u64 %rd5, %rd4; "
     "isspacep.shared %p0, %rd5;",
     'p', 0x0ull, 0x0ull, 0x0ull, 0x1ull, 0},
    {"isspacep.global of a shared address is false",
     ".shared .align 4 .u32 sh4[1];\n mov.u64 %rd4, sh4; cvta.shared.u64 %rd5, %rd4; "
     "isspacep.global %p0, %rd5;",
     'p', 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0},
    {"%laneid of thread 0", "mov.u32 %r0, %laneid;", 'r', 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0},
    {"%lanemask_lt of lane 0 is 0", "mov.u32 %r0, %lanemask_lt;", 'r', 0x0ull, 0x0ull, 0x0ull,
     0x0ull, 0},
    {"%lanemask_le of lane 0 is 1", "mov.u32 %r0, %lanemask_le;", 'r', 0x0ull, 0x0ull, 0x0ull,
     0x1ull, 0},
    {"%lanemask_ge of lane 0", "mov.u32 %r0, %lanemask_ge;", 'r', 0x0ull, 0x0ull, 0x0ull,
     0xffffffffull, 0},
    {"%lanemask_gt of lane 0", "mov.u32 %r0, %lanemask_gt;", 'r', 0x0ull, 0x0ull, 0x0ull,
     0xfffffffeull, 0},
    {"%warpid + %nwarpid: a lone warp's slot (1: sub-partition 1) + sm_90's 64 slots",
     "mov.u32 %r4, %warpid; mov.u32 %r5, %nwarpid; add.u32 %r0, %r4, %r5;", 'r', 0x0ull, 0x0ull,
     0x0ull, 0x41ull, 0},
    {"%dynamic_smem_size is 0 without dynamic shared", "mov.u32 %r0, %dynamic_smem_size;", 'r',
     0x0ull, 0x0ull, 0x0ull, 0x0ull, 0},
    {"%clock64 is monotonic",
     "mov.u64 %rd4, %clock64; add.u32 %r4, %r1, 1; mov.u64 %rd5, %clock64; setp.gt.u64 %p0, %rd5, "
     "%rd4;",
     'p', 0x0ull, 0x0ull, 0x0ull, 0x1ull, 0},
    {"%globaltimer is monotonic",
     "mov.u64 %rd4, %globaltimer; add.u32 %r4, %r1, 1; mov.u64 %rd5, %globaltimer; setp.gt.u64 "
     "%p0, %rd5, %rd4;",
     'p', 0x0ull, 0x0ull, 0x0ull, 0x1ull, 0},
    {"%clock is monotonic",
     "mov.u32 %r4, %clock; add.u32 %r5, %r1, 1; mov.u32 %r6, %clock; setp.gt.u32 %p0, %r6, %r4;",
     'p', 0x0ull, 0x0ull, 0x0ull, 0x1ull, 0},
    {"%smid < %nsmid", "mov.u32 %r4, %smid; mov.u32 %r5, %nsmid; setp.lt.u32 %p0, %r4, %r5;", 'p',
     0x0ull, 0x0ull, 0x0ull, 0x1ull, 0},
    {"membar and fence are accepted",
     "membar.gl; membar.cta; fence.acq_rel.gpu; fence.sc.sys; mov.u32 %r0, 5;", 'r', 0x0ull, 0x0ull,
     0x0ull, 0x5ull, 0},
    {"nanosleep is accepted", "nanosleep.u32 100; mov.u32 %r0, 6;", 'r', 0x0ull, 0x0ull, 0x0ull,
     0x6ull, 0},
    {"activemask of one thread", "activemask.b32 %r0;", 'r', 0x0ull, 0x0ull, 0x0ull, 0x1ull, 0},
    {"ld.global.L1::no_allocate (cache hints are accepted)",
     "ld.global.nc.L1::no_allocate.u32 %r0, [%rd10+8];", 'r', 0x1ull, 0x4dull, 0x0ull, 0x4dull, 0},
    {"ld.shared::cta",
     ".shared .align 4 .u32 shc[1];\n st.shared::cta.u32 [shc], %r2; ld.shared::cta.u32 %r0, "
     "[shc];",
     'r', 0x1ull, 0x4eull, 0x0ull, 0x4eull, 0},
    {"address with +- offset", "add.u64 %rd4, %rd10, 8; ld.global.u32 %r0, [%rd4+-8];", 'r',
     0x4full, 0x0ull, 0x0ull, 0x4full, 0},
    {"cvt.rn.satfinite.f16.f32 clamps to 65504",
     "cvt.rn.satfinite.f16.f32 %h0, %f1; cvt.u32.u16 %r0, %h0;", 'r', 0x7f800000ull, 0x0ull, 0x0ull,
     0x7bffull, 0},
    {"cvt.rn.relu.f16.f32 clamps negatives to +0",
     "cvt.rn.relu.f16.f32 %h0, %f1; cvt.u32.u16 %r0, %h0;", 'r', 0xbf800000ull, 0x0ull, 0x0ull,
     0x0ull, 0},
    {"fns.b32 finds the 2nd set bit from base 0", "fns.b32 %r0, %r1, 0, 2;", 'r', 0x50ull, 0x0ull,
     0x0ull, 0x6ull, 0},
    {"fns.b32 negative offset searches down", "fns.b32 %r0, %r1, 31, -1;", 'r', 0x50ull, 0x0ull,
     0x0ull, 0x6ull, 0},
    {"fns.b32 not found is 0xffffffff", "fns.b32 %r0, %r1, 7, 1;", 'r', 0x50ull, 0x0ull, 0x0ull,
     0xffffffffull, 0},
    /* bmsk (PTX ISA §9.7.1.21): d = mask0 & ~mask1 with the ISA's overflow rules */
    {"bmsk.wrap.b32 1, 2 is 0x6 (the ISA's example)", "bmsk.wrap.b32 %r0, 1, 2;", 'r', 0x0ull,
     0x0ull, 0x0ull, 0x6ull, 0},
    {"bmsk.clamp.b32 width of 32 or more runs to bit 31", "bmsk.clamp.b32 %r0, %r1, %r2;", 'r',
     0x4ull, 0x28ull, 0x0ull, 0xfffffff0ull, 0},
    {"bmsk.wrap.b32 wraps the width to its low 5 bits", "bmsk.wrap.b32 %r0, %r1, %r2;", 'r', 0x4ull,
     0x28ull, 0x0ull, 0xff0ull, 0},
    {"bmsk.clamp.b32 position of 32 or more is 0", "bmsk.clamp.b32 %r0, %r1, %r2;", 'r', 0x21ull,
     0x2ull, 0x0ull, 0x0ull, 0},
    {"bmsk.wrap.b32 wraps the position", "bmsk.wrap.b32 %r0, %r1, %r2;", 'r', 0x21ull, 0x2ull,
     0x0ull, 0x6ull, 0},
    {"bmsk.clamp.b32 a field past bit 31 stops there", "bmsk.clamp.b32 %r0, %r1, %r2;", 'r',
     0x1cull, 0x8ull, 0x0ull, 0xf0000000ull, 0},
    {"bmsk.clamp.b32 width 0 is an empty mask", "bmsk.clamp.b32 %r0, %r1, %r2;", 'r', 0x5ull,
     0x0ull, 0x0ull, 0x0ull, 0},
    {"inline-asm scope: registers named without % and a {lo, hi} unpack",
     "{ .reg .b16 lo, hi;\n mov.b32 {lo, hi}, %r1;\n cvt.u32.u16 %r4, hi;\n cvt.u32.u16 %r5, lo; "
     "}\n sub.u32 %r0, %r4, %r5;",
     'r', 0x00090002ull, 0x0ull, 0x0ull, 0x7ull, 0},
    {"mov.b32 pack with a zero element", "mov.b32 %r0, {0, %h1};", 'r', 0xabcdull, 0x0ull, 0x0ull,
     0xabcd0000ull, 0},
    {"atom.global.add.noftz.f16",
     "atom.global.add.noftz.f16 %h4, [%rd10], %h2; ld.global.u16 %r0, [%rd10];", 'r', 0x3c00ull,
     0x3800ull, 0x0ull, 0x3e00ull, 0},
    {"atom.global.add.noftz.f16x2 adds both halves",
     "atom.global.add.noftz.f16x2 %r4, [%rd10], %r2; ld.global.u32 %r0, [%rd10];", 'r',
     0x3c004000ull, 0x3c00bc00ull, 0x0ull, 0x40003c00ull, 0},
    {"atom.global.add.noftz.bf16",
     "atom.global.add.noftz.bf16 %h4, [%rd10], %h2; ld.global.u16 %r0, [%rd10];", 'r', 0x3f80ull,
     0x3f80ull, 0x0ull, 0x4000ull, 0},
    /* SIMD video instructions (PTX ISA §9.7.16.2): expected values from an independent
     * Python model of the ISA's pseudocode (lanes picked from {b, a} by .asel/.bsel,
     * extended by .atype/.btype, exact lane results, .sat to .dtype's lane range, merge
     * with c by .mask or .add into c), spot-checked by hand; an H100 (driver 580, the
     * same rows as one PTX kernel) gave all of them. */
    {"vadd4.u32 wraps each byte", "vadd4.u32.u32.u32 %r0, %r1, %r2, %r3;", 'r', 0x80ff7f01ull,
     0x80017f02ull, 0x0ull, 0xfe03ull, 0},
    {"vadd4.s32.sat clamps each byte to [-128, 127]", "vadd4.s32.s32.s32.sat %r0, %r1, %r2, %r3;",
     'r', 0x80ff7f01ull, 0x80017f02ull, 0x0ull, 0x80007f03ull, 0},
    {"vadd4.u32.sat clamps each byte to [0, 255]", "vadd4.u32.u32.u32.sat %r0, %r1, %r2, %r3;", 'r',
     0x80ff7f01ull, 0x80017f02ull, 0x0ull, 0xfffffe03ull, 0},
    {"vadd2.s32.sat clamps each half-word to [-32768, 32767]",
     "vadd2.s32.s32.s32.sat %r0, %r1, %r2, %r3;", 'r', 0x80007fffull, 0xffff0001ull, 0x0ull,
     0x80007fffull, 0},
    {"vsub4.u32.sat of unsigned bytes stops at 0", "vsub4.u32.u32.u32.sat %r0, %r1, %r2, %r3;", 'r',
     0x10ff0005ull, 0x20000109ull, 0x0ull, 0xff0000ull, 0},
    {"vsub4.u32.s32.s32.sat: signed difference, unsigned range",
     "vsub4.u32.s32.s32.sat %r0, %r1, %r2, %r3;", 'r', 0x7f80ff01ull, 0x807f0102ull, 0x0ull,
     0xff000000ull, 0},
    {"vsub2.s32.sat clamps each half-word", "vsub2.s32.s32.s32.sat %r0, %r1, %r2, %r3;", 'r',
     0x80007fffull, 0x1ffffull, 0x0ull, 0x80007fffull, 0},
    {"vsub2.u32 wraps each half-word", "vsub2.u32.u32.u32 %r0, %r1, %r2, %r3;", 'r', 0x5ull,
     0x10007ull, 0x0ull, 0xfffffffeull, 0},
    {"vavrg4.u32 rounds up: (a + b + 1) >> 1", "vavrg4.u32.u32.u32 %r0, %r1, %r2, %r3;", 'r',
     0xff00ff01ull, 0xff000002ull, 0x0ull, 0xff008002ull, 0},
    {"vavrg4.s32 rounds half away from zero", "vavrg4.s32.s32.s32 %r0, %r1, %r2, %r3;", 'r',
     0xff7f80fdull, 0xfe7f8002ull, 0x0ull, 0xfe7f80ffull, 0},
    {"vavrg2.s32 of -1 and -2 is -2, of 1 and 2 is 2", "vavrg2.s32.s32.s32 %r0, %r1, %r2, %r3;",
     'r', 0xffff0001ull, 0xfffe0002ull, 0x0ull, 0xfffe0002ull, 0},
    {"vabsdiff4.u32 (nvcc's __vabsdiffu4)", "vabsdiff4.u32.u32.u32 %r0, %r1, %r2, %r3;", 'r',
     0xff107full, 0xff001080ull, 0x12345678ull, 0xffff0001ull, 0},
    {"vabsdiff4.u32.add sums into c (nvcc's __vsadu4)",
     "vabsdiff4.u32.u32.u32.add %r0, %r1, %r2, %r3;", 'r', 0xff107full, 0xff001080ull, 0x3e8ull,
     0x5e7ull, 0},
    {"vabsdiff4.u32.add wraps c at 32 bits", "vabsdiff4.u32.u32.u32.add %r0, %r1, %r2, %r3;", 'r',
     0xffffffffull, 0x0ull, 0xfffffc00ull, 0xfffffffcull, 0},
    {"vabsdiff2.u32.add sums half-words into c (nvcc's __vsadu2)",
     "vabsdiff2.u32.u32.u32.add %r0, %r1, %r2, %r3;", 'r', 0xffffull, 0xffff0000ull, 0x7ull,
     0x20005ull, 0},
    {"vabsdiff4.s32 of signed bytes: |-128 - 127| = 255 truncated",
     "vabsdiff4.s32.s32.s32 %r0, %r1, %r2, %r3;", 'r', 0x80ff7f00ull, 0x7f018000ull, 0x0ull,
     0xff02ff00ull, 0},
    {"vabsdiff4.s32.sat clamps |-128 - 127| to 127",
     "vabsdiff4.s32.s32.s32.sat %r0, %r1, %r2, %r3;", 'r', 0x80ff7f00ull, 0x7f018000ull, 0x0ull,
     0x7f027f00ull, 0},
    {"vmin4.s32 and vmin4.u32 differ on 0x80", "vmin4.s32.s32.s32 %r0, %r1, %r2, %r3;", 'r',
     0x80017fffull, 0x7f800001ull, 0x0ull, 0x808000ffull, 0},
    {"vmax4.u32 per byte", "vmax4.u32.u32.u32 %r0, %r1, %r2, %r3;", 'r', 0x80017fffull,
     0x7f800001ull, 0x0ull, 0x80807fffull, 0},
    {"vmin2.u32.s32.u32: a signed, b unsigned", "vmin2.u32.s32.u32 %r0, %r1, %r2, %r3;", 'r',
     0xffff0005ull, 0x38000ull, 0x0ull, 0xffff0005ull, 0},
    {"vmax2.s32.s32.s32.add adds negative lanes to c", "vmax2.s32.s32.s32.add %r0, %r1, %r2, %r3;",
     'r', 0xfff0fffeull, 0xfff1fffdull, 0x64ull, 0x53ull, 0},
    {"vset4.u32.u32.lt gives 1 per byte", "vset4.u32.u32.lt %r0, %r1, %r2, %r3;", 'r', 0x1ff8000ull,
     0x2007f00ull, 0x0ull, 0x1000000ull, 0},
    {"vset4.s32.s32.lt compares signed bytes", "vset4.s32.s32.lt %r0, %r1, %r2, %r3;", 'r',
     0x1ff8000ull, 0x2007f00ull, 0x0ull, 0x1010100ull, 0},
    {"vset4.s32.u32.ge: mixed signedness", "vset4.s32.u32.ge %r0, %r1, %r2, %r3;", 'r',
     0xff80017full, 0xff80017full, 0x0ull, 0x101ull, 0},
    {"vset2.u32.u32.ne.add counts unequal half-words into c",
     "vset2.u32.u32.ne.add %r0, %r1, %r2, %r3;", 'r', 0x10002ull, 0x10003ull, 0x28ull, 0x29ull, 0},
    {"vset2.s32.s32.le compares signed half-words", "vset2.s32.s32.le %r0, %r1, %r2, %r3;", 'r',
     0x8000ffffull, 0x7fff8000ull, 0x0ull, 0x10000ull, 0},
    {"vadd4 with .asel .b0000 and .bsel .b3210 picks bytes of a only",
     "vadd4.u32.u32.u32 %r0, %r1.b0000, %r2.b3210, %r3;", 'r', 0x4030201ull, 0xf0e0d0c0ull, 0x0ull,
     0x5040302ull, 0},
    {"vadd4 selectors reach b's bytes from a (.b7654) and a's from b (.b0123)",
     "vadd4.u32.u32.u32 %r0, %r1.b7654, %r2.b0123, %r3;", 'r', 0x4030201ull, 0x40302010ull, 0x0ull,
     0x41322314ull, 0},
    {"vmax4 mask .b20 keeps c's bytes 3 and 1", "vmax4.u32.u32.u32 %r0.b20, %r1, %r2, %r3;", 'r',
     0x11223344ull, 0x44332211ull, 0xaabbccddull, 0xaa33cc44ull, 0},
    {"vsub2 mask .h0 and selectors .h01/.h23",
     "vsub2.s32.s32.s32.sat %r0.h0, %r1.h01, %r2.h23, %r3;", 'r', 0x7fff8000ull, 0x10002ull,
     0xcafe1234ull, 0xcafe7ffeull, 0},
    {"vabsdiff4.add with mask .b31 adds two lanes",
     "vabsdiff4.u32.u32.u32.add %r0.b31, %r1, %r2, %r3;", 'r', 0x10203040ull, 0x1020304ull, 0x5ull,
     0x41ull, 0},
    {"vset4.u32.u32.eq with mask .b3 and .bsel .b4444",
     "vset4.u32.u32.eq %r0.b3, %r1, %r2.b4444, %r3;", 'r', 0x7000000ull, 0x7ull, 0x11223344ull,
     0x1223344ull, 0},
    {"vavrg2.u32 mask .h1 keeps c's low half-word", "vavrg2.u32.u32.u32 %r0.h1, %r1, %r2, %r3;",
     'r', 0xffff0001ull, 0xfffe0002ull, 0x12345678ull, 0xffff5678ull, 0},
};

START_TEST(test_each_instruction_row_gives_the_expected_bits)
{
    const op_case *oc = &cases[_i];
    uint64_t got = run_scalar(oc);
    if (oc->ulp) {
        uint64_t d = ulp_dist(got, oc->want, oc->kind == 'F');
        ck_assert_msg(d <= oc->ulp, "%s: got 0x%llx, want 0x%llx within %llu ulp (off by %llu)",
                      oc->name, (unsigned long long)got, (unsigned long long)oc->want,
                      (unsigned long long)oc->ulp, (unsigned long long)d);
    } else {
        ck_assert_msg(got == oc->want, "%s: got 0x%llx, want 0x%llx\n  %s", oc->name,
                      (unsigned long long)got, (unsigned long long)oc->want, oc->body);
    }
}
END_TEST

/* ------------------------------------------------------------------ warp rows */

typedef struct warp_case {
    const char *name;
    const char *body;
    unsigned nthreads;
    uint32_t in[32];
    uint32_t want[32];
    uint32_t wantp[32];
    int has_p;
    const char *fault; /* non-NULL: the launch must fault with this in the message */
} warp_case;

static const char warp_head[] =
    ".version 7.8\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 out, .param .u64 in, .param .u64 scratch)\n{\n"
    "  .reg .b32 %r<16>;\n  .reg .b64 %rd<16>;\n  .reg .pred %p<8>;\n"
    "  ld.param.u64 %rd10, [in];\n  ld.param.u64 %rd11, [out];\n"
    "  ld.param.u64 %rd12, [scratch];\n"
    "  mov.u32 %r2, %laneid;\n  mul.wide.u32 %rd13, %r2, 4;\n"
    "  add.u64 %rd10, %rd10, %rd13;\n  add.u64 %rd11, %rd11, %rd13;\n"
    "  ld.global.u32 %r1, [%rd10];\n  mov.u32 %r0, 0;\n  setp.ne.u32 %p0, 0, 0;\n";
static const char warp_tail[] = "\n  st.global.u32 [%rd11], %r0;\n  selp.u32 %r9, 1, 0, %p0;\n"
                                "  st.global.u32 [%rd11+128], %r9;\n  ret;\n}\n";

static const warp_case warp_cases[] = {
    /* bar.red (PTX ISA §9.7.13.1): every thread of the barrier gets the reduction of
     * the predicates c of all of them (__syncthreads_count/_and/_or) */
    {"bar.red.popc.u32 counts the threads whose predicate is true",
     "setp.lt.u32 %p1, %r1, 10;\nbar.red.popc.u32 %r0, 0, %p1;",
     32,
     {1,  20, 3, 40, 5, 60, 7, 80, 9, 100, 11, 120, 13, 140, 15, 160,
      17, 0,  0, 0,  0, 0,  0, 0,  0, 0,   0,  0,   0,  0,   0,  0},
     {20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20,
      20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20},
     {0},
     0,
     NULL},
    {"bar.red.popc.u32 with a negated predicate and a thread count",
     "setp.lt.u32 %p1, %r1, 10;\nbar.red.popc.u32 %r0, 3, 32, !%p1;",
     32,
     {1,  20, 3, 40, 5, 60, 7, 80, 9, 100, 11, 120, 13, 140, 15, 160,
      17, 0,  0, 0,  0, 0,  0, 0,  0, 0,   0,  0,   0,  0,   0,  0},
     {12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12,
      12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12},
     {0},
     0,
     NULL},
    {"bar.red.and.pred is true only if every predicate is",
     "setp.lt.u32 %p1, %r1, 1000;\nbar.red.and.pred %p0, 0, %p1;\nsetp.lt.u32 %p2, %r1, "
     "10;\nbar.red.and.pred %p3, 0, %p2;\nselp.u32 %r0, 1, 0, %p3;",
     32,
     {1,  20, 3, 40, 5, 60, 7, 80, 9, 100, 11, 120, 13, 140, 15, 160,
      17, 0,  0, 0,  0, 0,  0, 0,  0, 0,   0,  0,   0,  0,   0,  0},
     {0},
     {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
      1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
     1,
     NULL},
    {"bar.red.or.pred is true if any predicate is",
     "setp.eq.u32 %p1, %r1, 160;\nbarrier.red.or.pred %p0, 0, %p1;\nsetp.eq.u32 %p2, %r1, "
     "999;\nbar.red.or.pred %p3, 0, %p2;\nselp.u32 %r0, 1, 0, %p3;",
     32,
     {1,  20, 3, 40, 5, 60, 7, 80, 9, 100, 11, 120, 13, 140, 15, 160,
      17, 0,  0, 0,  0, 0,  0, 0,  0, 0,   0,  0,   0,  0,   0,  0},
     {0},
     {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
      1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
     1,
     NULL},
    {"bar.sync with a thread count no warp can complete is a deadlock",
     "bar.sync 1, 64;\nmov.u32 %r0, 1;",
     32,
     {0},
     {0},
     {0},
     0,
     "32 of the 64 threads it counts arrived"},
    {"bar.sync with a thread count that is not a multiple of 32 faults",
     "bar.sync 1, 48;",
     32,
     {0},
     {0},
     {0},
     0,
     "not a positive multiple of the warp size"},
    {"bar.arrive then bar.sync on one warp: the arrivals count toward the phase",
     "bar.arrive 2, 64;\nbar.sync 2, 64;\nmov.u32 %r0, 7;",
     32,
     {0},
     {7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
      7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7},
     {0},
     0,
     NULL},
    {"shfl.sync.down b=1 c=0x1f",
     "shfl.sync.down.b32 %r0|%p0, %r1, 1, 0x1f, 0xffffffff;",
     32,
     {0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49,
      0x50, 0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96,
      0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc},
     {0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49, 0x50,
      0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96, 0x9d,
      0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc, 0xdc},
     {0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1,
      0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x0},
     1,
     NULL},
    {"shfl.sync.down b=16 c=0x1f",
     "shfl.sync.down.b32 %r0|%p0, %r1, 16, 0x1f, 0xffffffff;",
     32,
     {0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49,
      0x50, 0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96,
      0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc},
     {0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96, 0x9d, 0xa4, 0xab, 0xb2, 0xb9,
      0xc0, 0xc7, 0xce, 0xd5, 0xdc, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96,
      0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc},
     {0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1,
      0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0},
     1,
     NULL},
    {"shfl.sync.up b=2 c=0x0",
     "shfl.sync.up.b32 %r0|%p0, %r1, 2, 0x0, 0xffffffff;",
     32,
     {0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49,
      0x50, 0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96,
      0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc},
     {0x3,  0xa,  0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b,
      0x42, 0x49, 0x50, 0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88,
      0x8f, 0x96, 0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce},
     {0x0, 0x0, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1,
      0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1},
     1,
     NULL},
    {"shfl.sync.bfly b=16 c=0x1f",
     "shfl.sync.bfly.b32 %r0|%p0, %r1, 16, 0x1f, 0xffffffff;",
     32,
     {0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49,
      0x50, 0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96,
      0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc},
     {0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96, 0x9d, 0xa4, 0xab, 0xb2, 0xb9,
      0xc0, 0xc7, 0xce, 0xd5, 0xdc, 0x3,  0xa,  0x11, 0x18, 0x1f, 0x26,
      0x2d, 0x34, 0x3b, 0x42, 0x49, 0x50, 0x57, 0x5e, 0x65, 0x6c},
     {0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1,
      0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1},
     1,
     NULL},
    {"shfl.sync.bfly b=3 c=0x1f",
     "shfl.sync.bfly.b32 %r0|%p0, %r1, 3, 0x1f, 0xffffffff;",
     32,
     {0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49,
      0x50, 0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96,
      0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc},
     {0x18, 0x11, 0xa,  0x3,  0x34, 0x2d, 0x26, 0x1f, 0x50, 0x49, 0x42,
      0x3b, 0x6c, 0x65, 0x5e, 0x57, 0x88, 0x81, 0x7a, 0x73, 0xa4, 0x9d,
      0x96, 0x8f, 0xc0, 0xb9, 0xb2, 0xab, 0xdc, 0xd5, 0xce, 0xc7},
     {0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1,
      0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1},
     1,
     NULL},
    {"shfl.sync.idx b=5 c=0x1f",
     "shfl.sync.idx.b32 %r0|%p0, %r1, 5, 0x1f, 0xffffffff;",
     32,
     {0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49,
      0x50, 0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96,
      0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc},
     {0x26, 0x26, 0x26, 0x26, 0x26, 0x26, 0x26, 0x26, 0x26, 0x26, 0x26,
      0x26, 0x26, 0x26, 0x26, 0x26, 0x26, 0x26, 0x26, 0x26, 0x26, 0x26,
      0x26, 0x26, 0x26, 0x26, 0x26, 0x26, 0x26, 0x26, 0x26, 0x26},
     {0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1,
      0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1},
     1,
     NULL},
    {"shfl.sync.idx b=3 c=0x181f",
     "shfl.sync.idx.b32 %r0|%p0, %r1, 3, 0x181f, 0xffffffff;",
     32,
     {0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49,
      0x50, 0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96,
      0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc},
     {0x18, 0x18, 0x18, 0x18, 0x18, 0x18, 0x18, 0x18, 0x50, 0x50, 0x50,
      0x50, 0x50, 0x50, 0x50, 0x50, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88,
      0x88, 0x88, 0xc0, 0xc0, 0xc0, 0xc0, 0xc0, 0xc0, 0xc0, 0xc0},
     {0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1,
      0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1},
     1,
     NULL},
    {"shfl.sync.down b=2 c=0x181f",
     "shfl.sync.down.b32 %r0|%p0, %r1, 2, 0x181f, 0xffffffff;",
     32,
     {0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49,
      0x50, 0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96,
      0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc},
     {0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x2d, 0x34, 0x49, 0x50, 0x57,
      0x5e, 0x65, 0x6c, 0x65, 0x6c, 0x81, 0x88, 0x8f, 0x96, 0x9d, 0xa4,
      0x9d, 0xa4, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc, 0xd5, 0xdc},
     {0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x0, 0x0, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x0, 0x0,
      0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x0, 0x0, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x0, 0x0},
     1,
     NULL},
    {"shfl.sync.up b=1 c=0x1800",
     "shfl.sync.up.b32 %r0|%p0, %r1, 1, 0x1800, 0xffffffff;",
     32,
     {0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49,
      0x50, 0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96,
      0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc},
     {0x3,  0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x3b, 0x3b, 0x42,
      0x49, 0x50, 0x57, 0x5e, 0x65, 0x73, 0x73, 0x7a, 0x81, 0x88, 0x8f,
      0x96, 0x9d, 0xab, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5},
     {0x0, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x0, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1,
      0x0, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x0, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1},
     1,
     NULL},
    {"shfl.sync.bfly b=1 c=0x1c1f",
     "shfl.sync.bfly.b32 %r0|%p0, %r1, 1, 0x1c1f, 0xffffffff;",
     32,
     {0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49,
      0x50, 0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96,
      0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc},
     {0xa,  0x3,  0x18, 0x11, 0x26, 0x1f, 0x34, 0x2d, 0x42, 0x3b, 0x50,
      0x49, 0x5e, 0x57, 0x6c, 0x65, 0x7a, 0x73, 0x88, 0x81, 0x96, 0x8f,
      0xa4, 0x9d, 0xb2, 0xab, 0xc0, 0xb9, 0xce, 0xc7, 0xdc, 0xd5},
     {0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1,
      0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1},
     1,
     NULL},
    {"shfl.sync.idx b=37 c=0x1f",
     "shfl.sync.idx.b32 %r0|%p0, %r1, 37, 0x1f, 0xffffffff;",
     32,
     {0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49,
      0x50, 0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96,
      0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc},
     {0x26, 0x26, 0x26, 0x26, 0x26, 0x26, 0x26, 0x26, 0x26, 0x26, 0x26,
      0x26, 0x26, 0x26, 0x26, 0x26, 0x26, 0x26, 0x26, 0x26, 0x26, 0x26,
      0x26, 0x26, 0x26, 0x26, 0x26, 0x26, 0x26, 0x26, 0x26, 0x26},
     {0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1,
      0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1},
     1,
     NULL},
    {"shfl.sync.down with register b, c and membermask",
     "mov.u32 %r5, 4; mov.u32 %r6, 31; mov.u32 %r7, -1; shfl.sync.down.b32 %r0, %r1, %r5, %r6, "
     "%r7;",
     32,
     {0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49,
      0x50, 0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96,
      0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc},
     {0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49, 0x50, 0x57, 0x5e, 0x65,
      0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96, 0x9d, 0xa4, 0xab, 0xb2,
      0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc, 0xc7, 0xce, 0xd5, 0xdc},
     {0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
      0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0},
     0,
     NULL},
    {"warp sum by shfl.sync.down (lane 0 has the total)",
     "mov.u32 %r0, %r1;\nshfl.sync.down.b32 %r4, %r0, 16, 31, -1; add.u32 %r0, %r0, "
     "%r4;\nshfl.sync.down.b32 %r4, %r0, 8, 31, -1; add.u32 %r0, %r0, %r4;\nshfl.sync.down.b32 "
     "%r4, %r0, 4, 31, -1; add.u32 %r0, %r0, %r4;\nshfl.sync.down.b32 %r4, %r0, 2, 31, -1; add.u32 "
     "%r0, %r0, %r4;\nshfl.sync.down.b32 %r4, %r0, 1, 31, -1; add.u32 %r0, %r0, %r4;\n",
     32,
     {0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49,
      0x50, 0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96,
      0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc},
     {0xdf0,  0xe60,  0xed0,  0xf40,  0xfb0,  0x1020, 0x1090, 0x1100, 0x1170, 0x11e0, 0x1250,
      0x12c0, 0x1330, 0x13a0, 0x1410, 0x1480, 0x14f0, 0x1560, 0x15d0, 0x1640, 0x16b0, 0x1720,
      0x1790, 0x1800, 0x1870, 0x18e0, 0x1950, 0x19c0, 0x1a30, 0x1aa0, 0x1b10, 0x1b80},
     {0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
      0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0},
     0,
     NULL},
    {"inclusive warp scan by shfl.sync.up",
     "mov.u32 %r0, %r1;\nshfl.sync.up.b32 %r4|%p4, %r0, 1, 0, -1; @%p4 add.u32 %r0, %r0, "
     "%r4;\nshfl.sync.up.b32 %r4|%p4, %r0, 2, 0, -1; @%p4 add.u32 %r0, %r0, %r4;\nshfl.sync.up.b32 "
     "%r4|%p4, %r0, 4, 0, -1; @%p4 add.u32 %r0, %r0, %r4;\nshfl.sync.up.b32 %r4|%p4, %r0, 8, 0, "
     "-1; @%p4 add.u32 %r0, %r0, %r4;\nshfl.sync.up.b32 %r4|%p4, %r0, 16, 0, -1; @%p4 add.u32 %r0, "
     "%r0, %r4;\n",
     32,
     {0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49,
      0x50, 0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96,
      0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc},
     {0x3,   0xd,   0x1e,  0x36,  0x55,  0x7b,  0xa8,  0xdc,  0x117, 0x159, 0x1a2,
      0x1f2, 0x249, 0x2a7, 0x30c, 0x378, 0x3eb, 0x465, 0x4e6, 0x56e, 0x5fd, 0x693,
      0x730, 0x7d4, 0x87f, 0x931, 0x9ea, 0xaaa, 0xb71, 0xc3f, 0xd14, 0xdf0},
     {0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
      0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0},
     0,
     NULL},
    {"vote.sync.ballot.b32",
     "rem.u32 %r5, %r1, 3; setp.eq.u32 %p5, %r5, 0;\nvote.sync.ballot.b32 %r0, %p5, 0xffffffff;",
     32,
     {0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49,
      0x50, 0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96,
      0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc},
     {0x49249249, 0x49249249, 0x49249249, 0x49249249, 0x49249249, 0x49249249, 0x49249249,
      0x49249249, 0x49249249, 0x49249249, 0x49249249, 0x49249249, 0x49249249, 0x49249249,
      0x49249249, 0x49249249, 0x49249249, 0x49249249, 0x49249249, 0x49249249, 0x49249249,
      0x49249249, 0x49249249, 0x49249249, 0x49249249, 0x49249249, 0x49249249, 0x49249249,
      0x49249249, 0x49249249, 0x49249249, 0x49249249},
     {0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
      0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0},
     0,
     NULL},
    {"vote.sync.ballot.b32 of !p",
     "rem.u32 %r5, %r1, 3; setp.eq.u32 %p5, %r5, 0;\nvote.sync.ballot.b32 %r0, !%p5, 0xffffffff;",
     32,
     {0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49,
      0x50, 0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96,
      0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc},
     {0xb6db6db6, 0xb6db6db6, 0xb6db6db6, 0xb6db6db6, 0xb6db6db6, 0xb6db6db6, 0xb6db6db6,
      0xb6db6db6, 0xb6db6db6, 0xb6db6db6, 0xb6db6db6, 0xb6db6db6, 0xb6db6db6, 0xb6db6db6,
      0xb6db6db6, 0xb6db6db6, 0xb6db6db6, 0xb6db6db6, 0xb6db6db6, 0xb6db6db6, 0xb6db6db6,
      0xb6db6db6, 0xb6db6db6, 0xb6db6db6, 0xb6db6db6, 0xb6db6db6, 0xb6db6db6, 0xb6db6db6,
      0xb6db6db6, 0xb6db6db6, 0xb6db6db6, 0xb6db6db6},
     {0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
      0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0},
     0,
     NULL},
    {"vote.sync.any.pred",
     "rem.u32 %r5, %r1, 3; setp.eq.u32 %p5, %r5, 0;\nvote.sync.any.pred %p0, %p5, 0xffffffff;",
     32,
     {0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49,
      0x50, 0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96,
      0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc},
     {0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
      0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0},
     {0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1,
      0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1},
     1,
     NULL},
    {"vote.sync.all.pred is false when some lanes are false",
     "rem.u32 %r5, %r1, 3; setp.eq.u32 %p5, %r5, 0;\nvote.sync.all.pred %p0, %p5, 0xffffffff;",
     32,
     {0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49,
      0x50, 0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96,
      0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc},
     {0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
      0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0},
     {0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
      0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0},
     1,
     NULL},
    {"vote.sync.all.pred true",
     "setp.lt.u32 %p5, %r2, 32; vote.sync.all.pred %p0, %p5, 0xffffffff;",
     32,
     {0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49,
      0x50, 0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96,
      0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc},
     {0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
      0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0},
     {0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1,
      0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1},
     1,
     NULL},
    {"vote.sync.uni.pred",
     "rem.u32 %r5, %r1, 3; setp.eq.u32 %p5, %r5, 0;\nvote.sync.uni.pred %p0, %p5, 0xffffffff;",
     32,
     {0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49,
      0x50, 0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96,
      0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc},
     {0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
      0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0},
     {0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
      0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0},
     1,
     NULL},
    {"vote.sync.uni.pred when all agree",
     "setp.lt.u32 %p5, %r2, 99; vote.sync.uni.pred %p0, %p5, 0xffffffff;",
     32,
     {0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49,
      0x50, 0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96,
      0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc},
     {0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
      0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0},
     {0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1,
      0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1},
     1,
     NULL},
    {"vote.sync.ballot with partial masks in divergent branches",
     "rem.u32 %r5, %r1, 3; setp.eq.u32 %p5, %r5, 0;\nsetp.lt.u32 %p6, %r2, 16;\n@%p6 bra "
     "LO;\nvote.sync.ballot.b32 %r0, %p5, 0xffff0000;\nbra DONE;\nLO:\nvote.sync.ballot.b32 %r0, "
     "%p5, 0x0000ffff;\nDONE:",
     32,
     {0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49,
      0x50, 0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96,
      0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc},
     {0x9249,     0x9249,     0x9249,     0x9249,     0x9249,     0x9249,     0x9249,
      0x9249,     0x9249,     0x9249,     0x9249,     0x9249,     0x9249,     0x9249,
      0x9249,     0x9249,     0x49240000, 0x49240000, 0x49240000, 0x49240000, 0x49240000,
      0x49240000, 0x49240000, 0x49240000, 0x49240000, 0x49240000, 0x49240000, 0x49240000,
      0x49240000, 0x49240000, 0x49240000, 0x49240000},
     {0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
      0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0},
     0,
     NULL},
    {"activemask inside a branch taken by lanes 0..9",
     "setp.lt.u32 %p6, %r2, 10;\n@!%p6 bra DONE;\nactivemask.b32 %r0;\nDONE:",
     32,
     {0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49,
      0x50, 0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96,
      0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc},
     {0x3ff, 0x3ff, 0x3ff, 0x3ff, 0x3ff, 0x3ff, 0x3ff, 0x3ff, 0x3ff, 0x3ff, 0x0,
      0x0,   0x0,   0x0,   0x0,   0x0,   0x0,   0x0,   0x0,   0x0,   0x0,   0x0,
      0x0,   0x0,   0x0,   0x0,   0x0,   0x0,   0x0,   0x0,   0x0,   0x0},
     {0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
      0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0},
     0,
     NULL},
    {"match.any.sync.b32 groups equal values",
     "rem.u32 %r5, %r2, 4; match.any.sync.b32 %r0, %r5, 0xffffffff;",
     32,
     {0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49,
      0x50, 0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96,
      0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc},
     {0x11111111, 0x22222222, 0x44444444, 0x88888888, 0x11111111, 0x22222222, 0x44444444,
      0x88888888, 0x11111111, 0x22222222, 0x44444444, 0x88888888, 0x11111111, 0x22222222,
      0x44444444, 0x88888888, 0x11111111, 0x22222222, 0x44444444, 0x88888888, 0x11111111,
      0x22222222, 0x44444444, 0x88888888, 0x11111111, 0x22222222, 0x44444444, 0x88888888,
      0x11111111, 0x22222222, 0x44444444, 0x88888888},
     {0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
      0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0},
     0,
     NULL},
    {"match.all.sync.b32 when all equal",
     "mov.u32 %r5, 9; match.all.sync.b32 %r0|%p0, %r5, 0xffffffff;",
     32,
     {0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49,
      0x50, 0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96,
      0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc},
     {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff,
      0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff,
      0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff,
      0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff,
      0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
     {0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1,
      0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1},
     1,
     NULL},
    {"match.all.sync.b32 when not all equal",
     "match.all.sync.b32 %r0|%p0, %r2, 0xffffffff;",
     32,
     {0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49,
      0x50, 0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96,
      0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc},
     {0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
      0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0},
     {0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
      0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0},
     1,
     NULL},
    {"match.any.sync.b64",
     "cvt.u64.u32 %rd5, %r2; shr.u64 %rd5, %rd5, 3; match.any.sync.b64 %r0, %rd5, 0xffffffff;",
     32,
     {0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49,
      0x50, 0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96,
      0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc},
     {0xff,       0xff,       0xff,       0xff,       0xff,       0xff,       0xff,
      0xff,       0xff00,     0xff00,     0xff00,     0xff00,     0xff00,     0xff00,
      0xff00,     0xff00,     0xff0000,   0xff0000,   0xff0000,   0xff0000,   0xff0000,
      0xff0000,   0xff0000,   0xff0000,   0xff000000, 0xff000000, 0xff000000, 0xff000000,
      0xff000000, 0xff000000, 0xff000000, 0xff000000},
     {0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
      0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0},
     0,
     NULL},
    {"redux.sync.add.u32",
     "redux.sync.add.u32 %r0, %r1, 0xffffffff;",
     32,
     {0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49,
      0x50, 0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96,
      0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc},
     {0xdf0, 0xdf0, 0xdf0, 0xdf0, 0xdf0, 0xdf0, 0xdf0, 0xdf0, 0xdf0, 0xdf0, 0xdf0,
      0xdf0, 0xdf0, 0xdf0, 0xdf0, 0xdf0, 0xdf0, 0xdf0, 0xdf0, 0xdf0, 0xdf0, 0xdf0,
      0xdf0, 0xdf0, 0xdf0, 0xdf0, 0xdf0, 0xdf0, 0xdf0, 0xdf0, 0xdf0, 0xdf0},
     {0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
      0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0},
     0,
     NULL},
    {"redux.sync.min.s32 with negatives",
     "sub.u32 %r5, %r1, 100; redux.sync.min.s32 %r0, %r5, 0xffffffff;",
     32,
     {0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49,
      0x50, 0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96,
      0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc},
     {0xffffff9f, 0xffffff9f, 0xffffff9f, 0xffffff9f, 0xffffff9f, 0xffffff9f, 0xffffff9f,
      0xffffff9f, 0xffffff9f, 0xffffff9f, 0xffffff9f, 0xffffff9f, 0xffffff9f, 0xffffff9f,
      0xffffff9f, 0xffffff9f, 0xffffff9f, 0xffffff9f, 0xffffff9f, 0xffffff9f, 0xffffff9f,
      0xffffff9f, 0xffffff9f, 0xffffff9f, 0xffffff9f, 0xffffff9f, 0xffffff9f, 0xffffff9f,
      0xffffff9f, 0xffffff9f, 0xffffff9f, 0xffffff9f},
     {0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
      0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0},
     0,
     NULL},
    {"redux.sync.max.u32",
     "sub.u32 %r5, %r1, 100; redux.sync.max.u32 %r0, %r5, 0xffffffff;",
     32,
     {0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49,
      0x50, 0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96,
      0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc},
     {0xfffffffa, 0xfffffffa, 0xfffffffa, 0xfffffffa, 0xfffffffa, 0xfffffffa, 0xfffffffa,
      0xfffffffa, 0xfffffffa, 0xfffffffa, 0xfffffffa, 0xfffffffa, 0xfffffffa, 0xfffffffa,
      0xfffffffa, 0xfffffffa, 0xfffffffa, 0xfffffffa, 0xfffffffa, 0xfffffffa, 0xfffffffa,
      0xfffffffa, 0xfffffffa, 0xfffffffa, 0xfffffffa, 0xfffffffa, 0xfffffffa, 0xfffffffa,
      0xfffffffa, 0xfffffffa, 0xfffffffa, 0xfffffffa},
     {0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
      0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0},
     0,
     NULL},
    {"redux.sync.and.b32",
     "redux.sync.and.b32 %r0, %r1, 0xffffffff;",
     32,
     {0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49,
      0x50, 0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96,
      0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc},
     {0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
      0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0},
     {0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
      0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0},
     0,
     NULL},
    {"redux.sync.or.b32",
     "redux.sync.or.b32 %r0, %r1, 0xffffffff;",
     32,
     {0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49,
      0x50, 0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96,
      0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc},
     {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
      0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
      0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
     {0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
      0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0},
     0,
     NULL},
    {"redux.sync.xor.b32",
     "redux.sync.xor.b32 %r0, %r1, 0xffffffff;",
     32,
     {0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49,
      0x50, 0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96,
      0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc},
     {0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
      0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0},
     {0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
      0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0},
     0,
     NULL},
    {"shfl.sync waits for every lane in membermask (lanes arrive from different paths)",
     "setp.ge.u32 %p6, %r2, 16;\n@%p6 bra LATE;\nSHFL:\nshfl.sync.idx.b32 %r0, %r1, 31, 31, "
     "0xffffffff;\nbra DONE;\nLATE:\nadd.u32 %r1, %r1, 100;\nbra SHFL;\nDONE:",
     32,
     {0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49,
      0x50, 0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96,
      0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc},
     {0x140, 0x140, 0x140, 0x140, 0x140, 0x140, 0x140, 0x140, 0x140, 0x140, 0x140,
      0x140, 0x140, 0x140, 0x140, 0x140, 0x140, 0x140, 0x140, 0x140, 0x140, 0x140,
      0x140, 0x140, 0x140, 0x140, 0x140, 0x140, 0x140, 0x140, 0x140, 0x140},
     {0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
      0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0},
     0,
     NULL},
    {"bar.warp.sync at different PCs synchronises the warp",
     "setp.lt.u32 %p6, %r2, 16;\n@%p6 bra A;\nst.volatile.global.u32 [%rd12+4], 55;\nbar.warp.sync "
     "0xffffffff;\nld.volatile.global.u32 %r0, [%rd12];\nbra DONE;\nA:\nst.volatile.global.u32 "
     "[%rd12], 44;\nbar.warp.sync 0xffffffff;\nld.volatile.global.u32 %r0, [%rd12+4];\nDONE:",
     32,
     {0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49,
      0x50, 0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96,
      0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc},
     {0x37, 0x37, 0x37, 0x37, 0x37, 0x37, 0x37, 0x37, 0x37, 0x37, 0x37,
      0x37, 0x37, 0x37, 0x37, 0x37, 0x2c, 0x2c, 0x2c, 0x2c, 0x2c, 0x2c,
      0x2c, 0x2c, 0x2c, 0x2c, 0x2c, 0x2c, 0x2c, 0x2c, 0x2c, 0x2c},
     {0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
      0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0},
     0,
     NULL},
    {"intra-warp atom.cas spin lock terminates with every lane's update",
     "LOCK:\natom.global.cas.b32 %r5, [%rd12], 0, 1;\nsetp.ne.u32 %p5, %r5, 0;\n@%p5 bra "
     "LOCK;\nld.volatile.global.u32 %r6, [%rd12+4];\nadd.u32 %r6, %r6, "
     "%r1;\nst.volatile.global.u32 [%rd12+4], %r6;\natom.global.exch.b32 %r7, [%rd12], "
     "0;\nbar.warp.sync 0xffffffff;\nld.volatile.global.u32 %r0, [%rd12+4];",
     32,
     {0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49,
      0x50, 0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96,
      0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc},
     {0xdf0, 0xdf0, 0xdf0, 0xdf0, 0xdf0, 0xdf0, 0xdf0, 0xdf0, 0xdf0, 0xdf0, 0xdf0,
      0xdf0, 0xdf0, 0xdf0, 0xdf0, 0xdf0, 0xdf0, 0xdf0, 0xdf0, 0xdf0, 0xdf0, 0xdf0,
      0xdf0, 0xdf0, 0xdf0, 0xdf0, 0xdf0, 0xdf0, 0xdf0, 0xdf0, 0xdf0, 0xdf0},
     {0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
      0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0},
     0,
     NULL},
    {"lane 0 spinning on a flag that lane 31 sets terminates",
     "setp.ne.u32 %p6, %r2, 0;\n@%p6 bra OTHERS;\nWAIT:\nld.volatile.global.u32 %r5, "
     "[%rd12+8];\nsetp.eq.u32 %p5, %r5, 0;\n@%p5 bra WAIT;\nmov.u32 %r0, %r5;\nbra "
     "DONE;\nOTHERS:\nsetp.ne.u32 %p7, %r2, 31;\n@%p7 bra DONE;\nst.volatile.global.u32 [%rd12+8], "
     "7;\nDONE:",
     32,
     {0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49,
      0x50, 0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96,
      0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc},
     {0x7, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
      0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0},
     {0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
      0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0},
     0,
     NULL},
    {"shfl.sync with a full mask in a 20-thread block",
     "shfl.sync.bfly.b32 %r0, %r1, 1, 31, 0xffffffff;",
     20,
     {0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49,
      0x50, 0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96,
      0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc},
     {0xa,  0x3,  0x18, 0x11, 0x26, 0x1f, 0x34, 0x2d, 0x42, 0x3b, 0x50,
      0x49, 0x5e, 0x57, 0x6c, 0x65, 0x7a, 0x73, 0x88, 0x81, 0x0,  0x0,
      0x0,  0x0,  0x0,  0x0,  0x0,  0x0,  0x0,  0x0,  0x0,  0x0},
     {0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
      0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0},
     0,
     NULL},
    {"warp-sync ops do not wait for exited lanes",
     "setp.ge.u32 %p6, %r2, 8;\n@%p6 exit;\nredux.sync.add.u32 %r0, %r1, 0xffffffff;",
     32,
     {0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49,
      0x50, 0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96,
      0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc},
     {0xdc, 0xdc, 0xdc, 0xdc, 0xdc, 0xdc, 0xdc, 0xdc, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
      0x0,  0x0,  0x0,  0x0,  0x0,  0x0,  0x0,  0x0,  0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0},
     {0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
      0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0},
     0,
     NULL},
    {"lanes waiting at different warp-sync instructions are a deadlock fault",
     "setp.lt.u32 %p6, %r2, 16;\n@%p6 bra A;\nshfl.sync.idx.b32 %r0, %r1, 0, 31, 0xffffffff;\nbra "
     "DONE;\nA:\nvote.sync.ballot.b32 %r0, %p6, 0xffffffff;\nDONE:",
     32,
     {0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49,
      0x50, 0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96,
      0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc},
     {0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
      0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0},
     {0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
      0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0},
     0,
     "deadlock in warp 0"},
    {"a spin on a plain (non-volatile) load also yields, later",
     "setp.ne.u32 %p6, %r2, 0;\n@%p6 bra OTHERS;\nWAIT:\nld.global.u32 %r5, "
     "[%rd12+8];\nsetp.eq.u32 %p5, %r5, 0;\n@%p5 bra WAIT;\nmov.u32 %r0, %r5;\nbra "
     "DONE;\nOTHERS:\nsetp.ne.u32 %p7, %r2, 31;\n@%p7 bra DONE;\nst.global.u32 [%rd12+8], "
     "9;\nDONE:",
     32,
     {0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49,
      0x50, 0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96,
      0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc},
     {0x9, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
      0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0},
     {0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
      0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0},
     0,
     NULL},
    {"a data-dependent loop keeps min-PC reconvergence (no early yield)",
     "mov.u32 %r5, 0;\nmul.lo.u32 %r6, %r2, 3;\nLOOP:\nsetp.ge.u32 %p5, %r5, %r6;\n@%p5 bra "
     "AFTER;\nadd.u32 %r5, %r5, 1;\nbra LOOP;\nAFTER:\nactivemask.b32 %r0;",
     32,
     {0x3,  0xa,  0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49,
      0x50, 0x57, 0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96,
      0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc},
     {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff,
      0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff,
      0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff,
      0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff,
      0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
     {0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
      0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0},
     0,
     NULL},
};

START_TEST(test_each_warp_row_gives_the_expected_lanes)
{
    const warp_case *wc = &warp_cases[_i];
    size_t n = strlen(warp_head) + strlen(wc->body) + strlen(warp_tail) + 1;
    char *text = malloc(n);
    ck_assert_ptr_nonnull(text);
    snprintf(text, n, "%s%s%s", warp_head, wc->body, warp_tail);
    ptx_module_t *m = NULL;
    char *diag = NULL;
    sim_status st = ptx_parse(text, strlen(text), wc->name, &m, &diag);
    ck_assert_msg(st == SIM_OK, "%s: parse failed:\n%s", wc->name, diag ? diag : "");
    free(diag);
    sim_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.step_limit = 1000000;
    sim_t *s = sim_new(&cfg);
    uint32_t out[64];
    uint32_t scratch[16];
    memset(out, 0, sizeof out);
    memset(scratch, 0, sizeof scratch);
    uint64_t din = 0, dout = 0, dscr = 0;
    ck_assert_int_eq(sim_malloc(s, sizeof wc->in, "in", &din), SIM_OK);
    ck_assert_int_eq(sim_malloc(s, sizeof out, "out", &dout), SIM_OK);
    ck_assert_int_eq(sim_malloc(s, sizeof scratch, "scratch", &dscr), SIM_OK);
    sim_memcpy_htod(s, din, wc->in, sizeof wc->in);
    sim_memcpy_htod(s, dout, out, sizeof out);
    sim_memcpy_htod(s, dscr, scratch, sizeof scratch);
    void *params[] = {&dout, &din, &dscr};
    unsigned g[3] = {1, 1, 1}, b[3] = {wc->nthreads, 1, 1};
    sim_result res;
    st = sim_launch(s, m, "k", g, b, 0, params, &res);
    if (wc->fault) {
        ck_assert_msg(st == SIM_ERR_FAULT, "%s: expected a fault, got status %d", wc->name, st);
        ck_assert_msg(strstr(res.fault.message, wc->fault) != NULL, "%s: fault message '%s'",
                      wc->name, res.fault.message);
    } else {
        ck_assert_msg(st == SIM_OK, "%s: launch failed: %s", wc->name, res.fault.message);
        sim_memcpy_dtoh(s, out, dout, sizeof out);
        for (unsigned l = 0; l < wc->nthreads; l++) {
            ck_assert_msg(out[l] == wc->want[l], "%s: lane %u: got 0x%x, want 0x%x", wc->name, l,
                          out[l], wc->want[l]);
            if (wc->has_p)
                ck_assert_msg(out[32 + l] == wc->wantp[l], "%s: lane %u: p got %u, want %u",
                              wc->name, l, out[32 + l], wc->wantp[l]);
        }
    }
    sim_result_free(&res);
    sim_free(s);
    ptx_module_free(m);
    free(text);
}
END_TEST

/* ------------------------------------------------------------------ real kernels */
/* tests/kernels/ops/NAME.cu compiled by nvcc -O3, nvcc -G and clang -O2
 * (tests/fixtures/ptx/NAME.{nvcc,nvccG,clang}.ptx, tools/gen_ptx_fixtures.sh). Loop
 * index: 0 nvcc, 1 nvcc -G, 2 clang (kernels that need CUDA headers skip clang). */

static const char *const kcompilers[] = {"nvcc", "nvccG", "clang"};

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf)
        buf[n] = 0;
    *len = (size_t)n;
    return buf;
}

/* The fixture for compiler ci, or NULL when that compiler has none (clang for kernels
 * that need CUDA headers). */
static ptx_module_t *kload(const char *name, int ci)
{
    char path[256];
    snprintf(path, sizeof path, "tests/fixtures/ptx/%s.%s.ptx", name, kcompilers[ci]);
    size_t len;
    char *text = slurp(path, &len);
    if (!text && ci == 2)
        return NULL;
    ck_assert_msg(text != NULL, "cannot read %s (run tests from the repo root)", path);
    ptx_module_t *m = NULL;
    char *diag = NULL;
    sim_status st = ptx_parse(text, len, path, &m, &diag);
    ck_assert_msg(st == SIM_OK, "parse of %s failed:\n%s", path, diag ? diag : "");
    free(text);
    free(diag);
    return m;
}

static uint64_t dev(sim_t *s, const void *data, size_t bytes)
{
    uint64_t d = 0;
    ck_assert_int_eq(sim_malloc(s, bytes, "buf", &d), SIM_OK);
    if (data)
        ck_assert_int_eq(sim_memcpy_htod(s, d, data, bytes), SIM_OK);
    else {
        void *z = calloc(1, bytes);
        sim_memcpy_htod(s, d, z, bytes);
        free(z);
    }
    return d;
}

static int _kci; /* the compiler of the running kernel test, for messages */

static void klaunch(sim_t *s, ptx_module_t *m, const char *k, unsigned grid, unsigned block,
                    void **params, sim_result *res)
{
    unsigned g[3] = {grid, 1, 1}, b[3] = {block, 1, 1};
    sim_status st = sim_launch(s, m, k, g, b, 0, params, res);
    ck_assert_msg(st == SIM_OK, "%s (%s): launch failed: %s", k, kcompilers[_kci],
                  res->fault.message);
}

START_TEST(test_warp_reduce_by_shfl_down_sums_each_warp)
{
    _kci = _i;
    ptx_module_t *m = kload("warp_reduce", _i);
    sim_t *s = sim_new(NULL);
    enum { N = 100, T = 128 };
    int in[N], out[T / 32];
    for (int i = 0; i < N; i++)
        in[i] = i * 3 - 100;
    uint64_t din = dev(s, in, sizeof in), dout = dev(s, NULL, sizeof out);
    int n = N;
    void *p[] = {&din, &dout, &n};
    sim_result res;
    klaunch(s, m, "warp_reduce", 2, 64, p, &res);
    sim_memcpy_dtoh(s, out, dout, sizeof out);
    for (int w = 0; w < T / 32; w++) {
        int want = 0;
        for (int i = w * 32; i < w * 32 + 32 && i < N; i++)
            want += in[i];
        ck_assert_msg(out[w] == want, "warp %d: got %d want %d", w, out[w], want);
    }
    sim_result_free(&res);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_warp_scan_by_shfl_up_gives_inclusive_and_segmented_scans)
{
    _kci = _i;
    ptx_module_t *m = kload("warp_scan", _i);
    sim_t *s = sim_new(NULL);
    enum { T = 64 };
    int in[T], out[T], seg[T];
    for (int i = 0; i < T; i++)
        in[i] = (i * 7) % 13 - 5;
    uint64_t din = dev(s, in, sizeof in), dout = dev(s, NULL, sizeof out),
             dseg = dev(s, NULL, sizeof seg);
    void *p[] = {&din, &dout, &dseg};
    sim_result res;
    klaunch(s, m, "warp_scan", 1, T, p, &res);
    sim_memcpy_dtoh(s, out, dout, sizeof out);
    sim_memcpy_dtoh(s, seg, dseg, sizeof seg);
    for (int i = 0; i < T; i++) {
        int w = 0, g = 0;
        for (int k = i & ~31; k <= i; k++)
            w += in[k];
        for (int k = i & ~7; k <= i; k++)
            g += in[k];
        ck_assert_msg(out[i] == w, "scan %d: got %d want %d", i, out[i], w);
        ck_assert_msg(seg[i] == g, "segmented scan %d: got %d want %d", i, seg[i], g);
    }
    sim_result_free(&res);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_vote_ballot_any_all_and_partial_masks)
{
    _kci = _i;
    ptx_module_t *m = kload("vote", _i);
    sim_t *s = sim_new(NULL);
    enum { T = 64 };
    int in[T], any[T], all[T];
    unsigned ballot[T], half[T];
    for (int i = 0; i < T; i++)
        in[i] = i < 32 ? (i % 5 == 0 ? 1 : -1) : 1; /* warp 1: all positive */
    uint64_t din = dev(s, in, sizeof in), db = dev(s, NULL, sizeof ballot),
             dany = dev(s, NULL, sizeof any), dall = dev(s, NULL, sizeof all),
             dh = dev(s, NULL, sizeof half);
    void *p[] = {&din, &db, &dany, &dall, &dh};
    sim_result res;
    klaunch(s, m, "vote", 1, T, p, &res);
    sim_memcpy_dtoh(s, ballot, db, sizeof ballot);
    sim_memcpy_dtoh(s, any, dany, sizeof any);
    sim_memcpy_dtoh(s, all, dall, sizeof all);
    sim_memcpy_dtoh(s, half, dh, sizeof half);
    for (int i = 0; i < T; i++) {
        unsigned b = 0;
        for (int l = 0; l < 32; l++)
            b |= (unsigned)(in[(i & ~31) + l] > 0) << l;
        unsigned h = (i & 31) < 16 ? (b & 0xffffu) : ((b & 0xffff0000u) | 1u);
        ck_assert_msg(ballot[i] == b, "ballot %d: 0x%x want 0x%x", i, ballot[i], b);
        ck_assert_int_eq(any[i], b != 0);
        ck_assert_int_eq(all[i], b == 0xffffffffu);
        ck_assert_msg(half[i] == h, "partial ballot %d: 0x%x want 0x%x", i, half[i], h);
    }
    sim_result_free(&res);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_intra_warp_atomic_cas_lock_terminates_with_every_update)
{
    _kci = _i;
    ptx_module_t *m = kload("warp_lock", _i);
    const char *kernels[] = {"warp_lock", "warp_lock_spin"};
    for (int k = 0; k < 2; k++)
        for (unsigned threads = 32; threads <= 64; threads += 32) {
            sim_config cfg;
            memset(&cfg, 0, sizeof cfg);
            cfg.step_limit = 5000000;
            sim_t *s = sim_new(&cfg);
            int in[64], zero = 0, sum = 0, want = 0;
            for (int i = 0; i < 64; i++)
                in[i] = i * i + 1;
            for (unsigned i = 0; i < threads; i++)
                want += in[i];
            uint64_t dl = dev(s, &zero, 4), ds = dev(s, &zero, 4), din = dev(s, in, sizeof in);
            void *p[] = {&dl, &ds, &din};
            sim_result res;
            klaunch(s, m, kernels[k], 1, threads, p, &res);
            sim_memcpy_dtoh(s, &sum, ds, 4);
            ck_assert_msg(sum == want, "%s with %u threads: sum %d want %d", kernels[k], threads,
                          sum, want);
            sim_result_free(&res);
            sim_free(s);
        }
    ptx_module_free(m);
}
END_TEST

START_TEST(test_recursive_device_functions_use_a_call_stack)
{
    _kci = _i;
    ptx_module_t *m = kload("recursion", _i);
    sim_t *s = sim_new(NULL);
    enum { T = 21 };
    unsigned long long fact[T];
    int fibs[T];
    uint64_t df = dev(s, NULL, sizeof fact), dfib = dev(s, NULL, sizeof fibs);
    void *p[] = {&df, &dfib};
    sim_result res;
    klaunch(s, m, "recursion", 1, T, p, &res);
    sim_memcpy_dtoh(s, fact, df, sizeof fact);
    sim_memcpy_dtoh(s, fibs, dfib, sizeof fibs);
    unsigned long long f = 1;
    int fb[16] = {0, 1};
    for (int i = 2; i < 16; i++)
        fb[i] = fb[i - 1] + fb[i - 2];
    for (int i = 0; i < T; i++) {
        if (i > 1)
            f *= (unsigned long long)i;
        ck_assert_msg(fact[i] == f, "factorial(%d): got %llu want %llu", i, fact[i], f);
        ck_assert_msg(fibs[i] == fb[i % 16], "fib(%d): got %d want %d", i % 16, fibs[i],
                      fb[i % 16]);
    }
    sim_result_free(&res);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_every_atomic_op_on_global_and_shared_memory)
{
    _kci = _i;
    ptx_module_t *m = kload("atomics", _i);
    sim_t *s = sim_new(NULL);
    int gi[10] = {0, 0, 1000, -1000, -1, 0, 0, 0, 0, 0};
    unsigned gu[5] = {0, 0, 0xffffffffu, 0, 0};
    unsigned long long gull[8] = {0, ~0ull, 0, ~0ull, 0, 0, 0, 0};
    float gf[2] = {0, 0};
    double gd[1] = {0};
    int so[9];
    uint64_t dgi = dev(s, gi, sizeof gi), dgu = dev(s, gu, sizeof gu),
             dgull = dev(s, gull, sizeof gull), dgf = dev(s, gf, sizeof gf),
             dgd = dev(s, gd, sizeof gd), dso = dev(s, NULL, sizeof so);
    void *p[] = {&dgi, &dgu, &dgull, &dgf, &dgd, &dso};
    sim_result res;
    klaunch(s, m, "atomics", 1, 64, p, &res);
    sim_memcpy_dtoh(s, gi, dgi, sizeof gi);
    sim_memcpy_dtoh(s, gu, dgu, sizeof gu);
    sim_memcpy_dtoh(s, gull, dgull, sizeof gull);
    sim_memcpy_dtoh(s, gf, dgf, sizeof gf);
    sim_memcpy_dtoh(s, gd, dgd, sizeof gd);
    sim_memcpy_dtoh(s, so, dso, sizeof so);
    const int wi[10] = {2016, -2016, -13, 13, (int)0x80000000u, 0x7fffffff, 0, 1, 1, 7};
    for (int i = 0; i < 10; i++)
        if (i != 7)
            ck_assert_msg(gi[i] == wi[i], "gi[%d]: got %d want %d", i, gi[i], wi[i]);
    ck_assert_msg(gi[7] >= 1 && gi[7] <= 64, "atomicCAS winner %d", gi[7]);
    const unsigned wu[5] = {4, 6, 100, 163, 192};
    for (int i = 0; i < 5; i++)
        ck_assert_msg(gu[i] == wu[i], "gu[%d]: got %u want %u", i, gu[i], wu[i]);
    const unsigned long long wl[8] = {
        64ull << 33, 1000, (1ull << 40) | 63, 1ull << 63, (1ull << 63) - 1, 0, 5, 9};
    for (int i = 0; i < 8; i++)
        ck_assert_msg(gull[i] == wl[i], "gull[%d]: got 0x%llx want 0x%llx", i, gull[i], wl[i]);
    ck_assert(gf[0] == 32.0f && gf[1] == 2.5f && gd[0] == 16.0);
    const int ws[9] = {2016, 0, 63, (int)0x80000000u, 0x7fffffff, 0, 1, 3, 64};
    for (int i = 0; i < 9; i++)
        ck_assert_msg(so[i] == ws[i], "shared[%d]: got %d want %d", i, so[i], ws[i]);
    sim_result_free(&res);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_printf_formats_every_conversion)
{
    _kci = _i;
    ptx_module_t *m = kload("printf_all", _i);
    sim_t *s = sim_new(NULL);
    static const char str[] = "hello";
    uint64_t ds = dev(s, str, sizeof str);
    int i = 1234;
    float f = 3.25f;
    double d = -2.5;
    void *p[] = {&i, &f, &d, &ds};
    sim_result res;
    klaunch(s, m, "printf_all", 1, 32, p, &res);
    const char *want =
        "d=1234 i=-1234 u=1234 o=2322 x=4d2 X=BEEF c=Z\n"
        "f=3.250000 F=-2.500000 e=-2.500000e+00 E=-2.500000E+00 g=1e-05 G=1E+20 a=0x1p+0 "
        "A=0X1P-1\n"
        "s=hello p=0x1234 pct=% ld=-1234567890123 lld=9876543210 llu=18446744073709551615 "
        "lx=feedface\n"
        "hd=-2 hhd=-3 hu=65535 hx=abc\n"
        "w=[   42] l=[42   ] z=[00042] +=[+42] sp=[ 42] #x=[0xff] #o=[010] .3f=[-2.500]\n"
        "star=[     7] prec=[-2.50] both=[    -2.5] str=[hel] [     hello]\n"
        "3 done ok\n";
    ck_assert_ptr_nonnull(res.printf_out);
    ck_assert_msg(strcmp(res.printf_out, want) == 0, "got:\n%s\nwant:\n%s", res.printf_out, want);
    sim_result_free(&res);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

static unsigned ref_byte_perm(unsigned x, unsigned y, unsigned sel)
{
    unsigned long long v = x | ((unsigned long long)y << 32);
    unsigned r = 0;
    for (int i = 0; i < 4; i++)
        r |= (unsigned)((v >> (8 * ((sel >> (4 * i)) & 7))) & 0xff) << (8 * i);
    return r;
}

/* f16 bits of a value that is exactly representable in f16 (normal or zero). */
static unsigned short exact_half(float x)
{
    if (x == 0)
        return signbit(x) ? 0x8000 : 0;
    int e;
    float fr = frexpf(fabsf(x), &e); /* x = fr * 2^e, fr in [0.5, 1) */
    unsigned mant = (unsigned)(fr * 2048.0f) - 1024u;
    return (unsigned short)((x < 0 ? 0x8000u : 0) | ((unsigned)(e - 1 + 15) << 10) | mant);
}

START_TEST(test_integer_and_float_intrinsics)
{
    _kci = _i;
    ptx_module_t *m = kload("intrinsics", _i);
    if (!m)
        return; /* needs CUDA headers: no clang fixture */
    sim_t *s = sim_new(NULL);
    enum { T = 16 };
    unsigned a[T], b[T], u[T * 16];
    float x[T], f[T * 12];
    unsigned short h[T * 4];
    for (int i = 0; i < T; i++) {
        a[i] = 0x9e3779b9u * (unsigned)(i + 1);
        b[i] = 0x7f4a7c15u ^ (unsigned)(i * 0x01010101);
        x[i] = (float)(i - 8) * 0.375f;
    }
    uint64_t da = dev(s, a, sizeof a), db = dev(s, b, sizeof b), du = dev(s, NULL, sizeof u),
             dx = dev(s, x, sizeof x), df = dev(s, NULL, sizeof f), dh = dev(s, NULL, sizeof h);
    void *p[] = {&da, &db, &du, &dx, &df, &dh};
    sim_result res;
    klaunch(s, m, "intrinsics", 1, T, p, &res);
    sim_memcpy_dtoh(s, u, du, sizeof u);
    sim_memcpy_dtoh(s, f, df, sizeof f);
    sim_memcpy_dtoh(s, h, dh, sizeof h);
    for (int i = 0; i < T; i++) {
        unsigned pp = a[i], q = b[i], *o = u + i * 16;
        unsigned long long fs = pp | ((unsigned long long)q << 32);
        unsigned sh = (unsigned)i & 31;
        unsigned want[16];
        want[0] = ref_byte_perm(pp, q, 0x5140);
        want[1] = (unsigned)((fs << sh) >> 32);
        want[2] = (unsigned)(fs >> sh);
        want[3] = 0;
        for (int k = 0; k < 32; k++)
            want[3] |= ((pp >> k) & 1u) << (31 - k);
        want[4] = pp ? (unsigned)__builtin_clz(pp) : 32;
        want[5] = (unsigned)__builtin_popcount(pp ^ q);
        want[6] = (unsigned)__builtin_ffs((int)pp);
        long long sd = (long long)(int)pp - (long long)(int)q; /* __sad is signed */
        want[7] = (unsigned)(sd < 0 ? -sd : sd) + 7u;
        want[8] = (unsigned)(((unsigned long long)pp * q) >> 32);
        want[9] =
            (unsigned)((long long)(((int)(pp << 8)) >> 8) * (long long)(((int)(q << 8)) >> 8));
        want[10] = (pp & q) ^ (~pp | q) ^ (pp >> 3);
        want[11] = (pp >> (i % 8 + 4)) & 0xffu;
        want[12] = (unsigned)(((__int128)((long long)pp << 20) * ((long long)q << 17)) >> 64);
        want[13] = pp ? (unsigned)__builtin_ctz(pp) : 0xffffffffu;
        want[14] = ref_byte_perm(pp, q, 0x7632);
        want[15] = 5;
        for (int k = 0; k < 4; k++)
            want[15] += ((pp >> (8 * k)) & 0xff) * ((q >> (8 * k)) & 0xff);
        for (int k = 0; k < 16; k++)
            ck_assert_msg(o[k] == want[k], "thread %d u[%d]: got 0x%x want 0x%x", i, k, o[k],
                          want[k]);
        float v = x[i], *g = f + i * 12;
        ck_assert_msg(fabsf(g[0] - v / 3.0f) <= 2e-6f * (fabsf(v) + 1), "fdividef %d", i);
        ck_assert_msg(fabsf(g[1] - expf(v)) <= 4e-6f * expf(v) + 1e-6f, "expf %d: %a", i,
                      (double)g[1]);
        ck_assert_msg(fabsf(g[2] - logf(fabsf(v) + 1)) <= 2e-6f, "logf %d", i);
        ck_assert_msg(fabsf(g[3] - sinf(v)) <= 1e-6f, "sinf %d", i);
        ck_assert_msg(fabsf(g[4] - cosf(v)) <= 1e-6f, "cosf %d", i);
        ck_assert_msg(fabsf(g[5] - 1.0f / sqrtf(fabsf(v) + 1)) <= 2e-7f, "rsqrtf %d", i);
        ck_assert(g[6] == (v < 0 ? 0.0f : v > 1 ? 1.0f : v));
        ck_assert(g[7] == fminf(v, 0.5f));
        ck_assert(g[9] == 1.0f / (v + 3.0f));
        ck_assert(g[10] == sqrtf(fabsf(v)));
        ck_assert_msg(fabsf(g[8] - (v * 1.1f + 0.3f)) <= 1e-6f * (fabsf(v) + 1), "fmaf_rz %d", i);
        ck_assert_msg(h[i * 4 + 0] == exact_half(v), "half %d: 0x%x", i, h[i * 4]);
        ck_assert_msg(h[i * 4 + 1] == exact_half(v + 1.0f), "hadd %d: 0x%x", i, h[i * 4 + 1]);
        ck_assert_msg(h[i * 4 + 2] == exact_half(v * v), "hmul %d: 0x%x", i, h[i * 4 + 2]);
        /* float to unsigned short is cvt.rzi.u16.f32, which saturates negatives to 0 */
        ck_assert_int_eq(h[i * 4 + 3], v < 0 ? 0 : (unsigned short)v);
    }
    sim_result_free(&res);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_match_reduce_and_activemask_intrinsics)
{
    _kci = _i;
    ptx_module_t *m = kload("warp_match", _i);
    if (!m)
        return;
    sim_t *s = sim_new(NULL);
    enum { T = 32 };
    unsigned in[T], out[T * 8];
    unsigned sum = 0, mn = ~0u, orr = 0;
    int mx = -2147483647 - 1;
    for (int i = 0; i < T; i++) {
        in[i] = (unsigned)(i * 37 % 23) + 1;
        sum += in[i];
        mn = in[i] < mn ? in[i] : mn;
        mx = (int)in[i] - 40 > mx ? (int)in[i] - 40 : mx;
        orr |= in[i];
    }
    uint64_t din = dev(s, in, sizeof in), dout = dev(s, NULL, sizeof out);
    void *p[] = {&din, &dout};
    sim_result res;
    klaunch(s, m, "warp_match", 1, T, p, &res);
    sim_memcpy_dtoh(s, out, dout, sizeof out);
    for (int i = 0; i < T; i++) {
        unsigned *o = out + i * 8, any = 0;
        for (int k = 0; k < T; k++)
            any |= (unsigned)(in[k] % 4 == in[i] % 4) << k;
        ck_assert_msg(o[0] == any, "match_any %d: 0x%x want 0x%x", i, o[0], any);
        ck_assert_msg(o[1] == 0xffffffffu && o[2] == 1, "match_all %d: 0x%x %u", i, o[1], o[2]);
        ck_assert_uint_eq(o[3], sum);
        ck_assert_uint_eq(o[4], mn);
        ck_assert_int_eq((int)o[5], mx);
        ck_assert_uint_eq(o[6], orr);
        ck_assert_msg(o[7] == (i % 3 == 0 ? 0x49249249u : 0), "activemask %d: 0x%x", i, o[7]);
    }
    sim_result_free(&res);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

/* ------------------------------------------------------------------ errors */

START_TEST(test_unsupported_form_is_a_clear_error_naming_the_instruction)
{
    /* multimem (PTX ISA §9.7.9.14) needs a multicast object: the parser names it */
    static const char text[] =
        ".version 8.1\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
        "  .reg .b64 %rd<4>;\n  multimem.ld_reduce.relaxed.sys.global.add.u64 %rd1, [%rd2];\n"
        "  ret;\n}\n";
    ptx_module_t *m = NULL;
    char *diag = NULL;
    sim_status st = ptx_parse(text, strlen(text), "x.ptx", &m, &diag);
    ck_assert_int_eq(st, SIM_ERR_UNSUPPORTED);
    ck_assert_msg(diag && strstr(diag, "x.ptx:7:3:") && strstr(diag, "multimem.ld_reduce"), "%s",
                  diag ? diag : "");
    free(diag);
}
END_TEST

START_TEST(test_bad_video_instruction_forms_are_errors_naming_the_instruction_and_line)
{
    /* PTX ISA §9.7.16.2: .sat cannot be used with .add; vset has no .sat and needs a
     * comparison; selectors are .bxyzw (.hxy) on a and b, masks .b0 ... .b3210 (.h0 .h1
     * .h10) on d, none on c; three types (vset: two), each .u32 or .s32; operands are
     * registers (ptxas of CUDA 13 rejects all of these too) */
    static const struct {
        const char *insn, *msg;
    } bad[] = {
        {"vabsdiff4.u32.u32.u32.sat.add %r1, %r2, %r3, %r1;", "cannot be used with .add"},
        {"vset4.u32.u32.lt.sat %r1, %r2, %r3, %r1;", "not a modifier of vset"},
        {"vset2.u32.u32 %r1, %r2, %r3, %r1;", "needs a comparison"},
        {"vset2.u32.u32.lo %r1, %r2, %r3, %r1;", "unsupported modifier '.lo'"},
        {"vadd4.u32.u32 %r1, %r2, %r3, %r1;", "needs .dtype.atype.btype"},
        {"vadd2.u32.u32.u16 %r1, %r2, %r3, %r1;", "each .u32 or .s32"},
        {"vadd4.u32.u32.u32 %r1, %r2.b321, %r3, %r1;", "bad a selector '.b321'"},
        {"vadd4.u32.u32.u32 %r1, %r2, %r3.b8765, %r1;", "bad b selector '.b8765'"},
        {"vadd2.u32.u32.u32 %r1, %r2.b10, %r3, %r1;", "bad a selector '.b10'"},
        {"vmin4.s32.u32.u32.add %r1.b00, %r2, %r3, %r1;", "bad mask '.b00'"},
        {"vmax2.u32.u32.u32 %r1.h2, %r2, %r3, %r1;", "bad mask '.h2'"},
        {"vadd4.u32.u32.u32 %r1, %r2, %r3, %r1.b3210;", "bad selector '.b3210'"},
        {"vadd4.u32.u32.u32.rn %r1, %r2, %r3, %r1;", "unsupported modifier '.rn'"},
        {"vadd4.u32.u32.u32 %r1, %r2, %r3, 0;", "operand 3 must be a register"},
        {"vabsdiff2.u32.u32.u32.add %r1, 5, %r3, %r1;", "operand 1 must be a register"},
        /* the scalar ones (§9.7.18.1): vshl/vshr need a mode, selectors .b0-.b3 .h0 .h1 */
        {"vshl.u32.u32.u32 %r1, %r2, %r3;", "needs .dtype.atype.u32 and .clamp or .wrap"},
        {"vadd.u32.u32.u32 %r1, %r2.b4, %r3;", "bad selector '.b4'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[512];
        snprintf(text, sizeof text,
                 ".version 7.8\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n"
                 "  .reg .b32 %%r<4>;\n  %s\n  ret;\n}\n",
                 bad[i].insn);
        ptx_module_t *m = NULL;
        char *diag = NULL;
        ck_assert_int_ne(ptx_parse(text, strlen(text), "v.ptx", &m, &diag), SIM_OK);
        ck_assert_msg(diag && strstr(diag, "v.ptx:7:") && strstr(diag, bad[i].msg),
                      "%s: want \"v.ptx:7:\" and \"%s\" in: %s", bad[i].insn, bad[i].msg,
                      diag ? diag : "(none)");
        free(diag);
        ptx_module_free(m);
    }
}
END_TEST

START_TEST(test_module_scope_shared_does_not_shift_kernel_parameters)
{
    /* clang writes template statics as module-scope `.weak .shared`; the kernel's
     * parameters must keep their offsets (a symbol-table field left uninitialised once
     * moved them past the shared variables) */
    static const char text[] =
        ".version 7.0\n.target sm_80\n.address_size 64\n"
        ".weak .shared .align 4 .b8 tile[256];\n"
        ".visible .entry k(.param .u64 k_out, .param .u32 k_a, .param .u32 k_b)\n{\n"
        "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
        "  ld.param.u64 %rd1, [k_out];\n  ld.param.u32 %r1, [k_a];\n"
        "  ld.param.u32 %r2, [k_b];\n  st.shared.u32 [tile+252], %r1;\n"
        "  ld.shared.u32 %r3, [tile+252];\n  add.u32 %r3, %r3, %r2;\n"
        "  cvta.to.global.u64 %rd2, %rd1;\n  st.global.u32 [%rd2], %r3;\n  ret;\n}\n";
    ptx_module_t *m = NULL;
    char *diag = NULL;
    ck_assert_int_eq(ptx_parse(text, strlen(text), "w.ptx", &m, &diag), SIM_OK);
    free(diag);
    sim_t *s = sim_new(NULL);
    uint64_t d = 0;
    unsigned zero = 0, got = 0, a = 40, b = 2;
    ck_assert_int_eq(sim_malloc(s, 4, "out", &d), SIM_OK);
    sim_memcpy_htod(s, d, &zero, 4);
    void *params[] = {&d, &a, &b};
    unsigned g[3] = {1, 1, 1}, bl[3] = {1, 1, 1};
    sim_result res;
    ck_assert_int_eq(sim_launch(s, m, "k", g, bl, 0, params, &res), SIM_OK);
    sim_memcpy_dtoh(s, &got, d, 4);
    ck_assert_uint_eq(got, 42);
    sim_result_free(&res);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

/* printf formats CUDA's device printf cannot print (CUDA C++ Programming Guide,
 * "Formatted Output": flags #0+- and space, width digits or '*', precision digits, sizes
 * h l ll, types cdiouxXpeEfgGaAs): on the GPU the arguments go out of step (an H200
 * faulted with CUDA_ERROR_ILLEGAL_ADDRESS on "%.*f" before a "%s"), so the simulator
 * reports them as a fault; supported ones print, and past 32 arguments a specifier is
 * printed as written. Arguments: int 2 at offset 0, double 2.0 at 8, then 34 ints 7. */
typedef struct printf_case {
    const char *name, *fmt, *want, *fault;
} printf_case;

static const printf_case printf_cases[] = {
    {"%.*f: no '*' precision on the GPU", "x=%.*f\n", NULL, "no '*' precision"},
    {"%hhd: no hh size on the GPU", "%hhd\n", NULL, "only the sizes h, l"},
    {"%n: not a conversion of CUDA's printf", "%n\n", NULL, "no '%n' conversion"},
    {"%F: not a conversion of CUDA's printf", "%F\n", NULL, "no '%F' conversion"},
    {"%ls: no wide strings", "%ls\n", NULL, "wide string"},
    {"%*d takes its width from an int argument", "[%*d]\n", "[ 0]\n", NULL},
    {"past 32 arguments the specifier is printed as written",
     "%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d|%d|%x\n",
     /* the ints at offsets 0, 4, 8, 12 (2, 0, and the two halves of 2.0), then 7s */
     "2001073741824"
     "7777777777777777777777777777"
     "|%d|%x\n",
     NULL},
};

START_TEST(test_printf_rejects_what_the_gpu_cannot_print)
{
    const printf_case *pc = &printf_cases[_i];
    char fmtinit[600] = "";
    size_t fl = strlen(pc->fmt), k = 0;
    for (size_t i = 0; i <= fl; i++)
        k += (size_t)snprintf(fmtinit + k, sizeof fmtinit - k, "%s%u", i ? ", " : "",
                              (unsigned)(unsigned char)pc->fmt[i]);
    char text[4000];
    snprintf(text, sizeof text,
             ".version 7.8\n.target sm_80\n.address_size 64\n"
             ".extern .func (.param .b32 func_retval0) vprintf\n"
             "(\n.param .b64 vprintf_param_0,\n.param .b64 vprintf_param_1\n);\n"
             ".global .align 1 .b8 fmtstr[%zu] = {%s};\n"
             ".visible .entry k(.param .u64 args)\n{\n"
             "  .reg .b32 %%r<4>;\n  .reg .b64 %%rd<8>;\n"
             "  ld.param.u64 %%rd1, [args];\n  cvta.to.global.u64 %%rd2, %%rd1;\n"
             "  mov.u64 %%rd3, fmtstr;\n  cvta.global.u64 %%rd4, %%rd3;\n"
             "  {\n  .param .b64 param0;\n  st.param.b64 [param0], %%rd4;\n"
             "  .param .b64 param1;\n  st.param.b64 [param1], %%rd1;\n"
             "  .param .b32 retval0;\n"
             "  call.uni (retval0), vprintf, (param0, param1);\n"
             "  ld.param.b32 %%r1, [retval0];\n  }\n  ret;\n}\n",
             fl + 1, fmtinit);
    ptx_module_t *m = NULL;
    char *diag = NULL;
    ck_assert_msg(ptx_parse(text, strlen(text), "printf", &m, &diag) == SIM_OK, "%s\n%s",
                  diag ? diag : "", text);
    free(diag);
    sim_t *s = sim_new(NULL);
    unsigned char args[8 + 8 + 34 * 4];
    int32_t two = 2, seven = 7;
    double d2 = 2.0;
    memcpy(args, &two, 4);
    memset(args + 4, 0, 4);
    memcpy(args + 8, &d2, 8);
    for (int i = 0; i < 34; i++)
        memcpy(args + 16 + 4 * i, &seven, 4);
    uint64_t da = dev(s, args, sizeof args);
    void *p[] = {&da};
    unsigned g[3] = {1, 1, 1}, b[3] = {1, 1, 1};
    sim_result res;
    sim_status st = sim_launch(s, m, "k", g, b, 0, p, &res);
    if (pc->fault) {
        ck_assert_msg(st != SIM_OK && strstr(res.fault.message, pc->fault),
                      "%s: want a fault with \"%s\", got status %d: %s", pc->name, pc->fault,
                      (int)st, res.fault.message);
    } else {
        ck_assert_msg(st == SIM_OK, "%s: %s", pc->name, res.fault.message);
        ck_assert_msg(res.printf_out && strcmp(res.printf_out, pc->want) == 0,
                      "%s: got \"%s\", want \"%s\"", pc->name,
                      res.printf_out ? res.printf_out : "(none)", pc->want);
    }
    sim_result_free(&res);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_printf_check_of_ptx_text_refuses_unsupported_formats_before_a_gpu_launch)
{
    char why[400] = "";
    static const char bad[] =
        ".extern .func (.param .b32 func_retval0) vprintf (.param .b64 a, .param .b64 b);\n"
        ".global .align 1 .b8 $str[8] = {120, 61, 37, 46, 42, 102, 10, 0};\n";
    ck_assert_int_eq(sim_printf_check_ptx(bad, why, sizeof why), -1);
    ck_assert_msg(strstr(why, "\"%.*f\"") && strstr(why, "no '*' precision"), "%s", why);
    static const char good[] =
        ".extern .func (.param .b32 func_retval0) vprintf (.param .b64 a, .param .b64 b);\n"
        ".global .align 1 .b8 $str[9] = {120, 61, 37, 45, 53, 46, 50, 102, 0};\n";
    ck_assert_int_eq(sim_printf_check_ptx(good, why, sizeof why), 0);
    static const char table[] = /* a byte table is not a format */
        ".extern .func (.param .b32 func_retval0) vprintf (.param .b64 a, .param .b64 b);\n"
        ".global .align 1 .b8 lut[4] = {37, 200, 3, 0};\n"
        ".global .align 1 .b8 $str[3] = {37, 100, 0};\n";
    ck_assert_int_eq(sim_printf_check_ptx(table, why, sizeof why), 0);
    for (int ci = 0; ci < 3; ci++) { /* the fixed printf_all kernel, every compiler */
        char path[128];
        snprintf(path, sizeof path, "tests/fixtures/ptx/printf_all.%s.ptx", kcompilers[ci]);
        size_t len;
        char *text = slurp(path, &len);
        ck_assert_ptr_nonnull(text);
        ck_assert_msg(sim_printf_check_ptx(text, why, sizeof why) == 0, "%s: %s", path, why);
        free(text);
    }
}
END_TEST

/* mbarrier phases (PTX ISA §9.7.13.15.1-2): a phase completes when its arrivals and its
 * tx-count are both done; arrive_drop lowers the count of later phases. */
START_TEST(test_mbarrier_phase_completes_on_arrivals_and_tx_count)
{
    uint64_t b = sim_mbar_init(3), s0 = 0, s1 = 0;
    ck_assert_int_eq(sim_mbar_arrive(&b, 1, 0, &s0), 0);
    ck_assert_uint_eq(sim_mbar_pending(s0), 3);
    ck_assert_int_eq(sim_mbar_tx(&b, 64), 0);            /* expect_tx: 64 bytes outstanding */
    ck_assert_int_eq(sim_mbar_arrive(&b, 2, 0, &s1), 0); /* arrivals done, bytes not */
    ck_assert(!sim_mbar_phase_done(b, s0));
    ck_assert(!sim_mbar_parity_done(b, 0));
    ck_assert_int_eq(sim_mbar_tx(&b, -64), 1); /* complete_tx finishes phase 0 */
    ck_assert(sim_mbar_phase_done(b, s0) && sim_mbar_phase_done(b, s1));
    ck_assert(sim_mbar_parity_done(b, 0) && !sim_mbar_parity_done(b, 1));
    ck_assert_int_eq(sim_mbar_arrive(&b, 1, 1, &s0), 0); /* arrive_drop: 2 from now on */
    ck_assert_int_eq(sim_mbar_arrive(&b, 2, 0, NULL), 1);
    ck_assert(sim_mbar_parity_done(b, 1));
    ck_assert_int_eq(sim_mbar_arrive(&b, 1, 0, NULL), 0);
    ck_assert_int_eq(sim_mbar_arrive(&b, 2, 0, NULL), -1); /* more than pending */
    ck_assert_int_eq(sim_mbar_tx(&b, 1 << 20), -1);        /* past the tx-count range */
}
END_TEST

/* cp.async groups (PTX ISA §9.7.9.25.3.3): wait_group n lands every committed group but
 * the newest n; uncommitted copies only at wait_all; other threads' never. */
START_TEST(test_cp_async_wait_group_lands_all_but_the_newest_groups)
{
    static sim_async a;
    sim_async_copy q[5] = {{.tid = 7}, {.tid = 7}, {.tid = 7}, {.tid = 3}, {.tid = 7}};
    a.q = q;
    a.n = 0;
    for (int k = 0; k < 5; k++) {
        q[k].group = -1;
        a.n++;
        if (k == 0 || k == 2 || k == 3)
            sim_async_commit(&a, q[k].tid); /* groups 0 {0}, 1 {1, 2}; thread 3: {3} */
    }
    ck_assert_int_eq(q[0].group, 0);
    ck_assert_int_eq(q[1].group, 1);
    ck_assert_int_eq(q[2].group, 1);
    ck_assert_int_eq(q[3].group, 0);
    ck_assert_int_eq(q[4].group, -1);
    const int want1[5] = {1, 0, 0, 0, 0}, want0[5] = {1, 1, 1, 0, 0}, wall[5] = {1, 1, 1, 0, 1};
    for (unsigned k = 0; k < 5; k++) {
        ck_assert_int_eq(sim_async_due(&a, k, 7, 1), want1[k]);
        ck_assert_int_eq(sim_async_due(&a, k, 7, 0), want0[k]);
        ck_assert_int_eq(sim_async_due(&a, k, 7, -1), wall[k]);
    }
}
END_TEST

/* ------------------------------------------------------------------ clusters (sm_90) */

/* A simulator modelling sm_90 (clusters need compute capability 9.0). */
static sim_t *sim90(void)
{
    sim_config cfg = {.device = sim_device_find("sm_90")};
    ck_assert_ptr_nonnull(cfg.device);
    sim_t *s = sim_new(&cfg);
    ck_assert_ptr_nonnull(s);
    return s;
}

/* Distributed shared memory (CUDA C++ Programming Guide "Distributed Shared Memory"):
 * loads from and stores to the neighbours' shared memory after cluster.sync, for two
 * clusters of 4 CTAs. */
START_TEST(test_cluster_blocks_read_and_write_each_others_shared_memory)
{
    _kci = _i;
    ptx_module_t *m = kload("cluster", _i);
    if (!m)
        return;
    sim_t *s = sim90();
    uint64_t out = dev(s, NULL, 8 * 64 * 4);
    void *p[] = {&out};
    sim_result r;
    klaunch(s, m, "cluster_ring", 8, 64, p, &r);
    ck_assert_int_eq(r.nerrors, 0);
    int got[8 * 64];
    sim_memcpy_dtoh(s, got, out, sizeof got);
    for (int b = 0; b < 8; b++)
        for (int t = 0; t < 64; t++) {
            const int rank = b % 4, next = (rank + 1) % 4, writer = (rank + 1) % 4;
            const int sum = t * (rank + 1) + ((t + 1) % 64) * (next + 1);
            const int spare = 1000 * writer + t; /* stored by the next block */
            ck_assert_int_eq(got[b * 64 + t], sum * 10000 + spare);
        }
    sim_result_free(&r);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

/* A load of another CTA's shared memory with no cluster barrier after its store is a
 * racecheck error naming both lines. */
START_TEST(test_cluster_load_without_cluster_sync_is_a_race)
{
    _kci = _i;
    ptx_module_t *m = kload("cluster", _i);
    if (!m)
        return;
    sim_t *s = sim90();
    uint64_t out = dev(s, NULL, 2 * 64 * 4);
    void *p[] = {&out};
    sim_result r;
    klaunch(s, m, "cluster_race", 2, 64, p, &r);
    int found = 0;
    for (int i = 0; i < r.nfindings; i++)
        if (r.findings[i].kind == SIM_FIND_RACE &&
            strstr(r.findings[i].message, "distributed shared-memory race") &&
            strstr(r.findings[i].message, "cluster.cu:32") &&
            strstr(r.findings[i].message, "cluster.cu:34"))
            found = 1;
    ck_assert_msg(found, "no race across the cluster found (%d findings: %s)", r.nfindings,
                  r.nfindings ? r.findings[0].message : "");
    sim_result_free(&r);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

/* Past the end of another CTA's shared memory: a fault naming that CTA. */
START_TEST(test_cluster_access_past_the_other_blocks_shared_memory_faults)
{
    _kci = _i;
    ptx_module_t *m = kload("cluster", _i);
    if (!m)
        return;
    sim_t *s = sim90();
    uint64_t out = dev(s, NULL, 2 * 64 * 4);
    int k = 64;
    void *p[] = {&out, &k};
    sim_result r;
    unsigned g[3] = {2, 1, 1}, b[3] = {64, 1, 1};
    ck_assert_int_eq(sim_launch(s, m, "cluster_oob", g, b, 0, p, &r), SIM_ERR_FAULT);
    ck_assert_int_eq(r.fault.kind, SIM_FAULT_OUT_OF_BOUNDS);
    ck_assert_msg(strstr(r.fault.message, "the shared memory of block (1,0,0) (cluster rank 1) "
                                          "at offset 0x100: outside its shared memory"),
                  "%s", r.fault.message);
    ck_assert_uint_eq(r.fault.block[0], 0);
    sim_result_free(&r);
    /* in bounds (k = 0) it runs clean */
    k = 0;
    klaunch(s, m, "cluster_oob", 2, 64, p, &r);
    ck_assert_int_eq(r.nerrors, 0);
    sim_result_free(&r);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

/* Launch checks (CUDA C++ Programming Guide "Thread Block Clusters"): sm_90 only, a
 * whole number of clusters, a shape that matches __cluster_dims__. */
START_TEST(test_cluster_launch_errors_name_the_rule)
{
    ptx_module_t *m = kload("cluster", 0);
    uint64_t out = 0;
    int k = 0;
    void *p[] = {&out, &k};
    sim_result r;
    unsigned g[3] = {3, 1, 1}, b[3] = {64, 1, 1};
    sim_t *s = sim90();
    ck_assert_int_eq(sim_launch(s, m, "cluster_oob", g, b, 0, p, &r), SIM_ERR_LAUNCH);
    ck_assert_msg(strstr(r.fault.message, "is not a whole number of clusters of (2,1,1)"), "%s",
                  r.fault.message);
    sim_free(s);
    sim_config cfg = {.device = sim_device_find("sm_80")};
    s = sim_new(&cfg);
    g[0] = 2;
    ck_assert_int_eq(sim_launch(s, m, "cluster_oob", g, b, 0, p, &r), SIM_ERR_LAUNCH);
    ck_assert_msg(strstr(r.fault.message, "need compute capability 9.0"), "%s", r.fault.message);
    sim_free(s);
    sim_config c90 = {.device = sim_device_find("sm_90"), .cluster = {4, 1, 1}};
    s = sim_new(&c90);
    g[0] = 4;
    ck_assert_int_eq(sim_launch(s, m, "cluster_oob", g, b, 0, p, &r), SIM_ERR_LAUNCH);
    ck_assert_msg(strstr(r.fault.message, "compiled with __cluster_dims__(2,1,1)"), "%s",
                  r.fault.message);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

/* Reading a cp.async's destination before the wait that completes it is a racecheck
 * error naming the cp.async's line and the read's, even with a __syncthreads() between
 * (PTX ISA §9.7.9.25.3: the copy is asynchronous until the wait). */
START_TEST(test_cp_async_destination_read_before_the_wait_is_a_race)
{
    _kci = _i;
    ptx_module_t *m = kload("cp_async_early", _i);
    if (!m)
        return;
    for (int early = 0; early < 2; early++) {
        sim_t *s = sim_new(NULL);
        int host[64];
        for (int k = 0; k < 64; k++)
            host[k] = 7 * k - 100;
        uint64_t in = dev(s, host, sizeof host), out = dev(s, NULL, sizeof host);
        void *p[] = {&in, &out, &early};
        sim_result r;
        klaunch(s, m, "cp_async_early", 1, 64, p, &r);
        if (!early) {
            ck_assert_int_eq(r.nerrors, 0);
            int got[64];
            sim_memcpy_dtoh(s, got, out, sizeof got);
            for (int k = 0; k < 64; k++)
                ck_assert_int_eq(got[k], 7 * k - 100);
        } else {
            ck_assert_int_ge(r.nfindings, 1);
            const char *msg = r.findings[0].message;
            ck_assert_int_eq(r.findings[0].kind, SIM_FIND_RACE);
            ck_assert_msg(strstr(msg, "cp.async race") && strstr(msg, "cp_async_early.cu:10") &&
                              strstr(msg, "before the cp.async at cp_async_early.cu:6"),
                          "%s", msg);
        }
        sim_result_free(&r);
        sim_free(s);
    }
    ptx_module_free(m);
}
END_TEST

/* cp.async.bulk (PTX ISA §9.7.9.25.4.1): 256 bytes land in shared memory when the
 * mbarrier phase completes (thread 0's expect_tx and the copy's complete_tx balance, all
 * 64 threads arrive); reading the destination before then is a race naming the copy. */
START_TEST(test_cp_async_bulk_lands_at_the_phase_and_early_reads_race)
{
    _kci = _i;
    ptx_module_t *m = kload("cp_async_bulk_early", _i);
    if (!m)
        return;
    for (int early = 0; early < 2; early++) {
        sim_t *s = sim_new(NULL);
        int host[64];
        for (int k = 0; k < 64; k++)
            host[k] = 5 * k - 77;
        uint64_t in = dev(s, host, sizeof host), out = dev(s, NULL, sizeof host);
        void *p[] = {&in, &out, &early};
        sim_result r;
        klaunch(s, m, "cp_async_bulk_early", 1, 64, p, &r);
        if (!early) {
            ck_assert_int_eq(r.nerrors, 0);
            int got[64];
            sim_memcpy_dtoh(s, got, out, sizeof got);
            for (int k = 0; k < 64; k++)
                ck_assert_int_eq(got[k], 5 * k - 77);
        } else {
            ck_assert_int_ge(r.nfindings, 1);
            const char *msg = r.findings[0].message;
            ck_assert_int_eq(r.findings[0].kind, SIM_FIND_RACE);
            ck_assert_msg(strstr(msg, "cp_async_bulk_early.cu:21") &&
                              strstr(msg, "cp_async_bulk_early.cu:16"),
                          "%s", msg);
        }
        sim_result_free(&r);
        sim_free(s);
    }
    ptx_module_free(m);
}
END_TEST

/* Indirect calls (PTX ISA §9.7.12.5 call through a register, §11.3.3 .callprototype):
 * tests/kernels/ops/fptr_call.cu calls through a __device__ table of function pointers
 * (`.u64 table[3] = {f, g, h}`) and through a pointer each thread picks (lanes of one
 * warp calling different functions), with nvcc -O3, nvcc -G and clang. */
START_TEST(test_indirect_calls_through_a_function_pointer_table)
{
    _kci = _i;
    ptx_module_t *m = kload("fptr_call", _i);
    sim_t *s = sim_new(NULL);
    enum { N = 90, T = 96 };
    int in[T], out[T];
    for (int i = 0; i < T; i++)
        in[i] = (i * 37) % 101 - 50;
    uint64_t din = dev(s, in, sizeof in), dout = dev(s, NULL, sizeof out);
    int n = N;
    void *p[] = {&din, &dout, &n};
    sim_result res;
    klaunch(s, m, "fptr_call", 2, 48, p, &res);
    sim_memcpy_dtoh(s, out, dout, sizeof out);
    for (int t = 0; t < T; t++) {
        const int a = in[t];
        const int op = t % 3 == 0 ? a + t : t % 3 == 1 ? a * t : a - t;
        const int want = t < N ? op + ((a & 1) ? 2 * t : -t) : 0;
        ck_assert_msg(out[t] == want, "%s: out[%d] = %d, want %d", kcompilers[_i], t, out[t], want);
    }
    sim_result_free(&res);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

/* An indirect call through a register that holds no function's address, or a function
 * of another signature than the prototype, stops the kernel with a fault that says so. */
static const char fptr_ptx[] =
    ".version 7.0\n.target sm_80\n.address_size 64\n"
    ".func (.param .b32 r) one(.param .b32 a)\n{\n .reg .b32 %r<2>;\n"
    " ld.param.b32 %r0, [a];\n add.s32 %r1, %r0, 1;\n st.param.b32 [r], %r1;\n ret;\n}\n"
    ".visible .entry k(.param .u64 out, .param .u64 bad)\n{\n"
    " .reg .b64 %rd<4>;\n .reg .b32 %r<2>;\n"
    " ld.param.u64 %rd0, [out];\n ld.param.u64 %rd1, [bad];\n mov.u64 %rd2, one;\n"
    " add.s64 %rd2, %rd2, %rd1;\n"
    " {\n .param .b32 p0;\n .param .b32 r0;\n st.param.b32 [p0], 41;\n"
    " proto: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
    " call (r0), %rd2, (p0), proto;\n ld.param.b32 %r0, [r0];\n }\n"
    " st.global.u32 [%rd0], %r0;\n ret;\n}\n";

START_TEST(test_indirect_call_of_no_function_faults)
{
    ptx_module_t *m = NULL;
    char *diag = NULL;
    ck_assert_msg(ptx_parse(fptr_ptx, strlen(fptr_ptx), "fptr", &m, &diag) == SIM_OK, "%s",
                  diag ? diag : "");
    free(diag);
    sim_t *s = sim_new(NULL);
    for (int bad = 0; bad < 2; bad++) {
        uint64_t dout = dev(s, NULL, 4), off = bad ? 8 : 0;
        void *p[] = {&dout, &off};
        unsigned g[3] = {1, 1, 1}, b[3] = {1, 1, 1};
        sim_result res;
        sim_status st = sim_launch(s, m, "k", g, b, 0, p, &res);
        if (!bad) {
            ck_assert_msg(st == SIM_OK, "%s", res.fault.message);
            int v = 0;
            sim_memcpy_dtoh(s, &v, dout, 4);
            ck_assert_int_eq(v, 42);
        } else {
            ck_assert_int_eq(st, SIM_ERR_FAULT);
            ck_assert_msg(strstr(res.fault.message, "holds the address of no device function"),
                          "%s", res.fault.message);
        }
        sim_result_free(&res);
    }
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

/* Both sides of a divergent branch call one device function that reads activemask (as
 * `nvcc -G` keeps __activemask(), which cooperative_groups' coalesced_threads() calls);
 * the function lies after the kernel, so the sides' lanes would meet at its first
 * instruction if the smallest PC issued first, or in a random order. On a GPU each side
 * runs its call apart (they reconverge after the branch): each lane sees its own side's
 * lanes, in every schedule. */
static const char divcall_ptx[] =
    ".version 7.0\n.target sm_80\n.address_size 64\n"
    ".func (.param .b32 r) am();\n"
    ".visible .entry k(.param .u64 out)\n{\n"
    " .reg .b32 %r<4>;\n .reg .b64 %rd<4>;\n .reg .pred %p<2>;\n"
    " ld.param.u64 %rd0, [out];\n mov.u32 %r0, %tid.x;\n and.b32 %r1, %r0, 1;\n"
    " setp.eq.u32 %p0, %r1, 1;\n @%p0 bra ODD;\n"
    " {\n .param .b32 r0;\n call (r0), am;\n ld.param.b32 %r2, [r0];\n }\n bra DONE;\n"
    "ODD:\n {\n .param .b32 r1;\n call (r1), am;\n ld.param.b32 %r2, [r1];\n }\n"
    "DONE:\n mul.wide.u32 %rd1, %r0, 4;\n add.s64 %rd2, %rd0, %rd1;\n"
    " st.global.u32 [%rd2], %r2;\n ret;\n}\n"
    ".func (.param .b32 r) am()\n{\n .reg .b32 %r<2>;\n activemask.b32 %r0;\n"
    " st.param.b32 [r], %r0;\n ret;\n}\n";

START_TEST(test_divergent_sides_call_a_function_apart)
{
    ptx_module_t *m = NULL;
    char *diag = NULL;
    ck_assert_msg(ptx_parse(divcall_ptx, strlen(divcall_ptx), "divcall", &m, &diag) == SIM_OK, "%s",
                  diag ? diag : "");
    free(diag);
    for (int seed = 0; seed < 16; seed++) { /* 0: the deterministic schedule */
        sim_config cfg = {.schedule_random = seed > 0, .schedule_seed = (uint64_t)seed};
        sim_t *s = sim_new(&cfg);
        uint32_t out[32];
        uint64_t dout = dev(s, NULL, sizeof out);
        void *p[] = {&dout};
        unsigned g[3] = {1, 1, 1}, b[3] = {32, 1, 1};
        sim_result res;
        ck_assert_int_eq(sim_launch(s, m, "k", g, b, 0, p, &res), SIM_OK);
        sim_memcpy_dtoh(s, out, dout, sizeof out);
        for (int t = 0; t < 32; t++)
            ck_assert_msg(out[t] == (t & 1 ? 0xaaaaaaaau : 0x55555555u), "seed %d, lane %d: 0x%08x",
                          seed, t, out[t]);
        sim_result_free(&res);
        sim_free(s);
    }
    ptx_module_free(m);
}
END_TEST

static Suite *ops_suite(void)
{
    Suite *s = suite_create("sim_ops");
    TCase *tc = tcase_create("scalar");
    tcase_add_loop_test(tc, test_each_instruction_row_gives_the_expected_bits, 0,
                        (int)(sizeof cases / sizeof cases[0]));
    suite_add_tcase(s, tc);
    tc = tcase_create("warp");
    tcase_add_loop_test(tc, test_each_warp_row_gives_the_expected_lanes, 0,
                        (int)(sizeof warp_cases / sizeof warp_cases[0]));
    suite_add_tcase(s, tc);
    tc = tcase_create("kernels");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_warp_reduce_by_shfl_down_sums_each_warp, 0, 3);
    tcase_add_loop_test(tc, test_warp_scan_by_shfl_up_gives_inclusive_and_segmented_scans, 0, 3);
    tcase_add_loop_test(tc, test_vote_ballot_any_all_and_partial_masks, 0, 3);
    tcase_add_loop_test(tc, test_intra_warp_atomic_cas_lock_terminates_with_every_update, 0, 3);
    tcase_add_loop_test(tc, test_recursive_device_functions_use_a_call_stack, 0, 3);
    tcase_add_loop_test(tc, test_indirect_calls_through_a_function_pointer_table, 0, 3);
    tcase_add_test(tc, test_indirect_call_of_no_function_faults);
    tcase_add_test(tc, test_divergent_sides_call_a_function_apart);
    tcase_add_loop_test(tc, test_every_atomic_op_on_global_and_shared_memory, 0, 3);
    tcase_add_loop_test(tc, test_printf_formats_every_conversion, 0, 3);
    tcase_add_loop_test(tc, test_cp_async_bulk_lands_at_the_phase_and_early_reads_race, 0, 3);
    tcase_add_test(tc,
                   test_printf_check_of_ptx_text_refuses_unsupported_formats_before_a_gpu_launch);
    tcase_add_loop_test(tc, test_printf_rejects_what_the_gpu_cannot_print, 0,
                        (int)(sizeof printf_cases / sizeof printf_cases[0]));
    tcase_add_loop_test(tc, test_integer_and_float_intrinsics, 0, 3);
    tcase_add_loop_test(tc, test_match_reduce_and_activemask_intrinsics, 0, 3);
    tcase_add_loop_test(tc, test_cluster_blocks_read_and_write_each_others_shared_memory, 0, 2);
    tcase_add_loop_test(tc, test_cluster_load_without_cluster_sync_is_a_race, 0, 2);
    tcase_add_loop_test(tc, test_cluster_access_past_the_other_blocks_shared_memory_faults, 0, 2);
    tcase_add_test(tc, test_cluster_launch_errors_name_the_rule);
    tcase_add_loop_test(tc, test_cp_async_destination_read_before_the_wait_is_a_race, 0, 2);
    suite_add_tcase(s, tc);
    tc = tcase_create("errors");
    tcase_add_test(tc, test_unsupported_form_is_a_clear_error_naming_the_instruction);
    tcase_add_test(tc, test_module_scope_shared_does_not_shift_kernel_parameters);
    tcase_add_test(tc, test_bad_video_instruction_forms_are_errors_naming_the_instruction_and_line);
    tcase_add_test(tc, test_mbarrier_phase_completes_on_arrivals_and_tx_count);
    tcase_add_test(tc, test_cp_async_wait_group_lands_all_but_the_newest_groups);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(ops_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
