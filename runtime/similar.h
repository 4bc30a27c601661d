/* similar.h — copied work among the submissions of one exercise: winnowed fingerprints of
 * a normalised token stream (Schleimer, Wilkerson, Aiken, "Winnowing: Local Algorithms
 * for Document Fingerprinting", SIGMOD 2003), as MOSS computes them, with the starter's
 * fingerprints removed (MOSS's -b base file) and passages common to many submissions
 * ignored (MOSS's -m). The method only: the reports are cli/cmd_similar.c's. */
#ifndef GL_SIMILAR_H
#define GL_SIMILAR_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/gl.h"

/* Tokens per k-gram (the paper's noise threshold k) and the window w, in k-grams: every
 * passage of at least w + k - 1 = 19 shared normalised tokens shares a fingerprint
 * (the paper's guarantee threshold t), none shorter than k = 12 does. */
#define GL_SIMILAR_K 12
#define GL_SIMILAR_W 8

/* Limits on what is read (submissions are untrusted): a file over GL_SIMILAR_MAX_BYTES
 * is skipped with the reason in its gl_similar_doc; a folder of more than
 * GL_SIMILAR_MAX_FILES .cu files is refused. */
#define GL_SIMILAR_MAX_BYTES ((size_t)1 << 20)
#define GL_SIMILAR_MAX_FILES 2000

/* A fingerprint passage shared by more than this many submissions is ignored, as MOSS's
 * -m option (same default): code every learner writes alike is no evidence of copying. */
#define GL_SIMILAR_MAX_COMMON 10

/* The lexical classes of a token (similar_tokenize). */
typedef enum gl_similar_class {
    GL_SIMILAR_KEEP,  /* a keyword, CUDA builtin or punctuator: normalised to itself */
    GL_SIMILAR_IDENT, /* any other identifier: "ID" */
    GL_SIMILAR_INT,   /* an integer literal: "INT" */
    GL_SIMILAR_FLOAT, /* a floating literal: "FLT" */
    GL_SIMILAR_STR,   /* a string literal (raw and prefixed ones too): "STR" */
    GL_SIMILAR_CHAR,  /* a character literal: "CHR" */
    GL_SIMILAR_HDR,   /* what an #include names, its line's rest: "HDR" */
} gl_similar_class;

/* One token of a source: where it is and its normalised identity. */
typedef struct gl_similar_token {
    uint64_t id;   /* FNV-1a 64 of the normalised text (similar_token_norm) */
    uint32_t off;  /* its first byte in the source */
    uint32_t len;  /* its bytes in the source */
    uint32_t line; /* 1-based line of its first byte */
    uint8_t cls;   /* gl_similar_class */
} gl_similar_token;

/* A fingerprint: a k-gram's hash and the k-gram's index (= its first token's). */
typedef struct gl_similar_fp {
    uint64_t hash;
    int pos;
} gl_similar_fp;

/* Splits src[0..len) into C/CUDA tokens (C11 §6.4, with C++'s raw strings, `::` and
 * CUDA's identifiers), dropping whitespace and comments; a preprocessor directive's
 * `#` and name are one token ("#define"), an #include's operand one HDR token.
 * Identifiers become "ID" unless they are keywords or CUDA builtins (threadIdx,
 * __syncthreads, __shared__, any __name, atomic*, cuda*; similar.c's list), which are
 * structure and stay themselves. Reads nothing but the buffer. Returns the count with
 * *out allocated (caller frees; NULL for none), or -1 when out of memory. */
int similar_tokenize(const char *src, size_t len, gl_similar_token **out);

/* The normalised text of token t of src into buf[n] ("ID", "INT", "__syncthreads", "+="):
 * what its id hashes. Returns buf. */
const char *similar_token_norm(const char *src, const gl_similar_token *t, char *buf, size_t n);

/* FNV-1a 64-bit hash of s[0..n) (offset basis 0xcbf29ce484222325, prime 0x100000001b3). */
uint64_t similar_fnv1a(const char *s, size_t n);

/* The k-gram hashes of ids[0..n): n - k + 1 of them (0 when n < k) into out, each the
 * Karp-Rabin polynomial sum over i < k of ids[p + i] * B^(k-1-i), modulo 2^64, with
 * B = 0x100000001b3, computed rolling. Returns the count. */
