/* gradebook.h — a course's gradebook from `gpulearn grade --batch` results (their JSON),
 * one row per student and one column per exercise, in the CSV layouts learning-management
 * systems import and as JSON (`gpulearn gradebook`; README "A course's gradebook"). Every
 * input is untrusted: a batch JSON is checked against its lesson (the checks and points
 * its report must have, a score that is their sum) and refused with the place of the
 * first problem; a student's name is only ever a cell, never a path. */
#ifndef GL_GRADEBOOK_H
#define GL_GRADEBOOK_H

#include <stdio.h>
#include <time.h>

#include "runtime/gl.h"

struct cJSON;

/* One exercise's column: the lesson, what its checks are worth, its due time. */
typedef struct gl_gb_lesson {
    char id[64];   /* the lesson's id ("threads") */
    char label[8]; /* its number as typed ("1", "0b") */
    int number;    /* gl_lesson.number: the columns' order */
    int max_score; /* the points of all its checks */
    time_t due;    /* --due, UTC; has_due says whether one was given */
    int has_due;
    char source[256]; /* the batch JSON it came from, for messages */
    /* the batch's submissions until gradebook_finish puts them in cells: names (file
     * names without ".cu") and their cells, n of them */
    char **names;
    struct gl_gb_cell *entries;
    int n;
} gl_gb_lesson;

/* One student's result in one exercise. */
typedef struct gl_gb_cell {
    int present; /* 0: no submission of this student in the lesson's batch: missing */
    int score;   /* the points earned */
    int error;   /* the submission could not be graded (its score is 0) */
    int late;    /* submitted after the lesson's due time */
    time_t submitted;
    int has_submitted;
} gl_gb_cell;

/* The gradebook: lessons and students (sorted by gradebook_finish), and a cell for each
 * pair, cells[student * nlessons + lesson]. */
typedef struct gl_gradebook {
    gl_gb_lesson *lessons;
    int nlessons;
    char **students; /* the submissions' file names without ".cu" */
    int nstudents;
    gl_gb_cell *cells;
} gl_gradebook;

/* The CSV layouts (gradebook_write_csv). */
typedef enum gl_gb_format {
    GL_GB_PLAIN,  /* student, one column per exercise, total, max, late, missing */
    GL_GB_CANVAS, /* Canvas's gradebook import: Student, ID, SIS User ID, SIS Login ID,
                     Section, one column per exercise; a "Points Possible" row */
    GL_GB_MOODLE, /* Moodle's grade import: Username, one column per exercise, then a
                     feedback column per exercise ("late", "missing") */
} gl_gb_format;

/* Adds the batch results text[0..len) (`grade --batch`'s JSON, named `source` in
 * messages) to g: GL_ERR_INPUT "source: submissions[3].score: ..." when it is malformed,
 * does not match its lesson (lesson_find of its "lesson": its checks, their points, the
 * score they sum to) or its lesson is in g already; g is unchanged then. */
gl_status gradebook_add(gl_gradebook *g, const char *source, const char *text, size_t len,
                        gl_error *err);

/* Sets the due time of lesson `lesson` (its id, number or label) to `when`
 * ("YYYY-MM-DDTHH:MMZ" or with ":SS", UTC). GL_ERR_USAGE when the time is not one or no
 * lesson of g is named so. */
gl_status gradebook_set_due(gl_gradebook *g, const char *lesson, const char *when, gl_error *err);

/* Sorts the lessons (by number) and students (by name, bytewise) and marks late cells.
 * GL_ERR_INPUT when a lesson has a due time and a submission of it no "submitted" time. */
gl_status gradebook_finish(gl_gradebook *g, gl_error *err);

/* Writes g as CSV in layout `format` (RFC 4180; every cell that a spreadsheet would take
 * for a formula escaped: gl_gradebook_csv_field). */
void gradebook_write_csv(FILE *f, const gl_gradebook *g, gl_gb_format format);

/* g as JSON: {"lessons": [{"id", "label", "max_score", "due"}], "students": [{"id",
 * "total", "max_score", "exercises": {"ID": {"status": "graded|error|missing",
 * "score", "late", "submitted"}}}]}. Caller frees with cJSON_Delete; NULL when out of
 * memory. */
struct cJSON *gradebook_to_json(const gl_gradebook *g);

void gradebook_free(gl_gradebook *g);

/* One CSV field (RFC 4180 quoting) to f; a field a spreadsheet would take for a formula
 * (starting with = + - @, tab or carriage return) gets a leading apostrophe inside
 * quotes, so that it shows as text (OWASP, "CSV Injection"). */
void gl_gradebook_csv_field(FILE *f, const char *s);

/* t as "YYYY-MM-DDTHH:MM:SSZ" into buf (at least 21 bytes). */
void gl_gradebook_utc_format(char *buf, size_t n, time_t t);

/* Parses "YYYY-MM-DDTHH:MMZ" or "YYYY-MM-DDTHH:MM:SSZ" (UTC) into *t: 0, or -1. */
int gl_gradebook_utc_parse(const char *s, time_t *t);

#endif
