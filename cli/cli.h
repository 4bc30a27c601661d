/* cli.h — shared pieces of the command line: option parsing and error reporting.
 * Each command lives in its own file (cmd_*.c); main.c dispatches. */
#ifndef GL_CLI_H
#define GL_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "runtime/backend.h"
#include "runtime/lesson.h"

/* Options shared by the commands; each command accepts the subset it documents. */
typedef struct cli {
    gl_backend_kind backend;
    gl_compiler compiler;
    const char *arch; /* --arch: a target the simulator models, canonical ("sm_80"), or NULL */
    char arch_buf[16];
    const char *dump_json;
    const char *format;
    int json, verbose;
    const char *pos[4];
    int npos;
} cli;

/* Parses argv into c, accepting only the options named in `allowed` (a space-separated
 * list such as "--backend --json"). Returns 0, or the exit code (2) after printing a
 * usage error. */
int cli_parse_args(int argc, char **argv, cli *c, const char *allowed);

/* Prints msg to stderr, "gpulearn: " before each line (indented excerpt lines as they
 * are); returns the exit code for st. */
int cli_die(gl_status st, const char *msg);

/* Prints "gpulearn: <fmt with arg>" and a pointer to --help; returns 2. */
int cli_usage_error(const char *fmt, const char *arg);

/* Finds lesson `name` (lesson_find) into *l when it has an exercise: 0, else the exit code
 * after printing why (2 for a lesson without an exercise: "... has no exercise to
 * <verb>"); *l holds nothing to free then. */
int cli_exercise_lesson(const char *name, const char *verb, gl_lesson *l);

/* A batch's reports (cmd_grade.c), written by `grade --batch` and, from shard results,
 * by `grade merge` (cmd_merge.c) with the same code, so both write the same bytes:
 * PREFIX.csv (a header of the lesson's checks, then one row per submission, with its
 * score) and PREFIX.json (lesson, folder, seed, max_score, submissions, passed, failed,
 * errors). */
typedef struct cli_batch {
    const gl_lesson *l;
    FILE *csv; /* an open_memstream on csv_text */
    char *csv_text;
    size_t csv_len;
    struct cJSON *summary, *subs;
    int npassed, nfailed, nerrors;
    int nchecks;   /* the lesson's checks (grade_check_names) */
    int max_score; /* their points (lesson_check_points) */
    int echo;      /* print each submission's line (PASS/FAIL/ERROR) on stdout */
} cli_batch;

/* Starts the reports of a batch of lesson l graded from `folder` with `seed`: 0, or 2
 * when out of memory (*b then holds nothing to close). */
int cli_batch_open(cli_batch *b, const gl_lesson *l, const char *folder, uint64_t seed, int echo);

/* Adds submission `name` (a file name in the folder): its report (grade_report_to_json;
 * takes ownership, and adds "file", "verdict" and "submitted" to it) or, with rep NULL,
 * why it could not be graded (score 0). submitted: when the file was last modified
 * (UTC, "YYYY-MM-DDTHH:MM:SSZ"), or NULL. Submissions are added in the folder's sorted
 * order. */
void cli_batch_add(cli_batch *b, const char *name, struct cJSON *rep, const char *why,
                   const char *submitted);

/* Ends the reports: the CSV's and the JSON's text (caller frees both); `shard` (may be
 * NULL; takes ownership) goes into the JSON as its "shard". 0, or 2 when out of memory
 * (nothing to free then). */
int cli_batch_close(cli_batch *b, struct cJSON *shard, char **csv, size_t *csv_len, char **json);

/* Whether a batch grades a file of this name: NAME.cu, not hidden, no '/'. */
int cli_batch_name_ok(const char *name);

/* The SHA-256 (hex) of the file dir/name, opened never through a link: 0, or -1 (hex
 * "") when it is not a regular file that can be read. */
int cli_submission_sha256(const char *dir, const char *name, char hex[65]);

/* The SHA-256 (hex) of a folder's sorted listing names[n] (each name length-prefixed,
 * gl_cache_sha256_field): what a shard's "names_sha256" holds. */
void cli_names_sha256(const char *const *names, int n, char hex[65]);

/* The most shares a batch is split into (--shard K/N, classroom slurm --shards N). */
#define CLI_SHARDS_MAX 4096

/* A share of a batch: `grade --batch DIR --shard K/N` grades the submissions at the
 * places i of the folder's sorted listing with i % n == k. */
typedef struct cli_shard {
    int k, n;
} cli_shard;

/* Parses "K/N" (decimal, 0 <= K < N <= CLI_SHARDS_MAX) into *sh: 0, or -1. */
int cli_parse_shard(const char *s, cli_shard *sh);

/* The commands: each takes the arguments after its name; returns the exit code. */
int cmd_run(int argc, char **argv);
/* Whether `run`'s arguments name a whole program (a .cu file before any --), and running
 * one (cmd_program.c). */
int cmd_run_is_program(int argc, char **argv);
int cmd_run_program(int argc, char **argv);
/* `gpulearn PROG.cu [MORE.cu ...] [-I DIR] [-D NAME[=V]] [--arch T] [--compiler C] [--
 * ARGS]`: the TUI on a whole program (tui_program; cmd_program.c). */
int cmd_tui_program(int argc, char **argv);
int cmd_grade(int argc, char **argv);
struct gl_grade_opts;
/* `grade LESSON [FILE] --report R` and `--check NAME [--report R]` (cmd_grade_check.c):
 * grades file (NULL: the starter) with opts, or reads R back when check is set and R
 * holds a report of the same file's bytes; writes the JSON report to R (when given) and
 * prints the report in `format` or, with check, only that check. Returns the exit
 * status: 0 passed (the check, else every one), 1 failed, 2 bad usage or input. */
int grade_check_or_save(const gl_lesson *l, const char *file, const struct gl_grade_opts *opts,
                        const char *format, const char *report, const char *check);
/* `gpulearn grade merge OUT PARTS... [--batch DIR] [--lesson LESSON] [--seed S]`
 * (cmd_merge.c). */
int cmd_grade_merge(int argc, char **argv);
/* `gpulearn classroom slurm LESSON --batch DIR ...` (cmd_slurm.c). */
int cmd_classroom_slurm(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_lint(int argc, char **argv);      /* cmd_lint.c */
int cmd_reset(int argc, char **argv);     /* cmd_reset.c */
int cmd_demo(int argc, char **argv);      /* cmd_demo.c: the TUI in demo mode (tui_run) */
int cmd_classroom(int argc, char **argv); /* cmd_classroom.c: `classroom init` */
int cmd_gradebook(int argc, char **argv); /* cmd_gradebook.c */
int cmd_similar(int argc, char **argv);   /* cmd_similar.c: copied work (runtime/similar.h) */
/* grade --batch --similarity: the similarity report of dir's submissions with lesson l's
 * files as the base, on stdout and in PREFIX-similar.html and PREFIX-similar.json
 * (cmd_similar.c); returns 0 or the exit code after the message. */
int cmd_similar_batch(const gl_lesson *l, const char *dir, const char *prefix);

#endif
