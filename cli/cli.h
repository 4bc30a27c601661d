/* cli.h — shared pieces of the command line: option parsing and error reporting.
 * Each command lives in its own file (cmd_*.c); main.c dispatches. */
#ifndef GL_CLI_H
#define GL_CLI_H

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
int cmd_info(int argc, char **argv);
int cmd_lint(int argc, char **argv);    /* cmd_lint.c */
int cmd_reset(int argc, char **argv);   /* cmd_reset.c */
int cmd_demo(int argc, char **argv);    /* cmd_demo.c: the TUI in demo mode (tui_run) */
int cmd_similar(int argc, char **argv); /* cmd_similar.c: copied work (runtime/similar.h) */
/* grade --batch --similarity: the similarity report of dir's submissions with lesson l's
 * files as the base, on stdout and in PREFIX-similar.html and PREFIX-similar.json
 * (cmd_similar.c); returns 0 or the exit code after the message. */
int cmd_similar_batch(const gl_lesson *l, const char *dir, const char *prefix);

#endif
