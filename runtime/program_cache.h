/* program_cache.h — private to runtime/program*.c: the cache of whole programs' builds
 * (docs/architecture.md "Whole programs", "The build cache").
 *
 * A build's executable (with its register table and the compilers' messages) is kept in
 * the PTX cache's folder ($XDG_CACHE_HOME/gpulearn, runtime/cache.h; GPULEARN_NO_CACHE=1
 * turns both off) as one file `<key>.prog`, written atomically. The key is a SHA-256 of
 * what decides the build before any compiler runs: the working folder, the sources'
 * names and bytes, the flags (-I/-D as given, --arch, --compiler, --backend), the
 * identities (path, size, modification time) of the compilers, ptxas, nvcc's host
 * compiler, gpulearn's executable and the cudart archive, gpulearn's version. The entry
 * also lists every file the compiles read (the compilers' -MD dependency lists, system
 * headers included) with the SHA-256 of its bytes, checked on lookup as ccache's direct
 * mode does: an edited header is a miss. The whole entry carries a SHA-256 of its body:
 * a damaged or truncated entry is removed and the program built again, never run. */
#ifndef GL_PROGRAM_CACHE_H
#define GL_PROGRAM_CACHE_H

#include <stddef.h>

#include "runtime/program.h"

/* The most bytes of `.prog` entries the cache folder keeps: past it, the least recently
 * used entries (by modification time, which a hit renews) are removed after a store. */
#define GL_PROGRAM_CACHE_BYTES ((unsigned long long)512 << 20)

/* The key of o's build into key[65] (64 hex digits): lib, the cudart archive, inc its
 * include folder, sanlib the sanitizer runtime linked first ("" none). Returns 0, or -1
 * when the build is not cached: the cache is off, a source cannot be read, or o is a
 * native build for whatever GPU is present (--backend gpu without --arch). */
int gl_program_cache_key(const gl_program_opts *o, const char *lib, const char *inc,
                         const char *sanlib, char key[65]);

/* Looks key up: on a hit whose dependencies all still hash as recorded, writes the
 * executable to dir/prog (exe gets its path) and the register table to dir/regs, replays
 * the compilers' messages on stderr and returns 1. 0 on a miss; a damaged entry is
 * removed with a warning on stderr. verbose: say on stderr which it was. */
int gl_program_cache_get(const char *key, const char *dir, char *exe, size_t exelen, int verbose);

/* Stores the build in dir (dir/prog, dir/regs, the messages gl_program_cache_log kept,
 * the dependency lists dir/ *.d) under key, then trims the folder to
 * GL_PROGRAM_CACHE_BYTES. A failure to store is harmless (said with verbose). */
void gl_program_cache_put(const char *key, const char *dir, int verbose);

/* Keeps a compiler's messages text (as shown on stderr) in dir, for the entry. */
void gl_program_cache_log(const char *dir, const char *text);

#endif
