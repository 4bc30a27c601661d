/* test_grade.c — the grader rejects wrong solutions with the right check
 * (tests/grade/NN-lesson/<check>__<what>.cu must fail <check>) and advises what fits the
 * failure (a submission's `// expect-advice: TEXT` and `// expect-no-advice: TEXT` lines,
 * at its end so that its line numbers stay, say what the check's advice must and must
 * not contain), `gpulearn grade --batch`
 * gives every submission of tests/grade/batch its verdict (pass_* pass, fail_* fail)
 * whatever the others do, JSON and JUnit outputs parse, lesson.json check declarations
 * are validated, and the learner's workspace and progress behave. Runs from the repo
 * root; the CLI cases use $GPULEARN (set by make check). */
#include <check.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/compile.h"
#include "runtime/grade.h"
#include "runtime/sandbox.h"
#include "runtime/lesson.h"
#include "runtime/workspace.h"

static void env(void)
{
    setenv("GPULEARN_LESSONS", "lessons", 1);
    setenv("GPULEARN_NO_GPU", "1", 1);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* The advice lines of a check's detail (runtime/grade.c's advise): the lines that do not
 * report one size ("n = ...", "also fails for ...", "not run for ..."), into buf. */
static void advice_of(const char *detail, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (const char *p = detail; *p;) {
        const char *eol = strchr(p, '\n');
        const size_t len = eol ? (size_t)(eol - p) : strlen(p);
        if (strncmp(p, "n = ", 4) != 0 && strncmp(p, "also fails for ", 15) != 0 &&
            strncmp(p, "not run for ", 12) != 0 && used + len + 2 < n) {
            memcpy(buf + used, p, len);
            used += len;
            buf[used++] = '\n';
            buf[used] = '\0';
        }
        p = eol ? eol + 1 : p + len;
    }
}

/* A submission's advice expectations, one per comment line: `// expect-advice: TEXT` (the
 * failed check's advice says TEXT) and `// expect-no-advice: TEXT` (it does not). What
 * does not hold goes into why (n bytes); returns how many expectations the file has. */
static int check_advice(const char *path, const char *advice, char *why, size_t n)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[1024];
    int count = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        const char *yes = strstr(line, "// expect-advice: "),
                   *no = strstr(line, "// expect-no-advice: ");
        const char *text = yes ? yes + 18 : no ? no + 21 : NULL;
        if (!text)
            continue;
        count++;
        const int has = strstr(advice, text) != NULL;
        if (yes ? !has : has) {
            const size_t used = strlen(why);
            snprintf(why + used, n - used, "%sthe advice %s \"%s\"", used ? "; " : "",
                     yes ? "does not say" : "says", text);
        }
    }
    fclose(f);
    if (why[0] && strlen(why) + 20 < n) {
        const size_t used = strlen(why);
        snprintf(why + used, n - used, ". The advice:\n%s", advice);
    }
    return count;
}

/* Whether check c is theoretical_occupancy NOT RUN because no ptxas counted the
 * kernel's registers (runtime/grade.c run_check): what a machine without a CUDA Toolkit
 * answers for a kernel whose registers would decide it. */
static int regs_not_run(const gl_check_result *c)
{
    return c->not_run && c->regs_unknown && strcmp(c->name, "theoretical_occupancy") == 0 &&
           strstr(c->detail, "registers per thread unknown") != NULL;
}

/* Grades every tests/grade/<lesson>/<check>__*.cu (of a kernel exercise: a program
 * exercise's are tests/first_program.sh's) and checks that <check> failed (not
 * merely was not run) with the advice its expect-advice lines name (check_advice), and
 * every tests/grade/<lesson>/pass__*.cu (right solutions that differ from the reference)
 * and checks that it passed. Without a CUDA Toolkit (no ptxas counts registers per
 * thread), a theoretical_occupancy check NOT RUN for that reason is accepted with a SKIP
 * line, for the wrong and the right submissions alike. A sanitizer build (make check
 * MODE=asan|ubsan), which runs every kernel several times slower, grades one wrong
 * submission per lesson and check and one right one per lesson (the first by name): every
 * check's code path under the sanitizer; the debug build grades them all. */
START_TEST(test_wrong_solutions_fail_the_expected_check)
{
    env();
    DIR *root = opendir("tests/grade");
    ck_assert_ptr_nonnull(root);
    struct dirent *d;
    int graded = 0, bad = 0, skipped = 0, advised = 0;
    char ptxas[4096];
    const int can_count_regs = gl_compile_find_ptxas(ptxas, sizeof ptxas);
    static char problems[65536];
    problems[0] = '\0';
    while ((d = readdir(root))) {
        if (d->d_name[0] < '0' || d->d_name[0] > '9')
            continue;
        char ldir[512], sdir[512];
        snprintf(ldir, sizeof ldir, "lessons/%s", d->d_name);
        snprintf(sdir, sizeof sdir, "tests/grade/%s", d->d_name);
        gl_lesson l;
        gl_error err = {0};
        ck_assert_msg(lesson_load(ldir, &l, &err) == GL_OK, "%s", err.msg);
        if (l.exercise && l.exercise->program) {
            /* a program exercise's submissions: tests/first_program.sh grades them in one
             * batch and checks every check's verdict against their expected.csv */
            lesson_free(&l);
            continue;
        }
        struct dirent **names = NULL;
        const int nnames = scandir(sdir, &names, NULL, alphasort);
        char last_check[64] = "";
        for (int k = 0; k < nnames; k++) {
            const struct dirent *f = names[k];
            const char *sep = strstr(f->d_name, "__");
            if (!ends_with(f->d_name, ".cu") || !sep)
                continue;
            char check[64], path[1024];
            snprintf(check, sizeof check, "%.*s", (int)(sep - f->d_name), f->d_name);
            snprintf(path, sizeof path, "%s/%s", sdir, f->d_name);
#ifdef GL_SANITIZER_BUILD
            if (strcmp(check, last_check) == 0) {
                skipped++;
                continue;
            }
            snprintf(last_check, sizeof last_check, "%s", check);
#else
            (void)last_check;
#endif
            gl_grade_report rep;
            char why[8192] = "";
            if (grade_exercise(&l, path, NULL, &rep, &err) != GL_OK) {
                snprintf(why, sizeof why, "%.900s", err.msg);
            } else if (!rep.compiled) {
                snprintf(why, sizeof why, "does not compile: %.900s",
                         rep.compile_log ? rep.compile_log : "");
            } else if (strcmp(check, "pass") == 0) {
                for (int i = 0; i < rep.nchecks && !why[0]; i++)
                    if (!can_count_regs && regs_not_run(&rep.checks[i]))
                        printf("SKIP: %s: %s is NOT RUN without a CUDA Toolkit's ptxas to "
                               "count registers per thread\n",
                               path, rep.checks[i].name);
                    else if (!rep.checks[i].passed)
                        snprintf(why, sizeof why, "a right solution fails %s: %.900s",
                                 rep.checks[i].name, rep.checks[i].detail);
            } else if (rep.passed) {
                snprintf(why, sizeof why, "passes every check");
            } else {
                snprintf(why, sizeof why, "lesson %s has no check '%s'", l.id, check);
                for (int i = 0; i < rep.nchecks; i++)
                    if (strcmp(rep.checks[i].name, check) == 0 && !can_count_regs &&
                        regs_not_run(&rep.checks[i])) {
                        /* theoretical_occupancy of a kernel that registers limit: no
                         * ptxas (no CUDA Toolkit) counts them, so it is NOT RUN */
                        printf("SKIP: %s: %s is NOT RUN without a CUDA Toolkit's ptxas to "
                               "count registers per thread\n",
                               path, check);
                        why[0] = '\0';
                        break;
                    } else if (strcmp(rep.checks[i].name, check) == 0) {
                        snprintf(why, sizeof why, "%s",
                                 rep.checks[i].passed    ? "passes the check it must fail"
                                 : rep.checks[i].not_run ? "the check it must fail was not run"
                                 : strlen(rep.checks[i].detail) < 20 ? "no detail"
                                                                     : "");
                        static char advice[4096];
                        advice_of(rep.checks[i].detail, advice, sizeof advice);
                        if (!why[0])
                            advised += check_advice(path, advice, why, sizeof why) > 0;
                    }
            }
            if (why[0]) {
                bad++;
                size_t used = strlen(problems);
                snprintf(problems + used, sizeof problems - used, "%s (%s): %s\n", path, check,
                         why);
            }
            grade_report_free(&rep);
            graded++;
        }
        for (int k = 0; k < nnames; k++)
            free(names[k]);
        free(names);
        lesson_free(&l);
    }
    closedir(root);
    if (skipped)
        printf("SKIP: sanitizer build: graded %d submissions, one per lesson and check; the "
               "other %d are graded by the debug build\n",
               graded, skipped);
    ck_assert_int_ge(graded, 20);
    if (bad) /* the whole list: a Check message holds a few KiB */
        printf("%s", problems), fflush(stdout);
    ck_assert_msg(bad == 0, "%d of %d wrong solutions are not rejected as expected:\n%.3000s", bad,
                  graded, problems);
#ifndef GL_SANITIZER_BUILD
    ck_assert_int_ge(advised, 8); /* the submissions with expect-advice lines */
#endif
}
END_TEST

