/* cmd_classroom.c — `gpulearn classroom init LESSON... [--out DIR]`: a GitHub Classroom
 * assignment's template repository. Into DIR it writes each lesson's exercise starter
 * (NN-slug/<starter>, where the learner edits), .github/workflows/classroom.yml (installs
 * gpulearn, grades each exercise once, then one autograding test per check, scored by
 * classroom-resources/autograding-command-grader and reported to Classroom by
 * autograding-grading-reporter) and .github/classroom/autograding.json (the same tests in
 * the format Classroom's older autograding read). README "Grading a course on GitHub
 * Classroom" walks through it. Nothing is written outside DIR or through a link, and a
 * file that differs is replaced only with --force. (`classroom slurm`: cmd_slurm.c.) */
#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "runtime/grade.h"

/* The gpulearn a workflow builds unless told: this release's tag of the project. */
#define DEFAULT_URL "https://github.com/gpulearn/gpulearn"
#define DEFAULT_REF "v" GL_VERSION

/* Minutes one autograding test may take (the first of a lesson grades it). */
#define TEST_TIMEOUT_MIN 10

/* One file of the template: its path under DIR ('/'-separated parts, each checked by
 * safe_part) and its bytes. */
typedef struct tfile {
    char path[PATH_MAX];
    char *data;
    size_t len;
} tfile;

/* Whether s is a safe name for one part of a path or a workflow id: letters, digits, '.',
 * '_' and '-', not starting with '.' or '-' (so never "..", a hidden name or an option). */
static int safe_part(const char *s)
{
    if (!*s || *s == '.' || *s == '-' || strlen(s) > 100)
        return 0;
    for (; *s; s++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", *s))
            return 0;
    return 1;
}

/* s as a single-quoted YAML scalar ('' for each '), appended to f. */
static void yaml_quoted(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'')
            fputc('\'', f);
        fputc(*s, f);
    }
    fputc('\'', f);
}

/* One exercise of the template. */
typedef struct texercise {
    gl_lesson l;
    char folder[128]; /* the lesson's folder name ("01-threads"): where its starter goes */
    char file[256];   /* folder/starter-name: the learner's file */
    char names[64][64];
    int nnames;
} texercise;

/* The shell command that grades x (and with check, exits by that check), saving the
 * report for the other tests: see cmd_grade_check.c. */
static void grade_command(char *buf, size_t n, const texercise *x, const char *backend,
                          const char *check)
{
    snprintf(buf, n,
             "gpulearn grade %s %s --backend %s%s%s --report "
             "\"${RUNNER_TEMP:-/tmp}/gpulearn-%s.json\"",
             x->l.id, x->file, backend, check ? " --check " : "", check ? check : "", x->l.id);
}

/* The workflow step id of x's check c: letters, digits, '_' and '-' ('.' of a program's
 * "kernel.NAME" as '-'). */
static void step_id(char *buf, size_t n, const texercise *x, const char *check)
{
    snprintf(buf, n, "%s-%s", x->l.id, check);
    for (char *p = buf; *p; p++)
        if (*p == '.')
            *p = '-';
}

