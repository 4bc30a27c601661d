/* cache.h — the compiled-PTX cache: PTX text keyed by a SHA-256 of everything that
 * decides it (source bytes and path, options, compiler name and version, the clang
 * prelude), kept as one file per key under $XDG_CACHE_HOME/gpulearn (default
 * ~/.cache/gpulearn). Entries are written atomically (a temporary file and rename), so a
 * crash or a second gpulearn at the same time never leaves half an entry. A damaged
 * entry (checked against a SHA-256 of its contents) is removed and is a miss. GPULEARN_NO_CACHE=1 turns the cache off. */
#ifndef GL_CACHE_H
#define GL_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include <nettle/sha2.h>

#include "runtime/gl.h"

/* Incremental SHA-256 (FIPS 180-4), nettle's (Debian's nettle-dev). */
typedef struct gl_cache_sha256 {
    struct sha256_ctx ctx;
} gl_cache_sha256;
void gl_cache_sha256_init(gl_cache_sha256 *s);
void gl_cache_sha256_update(gl_cache_sha256 *s, const void *data, size_t len);
/* Adds a length-prefixed field, so that ("ab","c") and ("a","bc") hash differently. */
void gl_cache_sha256_field(gl_cache_sha256 *s, const char *name, const void *data, size_t len);
/* Adds a program's identity as field `name`: its path, size and modification time (a
 * new version of the compiler is a new key, without running it). */
void gl_cache_sha256_file_id(gl_cache_sha256 *s, const char *name, const char *path);
/* Writes the digest as 64 lowercase hex digits and a NUL into hex[65]; s starts over
 * (as after gl_cache_sha256_init). */
void gl_cache_sha256_hex(gl_cache_sha256 *s, char hex[65]);

/* The cache folder, $XDG_CACHE_HOME/gpulearn or $HOME/.cache/gpulearn (not created),
 * into buf[n]. Returns 0, or -1 when neither variable is set, GPULEARN_NO_CACHE is set, or
 * the path does not fit. */
int gl_cache_dir(char *buf, size_t n);

/* One cached compilation. */
typedef struct gl_cache_entry {
    char *ptx;          /* PTX text (caller frees) */
    char *log;          /* the compiler's warnings, or NULL (caller frees) */
    char *regs;         /* the register table (gl_compiled.regs), or NULL (caller frees) */
    char regs_why[256]; /* why regs is NULL (gl_compiled.regs_why), or "" */
    char compiler[16];  /* "nvrtc", "nvcc", "clang" */
    char command[512];  /* the command line that produced it */
    char evicted[4200]; /* gl_cache_get: the path of a damaged entry it removed, or "" */
} gl_cache_entry;
void gl_cache_entry_free(gl_cache_entry *e);

/* Looks up `key` (64 hex digits). Returns 1 and fills e on a hit, 0 on a miss (absent,
 * unreadable or damaged entry; e is left empty). A damaged entry (bad format, or its
 * log, PTX and registers do not match the SHA-256 stored with them) is removed and named in
 * e->evicted. */
int gl_cache_get(const char *key, gl_cache_entry *e);

/* Stores e under key, creating the folder. GL_OK, or GL_ERR_INPUT with the reason (the
 * caller treats a failure to cache as harmless). */
gl_status gl_cache_put(const char *key, const gl_cache_entry *e, gl_error *err);

/* The simulator's translating-tier folder, <cache>/jit (sim_config.jit_dir), into buf
 * (n bytes); the cache folder is created if missing. Returns 0, or -1 when there is no
 * cache (GPULEARN_NO_CACHE, no $HOME) or it cannot be created. */
int gl_cache_jit_dir(char *buf, size_t n);

#endif
