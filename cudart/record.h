/* record.h — cudart's record channel (docs/architecture.md "Whole programs", "Launch
 * records"): when GPULEARN_PROG_RECORD names a file, one JSON object a line is appended
 * to it per kernel launch and per host API call, each line written whole with one
 * write(2) so that a program that exits or crashes mid-run leaves the earlier lines
 * intact. Internal to cudart/ (the program's process); runtime/program_records.c reads
 * the file. */
#ifndef CR_RECORD_H
#define CR_RECORD_H

#include <stddef.h>
#include <stdint.h>

/* A JSON text being built (one record line). oom: an allocation failed, the text is cut
 * and cr_rec_write drops it. */
typedef struct cr_json {
    char *p;
    size_t n, cap;
    int oom;
} cr_json;

/* Appends raw text. */
void cr_json_raw(cr_json *j, const char *s);
/* Appends printf-formatted raw text. */
void cr_json_fmt(cr_json *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends s as a JSON string (quoted; ", \ and control bytes escaped per RFC 8259 §7);
 * NULL as null. */
void cr_json_str(cr_json *j, const char *s);
void cr_json_free(cr_json *j);

/* Whether records are wanted (GPULEARN_PROG_RECORD set and the file opened; read once). */
int cr_rec_on(void);
/* Appends j and a newline to the record file in one write; j is reset. */
void cr_rec_write(cr_json *j);
/* Nanoseconds of CLOCK_MONOTONIC since the record channel opened (the wall clock of the
 * records). */
double cr_wall_ns(void);

/* Where a call into cudart came from: the return address ra as an address of the
 * program's executable that its line table knows (the load base subtracted for a PIE);
 * 0 when ra lies outside the executable (a shared library). */
uint64_t cr_exe_address(const void *ra);

#endif
