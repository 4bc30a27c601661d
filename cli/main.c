/* main.c — the gpulearn command line: dispatch, usage, option parsing, list, info. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "runtime/arch.h"
#include "runtime/lesson.h"
#include "tui/tui.h"

static const char usage[] =
    "usage: gpulearn [--backend auto|sim|gpu] [--arch TARGET] [--sim-tier T] [LESSON]\n"
    "       gpulearn list [--json]\n"
    "       gpulearn run SPEC.json [--backend auto|sim|gpu] [--dump-json OUT.json]\n"
    "                              [--compiler auto|nvrtc|nvcc|clang] [--arch TARGET]\n"
    "                              [--sim-tier interp|jit|auto] [--sim-threads N] [--verbose]\n"
    "                              [--metrics-json OUT] [--trace-json OUT]\n"
    "                              [--schedule deterministic|random:SEED]\n"
    "                              [--time [--reps N] [--warmup N]] [--timeout SECONDS]\n"
    "                              [--memory-limit SIZE] [--debug]\n"
    "       gpulearn run PROG.cu [MORE.cu|MORE.cpp ...] [-I DIR] [-D NAME[=V]]\n"
    "                            [--backend auto|sim|gpu] [--arch TARGET] [--timeout SECONDS]\n"
    "                            [--compiler auto|clang|nvcc]\n"
    "                            [--schedule random:SEED] [--sandbox] [--verbose]\n"
    "                            [--trace-json OUT] [--metrics-json OUT] [-- ARGS...]\n"
    "       gpulearn grade LESSON [FILE.cu] [--backend sim|gpu] [--format text|json|junit]\n"
    "                             [--arch TARGET] [--sim-tier T] [--sim-threads N] [--seed N]\n"
    "                             [--memory-limit SIZE] [--jobs N] [--unsafe-no-sandbox]\n"
    "       gpulearn grade LESSON [FILE.cu] --check NAME [--report FILE.json] [...]\n"
    "       gpulearn grade LESSON --batch DIR [--out PREFIX] [--backend sim|gpu] [--seed N]\n"
    "                             [--memory-limit SIZE] [--jobs N] [--unsafe-no-sandbox]\n"
    "                             [--shard K/N | --similarity]\n"
    "       gpulearn grade merge OUT PART... [--batch DIR] [--lesson LESSON] [--seed N]\n"
    "       gpulearn classroom init LESSON... [--out DIR] [--backend sim|gpu|auto] [--force]\n"
    "                               [--gpulearn-url URL] [--gpulearn-ref REF] [--runs-on L]\n"
    "       gpulearn classroom slurm LESSON --batch DIR [--shards N] [--gpus] [--cpus N]\n"
    "                             [--partition P] [--time T] [--seed N] [--out FOLDER]\n"
    "       gpulearn gradebook RESULTS... [--out FILE.csv] [--format plain|canvas|moodle]\n"
    "                          [--due LESSON=YYYY-MM-DDTHH:MMZ]...\n"
    "       gpulearn similar [LESSON] DIR [--top N] [--min-score PCT] [--max-common N]\n"
    "                                     [--base FILE] [--html FILE] [--json]\n"
    "       gpulearn lint [--speed] LESSON_DIR...\n"
    "       gpulearn reset LESSON [--yes]\n"
    "       gpulearn info [--backend auto|sim|gpu] [--json]\n"
    "       gpulearn demo LESSON [--auto SECONDS] [--backend auto|sim|gpu]\n"
    "       gpulearn --help | --version\n"
    "\n"
    "With no command, gpulearn opens the interactive lessons (LESSON opens one directly).\n"
    "  list    the lessons: number, id, title (--json: id, title, dir of each)\n"
    "  run     compile and run a launch spec; --dump-json writes the buffers and the\n"
    "          device printf output as JSON ('-' for stdout); --metrics-json the\n"
    "          Nsight Compute-style metrics (sectors/request, bank conflicts, branch\n"
    "          efficiency, per source line); --trace-json a Perfetto/chrome://tracing\n"
    "          timeline; --schedule random:SEED shuffles blocks and warps (simulator);\n"
    "          --debug compiles the debug build grading's memory checks run on (-G;\n"
    "          clang: -O0);\n"
    "          --time times the kernel on the GPU (median of --reps, GB/s, % of peak);\n"
    "          --timeout stops the kernel after SECONDS (see Limits). Races and other\n"
    "          checker findings are printed as errors/warnings (errors: exit 1)\n"
    "  grade   grade an exercise: FILE.cu (default: your copy in the workspace, else the\n"
    "          starter) against the lesson's checks; runs on the simulator unless\n"
    "          --backend gpu. --batch grades every .cu in DIR (one per learner) into\n"
    "          PREFIX.csv and PREFIX.json (default grades-<lesson> beside DIR, never in\n"
    "          it). Random inputs\n"
    "          change on every grading; the report prints their seed, and --seed N\n"
    "          repeats a grading (a batch uses one seed for every submission).\n"
    "          --jobs N runs N of its simulations (a batch: of its submissions) at once\n"
    "          in worker processes, the same report as one at a time (default: the\n"
    "          cores; GPULEARN_JOBS sets it).\n"
    "          Submissions compile and run in a Landlock sandbox: they read nothing but\n"
    "          themselves, the compilers and headers; a batch refuses to run without\n"
    "          one unless --unsafe-no-sandbox. The report gives each check's points\n"
    "          (the lesson's \"points\", else 1) and the score. --report FILE.json also\n"
    "          saves the JSON report; --check NAME exits 0 when that check passes, 1 when\n"
    "          not, reading a --report saved for the same file instead of grading again.\n"
    "          --shard K/N (with --seed) grades share K (0 to N-1) of N of DIR's sorted\n"
    "          submissions; `grade merge OUT PART...` checks the shares' reports and\n"
    "          joins them into OUT.csv and OUT.json, the unsharded batch's byte for byte\n"
    "  classroom init  a GitHub Classroom assignment template in DIR (default: here):\n"
    "          the exercises' starters, .github/workflows/classroom.yml (builds gpulearn\n"
    "          at --gpulearn-ref, grades, one autograding test per check with its\n"
    "          points) and .github/classroom/autograding.json; a file that differs is\n"
    "          kept unless --force\n"
    "  gradebook  one row per student from grade --batch results (.json files or\n"
    "          folders of grades-*.json): each exercise's score, the total, late (after\n"
    "          --due) and missing; plain, Canvas or Moodle CSV, and FILE.json beside it\n"
    "  classroom slurm  write a Slurm job array that grades DIR in N shares (one a\n"
    "          task; --gpus: a GPU each) and a merge job after it (FOLDER/submit.sh)\n"
    "  similar copied work among DIR's .cu submissions: pairs ranked by shared winnowed\n"
    "          fingerprints of their normalised tokens (names, literals, comments and\n"
    "          layout do not count; LESSON's starter and step code excluded, as --base\n"
    "          FILE's), with the matching lines side by side; --html FILE writes the\n"
    "          report as a page; grade --batch --similarity adds it to a batch\n"
    "  lint    check lesson folders: schema, files, every step runs and what its text\n"
    "          says of the run holds (\"expect\"; on a GPU also at its \"gpu_launch\"),\n"
    "          the reference passes and the starter fails; --speed (GPU) times the\n"
    "          speed steps and their files' other kernels at their GPU sizes\n"
    "  reset   restore your copy of a lesson's exercise to the starter (asks first)\n"
    "  info    the GPU's properties, or the simulator's model of one\n"
    "  demo    a lesson in a large layout for a projector: Space runs each step's kernel\n"
    "          and moves on; --auto advances every SECONDS (a pauses, +/- change it)\n"
    "\n"
    "Limits: every launch of run, grade and the lessons stops after 10 s of wall time\n"
    "(run --timeout changes it) on the GPU and on the simulator, and on the simulator\n"
    "also after 2^30 warp instructions (an exercise may set fewer). --memory-limit SIZE\n"
    "(512M, 2G) bounds the simulated memory of a launch (buffers, __device__ data, the\n"
    "resident blocks' local and shared memory): half the memory available for run and\n"
    "the lessons, 2 GiB (or the exercise's \"memory_limit\") for grade.\n"
    "\n"
    "--sim-tier interp|jit|auto picks the simulator's tier: the interpreter, or straight-line\n"
    "blocks compiled to host code with the system C compiler (cc, cached under the PTX\n"
    "cache); auto (the default) translates launches of 2^21 warps or more. Same results.\n"
    "--sim-threads N runs a launch's blocks on N threads (default: the cores; in grade's\n"
    "workers, each one's share of them); the results, findings, statistics and traces are\n"
    "the one-thread run's, byte for byte.\n"
    "--arch TARGET (sm_75, sm_80, sm_86, sm_89, sm_90; also 80, 8.0, compute_80) compiles\n"
    "for that target and makes the simulator model it (`info` lists them); a spec's or a\n"
    "lesson's \"arch\" applies without it; by default the GPU's own, on the simulator sm_90.\n"
    "--backend auto (default) uses the GPU when one works and says so when it falls back\n"
    "to the simulator. Exit codes: 0 ok, 1 the kernel or a check failed, 2 bad usage or\n"
    "bad input files.\n";

int cli_exercise_lesson(const char *name, const char *verb, gl_lesson *l)
{
    gl_error err = {0};
    gl_status st = lesson_find(name, l, &err);
    if (st != GL_OK)
        return cli_die(st, err.msg);
    if (!l->exercise) {
        fprintf(stderr, "gpulearn: lesson '%s' has no exercise to %s\n", l->id, verb);
        lesson_free(l);
        return 2;
    }
    return 0;
}

int cli_die(gl_status st, const char *msg)
{
    /* Every message line gets the prefix; indented lines (a compiler's source excerpt
     * and caret) are printed as they are, so the caret stays under its column. What a
     * message quotes of a submission (its name, its source lines) is escaped
     * (gl_escape_term): it can send no escape sequence to the terminal. */
    while (*msg) {
        const char *nl = strchr(msg, '\n');
        int len = nl ? (int)(nl - msg) : (int)strlen(msg);
        char line[sizeof(gl_error){0}.msg];
        snprintf(line, sizeof line, "%.*s", len, msg);
        fputs(msg[0] == ' ' || msg[0] == '\t' ? "" : "gpulearn: ", stderr);
        gl_fputs_term(stderr, line, GL_ESC_LINES);
        fputc('\n', stderr);
        msg += len + (nl ? 1 : 0);
    }
    return gl_exit_code(st);
}