static char *slurp(const char *path)
{
    gl_error err = {0};
    return gl_read_file(path, NULL, &err);
}

/* Runs a shell command; returns its exit status. */
static int sh(const char *cmd)
{
    int rc = system(cmd);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/* A submission named like a spreadsheet formula is written to the batch CSV as text. */
START_TEST(test_batch_csv_quotes_formula_names_as_text)
{
    env();
    const char *g = getenv("GPULEARN");
    if (!g) {
        fprintf(stderr, "GPULEARN not set: batch test skipped\n");
        return;
    }
    char dir[] = "/tmp/gl_csvXXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "mkdir %s/in && cp tests/grade/batch/pass_01_guard.cu '%s/in/=HYPERLINK(1).cu' && "
             "'%s' grade 1 --batch %s/in --out %s/grades >%s/log 2>&1",
             dir, dir, g, dir, dir, dir);
    ck_assert_int_eq(sh(cmd), 0);
    char path[512];
    snprintf(path, sizeof path, "%s/grades.csv", dir);
    char *text = slurp(path);
    ck_assert_ptr_nonnull(text);
    ck_assert_msg(strstr(text, "\n\"'=HYPERLINK(1).cu\",pass,"), "%s", text);
    free(text);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    sh(cmd);
}
END_TEST

START_TEST(test_batch_gives_each_submission_its_verdict)
{
    env();
    const char *g = getenv("GPULEARN");
    if (!g) {
        fprintf(stderr, "GPULEARN not set: batch test skipped\n");
        return;
    }
    char dir[] = "/tmp/gl_batchXXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' grade 1 --batch tests/grade/batch --out %s/grades >%s/log 2>&1",
             g, dir, dir);
    ck_assert_int_eq(sh(cmd), 1); /* some failed */
    char path[512];
    snprintf(path, sizeof path, "%s/grades.json", dir);
    char *text = slurp(path);
    ck_assert_ptr_nonnull(text);
    cJSON *js = cJSON_Parse(text);
    ck_assert_ptr_nonnull(js);
    ck_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(js, "lesson")), "threads");
    const cJSON *subs = cJSON_GetObjectItem(js, "submissions");
    ck_assert_int_ge(cJSON_GetArraySize(subs), 30);
    const cJSON *s;
    int pass = 0, fail = 0;
    cJSON_ArrayForEach(s, subs)
    {
        const char *file = cJSON_GetStringValue(cJSON_GetObjectItem(s, "file"));
        const char *verdict = cJSON_GetStringValue(cJSON_GetObjectItem(s, "verdict"));
        ck_assert_ptr_nonnull(file);
        ck_assert_ptr_nonnull(verdict);
        const char *want = strncmp(file, "pass_", 5) == 0 ? "pass" : "fail";
        ck_assert_msg(strcmp(verdict, want) == 0, "%s: %s, expected %s", file, verdict, want);
        pass += strcmp(verdict, "pass") == 0;
        fail += strcmp(verdict, "fail") == 0;
    }
    ck_assert_int_eq((int)cJSON_GetNumberValue(cJSON_GetObjectItem(js, "passed")), pass);
    ck_assert_int_eq((int)cJSON_GetNumberValue(cJSON_GetObjectItem(js, "failed")), fail);
    ck_assert_int_eq((int)cJSON_GetNumberValue(cJSON_GetObjectItem(js, "errors")), 0);
    /* The endless loop, the out-of-bounds writer and the compile error say why. */
    cJSON_ArrayForEach(s, subs)
    {
        const char *file = cJSON_GetStringValue(cJSON_GetObjectItem(s, "file"));
        char *one = cJSON_PrintUnformatted(s);
        if (strstr(file, "endless_loop"))
            ck_assert_msg(strstr(one, "step limit") || strstr(one, "endless"), "%s", one);
        if (strstr(file, "oob_writer"))
            ck_assert_msg(strstr(one, "out-of-bounds"), "%s", one);
        if (strstr(file, "compile_error"))
            ck_assert_msg(strstr(one, "\"compiled\":false"), "%s", one);
        free(one);
    }
    cJSON_Delete(js);
    free(text);
    /* CSV: a header and one row per submission, the verdict in column 2. */
    snprintf(path, sizeof path, "%s/grades.csv", dir);
    text = slurp(path);
    ck_assert_ptr_nonnull(text);
    ck_assert(strncmp(text, "submission,verdict,", 19) == 0);
    ck_assert_ptr_nonnull(strstr(text, "\npass_01_guard.cu,pass,"));
    ck_assert_ptr_nonnull(strstr(text, "\nfail_20_endless_loop.cu,fail,"));
    ck_assert_ptr_nonnull(strstr(text, "\nfail_22_compile_error.cu,fail,0,8,fail,not_run,not_run,"
                                       "not_run,not_run,not_run,not_run,not_run,compiles,0,8\n"));
    /* a kernel that never finishes: its checks were not run, and not passed */
    ck_assert_ptr_nonnull(strstr(text, "\nfail_20_endless_loop.cu,fail,1,8,pass,not_run,not_run,"
                                       "not_run,not_run,not_run,fail,not_run,time_limit,1,8\n"));
    int rows = 0;
    for (const char *p = text; *p; p++)
        rows += *p == '\n';
    ck_assert_int_ge(rows, 33);
    free(text);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    sh(cmd);
}
END_TEST

