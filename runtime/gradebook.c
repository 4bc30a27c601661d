/* gradebook.c — a course's gradebook from `grade --batch` results (gradebook.h). */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/grade.h"
#include "runtime/gradebook.h"
#include "runtime/lesson.h"

void gl_gradebook_csv_field(FILE *f, const char *s)
{
    const int formula = *s && strchr("=+-@\t\r", *s);
    if (!formula && !strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    if (formula)
        fputc('\'', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

void gl_gradebook_utc_format(char *buf, size_t n, time_t t)
{
    struct tm tm;
    if (!gmtime_r(&t, &tm) || !strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm))
        snprintf(buf, n, "1970-01-01T00:00:00Z");
}

int gl_gradebook_utc_parse(const char *s, time_t *t)
{
    /* the two forms, character by character: 'd' a digit, others themselves */
    static const char *const forms[] = {"dddd-dd-ddTdd:ddZ", "dddd-dd-ddTdd:dd:ddZ"};
    int form = -1;
    for (int f = 0; f < 2; f++) {
        const char *p = forms[f], *q = s;
        while (*p && *q && (*p == 'd' ? *q >= '0' && *q <= '9' : *p == *q))
            p++, q++;
        if (!*p && !*q)
            form = f;
    }
    if (form < 0)
        return -1;
    const int y = atoi(s), mo = atoi(s + 5), d = atoi(s + 8), h = atoi(s + 11), mi = atoi(s + 14),
              sec = form ? atoi(s + 17) : 0;
    struct tm tm = {.tm_year = y - 1900,
                    .tm_mon = mo - 1,
                    .tm_mday = d,
                    .tm_hour = h,
                    .tm_min = mi,
                    .tm_sec = sec};
    const time_t v = timegm(&tm);
    struct tm back;
    if (v == (time_t)-1 || !gmtime_r(&v, &back) || back.tm_year != y - 1900 ||
        back.tm_mon != mo - 1 || back.tm_mday != d || back.tm_hour != h || back.tm_min != mi ||
        back.tm_sec != sec)
        return -1; /* February 30th, 24:00 */
    *t = v;
    return 0;
}

/* The place of a problem in a batch JSON, for messages. */
typedef struct place {
    const char *source;
    gl_error *err;
} place;

static gl_status bad(const place *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static gl_status bad(const place *p, const char *fmt, ...)
{
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return gl_fail(p->err, GL_ERR_INPUT, "%s: %s", p->source, what);
}

/* obj[key] as a whole number from 0 to max into *out: 0, or -1. */
static int whole(const cJSON *obj, const char *key, int max, int *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) || v->valuedouble < 0 ||
        v->valuedouble > max)
        return -1;
    *out = (int)v->valuedouble;
    return 0;
}

/* Whether name is a submission's file name as `grade --batch` reads one: "STEM.cu", no
 * '/', not hidden, no control character. */
static int submission_name(const char *name)
{
    const size_t n = strlen(name);
    if (n < 4 || n > 255 || strcmp(name + n - 3, ".cu") != 0 || name[0] == '.')
        return 0;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        if (*p == '/' || *p < 0x20 || *p == 0x7f)
            return 0;
    return 1;
}

/* Checks submission s (submissions[i]) against the lesson's checks (names[0..nnames),
 * their points) and fills *cell. */
static gl_status check_submission(const place *p, const cJSON *s, int i, const gl_exercise *e,
                                  char (*names)[64], int nnames, int max, gl_gb_cell *cell)
{
    memset(cell, 0, sizeof *cell);
    cell->present = 1;
    const char *verdict = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(s, "verdict"));
    if (!verdict ||
        (strcmp(verdict, "pass") && strcmp(verdict, "fail") && strcmp(verdict, "error")))
        return bad(p, "submissions[%d].verdict: must be \"pass\", \"fail\" or \"error\"", i);
    int m = -1;
    if (whole(s, "max_score", 1 << 30, &m) != 0 || m != max)
        return bad(p,
                   "submissions[%d].max_score: must be %d, what the checks of its lesson are "
                   "worth (graded with other points? grade the batch again)",
                   i, max);
    if (whole(s, "score", max, &cell->score) != 0)
        return bad(p, "submissions[%d].score: must be a whole number from 0 to %d", i, max);
    const cJSON *sub = cJSON_GetObjectItemCaseSensitive(s, "submitted");
    if (sub &&
        (!cJSON_IsString(sub) || gl_gradebook_utc_parse(sub->valuestring, &cell->submitted) != 0))
        return bad(p, "submissions[%d].submitted: must be a time \"YYYY-MM-DDTHH:MM:SSZ\"", i);
    cell->has_submitted = sub != NULL;
    if (strcmp(verdict, "error") == 0) {
        cell->error = 1;
        if (cell->score != 0)
            return bad(p, "submissions[%d].score: a submission that could not be graded scores 0",
                       i);
        return GL_OK;
    }
    const cJSON *checks = cJSON_GetObjectItemCaseSensitive(s, "checks");
    if (!cJSON_IsArray(checks) || cJSON_GetArraySize(checks) != nnames)
        return bad(p, "submissions[%d].checks: must be the %d checks of its lesson", i, nnames);
    int score = 0, all = 1, k = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, checks)
    {
        const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "name"));
        const cJSON *passed = cJSON_GetObjectItemCaseSensitive(c, "passed");
        int pts = -1;
        if (!name || strcmp(name, names[k]) != 0)
            return bad(p, "submissions[%d].checks[%d].name: must be \"%s\"", i, k, names[k]);
        if (!cJSON_IsBool(passed))
            return bad(p, "submissions[%d].checks[%d].passed: must be true or false", i, k);
        const int want = lesson_check_points(e, names[k]);
        if (whole(c, "points", 1 << 30, &pts) != 0 || pts != want)
            return bad(p, "submissions[%d].checks[%d].points: must be %d, as the lesson gives", i,
                       k, want);
        score += cJSON_IsTrue(passed) ? pts : 0;
        all &= cJSON_IsTrue(passed);
        k++;
    }
    if (score != cell->score)
        return bad(p, "submissions[%d].score: is %d, but its passed checks are worth %d", i,
                   cell->score, score);
    if (all != (strcmp(verdict, "pass") == 0))
        return bad(p, "submissions[%d].verdict: \"%s\" with %s", i, verdict,
                   all ? "every check passed" : "a check failed");
    return GL_OK;
}