int cli_usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "gpulearn: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(gpulearn --help shows the usage)\n");
    return 2;
}

static int parse_backend(const char *s, gl_backend_kind *out)
{
    if (strcmp(s, "auto") == 0)
        *out = GL_BACKEND_AUTO;
    else if (strcmp(s, "sim") == 0)
        *out = GL_BACKEND_SIM;
    else if (strcmp(s, "gpu") == 0)
        *out = GL_BACKEND_GPU;
    else
        return 0;
    return 1;
}

static int parse_compiler(const char *s, gl_compiler *out)
{
    static const gl_compiler all[] = {GL_CC_AUTO, GL_CC_NVRTC, GL_CC_NVCC, GL_CC_CLANG};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        if (strcmp(s, gl_compiler_name(all[i])) == 0) {
            *out = all[i];
            return 1;
        }
    return 0;
}

int cli_parse_args(int argc, char **argv, cli *c, const char *allowed)
{
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
#define TAKES(opt)                                                                                 \
    (strcmp(a, opt) == 0 && strstr(allowed, opt) &&                                                \
     (i + 1 < argc ? (val = argv[++i], 1) : (cli_usage_error("%s needs a value", opt), 0)))
        if (strcmp(a, "--backend") == 0 && !strstr(allowed, "--backend"))
            return cli_usage_error("this command has no --backend option", a);
        if (TAKES("--backend")) {
            if (!parse_backend(val, &c->backend))
                return cli_usage_error("--backend must be auto, sim or gpu, not '%s'", val);
        } else if (TAKES("--compiler")) {
            if (!parse_compiler(val, &c->compiler))
                return cli_usage_error("--compiler must be auto, nvrtc, nvcc or clang, not '%s'",
                                       val);
        } else if (TAKES("--arch")) {
            char why[160];
            if (!gl_arch_known(val, c->arch_buf, why, sizeof why))
                return cli_usage_error("--arch: %s", why);
            c->arch = c->arch_buf;
        } else if (TAKES("--sim-tier")) {
            if (gl_run_sim_tier_parse(val) == GL_TIER_DEFAULT)
                return cli_usage_error("--sim-tier must be interp, jit or auto, not '%s'", val);
            /* the environment carries it to the TUI's and the grader's workers */
            setenv("GPULEARN_SIM_TIER", val, 1);
        } else if (TAKES("--sim-threads")) {
            if (!gl_run_sim_threads_parse(val))
                return cli_usage_error(
                    "--sim-threads must be a whole number from 1 to 256, not '%s'", val);
            setenv("GPULEARN_SIM_THREADS", val, 1); /* as --sim-tier: for the workers too */
        } else if (TAKES("--dump-json")) {
            c->dump_json = val;
        } else if (TAKES("--format")) {
            if (strcmp(val, "text") && strcmp(val, "json"))
                return cli_usage_error("--format must be text or json, not '%s'", val);
            c->format = val;
        } else if (strcmp(a, "--json") == 0 && strstr(allowed, "--json")) {
            c->json = 1;
        } else if (strcmp(a, "--verbose") == 0 && strstr(allowed, "--verbose")) {
            c->verbose = 1;
        } else if (val == NULL && a[0] == '-' && a[1] != '\0') {
            return cli_usage_error("unknown option '%s'", a);
        } else if (val == NULL) {
            if (c->npos == 4)
                return cli_usage_error("too many arguments ('%s')", a);
            c->pos[c->npos++] = a;
        } else {
            return 2; /* TAKES printed the error */
        }
#undef TAKES
    }
    return 0;
}