START_TEST(test_json_and_junit_reports_parse)
{
    env();
    gl_lesson l;
    gl_error err = {0};
    ck_assert_int_eq(lesson_find("1", &l, &err), GL_OK);
    gl_grade_report rep;
    ck_assert_int_eq(grade_exercise(&l, NULL, NULL, &rep, &err), GL_OK);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    grade_report_write_json(f, &rep);
    fclose(f);
    cJSON *js = cJSON_Parse(buf);
    ck_assert_ptr_nonnull(js);
    ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(js, "passed")));
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(js, "checks")), rep.nchecks);
    cJSON_Delete(js);
    free(buf);
    f = open_memstream(&buf, &len);
    grade_report_write_junit(f, &rep);
    fclose(f);
    ck_assert(strncmp(buf, "<?xml version=\"1.0\"", 19) == 0);
    ck_assert_ptr_nonnull(
        strstr(buf, "<testsuite name=\"gpulearn.threads\" tests=\"8\" failures=\"7\""));
    ck_assert_ptr_nonnull(
        strstr(buf, "<testcase classname=\"gpulearn.threads\" name=\"compiles\"/>"));
    ck_assert_ptr_nonnull(strstr(buf, "<failure type=\"fail\" message=\"n = 1: "));
    ck_assert_ptr_nonnull(strstr(buf, "</testsuites>\n"));
    /* Balanced: as many <testcase as checks, no raw '<' inside text. */
    int cases = 0;
    for (const char *p = buf; (p = strstr(p, "<testcase")); p++)
        cases++;
    ck_assert_int_eq(cases, rep.nchecks);
    free(buf);
    grade_report_free(&rep);
    lesson_free(&l);
}
END_TEST

/* A kernel that never finishes fails the check that names why (time_limit) and has
 * every other check NOT RUN, not passed: in the report, the text, JSON and JUnit. */
START_TEST(test_checks_of_a_kernel_that_never_finishes_are_not_run)
{
    env();
    gl_lesson l;
    gl_error err = {0};
    ck_assert_int_eq(lesson_find("2", &l, &err), GL_OK);
    gl_grade_report rep;
    ck_assert_int_eq(grade_exercise(&l, "tests/grade/02-indexing/time_limit__x_never_advances.cu",
                                    NULL, &rep, &err),
                     GL_OK);
    ck_assert(!rep.passed);
    /* the declared checks, then those every exercise gets (lesson.c) */
    const char *want[][2] = {{"compiles", "pass"},
                             {"matches_reference", "not_run"},
                             {"no_out_of_bounds", "not_run"},
                             {"time_limit", "fail"},
                             {"no_races", "not_run"},
                             {"no_deadlock", "not_run"},
                             {"no_uninitialized_reads", "not_run"},
                             {"random_schedule", "not_run"}};
    ck_assert_int_eq(rep.nchecks, 8);
    for (int i = 0; i < 8; i++) {
        ck_assert_str_eq(rep.checks[i].name, want[i][0]);
        ck_assert_str_eq(grade_check_status(&rep.checks[i]), want[i][1]);
    }
    ck_assert_ptr_nonnull(
        strstr(rep.checks[1].detail,
               "not run for n = 1, 31, 33, 70, 100 and adversarial inputs: the kernel did not "
               "finish (step limit of 4194304 warp instructions reached: warps loop "));
    /* the submission by the name it was given, never a sandbox copy's */
    ck_assert_msg(strstr(rep.checks[1].detail,
                         "at tests/grade/02-indexing/time_limit__x_never_advances.cu:6)"),
                  "%s", rep.checks[1].detail);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    grade_report_write_text(f, &rep);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(buf, "  NOT RUN  matches_reference\n"));
    ck_assert_ptr_nonnull(strstr(buf, "  FAIL     time_limit\n"));
    ck_assert_ptr_nonnull(strstr(buf, "FAILED: 1 of 8 checks passed\n"));
    free(buf);
    f = open_memstream(&buf, &len);
    grade_report_write_json(f, &rep);
    fclose(f);
    cJSON *js = cJSON_Parse(buf);
    ck_assert_ptr_nonnull(js);
    const cJSON *c = cJSON_GetArrayItem(cJSON_GetObjectItem(js, "checks"), 2);
    ck_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(c, "status")), "not_run");
    ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(c, "passed")));
    cJSON_Delete(js);
    free(buf);
    f = open_memstream(&buf, &len);
    grade_report_write_junit(f, &rep);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(buf, "tests=\"8\" failures=\"7\""));
    ck_assert_ptr_nonnull(strstr(buf, "<failure type=\"not_run\" message=\"not run for n = 1,"));
    free(buf);
    grade_report_free(&rep);
    lesson_free(&l);
}
END_TEST

/* Inputs change with every grading: a submission that writes a table of the outputs of
 * one seed's inputs for n up to 4099 matches the reference at those sizes under that
 * seed (--seed repeats a grading exactly; it fails at n = 65537 and the adversarial
 * inputs, which the table does not cover) and at none under other seeds; two gradings
 * without a seed get different seeds. */
START_TEST(test_inputs_change_with_every_grading_seed)
{
    env();
    gl_lesson l;
    gl_error err = {0};
    ck_assert_int_eq(lesson_find("1", &l, &err), GL_OK);
    const char *cheat = "tests/grade/01-threads/matches_reference__table_of_outputs.cu";
    gl_grade_report rep;
    gl_grade_opts o = {.seed_given = 1, .seed = 0};
    ck_assert_int_eq(grade_exercise(&l, cheat, &o, &rep, &err), GL_OK);
    ck_assert_str_eq(rep.checks[1].name, "matches_reference");
    /* it reads past its table at n = 65537: not run there, and no size up to 4099 fails */
    ck_assert_msg(strstr(rep.checks[1].detail, "n = 1:") == NULL &&
                      strstr(rep.checks[1].detail, "not run for n = 65537"),
                  "the table of seed 0's outputs does not match up to n = 4099 under --seed 0: %s",
                  rep.checks[1].detail);
    ck_assert_int_eq((int)rep.seed, 0);
    grade_report_free(&rep);
    for (uint64_t seed = 1; seed <= 3; seed++) {
        o.seed = seed;
        ck_assert_int_eq(grade_exercise(&l, cheat, &o, &rep, &err), GL_OK);
        ck_assert_msg(!rep.passed, "the table of seed 0's outputs passes seed %llu",
                      (unsigned long long)seed);
        ck_assert_str_eq(grade_check_status(&rep.checks[1]), "fail");
        ck_assert_msg(strncmp(rep.checks[1].detail, "n = 1: ", 7) == 0, "%s", rep.checks[1].detail);
        grade_report_free(&rep);
    }
    uint64_t seeds[2];
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(grade_exercise(&l, "lessons/01-threads/solution.cu", NULL, &rep, &err),
                         GL_OK);
        ck_assert(rep.passed);
        seeds[i] = rep.seed;
        grade_report_free(&rep);
    }
    ck_assert_msg(seeds[0] != seeds[1], "two gradings used the same seed %llu",
                  (unsigned long long)seeds[0]);
    lesson_free(&l);
}
END_TEST

