/* tui.h — the interactive front end, and its projector layout (gpulearn demo). */
#ifndef GL_TUI_H
#define GL_TUI_H

#include <stdbool.h>

#include "runtime/backend.h"

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

#endif