static char *workflow_text(const texercise *xs, int nx, const char *backend, const char *url,
                           const char *ref, const char *runs_on, size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    if (!f)
        return NULL;
    fprintf(f,
            "# Written by `gpulearn classroom init` (gpulearn %s). On every push it builds\n"
            "# gpulearn, grades each exercise once and reports one test per check, with the\n"
            "# lesson's points, to GitHub Classroom.\n"
            "name: Autograding Tests\n"
            "'on':\n  - push\n  - workflow_dispatch\n  - repository_dispatch\n"
            "permissions:\n  checks: write\n  actions: read\n  contents: read\n"
            "jobs:\n  run-autograding-tests:\n    runs-on: ",
            GL_VERSION);
    yaml_quoted(f, runs_on);
    fprintf(f, "\n    if: github.actor != 'github-classroom[bot]'\n"
               "    timeout-minutes: 60\n"
               "    steps:\n"
               "      - name: Check out the submission\n"
               "        uses: actions/checkout@v4\n"
               "      - name: Install gpulearn\n"
               "        env:\n"
               "          GPULEARN_URL: ");
    yaml_quoted(f, url);
    fputs("\n          GPULEARN_REF: ", f);
    yaml_quoted(f, ref);
    fputs("\n        run: |\n"
          "          sudo apt-get update -qq\n"
          "          sudo apt-get install -y -qq build-essential pkg-config libncurses-dev "
          "libcjson-dev libseccomp-dev nettle-dev check libsubunit-dev clang\n"
          "          git clone --depth 1 --branch \"$GPULEARN_REF\" \"$GPULEARN_URL\" "
          "\"$RUNNER_TEMP/gpulearn-src\"\n"
          "          make -C \"$RUNNER_TEMP/gpulearn-src\" MODE=release -j\"$(nproc)\"\n"
          "          sudo make -C \"$RUNNER_TEMP/gpulearn-src\" MODE=release install "
          "PREFIX=/usr/local\n",
          f);
    char cmd[1024], id[256], name[256];
    for (int i = 0; i < nx; i++) {
        grade_command(cmd, sizeof cmd, &xs[i], backend, NULL);
        fprintf(f, "      - name: 'Grade %s (%s)'\n        run: ", xs[i].l.id, xs[i].file);
        strncat(cmd, " || true", sizeof cmd - strlen(cmd) - 1);
        yaml_quoted(f, cmd);
        fputc('\n', f);
    }
    for (int i = 0; i < nx; i++)
        for (int c = 0; c < xs[i].nnames; c++) {
            step_id(id, sizeof id, &xs[i], xs[i].names[c]);
            snprintf(name, sizeof name, "%s: %s", xs[i].l.id, xs[i].names[c]);
            grade_command(cmd, sizeof cmd, &xs[i], backend, xs[i].names[c]);
            fputs("      - name: ", f);
            yaml_quoted(f, name);
            fprintf(f,
                    "\n        id: %s\n"
                    "        uses: classroom-resources/autograding-command-grader@v1\n"
                    "        with:\n          test-name: ",
                    id);
            yaml_quoted(f, name);
            fputs("\n          command: ", f);
            yaml_quoted(f, cmd);
            fprintf(f, "\n          timeout: %d\n          max-score: %d\n", TEST_TIMEOUT_MIN,
                    lesson_check_points(xs[i].l.exercise, xs[i].names[c]));
        }
    fputs("      - name: Autograding Reporter\n"
          "        uses: classroom-resources/autograding-grading-reporter@v1\n"
          "        env:\n",
          f);
    for (int i = 0; i < nx; i++)
        for (int c = 0; c < xs[i].nnames; c++) {
            step_id(id, sizeof id, &xs[i], xs[i].names[c]);
            char up[256];
            size_t k = 0;
            for (; id[k] && k + 1 < sizeof up; k++)
                up[k] = (char)(id[k] >= 'a' && id[k] <= 'z' ? id[k] - 'a' + 'A' : id[k]);
            up[k] = '\0';
            fprintf(f, "          %s_RESULTS: \"${{steps.%s.outputs.result}}\"\n", up, id);
        }
    fputs("        with:\n          runners: ", f);
    for (int i = 0, first = 1; i < nx; i++)
        for (int c = 0; c < xs[i].nnames; c++, first = 0) {
            step_id(id, sizeof id, &xs[i], xs[i].names[c]);
            fprintf(f, "%s%s", first ? "" : ",", id);
        }
    fputc('\n', f);
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* .github/classroom/autograding.json: {"tests": [{"name", "setup", "run", "input",
 * "output", "comparison", "timeout", "points"}, ...]}, one test per check. */
static char *autograding_text(const texercise *xs, int nx, const char *backend, size_t *len)
{
    cJSON *js = cJSON_CreateObject();
    cJSON *tests = cJSON_AddArrayToObject(js, "tests");
    char cmd[1024], name[256];
    for (int i = 0; i < nx; i++)
        for (int c = 0; c < xs[i].nnames; c++) {
            cJSON *t = cJSON_CreateObject();
            snprintf(name, sizeof name, "%s: %s", xs[i].l.id, xs[i].names[c]);
            grade_command(cmd, sizeof cmd, &xs[i], backend, xs[i].names[c]);
            cJSON_AddStringToObject(t, "name", name);
            cJSON_AddStringToObject(t, "setup", "");
            cJSON_AddStringToObject(t, "run", cmd);
            cJSON_AddStringToObject(t, "input", "");
            cJSON_AddStringToObject(t, "output", "");
            cJSON_AddStringToObject(t, "comparison", "included");
            cJSON_AddNumberToObject(t, "timeout", TEST_TIMEOUT_MIN);
            cJSON_AddNumberToObject(t, "points",
                                    lesson_check_points(xs[i].l.exercise, xs[i].names[c]));
            cJSON_AddItemToArray(tests, t);
        }
    char *text = cJSON_Print(js);
    cJSON_Delete(js);
    if (!text)
        return NULL;
    size_t n = strlen(text);
    char *nl = realloc(text, n + 2);
    if (!nl) {
        free(text);
        return NULL;
    }
    nl[n] = '\n', nl[n + 1] = '\0';
    *len = n + 1;
    return nl;
}

/* Checks that dir/rel can be written: every folder on the way is a folder or absent
 * (never a link), the file is absent, a regular file with the same bytes (*same = 1) or,
 * with force, a regular file. 0, or 2 after the message. */
static int check_target(const char *dir, const tfile *t, int force, int *same)
{
    char path[PATH_MAX * 2];
    *same = 0;
    for (const char *p = t->path;;) {
        const char *slash = strchr(p, '/');
        snprintf(path, sizeof path, "%s/%.*s", dir,
                 slash ? (int)(slash - t->path) : (int)strlen(t->path), t->path);
        struct stat st;
        if (lstat(path, &st) != 0) {
            if (errno == ENOENT)
                return 0; /* created */
            fprintf(stderr, "gpulearn: %s: %s\n", path, strerror(errno));
            return 2;
        }
        if (S_ISLNK(st.st_mode) || (slash ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode))) {
            fprintf(stderr,
                    "gpulearn: %s: %s: the template is written into folders and regular files "
                    "only, never through a link\n",
                    path, S_ISLNK(st.st_mode) ? "is a symbolic link" : "is in the way");
            return 2;
        }
        if (!slash)
            break;
        p = slash + 1;
    }
    gl_error err = {0};
    size_t len = 0;
    char *old = gl_read_file(path, &len, &err);
    *same = old && len == t->len && memcmp(old, t->data, len) == 0;
    free(old);
    if (!*same && !force) {
        fprintf(stderr,
                "gpulearn: %s: exists and differs from what classroom init writes: not "
                "overwritten (--force replaces it)\n",
                path);
        return 2;
    }
    return 0;
}