/* In a sandboxed process (a child here): no socket of any family opens (EACCES), no
 * file outside the granted trees opens, a granted one does, writes land only in the
 * writable tree, and a root process becomes nobody first, for good. The child reports
 * by its exit status: 0, or the number of the first expectation that failed. */
START_TEST(test_the_sandbox_denies_network_files_and_root)
{
    if (!gl_sandbox_available()) {
        fprintf(stderr, "SKIP: no Landlock in this kernel: the sandbox test did not run\n");
        return;
    }
    char dir[] = "/tmp/gl_sbxXXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    const int was_root = geteuid() == 0;
    pid_t pid = fork();
    if (pid == 0) {
        gl_error e;
        if (was_root) {
            uid_t uid;
            gid_t gid;
            gl_sandbox_nobody(&uid, &gid);
            if (chown(dir, uid, gid) != 0 || gl_sandbox_drop_root(&e) != GL_OK)
                _exit(10);
            if (getuid() == 0 || geteuid() == 0 || setuid(0) == 0)
                _exit(11);
        }
        const char *read[] = {"/usr/lib", "/etc/ld.so.cache"};
        const char *write[] = {dir};
        if (gl_sandbox_restrict(read, 2, write, 1, &e) != GL_OK)
            _exit(12);
        const int domains[] = {AF_INET, AF_INET6, AF_UNIX, AF_NETLINK};
        for (int i = 0; i < 4; i++) {
            errno = 0;
            if (socket(domains[i], SOCK_STREAM, 0) >= 0 || errno != EACCES)
                _exit(20 + i);
        }
        int sv[2];
        if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0)
            _exit(30);
        if (fopen("/etc/passwd", "r") || fopen("/proc/self/environ", "r"))
            _exit(31);
        if (access("/etc/ld.so.cache", R_OK) != 0)
            _exit(32);
        char path[64];
        snprintf(path, sizeof path, "%s/out.txt", dir);
        FILE *f = fopen(path, "w");
        if (!f || fputs("ok", f) < 0 || fclose(f) != 0)
            _exit(33);
        if (fopen("/tmp/gl_sbx_escape.txt", "w"))
            _exit(34);
        _exit(0);
    }
    int status = 0;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                  "the sandboxed child failed expectation %d", WEXITSTATUS(status));
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* A submission compiles in the sandbox: an #include of the lesson's solution (by an
 * absolute or a relative path), of another submission beside it, of /etc/passwd or of
 * /proc/self/environ does not compile, and the reports (text, JSON) hold no byte of
 * those files, with every compiler present. */
START_TEST(test_submissions_cannot_read_files_outside_themselves)
{
    env();
    if (!gl_sandbox_available()) {
        fprintf(stderr, "SKIP: no Landlock in this kernel: the sandbox test did not run\n");
        return;
    }
    setenv("GL_TEST_SECRET", "s3cr3t-token-9137", 1);
    char dir[] = "/tmp/gl_sandboxXXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char cwd[PATH_MAX], path[PATH_MAX + 64], body[PATH_MAX * 2];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    /* another learner's submission beside this one: the reference, renamed */
    snprintf(path, sizeof path, "%s/other.cu", dir);
    char *sol = slurp("lessons/01-threads/solution.cu");
    FILE *f = fopen(path, "w");
    fputs(sol, f);
    fclose(f);
    free(sol);
    const char *includes[] = {"/proc/self/environ", "/etc/passwd", NULL, NULL, "other.cu"};
    char abs_sol[PATH_MAX + 64], rel_sol[PATH_MAX * 2];
    snprintf(abs_sol, sizeof abs_sol, "%s/lessons/01-threads/solution.cu", cwd);
    snprintf(rel_sol, sizeof rel_sol, "../..%s", abs_sol); /* from /tmp/gl_sandboxXXXXXX */
    includes[2] = abs_sol;
    includes[3] = rel_sol;
    const char *compilers[] = {"nvrtc", "nvcc", "clang"};
    gl_lesson l;
    gl_error err = {0};
    ck_assert_int_eq(lesson_find("1", &l, &err), GL_OK);
    int compiled_with = 0;
    for (int c = 0; c < 3; c++)
        for (int i = 0; i < 5; i++) {
            snprintf(path, sizeof path, "%s/sub.cu", dir);
            snprintf(body, sizeof body, "#include \"%s\"\n", includes[i]);
            f = fopen(path, "w");
            fputs(body, f);
            fclose(f);
            gl_grade_opts o = {.compile = {.compiler = c == 0   ? GL_CC_NVRTC
                                                       : c == 1 ? GL_CC_NVCC
                                                                : GL_CC_CLANG}};
            gl_grade_report rep;
            gl_status gs = grade_exercise(&l, path, &o, &rep, &err);
            if (gs == GL_ERR_TOOL && strstr(err.msg, "not available")) {
                /* this compiler is not installed, or does not work in the sandbox: say which */
                printf("SKIP the sandbox with %s: %s\n", compilers[c], err.msg);
                break;
            }
            ck_assert_msg(gs == GL_OK, "%s: %s", compilers[c], err.msg);
            if (!rep.compiled && rep.compile_log && strstr(rep.compile_log, "not available")) {
                grade_report_free(&rep);
                break; /* this compiler is not installed */
            }
            compiled_with |= 1 << c;
            ck_assert(rep.sandboxed);
            ck_assert_msg(!rep.compiled && !rep.passed, "%s: #include \"%s\" compiled",
                          compilers[c], includes[i]);
            /* the error, parsed in the sandbox's child, names the submission (not its
             * copy) at the #include's line */
            ck_assert_int_ge(rep.ndiags, 1);
            ck_assert_str_eq(rep.diags[0].file, path);
            ck_assert_int_eq(rep.diags[0].line, 1);
            ck_assert_int_eq(rep.diags[0].severity, GL_DIAG_ERROR);
            char *buf = NULL;
            size_t len = 0;
            FILE *m = open_memstream(&buf, &len);
            grade_report_write_text(m, &rep);
            grade_report_write_json(m, &rep);
            fclose(m);
            ck_assert_msg(!strstr(buf, "s3cr3t-token") && !strstr(buf, "root:x:0:0") &&
                              !strstr(buf, "Reference solution") &&
                              !strstr(buf, "c[i] = a[i] + b[i]"),
                          "%s: the report quotes %s:\n%s", compilers[c], includes[i], buf);
            free(buf);
            grade_report_free(&rep);
        }
    ck_assert_msg(compiled_with & 1 || compiled_with & 4, "no compiler ran");
    /* the same solution copied in whole still passes: the sandbox stops reading, not compiling */
    gl_grade_report rep;
    ck_assert_int_eq(grade_exercise(&l, "lessons/01-threads/solution.cu", NULL, &rep, &err), GL_OK);
    ck_assert(rep.passed && rep.sandboxed);
    grade_report_free(&rep);
    lesson_free(&l);
    snprintf(body, sizeof body, "rm -rf %s", dir);
    sh(body);
}
END_TEST