/* `gpulearn list`: the lessons; returns the exit code. */
static int cmd_list(int argc, char **argv)
{
    cli c = {0};
    int rc = cli_parse_args(argc, argv, &c, "--json");
    if (rc)
        return rc;
    if (c.npos)
        return cli_usage_error("list takes no arguments ('%s')", c.pos[0]);
    gl_lesson *ls = NULL;
    int n = 0;
    gl_error err = {0};
    gl_status st = lesson_list(&ls, &n, &err);
    if (st != GL_OK)
        return cli_die(st, err.msg);
    if (c.json) {
        cJSON *arr = cJSON_CreateArray();
        for (int i = 0; i < n; i++) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "id", ls[i].id);
            cJSON_AddNumberToObject(o, "number", ls[i].number);
            cJSON_AddStringToObject(o, "label", ls[i].label);
            cJSON_AddStringToObject(o, "title", ls[i].title);
            cJSON_AddStringToObject(o, "dir", ls[i].dir);
            cJSON_AddBoolToObject(o, "exercise", ls[i].exercise != NULL);
            if (ls[i].broken)
                cJSON_AddStringToObject(o, "error", ls[i].broken);
            cJSON_AddItemToArray(arr, o);
        }
        char *text = cJSON_Print(arr);
        printf("%s\n", text);
        free(text);
        cJSON_Delete(arr);
    } else {
        for (int i = 0; i < n; i++) {
            printf("%2s  %-12s %s%s\n", ls[i].label, ls[i].id, ls[i].title,
                   ls[i].exercise || ls[i].broken ? "" : "  (no exercise)");
            if (ls[i].broken)
                fprintf(stderr, "gpulearn: %s\n", ls[i].broken);
        }
    }
    lesson_list_free(ls, n);
    return 0;
}