static void lesson_entries_free(gl_gb_lesson *x)
{
    for (int i = 0; i < x->n; i++)
        free(x->names[i]);
    free(x->names);
    free(x->entries);
    x->names = NULL, x->entries = NULL, x->n = 0;
}

gl_status gradebook_add(gl_gradebook *g, const char *source, const char *text, size_t len,
                        gl_error *err)
{
    const place p = {source, err};
    cJSON *js = cJSON_ParseWithLength(text, len);
    if (!cJSON_IsObject(js)) {
        cJSON_Delete(js);
        return bad(&p, "not a JSON object (the .json `gpulearn grade --batch` writes)");
    }
    gl_gb_lesson x = {0};
    gl_lesson l = {0};
    gl_status st = GL_OK;
    const char *id = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(js, "lesson"));
    const cJSON *subs = cJSON_GetObjectItemCaseSensitive(js, "submissions");
    gl_error lerr = {0};
    if (!id || strlen(id) >= sizeof x.id) {
        st = bad(&p, "lesson: missing (the lesson's id)");
        goto done;
    }
    if (lesson_find(id, &l, &lerr) != GL_OK || !l.exercise || strcmp(l.id, id) != 0) {
        st = bad(&p, "lesson: no lesson with an exercise has the id '%s' here", id);
        goto done;
    }
    for (int i = 0; i < g->nlessons; i++)
        if (strcmp(g->lessons[i].id, id) == 0) {
            st = bad(&p, "lesson '%s' is in %s already: give each lesson's results once", id,
                     g->lessons[i].source);
            goto done;
        }
    char names[64][64];
    const int nnames = grade_check_names(l.exercise, names, 64);
    int max = 0, m = -1;
    for (int c = 0; c < nnames; c++)
        max += lesson_check_points(l.exercise, names[c]);
    if (whole(js, "max_score", 1 << 30, &m) != 0 || m != max) {
        st = bad(&p,
                 "max_score: must be %d, what the checks of lesson '%s' are worth (a batch "
                 "graded before points were given? grade it again)",
                 max, id);
        goto done;
    }
    if (!cJSON_IsArray(subs)) {
        st = bad(&p, "submissions: must be an array");
        goto done;
    }
    snprintf(x.id, sizeof x.id, "%s", l.id);
    snprintf(x.label, sizeof x.label, "%s", l.label);
    snprintf(x.source, sizeof x.source, "%s", source);
    x.number = l.number;
    x.max_score = max;
    const int n = cJSON_GetArraySize(subs);
    x.names = calloc((size_t)n + 1, sizeof *x.names);
    x.entries = calloc((size_t)n + 1, sizeof *x.entries);
    if (!x.names || !x.entries) {
        st = gl_fail(err, GL_ERR_NOMEM, "out of memory");
        goto done;
    }
    const cJSON *s;
    int i = 0;
    cJSON_ArrayForEach(s, subs)
    {
        const char *file = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(s, "file"));
        if (!cJSON_IsObject(s) || !file || !submission_name(file)) {
            st = bad(&p, "submissions[%d].file: must be a submission's file name (NAME.cu)", i);
            goto done;
        }
        for (int j = 0; j < x.n; j++)
            if (strncmp(x.names[j], file, strlen(file) - 3) == 0 &&
                x.names[j][strlen(file) - 3] == '\0') {
                st = bad(&p, "submissions[%d].file: a second submission of the same name", i);
                goto done;
            }
        if ((st = check_submission(&p, s, i, l.exercise, names, nnames, max, &x.entries[x.n])) !=
            GL_OK)
            goto done;
        if (!(x.names[x.n] = strndup(file, strlen(file) - 3))) {
            st = gl_fail(err, GL_ERR_NOMEM, "out of memory");
            goto done;
        }
        x.n++, i++;
    }
    gl_gb_lesson *nl = realloc(g->lessons, (size_t)(g->nlessons + 1) * sizeof *nl);
    if (!nl) {
        st = gl_fail(err, GL_ERR_NOMEM, "out of memory");
        goto done;
    }
    g->lessons = nl;
    g->lessons[g->nlessons++] = x;
    memset(&x, 0, sizeof x);