/* Writes a lesson folder with the given exercise checks JSON; loads it. */
static gl_status load_with_checks(const char *checks, gl_error *err)
{
    char dir[] = "/tmp/gl_lessonXXXXXX";
    if (!mkdtemp(dir))
        return GL_ERR_INPUT;
    char path[256];
    snprintf(path, sizeof path, "%s/k.cu", dir);
    FILE *f = fopen(path, "w");
    fputs("extern \"C\" __global__ void k(int *o) { o[0] = 1; }\n", f);
    fclose(f);
    snprintf(path, sizeof path, "%s/lesson.json", dir);
    f = fopen(path, "w");
    fprintf(
        f,
        "{\"format\": 1, \"id\": \"t\", \"title\": \"t\", \"summary\": \"s\",\n"
        " \"steps\": [{\"title\": \"a\", \"text\": \"b\", \"view\": \"banks\"}],\n"
        " \"exercise\": {\"text\": \"x\", \"starter\": \"k.cu\", \"reference\": \"k.cu\",\n"
        "  \"launch\": {\"kernel\": \"k\", \"grid\": [1,1,1], \"block\": [1,1,1], \"args\": []},\n"
        "  \"sizes\": [1], \"checks\": %s}}\n",
        checks);
    fclose(f);
    gl_lesson l;
    gl_status st = lesson_load(dir, &l, err);
    if (st == GL_OK)
        lesson_free(&l);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    sh(cmd);
    return st;
}

START_TEST(test_lesson_json_validates_check_declarations)
{
    gl_error err = {0};
    ck_assert_msg(load_with_checks("[{\"kind\": \"no_races\"}, {\"kind\": \"no_deadlock\"},"
                                   " {\"kind\": \"branch_efficiency\", \"min\": 0.9},"
                                   " {\"kind\": \"bank_conflicts\", \"max\": 0, \"sizes\": [1]},"
                                   " {\"kind\": \"time_limit\", \"max_steps\": 1000},"
                                   " {\"kind\": \"random_schedule\", \"seeds\": 4}]",
                                   &err) == GL_OK,
                  "%s", err.msg);
    ck_assert_int_eq(load_with_checks("[{\"kind\": \"fast\"}]", &err), GL_ERR_INPUT);
    ck_assert_ptr_nonnull(strstr(err.msg, "exercise.checks[0].kind: unknown check"));
    ck_assert_int_eq(load_with_checks("[{\"kind\": \"sectors_per_request\"}]", &err), GL_ERR_INPUT);
    ck_assert_ptr_nonnull(strstr(err.msg, "needs \"min\" or \"max\""));
    ck_assert_int_eq(load_with_checks("[{\"kind\": \"no_races\", \"max\": 3}]", &err),
                     GL_ERR_INPUT);
    ck_assert_ptr_nonnull(strstr(err.msg, "exercise.checks[0].max: only metric checks"));
    ck_assert_int_eq(load_with_checks("[{\"kind\": \"time_limit\"}]", &err), GL_ERR_INPUT);
    ck_assert_ptr_nonnull(strstr(err.msg, "max_steps"));
    /* tensor_core_share needs the product's multiply-adds, an expression over n */
    ck_assert_msg(load_with_checks("[{\"kind\": \"tensor_core_share\", \"min\": 95,"
                                   " \"product\": \"16 * n * 16 * (n + 1) * 32\"},"
                                   " {\"kind\": \"work_distribution\", \"max\": 2},"
                                   " {\"kind\": \"pipeline_overlap\", \"min\": 1}]",
                                   &err) == GL_OK,
                  "%s", err.msg);
    ck_assert_int_eq(load_with_checks("[{\"kind\": \"tensor_core_share\", \"min\": 95}]", &err),
                     GL_ERR_INPUT);
    ck_assert_ptr_nonnull(strstr(err.msg, "exercise.checks[0]: a tensor_core_share check needs "
                                          "\"product\""));
    ck_assert_int_eq(load_with_checks("[{\"kind\": \"tensor_core_share\", \"min\": 95,"
                                      " \"product\": \"16 * m\"}]",
                                      &err),
                     GL_ERR_INPUT);
    ck_assert_ptr_nonnull(strstr(err.msg, "exercise.checks[0].product: must be"));
    ck_assert_int_eq(load_with_checks("[{\"kind\": \"tensor_core_share\", \"min\": 95,"
                                      " \"product\": \"n - 1\"}]",
                                      &err),
                     GL_ERR_INPUT);
    ck_assert_ptr_nonnull(strstr(err.msg, "exercise.checks[0].product: must be"));
    ck_assert_int_eq(load_with_checks("[{\"kind\": \"bank_conflicts\", \"max\": 0,"
                                      " \"product\": 64}]",
                                      &err),
                     GL_ERR_INPUT);
    ck_assert_ptr_nonnull(
        strstr(err.msg, "exercise.checks[0].product: only tensor_core_share checks"));
}
END_TEST

/* global_load_bytes_per_flop on real kernels, C = A B with M = N = K = 32 in one block of
 * 32 x 32 threads (warp = one row of C): the naive kernel's warp loads, per k, A[row][k]
 * (one sector, a broadcast) and a 128-byte row of B (4 sectors): 32 warps x 32 k x 5
 * sectors x 32 bytes / (2 x 32^3) = 2.5 bytes per FLOP. The tiled one loads each element
 * once, 2 x 32 x 4 sectors x 32 bytes / 65536 = 0.125. A lesson that checks bytes per
 * FLOP without declaring the launch's flops does not load. */