/* The command argv names; returns its exit code. */
static int dispatch(int argc, char **argv)
{
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
                      strcmp(argv[1], "help") == 0)) {
        fputs(usage, stdout);
        return 0;
    }
    if (argc >= 2 && strcmp(argv[1], "--version") == 0) {
        printf("gpulearn %s\n", GL_VERSION);
        return 0;
    }
    if (argc >= 3 && strcmp(argv[1], "classroom") == 0 && strcmp(argv[2], "slurm") == 0)
        return cmd_classroom_slurm(argc - 3, argv + 3);
    if (argc >= 2) {
        if (strcmp(argv[1], "list") == 0)
            return cmd_list(argc - 2, argv + 2);
        if (strcmp(argv[1], "run") == 0)
            return cmd_run(argc - 2, argv + 2);
        if (strcmp(argv[1], "grade") == 0)
            return cmd_grade(argc - 2, argv + 2);
        if (strcmp(argv[1], "info") == 0)
            return cmd_info(argc - 2, argv + 2);
        if (strcmp(argv[1], "lint") == 0)
            return cmd_lint(argc - 2, argv + 2);
        if (strcmp(argv[1], "reset") == 0)
            return cmd_reset(argc - 2, argv + 2);
        if (strcmp(argv[1], "demo") == 0)
            return cmd_demo(argc - 2, argv + 2);
        if (strcmp(argv[1], "classroom") == 0)
            return cmd_classroom(argc - 2, argv + 2);
        if (strcmp(argv[1], "gradebook") == 0)
            return cmd_gradebook(argc - 2, argv + 2);
        if (strcmp(argv[1], "similar") == 0)
            return cmd_similar(argc - 2, argv + 2);
    }
    if (argc >= 2 && cmd_run_is_program(argc - 1, argv + 1)) /* gpulearn PROG.cu */
        return cmd_tui_program(argc - 1, argv + 1);
    cli c = {0};
    int rc = cli_parse_args(argc - 1, argv + 1, &c, "--backend --arch --sim-tier --sim-threads");
    if (rc)
        return rc;
    if (c.npos > 1)
        return cli_usage_error("unknown command '%s'", c.pos[0]);
    tui_opts opts = {.backend = c.backend, .lesson = c.npos ? c.pos[0] : NULL, .arch = c.arch};
    return tui_run(&opts);
}

int main(int argc, char **argv)
{
    int rc = dispatch(argc, argv);
    /* output that could not be written (a full disk, a closed pipe) is a failure too */
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "gpulearn: cannot write the output: %s\n", strerror(errno ? errno : EIO));
        if (rc == 0)
            rc = 1;
    }
    return rc;
}