done:
    lesson_entries_free(&x);
    if (l.dir)
        lesson_free(&l);
    cJSON_Delete(js);
    return st;
}

gl_status gradebook_set_due(gl_gradebook *g, const char *lesson, const char *when, gl_error *err)
{
    time_t t;
    if (gl_gradebook_utc_parse(when, &t) != 0)
        return gl_fail(err, GL_ERR_USAGE,
                       "--due %s=%s: not a time YYYY-MM-DDTHH:MMZ (UTC, e.g. 2026-12-01T23:59Z)",
                       lesson, when);
    gl_lesson l;
    gl_error lerr = {0};
    const int found = lesson_find(lesson, &l, &lerr) == GL_OK;
    for (int i = 0; i < g->nlessons; i++)
        if ((found && strcmp(g->lessons[i].id, l.id) == 0) ||
            strcmp(g->lessons[i].id, lesson) == 0) {
            g->lessons[i].due = t;
            g->lessons[i].has_due = 1;
            if (found)
                lesson_free(&l);
            return GL_OK;
        }
    if (found)
        lesson_free(&l);
    return gl_fail(err, GL_ERR_USAGE, "--due %s: no results of that lesson are given", lesson);
}

static int by_number(const void *a, const void *b)
{
    const gl_gb_lesson *x = a, *y = b;
    return x->number != y->number ? (x->number < y->number ? -1 : 1) : strcmp(x->label, y->label);
}