START_TEST(test_global_load_bytes_per_flop_of_naive_and_tiled_matmul)
{
    env();
    char dir[] = "/tmp/gl-flop-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/naive.cu", dir);
    FILE *f = fopen(path, "w");
    fputs("extern \"C\" __global__ void mm(const float *A, const float *B, float *C, int n)\n"
          "{\n"
          "    int col = threadIdx.x, row = threadIdx.y;\n"
          "    float s = 0.0f;\n"
          "    for (int k = 0; k < n; k++)\n"
          "        s += A[row * n + k] * B[k * n + col];\n"
          "    C[row * n + col] = s;\n"
          "}\n",
          f);
    fclose(f);
    snprintf(path, sizeof path, "%s/tiled.cu", dir);
    f = fopen(path, "w");
    fputs("extern \"C\" __global__ void mm(const float *A, const float *B, float *C, int n)\n"
          "{\n"
          "    __shared__ float As[32][32], Bs[32][32];\n"
          "    int col = threadIdx.x, row = threadIdx.y;\n"
          "    As[row][col] = A[row * n + col];\n"
          "    Bs[row][col] = B[row * n + col];\n"
          "    __syncthreads();\n"
          "    float s = 0.0f;\n"
          "    for (int k = 0; k < n; k++)\n"
          "        s += As[row][k] * Bs[k][col];\n"
          "    C[row * n + col] = s;\n"
          "}\n",
          f);
    fclose(f);
    static const char lesson[] =
        "{\"format\": 1, \"id\": \"t\", \"title\": \"t\", \"summary\": \"s\",\n"
        " \"steps\": [{\"title\": \"a\", \"text\": \"b\"}],\n"
        " \"exercise\": {\"text\": \"x\", \"starter\": \"naive.cu\", \"reference\": \"tiled.cu\",\n"
        "  \"launch\": {\"kernel\": \"mm\", \"grid\": [1,1,1], \"block\": [32,32,1], %s\n"
        "   \"args\": [{\"name\": \"A\", \"type\": \"f32*\", \"len\": \"n*n\", \"init\": {\"iota\":"
        " {\"start\": 0, \"step\": 1}}},\n"
        "    {\"name\": \"B\", \"type\": \"f32*\", \"len\": \"n*n\", \"init\": {\"fill\": 1}},\n"
        "    {\"name\": \"C\", \"type\": \"f32*\", \"len\": \"n*n\"},\n"
        "    {\"name\": \"n\", \"type\": \"i32\", \"value\": \"n\"}]},\n"
        "  \"sizes\": [32], \"checks\": [{\"kind\": \"matches_reference\"},\n"
        "   {\"kind\": \"global_load_bytes_per_flop\", \"max\": 1}]}}\n";
    char text[2048];
    snprintf(text, sizeof text, lesson, "\"flops\": \"2*n*n*n\",");
    gl_lesson l;
    gl_error err = {0};
    ck_assert_msg(lesson_parse(text, strlen(text), dir, &l, &err) == GL_OK, "%s", err.msg);
    const char *detail[2] = {"is 2.5; it must be at most 1", "is 0.125 (at most 1)"};
    for (int sub = 0; sub < 2; sub++) {
        gl_grade_report rep;
        gl_grade_opts o = {.backend = GL_BACKEND_SIM, .seed_given = 1, .seed = 1};
        snprintf(path, sizeof path, "%s/%s", dir, sub ? "tiled.cu" : "naive.cu");
        ck_assert_msg(grade_exercise(&l, path, &o, &rep, &err) == GL_OK, "%s", err.msg);
        int found = 0;
        for (int i = 0; i < rep.nchecks; i++) {
            const gl_check_result *c = &rep.checks[i];
            if (strcmp(c->name, "global_load_bytes_per_flop") == 0) {
                found = 1;
                ck_assert_int_eq(c->passed, sub);
                ck_assert_msg(strstr(c->detail, detail[sub]), "%s", c->detail);
            } else
                ck_assert_msg(c->passed, "%s: %s", c->name, c->detail);
        }
        ck_assert(found);
        grade_report_free(&rep);
    }
    lesson_free(&l);
    snprintf(text, sizeof text, lesson, "");
    ck_assert_int_eq(lesson_parse(text, strlen(text), dir, &l, &err), GL_ERR_INPUT);
    ck_assert_msg(strstr(err.msg, "exercise.launch.flops: missing"), "%s", err.msg);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    sh(cmd);
}
END_TEST

/* theoretical_occupancy on the graded device profile: blocks of 256 threads (8 warps)
 * that declare 32 KiB of shared memory fit 2 to an sm_75 SM (64 KiB): 16 of 32 warp
 * slots, 50%; with 1 KiB, the SM's 1024 threads allow 4 blocks: 100%. On sm_90 (228 KiB,
 * 64 warps) the 32 KiB blocks with the driver's 1 KiB reserve each fit 6 (shared memory):
 * 48 of 64 warps, 75%. */
START_TEST(test_theoretical_occupancy_of_shared_memory_per_block)
{
    env();
    char dir[] = "/tmp/gl-occ-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[256];
    for (int big = 0; big < 2; big++) {
        snprintf(path, sizeof path, "%s/%s.cu", dir, big ? "big" : "small");
        FILE *f = fopen(path, "w");
        fprintf(f,
                "extern \"C\" __global__ void cp(const float *x, float *y, int n)\n"
                "{\n"
                "    __shared__ float s[%d];\n"
                "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                "    s[threadIdx.x] = i < n ? x[i] : 0.0f;\n"
                "    __syncthreads();\n"
                "    if (i < n)\n"
                "        y[i] = s[threadIdx.x];\n"
                "}\n",
                big ? 8192 : 256);
        fclose(f);
    }
    static const char lesson[] =
        "{\"format\": 1, \"id\": \"t\", \"title\": \"t\", \"summary\": \"s\", \"arch\": \"%s\",\n"
        " \"steps\": [{\"title\": \"a\", \"text\": \"b\"}],\n"
        " \"exercise\": {\"text\": \"x\", \"starter\": \"big.cu\", \"reference\": \"small.cu\",\n"
        "  \"launch\": {\"kernel\": \"cp\", \"grid\": [\"(n + 255) / 256\",1,1],"
        " \"block\": [256,1,1],\n"
        "   \"args\": [{\"name\": \"x\", \"type\": \"f32*\", \"len\": \"n\", \"init\": {\"iota\":"
        " {\"start\": 0, \"step\": 1}}},\n"
        "    {\"name\": \"y\", \"type\": \"f32*\", \"len\": \"n\"},\n"
        "    {\"name\": \"n\", \"type\": \"i32\", \"value\": \"n\"}]},\n"
        "  \"sizes\": [300], \"checks\": [{\"kind\": \"matches_reference\"},\n"
        "   {\"kind\": \"theoretical_occupancy\", \"min\": 75}]}}\n";
    const struct {
        const char *arch, *file, *detail;
        int passed;
    } rows[] = {
        {"sm_75", "big.cu", "is 50; it must be at least 75", 0},
        {"sm_75", "small.cu", "is 100 (at least 75)", 1},
        {"sm_90", "big.cu", "is 75 (at least 75)", 1},
    };
    for (size_t r = 0; r < sizeof rows / sizeof *rows; r++) {
        char text[2048];
        snprintf(text, sizeof text, lesson, rows[r].arch);
        gl_lesson l;
        gl_error err = {0};
        ck_assert_msg(lesson_parse(text, strlen(text), dir, &l, &err) == GL_OK, "%s", err.msg);
        gl_grade_report rep;
        gl_grade_opts o = {.backend = GL_BACKEND_SIM, .seed_given = 1, .seed = 1};
        snprintf(path, sizeof path, "%s/%s", dir, rows[r].file);
        ck_assert_msg(grade_exercise(&l, path, &o, &rep, &err) == GL_OK, "%s", err.msg);
        int found = 0;
        for (int i = 0; i < rep.nchecks; i++) {
            const gl_check_result *c = &rep.checks[i];
            if (strcmp(c->name, "theoretical_occupancy") == 0) {
                found = 1;
                ck_assert_int_eq(c->passed, rows[r].passed);
                ck_assert_msg(strstr(c->detail, rows[r].detail), "%s", c->detail);
            } else
                ck_assert_msg(c->passed, "%s: %s", c->name, c->detail);
        }
        ck_assert(found);
        grade_report_free(&rep);
        lesson_free(&l);
    }
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    sh(cmd);
}
END_TEST