int similar_kgrams(const uint64_t *ids, int n, int k, uint64_t *out);

/* Robust winnowing (the paper's §4.2, Definition 2 in its robust form) of h[0..n) with
 * window w: in each window of w consecutive hashes the minimum is selected; of equal
 * minima the one the previous window selected if it is still in the window, else the
 * rightmost; a fingerprint is recorded each time the selected position changes. A
 * sequence shorter than the window is one window. Writes at most n fingerprints to
 * out, in position order; returns their count. */
int similar_winnow(const uint64_t *h, int n, int w, gl_similar_fp *out);

/* One submission (or base file) as compared. */
typedef struct gl_similar_doc {
    char *name; /* its file name in the folder, untrusted bytes */
    char *text; /* its bytes (NUL-terminated), len of them; NULL when skipped */
    size_t len;
    char *skipped; /* why it was not compared, or NULL */
    gl_similar_token *toks;
    int ntoks;
    uint64_t *kgrams; /* ntoks - k + 1 k-gram hashes */
    int nkgrams;
    gl_similar_fp *fps; /* winnowed fingerprints, those of the base and the common ones
                           removed, in position order */
    int nfps;
    int nhashes;          /* distinct hashes among fps: the score's denominator */
    unsigned char *based; /* per token: 1 when a k-gram of the base covers it */
} gl_similar_doc;

/* A matching region of a pair: runs of identical normalised tokens in both files (tiles),
 * those whose lines touch in both files merged. */
typedef struct gl_similar_region {
    int a_tok, b_tok, ntoks;              /* first token in each file, tokens matched */
    int a_first, a_last, b_first, b_last; /* 1-based line ranges it covers */
} gl_similar_region;

/* Two submissions and what they share. */
typedef struct gl_similar_pair {
    int a, b;     /* indexes into the report's docs, a < b */
    int shared;   /* distinct fingerprint hashes both have */
    double score; /* shared / min(docs[a].nhashes, docs[b].nhashes), 0..1 */
    int matched;  /* tokens in the regions (filled for the pairs regions were asked of) */
    gl_similar_region *regions; /* in a's order; NULL until similar_regions */
    int nregions;
} gl_similar_pair;

/* What to compare. */
typedef struct gl_similar_opts {
    const char *dir;         /* the folder: every *.cu in it (not starting with '.') */
    const char *const *base; /* nbase files whose code is everyone's (the lesson's
                                 starter; read as trusted files, gl_read_file) */
    int nbase;
    int max_common; /* 0: GL_SIMILAR_MAX_COMMON; < 0: no limit */
} gl_similar_opts;

/* The comparison of a folder's submissions. */
typedef struct gl_similar_report {
    gl_similar_doc *docs; /* by name (strcmp), ndocs */
    int ndocs;
    gl_similar_pair *pairs; /* every pair sharing a fingerprint, best first (score, then
                               shared, then names) */
    int npairs;
    int nbase_hashes; /* distinct k-gram hashes of the base files */
    int ncommon;      /* distinct hashes ignored as common (> max_common submissions) */
    int max_common;   /* the limit applied (-1: none) */
} gl_similar_report;

/* Reads the submissions of o->dir (gl_read_submission: no links; a file over
 * GL_SIMILAR_MAX_BYTES or unreadable is kept as skipped, with why) and the base files,
 * fingerprints them and ranks every pair. GL_ERR_INPUT for an unreadable folder or base
 * file, no .cu file, or more than GL_SIMILAR_MAX_FILES; GL_ERR_NOMEM. Regions are not
 * computed (similar_regions). Caller frees with similar_report_free (also on failure). */
gl_status similar_compare(const gl_similar_opts *o, gl_similar_report *r, gl_error *err);

/* The matching regions of pair p (greedy string tiling seeded at the shared fingerprints:
 * each seed is extended over equal tokens not covered by the base; the longest tiles
 * taken first, none overlapping another; tiles on touching lines merged): fills
 * p->regions and p->matched. 0, or -1 when out of memory. */
int similar_regions(const gl_similar_report *r, gl_similar_pair *p);

/* Frees what similar_compare allocated. */
void similar_report_free(gl_similar_report *r);

#endif