static int by_string(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

gl_status gradebook_finish(gl_gradebook *g, gl_error *err)
{
    qsort(g->lessons, (size_t)g->nlessons, sizeof *g->lessons, by_number);
    size_t total = 0;
    for (int i = 0; i < g->nlessons; i++)
        total += (size_t)g->lessons[i].n;
    char **all = calloc(total + 1, sizeof *all);
    if (!all)
        return gl_fail(err, GL_ERR_NOMEM, "out of memory");
    size_t k = 0;
    for (int i = 0; i < g->nlessons; i++)
        for (int j = 0; j < g->lessons[i].n; j++)
            all[k++] = g->lessons[i].names[j];
    qsort(all, total, sizeof *all, by_string);
    int n = 0;
    for (size_t i = 0; i < total; i++)
        if (n == 0 || strcmp(all[n - 1], all[i]) != 0)
            all[n++] = all[i];
    g->students = calloc((size_t)n + 1, sizeof *g->students);
    g->cells = calloc((size_t)n * (size_t)g->nlessons + 1, sizeof *g->cells);
    if (!g->students || !g->cells) {
        free(all);
        return gl_fail(err, GL_ERR_NOMEM, "out of memory");
    }
    for (int i = 0; i < n; i++)
        if (!(g->students[i] = strdup(all[i]))) {
            free(all);
            return gl_fail(err, GL_ERR_NOMEM, "out of memory");
        }
    g->nstudents = n;
    free(all);
    for (int li = 0; li < g->nlessons; li++) {
        gl_gb_lesson *x = &g->lessons[li];
        for (int j = 0; j < x->n; j++) {
            char **at =
                bsearch(&x->names[j], g->students, (size_t)n, sizeof *g->students, by_string);
            gl_gb_cell *c = &g->cells[(at - g->students) * g->nlessons + li];
            *c = x->entries[j];
            if (x->has_due && !c->has_submitted)
                return gl_fail(err, GL_ERR_INPUT,
                               "%s: %s.cu has no \"submitted\" time to compare with --due "
                               "(grade the batch again with this gpulearn)",
                               x->source, x->names[j]);
            c->late = x->has_due && c->submitted > x->due;
        }
        lesson_entries_free(x);
    }
    return GL_OK;
}

/* The lessons of student s whose cells have flag (late, or missing when late is 0)
 * joined by spaces into buf. */
static void flagged_lessons(const gl_gradebook *g, int s, int late, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < g->nlessons; i++) {
        const gl_gb_cell *c = &g->cells[s * g->nlessons + i];
        if ((late ? c->late : !c->present) && len + strlen(g->lessons[i].id) + 2 < n)
            len += (size_t)snprintf(buf + len, n - len, "%s%s", len ? " " : "", g->lessons[i].id);
    }
}