START_TEST(test_workspace_copy_reset_and_progress)
{
    env();
    char root[] = "/tmp/gl_xdgXXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(root));
    setenv("XDG_DATA_HOME", root, 1);
    gl_lesson l;
    gl_error err = {0};
    ck_assert_int_eq(lesson_find("1", &l, &err), GL_OK);
    char path[1024], want[1024];
    ck_assert_int_eq(workspace_has_copy(&l, path, sizeof path), 0);
    ck_assert_int_eq(workspace_exercise_path(&l, path, sizeof path, &err), GL_OK);
    snprintf(want, sizeof want, "%s/gpulearn/threads/exercise.cu", root);
    ck_assert_str_eq(path, want);
    char *starter = slurp(l.exercise->starter), *copy = slurp(path);
    ck_assert_str_eq(copy, starter);
    free(copy);
    FILE *f = fopen(path, "w");
    fputs("// my edit\n", f);
    fclose(f);
    /* A second call keeps the learner's edit. */
    ck_assert_int_eq(workspace_exercise_path(&l, path, sizeof path, &err), GL_OK);
    copy = slurp(path);
    ck_assert_str_eq(copy, "// my edit\n");
    free(copy);
    char bak[PATH_MAX + 16], kept[PATH_MAX + 16];
    ck_assert_int_eq(workspace_reset(&l, bak, sizeof bak, &err), GL_OK);
    copy = slurp(path);
    ck_assert_str_eq(copy, starter);
    free(copy);
    snprintf(kept, sizeof kept, "%s.bak", path);
    ck_assert_str_eq(bak, kept);
    copy = slurp(bak);
    ck_assert_str_eq(copy, "// my edit\n");
    free(copy);
    /* Resetting the starter keeps nothing and changes nothing. */
    ck_assert_int_eq(workspace_reset(&l, bak, sizeof bak, &err), GL_OK);
    ck_assert_str_eq(bak, "");
    /* A second edit and reset keeps both versions: .bak is never overwritten. */
    f = fopen(path, "w");
    fputs("// my second edit\n", f);
    fclose(f);
    ck_assert_int_eq(workspace_reset(&l, bak, sizeof bak, &err), GL_OK);
    snprintf(kept, sizeof kept, "%s.bak.2", path);
    ck_assert_str_eq(bak, kept);
    copy = slurp(bak);
    ck_assert_str_eq(copy, "// my second edit\n");
    free(copy);
    snprintf(kept, sizeof kept, "%s.bak", path);
    copy = slurp(kept);
    ck_assert_str_eq(copy, "// my edit\n");
    free(copy);
    free(starter);

    ck_assert_int_eq(workspace_mark_step("threads", 0, &err), GL_OK);
    ck_assert_int_eq(workspace_mark_step("threads", 2, &err), GL_OK);
    ck_assert_int_eq(workspace_mark_passed("indexing", &err), GL_OK);
    gl_lesson_progress *p = NULL;
    int n = 0;
    char warning[512];
    ck_assert_int_eq(workspace_progress_load(&p, &n, warning, sizeof warning, &err), GL_OK);
    ck_assert_str_eq(warning, "");
    ck_assert_int_eq(n, 2);
    ck_assert_str_eq(p[0].id, "threads");
    ck_assert_uint_eq(p[0].steps_seen, 5u);
    ck_assert(!p[0].passed);
    ck_assert_str_eq(p[1].id, "indexing");
    ck_assert(p[1].passed);
    free(p);

    /* A corrupt file is set aside with a warning, and progress starts empty. */
    char prog[1100];
    snprintf(prog, sizeof prog, "%s/gpulearn/progress.json", root);
    f = fopen(prog, "w");
    fputs("{\"lessons\": {\"threads\": {\"steps_seen\": \"lots\"", f);
    fclose(f);
    ck_assert_int_eq(workspace_progress_load(&p, &n, warning, sizeof warning, &err), GL_OK);
    ck_assert_int_eq(n, 0);
    ck_assert_ptr_nonnull(strstr(warning, "set it aside"));
    free(p);
    struct stat st;
    ck_assert_int_ne(stat(prog, &st), 0);
    ck_assert_int_eq(workspace_mark_step("threads", 1, &err), GL_OK);
    ck_assert_int_eq(workspace_progress_load(&p, &n, warning, sizeof warning, &err), GL_OK);
    ck_assert_int_eq(n, 1);
    ck_assert_uint_eq(p[0].steps_seen, 2u);
    free(p);
    lesson_free(&l);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    sh(cmd);
    unsetenv("XDG_DATA_HOME");
}
END_TEST

/* `gpulearn reset` asks first (N by default, --yes skips); `gpulearn grade LESSON`
 * grades the learner's copy when there is one. */
START_TEST(test_reset_asks_and_grade_uses_the_learners_copy)
{
    env();
    const char *g = getenv("GPULEARN");
    if (!g) {
        fprintf(stderr, "GPULEARN not set: CLI test skipped\n");
        return;
    }
    char root[] = "/tmp/gl_xdgXXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(root));
    char cmd[2048], copy[512];
    snprintf(copy, sizeof copy, "%s/gpulearn/threads/exercise.cu", root);
    /* No copy yet: grade uses the starter, which fails. */
    snprintf(cmd, sizeof cmd, "XDG_DATA_HOME=%s '%s' grade 1 >/dev/null 2>&1", root, g);
    ck_assert_int_eq(sh(cmd), 1);
    /* The learner's copy holds the solution: grade passes and progress records it. */
    snprintf(cmd, sizeof cmd,
             "mkdir -p %s/gpulearn/threads && cp lessons/01-threads/solution.cu %s", root, copy);
    ck_assert_int_eq(sh(cmd), 0);
    snprintf(cmd, sizeof cmd, "XDG_DATA_HOME=%s '%s' grade 1 >%s/out 2>&1", root, g, root);
    ck_assert_int_eq(sh(cmd), 0);
    char path[600];
    snprintf(path, sizeof path, "%s/gpulearn/progress.json", root);
    char *text = slurp(path);
    ck_assert_ptr_nonnull(text);
    ck_assert_ptr_nonnull(strstr(text, "\"passed\":\ttrue"));
    free(text);
    /* reset: "n" (or nothing) keeps the copy, exit 1; "y" restores the starter. */
    snprintf(cmd, sizeof cmd, "echo n | XDG_DATA_HOME=%s '%s' reset 1 >/dev/null 2>&1", root, g);
    ck_assert_int_eq(sh(cmd), 1);
    snprintf(cmd, sizeof cmd, "cmp -s %s lessons/01-threads/solution.cu", copy);
    ck_assert_int_eq(sh(cmd), 0);
    snprintf(cmd, sizeof cmd, "XDG_DATA_HOME=%s '%s' reset 1 </dev/null >/dev/null 2>&1", root, g);
    ck_assert_int_eq(sh(cmd), 1);
    snprintf(cmd, sizeof cmd, "echo y | XDG_DATA_HOME=%s '%s' reset 1 >/dev/null 2>&1", root, g);
    ck_assert_int_eq(sh(cmd), 0);
    snprintf(cmd, sizeof cmd,
             "cmp -s %s lessons/01-threads/exercise.cu && cmp -s %s.bak "
             "lessons/01-threads/solution.cu",
             copy, copy);
    ck_assert_int_eq(sh(cmd), 0);
    snprintf(cmd, sizeof cmd, "XDG_DATA_HOME=%s '%s' reset 1 --yes </dev/null >/dev/null 2>&1",
             root, g);
    ck_assert_int_eq(sh(cmd), 0);
    snprintf(cmd, sizeof cmd, "'%s' reset 0 --yes >/dev/null 2>&1", g);
    ck_assert_int_eq(sh(cmd), 2); /* lesson 0 has no exercise */
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    sh(cmd);
}
END_TEST

