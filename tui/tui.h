/* tui.h — the interactive front end, and its projector layout (gpulearn demo). */
#ifndef GL_TUI_H
#define GL_TUI_H

#include <stdbool.h>

#include "runtime/backend.h"
#include "runtime/program.h"

/* What `gpulearn` (or `gpulearn demo`) was asked for. */
typedef struct tui_opts {
    gl_backend_kind backend; /* AUTO: GPU when one works, else the simulator */
    const char *lesson;      /* open this lesson directly (name as lesson_find takes), or NULL */
    const char *arch;        /* --arch: the target of every run ("sm_80"), or NULL: the
                                lesson's "arch", else the default (runtime/arch.h) */
    bool demo;               /* demo mode: large uncluttered layout for a projector */
    double auto_seconds;     /* demo: advance every this many seconds (0 = on keypress) */
} tui_opts;

/* Runs the TUI until the user quits. Returns a process exit code (0; 2 if the terminal
 * cannot be initialised or the lesson is unknown, with a message on stderr). */
int tui_run(const tui_opts *opts);

/* What `gpulearn PROG.cu` opens: a whole program, built as `run PROG.cu` builds it
 * (build; runtime/program.h) and run with argv (argv[0] its name). */
typedef struct tui_program_opts {
    gl_program_opts build;
    char *const *argv;
} tui_program_opts;

/* Builds and runs the program, then shows its launches, its output and each launch's
 * views until the user quits (tui/app_program.c). Returns 0, or 2 when the terminal
 * cannot be initialised (a message on stderr). */
int tui_program(const tui_program_opts *o);

/* The same screen inside a curses session already started (a lesson's program step, r):
 * q returns with the terminal still in curses mode, the windows freed (view_free) and
 * the next refresh a full repaint. Returns 0, or 1 when no temporary folder could be
 * made. */
int tui_program_within(const tui_program_opts *o);

#endif
