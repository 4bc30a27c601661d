/* cmd_grade_check.c — `gpulearn grade LESSON [FILE.cu] --report FILE.json` (the JSON
 * report saved beside the usual output) and `... --check NAME [--report FILE.json]`: the
 * exit status is one check's verdict, so that an autograder that scores one command per
 * test (GitHub Classroom: `gpulearn classroom init`) gets one test per check while the
 * submission is graded once: the first --check grades and saves the report, the others
 * read it back while it describes the very same submission (its SHA-256). */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "runtime/cache.h"
#include "runtime/grade.h"

/* The key a saved report carries: the SHA-256 of the graded file's bytes. */
#define SAVED_SHA_KEY "submission_sha256"

/* The SHA-256 of the file at path as hex into hex[65]: 0, or 2 after the message. */
static int file_sha256(const char *path, char hex[65])
{
    gl_error err = {0};
    size_t len = 0;
    char *text = gl_read_file(path, &len, &err);
    if (!text) {
        fprintf(stderr, "gpulearn: %s\n", err.msg);
        return 2;
    }
    gl_cache_sha256 s;
    gl_cache_sha256_init(&s);
    gl_cache_sha256_update(&s, text, len);
    gl_cache_sha256_hex(&s, hex);
    free(text);
    return 0;
}

/* The report saved at path when it is a regular file holding a report of lesson `id` for
 * the submission whose SHA-256 is sha (caller frees with cJSON_Delete); NULL when there
 * is none or it describes something else (then it is graded again and replaced). *rc
 * gets 2 after the message when path holds something that is no report (never
 * overwritten: a wrong --report). */
static cJSON *saved_report(const char *path, const char *id, const char *sha, int *rc)
{
    struct stat st;
    *rc = 0;
    if (lstat(path, &st) != 0)
        return NULL;
    gl_error err = {0};
    size_t len = 0;
    char *text = S_ISREG(st.st_mode) ? gl_read_file(path, &len, &err) : NULL;
    cJSON *js = text ? cJSON_ParseWithLength(text, len) : NULL;
    free(text);
    const cJSON *checks = cJSON_GetObjectItemCaseSensitive(js, "checks");
    const char *lesson = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(js, "lesson"));
    const char *h = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(js, SAVED_SHA_KEY));
    if (!cJSON_IsArray(checks) || !lesson || !h) {
        fprintf(stderr,
                "gpulearn: --report %s: is not a report gpulearn grade saved: not overwritten "
                "(name a new file)\n",
                path);
        cJSON_Delete(js);
        *rc = 2;
        return NULL;
    }
    if (strcmp(lesson, id) != 0 || strcmp(h, sha) != 0) {
        cJSON_Delete(js);
        return NULL;
    }
    return js;
}

/* Prints check c of a JSON report (name, verdict, points, detail; escaped for a
 * terminal) and returns its exit status: 0 passed, 1 not. */
static int show_check(const cJSON *c)
{
    const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "name"));
    const char *status = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "status"));
    const char *detail = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "detail"));
    const cJSON *pts = cJSON_GetObjectItemCaseSensitive(c, "points");
    const int passed = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "passed"));
    const int points = cJSON_IsNumber(pts) ? pts->valueint : 0;
    printf("%-7s  ", passed                                     ? "PASS"
                     : status && strcmp(status, "not_run") == 0 ? "NOT RUN"
                                                                : "FAIL");
    gl_fputs_term(stdout, name ? name : "", 0);
    printf("  (%d of %d point%s)\n", passed ? points : 0, points, points == 1 ? "" : "s");
    for (const char *line = detail ? detail : ""; *line;) {
        const char *nl = strchr(line, '\n');
        const size_t len = nl ? (size_t)(nl - line) : strlen(line);
        char *one = strndup(line, len);
        fputs("        ", stdout);
        gl_fputs_term(stdout, one ? one : "", GL_ESC_LINES);
        fputc('\n', stdout);
        free(one);
        line += len + (nl ? 1 : 0);
    }
    return passed ? 0 : 1;
}

int grade_check_or_save(const gl_lesson *l, const char *file, const gl_grade_opts *opts,
                        const char *format, const char *report, const char *check)
{
    const gl_exercise *e = l->exercise;
    if (check) { /* a name that is no check of the exercise is a usage error, before grading */
        char names[64][64];
        const int n = grade_check_names(e, names, 64);
        int known = 0;
        for (int i = 0; i < n; i++)
            known |= strcmp(names[i], check) == 0;
        if (!known) {
            fprintf(stderr,
                    "gpulearn: --check %s: lesson '%s' has no such check (its checks:", check,
                    l->id);
            for (int i = 0; i < n; i++)
                fprintf(stderr, "%s %s", i ? "," : "", names[i]);
            fputs(")\n", stderr);
            return 2;
        }
    }
    const char *path = file ? file : e->starter;
    if (report && gl_same_file(report, path)) {
        fprintf(stderr, "gpulearn: --report %s: is the graded file itself: not overwritten\n",
                report);
        return 2;
    }
    char sha[65];
    int rc = file_sha256(path, sha);
    if (rc)
        return rc;
    cJSON *js = NULL;
    if (report && check && !(js = saved_report(report, l->id, sha, &rc)) && rc)
        return rc;
    if (report && !check) { /* a link or folder in its place is refused before grading */
        struct stat st;
        if (lstat(report, &st) == 0 && !S_ISREG(st.st_mode)) {
            fprintf(stderr, "gpulearn: --report %s: the report is written to a regular file only\n",
                    report);
            return 2;
        }
    }
    if (!js) {
        gl_grade_report rep;
        gl_error err = {0};
        gl_status st = grade_exercise(l, file, opts, &rep, &err);
        if (st != GL_OK) {
            grade_report_free(&rep);
            return cli_die(st, err.msg);
        }
        if (!check) {
            if (format && strcmp(format, "json") == 0)
                grade_report_write_json(stdout, &rep);
            else if (format && strcmp(format, "junit") == 0)
                grade_report_write_junit(stdout, &rep);
            else
                grade_report_write_text(stdout, &rep);
        }
        rc = rep.passed ? 0 : 1;
        js = grade_report_to_json(&rep);
        grade_report_free(&rep);
        if (!js) {
            fprintf(stderr, "gpulearn: out of memory\n");
            return 2;
        }
        cJSON_AddStringToObject(js, SAVED_SHA_KEY, sha);
        char *text = report ? cJSON_Print(js) : NULL;
        gl_error werr = {0};
        if (report && (!text || gl_write_report(report, text, strlen(text), &werr) != GL_OK)) {
            fprintf(stderr, "gpulearn: %s\n", text ? werr.msg : "out of memory");
            rc = 2;
        }
        free(text);
        if (!check || rc == 2) {
            cJSON_Delete(js);
            return rc;
        }
    }
    rc = -1;
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(js, "checks"))
    {
        const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "name"));
        if (rc < 0 && name && strcmp(name, check) == 0)
            rc = show_check(c);
    }
    if (rc < 0) { /* a check the exercise has and this report lacks: a report of before */
        fprintf(stderr, "gpulearn: --report %s: has no check '%s': remove it and grade again\n",
                report ? report : "", check);
        rc = 2;
    }
    cJSON_Delete(js);
    return rc;
}
