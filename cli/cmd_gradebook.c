/* cmd_gradebook.c — `gpulearn gradebook RESULTS... [--out FILE.csv]
 * [--format plain|canvas|moodle] [--due LESSON=YYYY-MM-DDTHH:MMZ]...`: a course's
 * gradebook (runtime/gradebook.h) from `grade --batch` JSON results: each RESULTS a
 * .json file or a folder whose grades-*.json are read; writes FILE.csv (default
 * grades.csv) and the JSON beside it (FILE.json). Exit 0, or 2 on bad usage or input
 * (a malformed or forged result names its place). */
#include <cjson/cJSON.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "runtime/gradebook.h"

static int is_results(const struct dirent *d)
{
    const size_t n = strlen(d->d_name);
    return strncmp(d->d_name, "grades-", 7) == 0 && n > 12 &&
           strcmp(d->d_name + n - 5, ".json") == 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

/* The results files read, so that no output replaces one. */
typedef struct read_list {
    char **paths;
    int n;
} read_list;

/* Adds the results file path to g: 0, or 2 after the message. */
static int add_file(gl_gradebook *g, const char *path, read_list *r)
{
    char **np = realloc(r->paths, (size_t)(r->n + 1) * sizeof *np);
    if (!np || !(np[r->n] = strdup(path))) {
        if (np)
            r->paths = np;
        fprintf(stderr, "gpulearn: out of memory\n");
        return 2;
    }
    r->paths = np, r->n++;
    gl_error err = {0};
    size_t len = 0;
    char *text = gl_read_file(path, &len, &err);
    if (!text || gradebook_add(g, path, text, len, &err) != GL_OK) {
        free(text);
        return cli_die(GL_ERR_INPUT, err.msg);
    }
    free(text);
    return 0;
}

/* Adds every grades-*.json of folder dir (none: an error): 0, or 2. */
static int add_folder(gl_gradebook *g, const char *dir, read_list *r)
{
    struct dirent **names = NULL;
    const int n = scandir(dir, &names, is_results, by_name);
    if (n <= 0) {
        fprintf(stderr,
                "gpulearn: %s: no grades-LESSON.json (gpulearn grade LESSON --batch DIR "
                "writes them) in this folder\n",
                dir);
        free(names);
        return 2;
    }
    int rc = 0;
    for (int i = 0; i < n; i++) {
        char path[PATH_MAX * 2];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
        if (!rc)
            rc = add_file(g, path, r);
        free(names[i]);
    }
    free(names);
    return rc;
}

/* Writes data to path (never through a link) unless it is one of the inputs: 0, or 2. */
static int write_out(const char *path, const char *data, size_t len, const read_list *r)
{
    for (int i = 0; i < r->n; i++)
        if (gl_same_file(path, r->paths[i])) {
            fprintf(stderr, "gpulearn: %s is one of the results read: not overwritten\n", path);
            return 2;
        }
    gl_error err = {0};
    if (gl_write_report(path, data, len, &err) != GL_OK) {
        fprintf(stderr, "gpulearn: %s\n", err.msg);
        return 2;
    }
    return 0;
}

int cmd_gradebook(int argc, char **argv)
{
    const char *out = "grades.csv", *format = "plain";
    char **inputs = calloc((size_t)argc + 1, sizeof *inputs),
         **dues = calloc((size_t)argc + 1, sizeof *dues);
    int ninputs = 0, ndues = 0, rc = 0;
    if (!inputs || !dues)
        rc = 2;
    for (int i = 0; !rc && i < argc; i++) {
        const char *a = argv[i];
        const int takes = !strcmp(a, "--out") || !strcmp(a, "--format") || !strcmp(a, "--due");
        if (takes && i + 1 >= argc)
            rc = cli_usage_error("%s needs a value", a);
        else if (!strcmp(a, "--out"))
            out = argv[++i];
        else if (!strcmp(a, "--format"))
            format = argv[++i];
        else if (!strcmp(a, "--due"))
            dues[ndues++] = argv[++i];
        else if (a[0] == '-')
            rc = cli_usage_error("unknown option '%s'", a);
        else
            inputs[ninputs++] = argv[i];
    }
    gl_gb_format fmt = GL_GB_PLAIN;
    if (!rc && !strcmp(format, "canvas"))
        fmt = GL_GB_CANVAS;
    else if (!rc && !strcmp(format, "moodle"))
        fmt = GL_GB_MOODLE;
    else if (!rc && strcmp(format, "plain"))
        rc = cli_usage_error("--format must be plain, canvas or moodle, not '%s'", format);
    if (!rc && ninputs == 0)
        rc = cli_usage_error("gradebook needs results (gpulearn gradebook RESULTS... --out "
                             "grades.csv; each a grade --batch .json or a folder of them)%s",
                             "");
    gl_gradebook g = {0};
    read_list read = {0};
    for (int i = 0; !rc && i < ninputs; i++) {
        struct stat st;
        rc = stat(inputs[i], &st) == 0 && S_ISDIR(st.st_mode) ? add_folder(&g, inputs[i], &read)
                                                              : add_file(&g, inputs[i], &read);
    }
    gl_error err = {0};
    for (int i = 0; !rc && i < ndues; i++) {
        char lesson[128];
        const char *eq = strchr(dues[i], '=');
        if (!eq || eq == dues[i] || (size_t)(eq - dues[i]) >= sizeof lesson) {
            rc = cli_usage_error("--due takes LESSON=YYYY-MM-DDTHH:MMZ, not '%s'", dues[i]);
            break;
        }
        snprintf(lesson, sizeof lesson, "%.*s", (int)(eq - dues[i]), dues[i]);
        if (gradebook_set_due(&g, lesson, eq + 1, &err) != GL_OK)
            rc = cli_usage_error("%s", err.msg);
    }
    if (!rc && gradebook_finish(&g, &err) != GL_OK)
        rc = cli_die(GL_ERR_INPUT, err.msg);
    char json_path[PATH_MAX + 8];
    const size_t n = strlen(out);
    snprintf(json_path, sizeof json_path, "%.*s.json",
             n > 4 && strcmp(out + n - 4, ".csv") == 0 ? (int)n - 4 : (int)n, out);
    char *csv = NULL, *js = NULL;
    size_t csv_len = 0;
    if (!rc) {
        FILE *f = open_memstream(&csv, &csv_len);
        if (f) {
            gradebook_write_csv(f, &g, fmt);
            fclose(f);
        }
        cJSON *j = gradebook_to_json(&g);
        js = j ? cJSON_Print(j) : NULL;
        cJSON_Delete(j);
        if (!csv || !js) {
            fprintf(stderr, "gpulearn: out of memory\n");
            rc = 2;
        }
    }
    if (!rc)
        rc = write_out(out, csv, csv_len, &read);
    if (!rc)
        rc = write_out(json_path, js, strlen(js), &read);
    int late = 0, missing = 0;
    for (int i = 0; i < g.nstudents * g.nlessons; i++)
        late += g.cells[i].late, missing += !g.cells[i].present;
    if (!rc)
        printf("%d student%s, %d exercise%s (%d late, %d missing): wrote %s and %s\n", g.nstudents,
               g.nstudents == 1 ? "" : "s", g.nlessons, g.nlessons == 1 ? "" : "s", late, missing,
               out, json_path);
    free(csv);
    free(js);
    gradebook_free(&g);
    for (int i = 0; i < read.n; i++)
        free(read.paths[i]);
    free(read.paths);
    free(inputs);
    free(dues);
    return rc;
}
