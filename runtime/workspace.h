/* workspace.h — the learner's own files: a copy of each exercise they edit, and their
 * progress. Both live under $XDG_DATA_HOME/gpulearn (default ~/.local/share/gpulearn),
 * never in the installed lessons, and are written atomically (temp file + rename). */
#ifndef GL_WORKSPACE_H
#define GL_WORKSPACE_H

#include <stdbool.h>
#include <stddef.h>

#include "runtime/gl.h"
#include "runtime/lesson.h"

/* Path of the learner's copy of lesson l's exercise kernel
 * (<root>/<lesson id>/<starter's file name>), copied from the starter the first time.
 * GL_ERR_INPUT if the lesson has no exercise or the copy cannot be made. */
gl_status workspace_exercise_path(const gl_lesson *l, char *path, size_t len, gl_error *err);

/* 1 when the learner already has a copy of lesson l's exercise (its path in path);
 * makes no copy. 0 when there is none or the lesson has no exercise. */
int workspace_has_copy(const gl_lesson *l, char *path, size_t len);

/* Replaces the learner's copy with the starter (the caller asks for confirmation first).
 * The previous copy is kept, never over an earlier one: as <file>.bak, else the first
 * free <file>.bak.2, .bak.3, ...; its name goes to bak ("" when there was nothing to
 * keep: no copy, or one equal to the starter). GL_ERR_INPUT when it cannot be kept (the
 * copy is then untouched), or when the starter cannot be written (a full disk): the copy
 * is then moved back, and the message says where it is. */
gl_status workspace_reset(const gl_lesson *l, char *bak, size_t bak_len, gl_error *err);

/* What a learner has done in one lesson. */
typedef struct gl_lesson_progress {
    char id[64];         /* lesson id */
    unsigned steps_seen; /* bit i: step i was shown */
    int last_step;       /* the step shown last (0-based), -1 none recorded */
    bool passed;         /* the exercise passed all checks once */
} gl_lesson_progress;

/* Progress of every lesson, in <root>/progress.json. A missing file is empty progress; a
 * corrupt one is set aside as progress.json.corrupt-<UTC time to the ns>-<n> (never over
 * an earlier one) with a warning naming it in *warning (may be NULL), and treated as
 * empty. Caller frees *out. Every change of the file is made under a lock
 * (<root>/progress.lock, flock) and lands by an atomic rename. */
gl_status workspace_progress_load(gl_lesson_progress **out, int *count, char *warning,
                                  size_t warning_len, gl_error *err);

/* Records that step `step` of lesson `id` was seen (and is the learner's last position:
 * the lesson's last_step and the file's "last_lesson") / that its exercise passed, and
 * saves atomically. Keys of progress.json this version does not know are kept. */
gl_status workspace_mark_step(const char *id, int step, gl_error *err);
gl_status workspace_mark_passed(const char *id, gl_error *err);

/* The id of the lesson the learner saw last (workspace_mark_step) in id; 1, or 0 when
 * none is recorded. */
int workspace_last_lesson(char *id, size_t len);

#endif