void gradebook_write_csv(FILE *f, const gl_gradebook *g, gl_gb_format format)
{
    static const char *const canvas_cols = "Student,ID,SIS User ID,SIS Login ID,Section";
    fputs(format == GL_GB_CANVAS   ? canvas_cols
          : format == GL_GB_MOODLE ? "Username"
                                   : "student",
          f);
    for (int i = 0; i < g->nlessons; i++) {
        fputc(',', f);
        gl_gradebook_csv_field(f, g->lessons[i].id);
    }
    if (format == GL_GB_PLAIN)
        fputs(",total,max_score,late,missing", f);
    for (int i = 0; format == GL_GB_MOODLE && i < g->nlessons; i++)
        fprintf(f, ",%s feedback", g->lessons[i].id);
    fputc('\n', f);
    if (format == GL_GB_CANVAS) { /* what each assignment is out of */
        fputs("Points Possible,,,,", f);
        for (int i = 0; i < g->nlessons; i++)
            fprintf(f, ",%d", g->lessons[i].max_score);
        fputc('\n', f);
    }
    int max = 0;
    for (int i = 0; i < g->nlessons; i++)
        max += g->lessons[i].max_score;
    for (int s = 0; s < g->nstudents; s++) {
        gl_gradebook_csv_field(f, g->students[s]);
        if (format == GL_GB_CANVAS) {
            fputs(",,,", f);
            gl_gradebook_csv_field(f, g->students[s]);
            fputc(',', f);
        }
        int total = 0;
        for (int i = 0; i < g->nlessons; i++) {
            const gl_gb_cell *c = &g->cells[s * g->nlessons + i];
            if (c->present)
                fprintf(f, ",%d", c->score);
            else
                fputc(',', f); /* missing: no grade */
            total += c->score;
        }
        if (format == GL_GB_PLAIN) {
            char late[1024], missing[1024];
            flagged_lessons(g, s, 1, late, sizeof late);
            flagged_lessons(g, s, 0, missing, sizeof missing);
            fprintf(f, ",%d,%d,", total, max);
            gl_gradebook_csv_field(f, late);
            fputc(',', f);
            gl_gradebook_csv_field(f, missing);
        }
        for (int i = 0; format == GL_GB_MOODLE && i < g->nlessons; i++) {
            const gl_gb_cell *c = &g->cells[s * g->nlessons + i];
            fprintf(f, ",%s",
                    !c->present ? "missing"
                    : c->error  ? "could not be graded"
                    : c->late   ? "late"
                                : "");
        }
        fputc('\n', f);
    }
}

cJSON *gradebook_to_json(const gl_gradebook *g)
{
    cJSON *js = cJSON_CreateObject();
    cJSON *ls = cJSON_AddArrayToObject(js, "lessons");
    char when[32];
    int max = 0;
    for (int i = 0; i < g->nlessons; i++) {
        const gl_gb_lesson *x = &g->lessons[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "id", x->id);
        cJSON_AddStringToObject(o, "label", x->label);
        cJSON_AddNumberToObject(o, "max_score", x->max_score);
        if (x->has_due) {
            gl_gradebook_utc_format(when, sizeof when, x->due);
            cJSON_AddStringToObject(o, "due", when);
        }
        cJSON_AddItemToArray(ls, o);
        max += x->max_score;
    }
    cJSON *ss = cJSON_AddArrayToObject(js, "students");
    for (int s = 0; s < g->nstudents; s++) {
        cJSON *o = cJSON_CreateObject();
        char *clean = gl_utf8_clean(g->students[s]);
        cJSON_AddStringToObject(o, "id", clean ? clean : "");
        free(clean);
        cJSON *ex = cJSON_CreateObject();
        int total = 0;
        for (int i = 0; i < g->nlessons; i++) {
            const gl_gb_cell *c = &g->cells[s * g->nlessons + i];
            cJSON *e = cJSON_CreateObject();
            cJSON_AddStringToObject(e, "status",
                                    !c->present ? "missing"
                                    : c->error  ? "error"
                                                : "graded");
            cJSON_AddNumberToObject(e, "score", c->score);
            cJSON_AddBoolToObject(e, "late", c->late);
            if (c->has_submitted) {
                gl_gradebook_utc_format(when, sizeof when, c->submitted);
                cJSON_AddStringToObject(e, "submitted", when);
            }
            cJSON_AddItemToObject(ex, g->lessons[i].id, e);
            total += c->score;
        }
        cJSON_AddNumberToObject(o, "total", total);
        cJSON_AddNumberToObject(o, "max_score", max);
        cJSON_AddItemToObject(o, "exercises", ex);
        cJSON_AddItemToArray(ss, o);
    }
    return js;
}

void gradebook_free(gl_gradebook *g)
{
    for (int i = 0; i < g->nlessons; i++)
        lesson_entries_free(&g->lessons[i]);
    free(g->lessons);
    for (int i = 0; i < g->nstudents; i++)
        free(g->students[i]);
    free(g->students);
    free(g->cells);
    memset(g, 0, sizeof *g);
}