/* Writes t under dir (its folders made as needed; gl_write_report: never through a link).
 * 0, or 2 after the message. */
static int write_target(const char *dir, const tfile *t)
{
    char path[PATH_MAX * 2];
    for (const char *p = strchr(t->path, '/'); p; p = strchr(p + 1, '/')) {
        snprintf(path, sizeof path, "%s/%.*s", dir, (int)(p - t->path), t->path);
        struct stat st;
        if (mkdir(path, 0755) != 0 && errno != EEXIST) {
            fprintf(stderr, "gpulearn: %s: %s\n", path, strerror(errno));
            return 2;
        }
        if (lstat(path, &st) != 0 || !S_ISDIR(st.st_mode)) { /* a link that appeared */
            fprintf(stderr, "gpulearn: %s: is not a folder\n", path);
            return 2;
        }
    }
    snprintf(path, sizeof path, "%s/%s", dir, t->path);
    gl_error err = {0};
    if (gl_write_report(path, t->data, t->len, &err) != GL_OK) {
        fprintf(stderr, "gpulearn: %s\n", err.msg);
        return 2;
    }
    return 0;
}

static int classroom_init(int argc, char **argv)
{
    const char *out = ".", *backend = "sim", *url = DEFAULT_URL, *ref = DEFAULT_REF,
               *runs_on = "ubuntu-latest";
    int force = 0, nl = 0;
    const char **lessons = calloc((size_t)argc + 1, sizeof *lessons);
    if (!lessons)
        return 2;
    int rc = 0;
    for (int i = 0; i < argc && !rc; i++) {
        const char *a = argv[i];
        const char **slot = strcmp(a, "--out") == 0            ? &out
                            : strcmp(a, "--backend") == 0      ? &backend
                            : strcmp(a, "--gpulearn-url") == 0 ? &url
                            : strcmp(a, "--gpulearn-ref") == 0 ? &ref
                            : strcmp(a, "--runs-on") == 0      ? &runs_on
                                                               : NULL;
        if (slot && i + 1 < argc)
            *slot = argv[++i];
        else if (slot)
            rc = cli_usage_error("%s needs a value", a);
        else if (strcmp(a, "--force") == 0)
            force = 1;
        else if (a[0] == '-')
            rc = cli_usage_error("unknown option '%s'", a);
        else
            lessons[nl++] = a;
    }
    if (!rc && strcmp(backend, "sim") && strcmp(backend, "gpu") && strcmp(backend, "auto"))
        rc = cli_usage_error("--backend must be sim, gpu or auto, not '%s'", backend);
    if (!rc && nl == 0)
        rc = cli_usage_error("classroom init needs lessons (gpulearn classroom init LESSON... "
                             "[--out DIR])%s",
                             "");
    /* the workflow quotes them; newlines or quotes in a URL or ref are no URL or ref */
    const char *const free_text[] = {url, ref, runs_on};
    for (int i = 0; !rc && i < 3; i++)
        if (strpbrk(free_text[i], "\n\r\"'$`\\") || !*free_text[i])
            rc = cli_usage_error("'%s': not a URL, git ref or runner label", free_text[i]);
    texercise *xs = rc ? NULL : calloc((size_t)nl, sizeof *xs);
    if (!rc && !xs)
        rc = 2;
    int nx = 0;
    for (int i = 0; !rc && i < nl; i++, nx++) {
        texercise *x = &xs[i];
        if ((rc = cli_exercise_lesson(lessons[i], "grade", &x->l)) != 0)
            break;
        const char *base = strrchr(x->l.dir, '/');
        snprintf(x->folder, sizeof x->folder, "%s", base ? base + 1 : x->l.dir);
        const char *sb = strrchr(x->l.exercise->starter, '/');
        sb = sb ? sb + 1 : x->l.exercise->starter;
        if (!safe_part(x->folder) || !safe_part(sb) || !safe_part(x->l.id)) {
            fprintf(stderr,
                    "gpulearn: %s: a lesson's folder, id and starter name must be letters, digits, "
                    "'.', '_' and '-' to go into a template\n",
                    x->l.dir);
            rc = 2;
            nx++;
            break;
        }
        for (int j = 0; j < i; j++)
            if (strcmp(xs[j].l.id, x->l.id) == 0) {
                fprintf(stderr, "gpulearn: lesson '%s' is named twice\n", x->l.id);
                rc = 2;
            }
        snprintf(x->file, sizeof x->file, "%s/%s", x->folder, sb);
        x->nnames = grade_check_names(x->l.exercise, x->names, 64);
    }
    /* the files, all checked before any is written */
    const int nfiles = nx + 2;
    tfile *files = rc ? NULL : calloc((size_t)nfiles, sizeof *files);
    if (!rc && !files)
        rc = 2;
    for (int i = 0; !rc && i < nx; i++) {
        gl_error err = {0};
        snprintf(files[i].path, sizeof files[i].path, "%s", xs[i].file);
        if (!(files[i].data = gl_read_file(xs[i].l.exercise->starter, &files[i].len, &err)))
            rc = cli_die(GL_ERR_INPUT, err.msg);
    }
    if (!rc) {
        snprintf(files[nx].path, sizeof files[nx].path, ".github/workflows/classroom.yml");
        files[nx].data = workflow_text(xs, nx, backend, url, ref, runs_on, &files[nx].len);
        snprintf(files[nx + 1].path, sizeof files[nx + 1].path,
                 ".github/classroom/autograding.json");
        files[nx + 1].data = autograding_text(xs, nx, backend, &files[nx + 1].len);
        if (!files[nx].data || !files[nx + 1].data) {
            fprintf(stderr, "gpulearn: out of memory\n");
            rc = 2;
        }
    }
    struct stat st;
    if (!rc && stat(out, &st) != 0 && (errno != ENOENT || mkdir(out, 0755) != 0)) {
        fprintf(stderr, "gpulearn: --out %s: %s\n", out, strerror(errno));
        rc = 2;
    } else if (!rc && stat(out, &st) == 0 && !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "gpulearn: --out %s: is not a folder\n", out);
        rc = 2;
    }
    int *same = rc ? NULL : calloc((size_t)nfiles, sizeof *same);
    for (int i = 0; !rc && i < nfiles; i++)
        rc = same ? check_target(out, &files[i], force, &same[i]) : 2;
    int ntests = 0, npoints = 0;
    for (int i = 0; !rc && i < nfiles; i++) {
        if (!same[i] && (rc = write_target(out, &files[i])) != 0)
            break;
        printf("%s %s/%s\n", same[i] ? "unchanged" : "wrote    ", out, files[i].path);
    }
    for (int i = 0; !rc && i < nx; i++)
        for (int c = 0; c < xs[i].nnames; c++, ntests++)
            npoints += lesson_check_points(xs[i].l.exercise, xs[i].names[c]);
    if (!rc)
        printf("%d autograding tests, %d points in all: push %s as the assignment's template "
               "repository (README: \"Grading a course on GitHub Classroom\")\n",
               ntests, npoints, out);
    for (int i = 0; files && i < nfiles; i++)
        free(files[i].data);
    free(files);
    free(same);
    for (int i = 0; i < nx; i++)
        lesson_free(&xs[i].l);
    free(xs);
    free(lessons);
    return rc;
}

int cmd_classroom(int argc, char **argv)
{
    if (argc >= 1 && strcmp(argv[0], "init") == 0)
        return classroom_init(argc - 1, argv + 1);
    fprintf(stderr,
            "gpulearn: classroom %s%s%s: the subcommands are init (a GitHub Classroom "
            "template: gpulearn classroom init LESSON... [--out DIR]) and slurm (a Slurm "
            "job array: gpulearn classroom slurm LESSON --batch DIR)\n",
            argc >= 1 ? "has no subcommand '" : "needs a subcommand", argc >= 1 ? argv[0] : "",
            argc >= 1 ? "'" : "");
    return 2;
}