/* `gpulearn lint`: 0 for a shipped lesson, 1 for a lesson whose starter is its
 * reference (it would pass), 2 for a folder without lesson.json. */
START_TEST(test_lint_exit_codes)
{
    env();
    const char *g = getenv("GPULEARN");
    if (!g) {
        fprintf(stderr, "GPULEARN not set: CLI test skipped\n");
        return;
    }
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' lint lessons/01-threads >/dev/null 2>&1", g);
    ck_assert_int_eq(sh(cmd), 0);
    snprintf(cmd, sizeof cmd, "'%s' lint tests >/dev/null 2>&1", g);
    ck_assert_int_eq(sh(cmd), 2);
    char dir[] = "/tmp/gl_lintXXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(cmd, sizeof cmd,
             "cp lessons/01-threads/*.cu %s/ && sed 's/\"exercise.cu\"/\"solution.cu\"/' "
             "lessons/01-threads/lesson.json >%s/lesson.json && '%s' lint %s >%s/out 2>&1",
             dir, dir, g, dir, dir);
    ck_assert_int_eq(sh(cmd), 1);
    char path[256];
    snprintf(path, sizeof path, "%s/out", dir);
    char *text = slurp(path);
    ck_assert_ptr_nonnull(text);
    ck_assert_msg(strstr(text, "the starter passes every check") != NULL, "%s", text);
    free(text);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    sh(cmd);
}
END_TEST

/* The pieces the TUI's r reuses (grade.h): the graded sizes, the matches_reference
 * check's outputs and tolerance, and counting differences as the grader does. */
START_TEST(test_reference_comparison_counts_differences_like_the_grader)
{
    env();
    gl_lesson l;
    gl_error err = {0};
    ck_assert_msg(lesson_load("lessons/04-divergence", &l, &err) == GL_OK, "%s", err.msg);
    int64_t sizes[16];
    int n = grade_sizes(l.exercise, sizes, 16);
    /* exercise.sizes, then the branch_efficiency check's 4096 */
    const int64_t want[] = {1, 31, 33, 128, 1000, 4099, 65537, 4096};
    ck_assert_int_eq(n, 8);
    for (int i = 0; i < n; i++)
        ck_assert_int_eq(sizes[i], want[i]);
    ck_assert_int_eq(grade_sizes(l.exercise, sizes, 3), 3);
    const gl_check *k = grade_reference_check(l.exercise, 1000);
    ck_assert_ptr_nonnull(k);
    ck_assert_int_eq(grade_is_output(k, "out"), 1);
    ck_assert_int_eq(grade_is_output(k, "in"), 0);
    ck_assert_int_eq(grade_is_output(NULL, "in"), 1);
    lesson_free(&l);
    ck_assert_msg(lesson_load("lessons/10-scan", &l, &err) == GL_OK, "%s", err.msg);
    k = grade_reference_check(l.exercise, 4099);
    ck_assert_ptr_nonnull(k);
    ck_assert(k->tolerance == 0.001);
    lesson_free(&l);

    float exp[] = {1, 2, -0.0f, NAN, 5}, got[] = {1, 2.0005f, 0.0f, NAN, 5};
    size_t first = 99;
    ck_assert_uint_eq(grade_count_diffs(GL_F32, 5, exp, got, 0, &first), 2);
    ck_assert_uint_eq(first, 1);
    ck_assert_uint_eq(grade_count_diffs(GL_F32, 5, exp, got, 0.001, &first), 0);
    ck_assert_uint_eq(first, 5);
    int32_t ie[] = {7, -3, 4}, ig[] = {7, -3, 5};
    ck_assert_uint_eq(grade_count_diffs(GL_I32, 3, ie, ig, 0, NULL), 1);
    char buf[64];
    grade_format_value(buf, sizeof buf, GL_F32, (gl_value){.f = 0.1f});
    ck_assert_str_eq(buf, "0.100000001");
    grade_format_value(buf, sizeof buf, GL_I32, (gl_value){.i = -3});
    ck_assert_str_eq(buf, "-3");
}
END_TEST

static Suite *grade_suite(void)
{
    Suite *s = suite_create("grade");
    TCase *tc = tcase_create("grade");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_lesson_json_validates_check_declarations);
    tcase_add_test(tc, test_global_load_bytes_per_flop_of_naive_and_tiled_matmul);
    tcase_add_test(tc, test_reference_comparison_counts_differences_like_the_grader);
    tcase_add_test(tc, test_workspace_copy_reset_and_progress);
    tcase_add_test(tc, test_json_and_junit_reports_parse);
    tcase_add_test(tc, test_checks_of_a_kernel_that_never_finishes_are_not_run);
    tcase_add_test(tc, test_inputs_change_with_every_grading_seed);
    tcase_add_test(tc, test_the_sandbox_denies_network_files_and_root);
    tcase_add_test(tc, test_submissions_cannot_read_files_outside_themselves);
    tcase_add_test(tc, test_batch_gives_each_submission_its_verdict);
    tcase_add_test(tc, test_batch_csv_quotes_formula_names_as_text);
    tcase_add_test(tc, test_reset_asks_and_grade_uses_the_learners_copy);
    tcase_add_test(tc, test_lint_exit_codes);
    suite_add_tcase(s, tc);
    /* every wrong solution graded: 323 s under AddressSanitizer on a quiet 2-core
     * machine, past 600 s on a loaded one */
    TCase *wrong = tcase_create("wrong_solutions"); /* CK_RUN_CASE=wrong_solutions */
    tcase_set_timeout(wrong, 1800);
    tcase_add_test(wrong, test_wrong_solutions_fail_the_expected_check);
    suite_add_tcase(s, wrong);
    TCase *occ = tcase_create("occupancy"); /* CK_RUN_CASE=occupancy runs it alone */
    tcase_set_timeout(occ, 120);
    tcase_add_test(occ, test_theoretical_occupancy_of_shared_memory_per_block);
    suite_add_tcase(s, occ);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(grade_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
