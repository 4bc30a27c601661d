/* tui.h — the interactive front end. */
#ifndef GL_TUI_H
#define GL_TUI_H

#include "runtime/backend.h"

/* What `gpulearn` with no arguments was asked for. */
typedef struct tui_opts {
    gl_backend_kind backend;   /* AUTO: GPU when one works, else the simulator */
    const char *lesson;        /* open this lesson directly (name as lesson_find takes), or NULL */
} tui_opts;

/* Runs the TUI until the user quits. Returns a process exit code (0; 2 if the terminal
 * cannot be initialised or the lesson is unknown, with a message on stderr). */
int tui_run(const tui_opts *opts);

#endif
