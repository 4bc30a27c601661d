/* workspace.c — the learner's copies of exercises and their progress (see workspace.h). */
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "runtime/workspace.h"

/* The folder: $XDG_DATA_HOME/gpulearn, or $HOME/.local/share/gpulearn. Static storage. */
static const char *workspace_root(void)
{
    static char root[PATH_MAX];
    const char *xdg = getenv("XDG_DATA_HOME");
    if (xdg && xdg[0] == '/') {
        snprintf(root, sizeof root, "%s/gpulearn", xdg);
    } else {
        const char *home = getenv("HOME");
        snprintf(root, sizeof root, "%s/.local/share/gpulearn", home && *home ? home : ".");
    }
    return root;
}

/* mkdir -p for path (every component). */
static gl_status make_dirs(const char *path, gl_error *err)
{
    char buf[PATH_MAX];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0755) != 0 && errno != EEXIST)
            return gl_fail(err, GL_ERR_INPUT, "%s: cannot create folder: %s", buf, strerror(errno));
        *p = '/';
    }
    if (mkdir(buf, 0755) != 0 && errno != EEXIST)
        return gl_fail(err, GL_ERR_INPUT, "%s: cannot create folder: %s", buf, strerror(errno));
    return GL_OK;
}

static int exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

/* <root>/<id>/<starter's base name>. */
static gl_status copy_path(const gl_lesson *l, char *path, size_t len, gl_error *err)
{
    if (!l->exercise)
        return gl_fail(err, GL_ERR_INPUT, "lesson '%s' has no exercise", l->id);
    const char *base = strrchr(l->exercise->starter, '/');
    base = base ? base + 1 : l->exercise->starter;
    int n = snprintf(path, len, "%s/%s/%s", workspace_root(), l->id, base);
    if (n < 0 || (size_t)n >= len)
        return gl_fail(err, GL_ERR_INPUT, "%s: path too long", workspace_root());
    return GL_OK;
}

/* Copies the starter to path atomically. */
static gl_status copy_starter(const gl_lesson *l, const char *path, gl_error *err)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    gl_status st = make_dirs(dir, err);
    if (st != GL_OK)
        return st;
    size_t len = 0;
    char *text = gl_read_file(l->exercise->starter, &len, err);
    if (!text)
        return GL_ERR_INPUT;
    st = gl_write_file_atomic(path, text, len, err);
    free(text);
    return st;
}

gl_status workspace_exercise_path(const gl_lesson *l, char *path, size_t len, gl_error *err)
{
    gl_status st = copy_path(l, path, len, err);
    if (st != GL_OK || exists(path))
        return st;
    return copy_starter(l, path, err);
}

/* Whether the learner already has a copy (no copy is made). */
int workspace_has_copy(const gl_lesson *l, char *path, size_t len)
{
    gl_error err = {0};
    return copy_path(l, path, len, &err) == GL_OK && exists(path);
}

/* Moves path to the first free name of path.bak, path.bak.2, ... (link() refuses an
 * existing name, so no earlier backup is ever replaced); the name goes to bak. */
static gl_status move_aside(const char *path, char *bak, size_t bak_len, gl_error *err)
{
    for (int k = 1; k < 10000; k++) {
        if (k == 1)
            snprintf(bak, bak_len, "%s.bak", path);
        else
            snprintf(bak, bak_len, "%s.bak.%d", path, k);
        if (link(path, bak) == 0) {
            if (unlink(path) == 0)
                return GL_OK;
            int e = errno;
            unlink(bak);
            return gl_fail(err, GL_ERR_INPUT, "%s: cannot keep a backup: %s", path, strerror(e));
        }
        if (errno == EEXIST)
            continue;
        /* no hard links here: rename onto a name that does not exist yet */
        const int link_errno = errno;
        if (!exists(bak)) {
            if (rename(path, bak) == 0)
                return GL_OK;
            /* the error of the call that failed, not of exists()'s stat */
            const int e = errno == EXDEV || errno == ENOENT ? link_errno : errno;
            return gl_fail(err, GL_ERR_INPUT, "%s: cannot keep a backup as %s: %s", path, bak,
                           strerror(e));
        }
    }
    return gl_fail(err, GL_ERR_INPUT, "%s: cannot keep a backup: 9999 backups already", path);
}

gl_status workspace_reset(const gl_lesson *l, char *bak, size_t bak_len, gl_error *err)
{
    bak[0] = '\0';
    char path[PATH_MAX];
    gl_status st = copy_path(l, path, sizeof path, err);
    if (st != GL_OK)
        return st;
    if (exists(path)) {
        size_t n1 = 0, n2 = 0;
        gl_error ignore = {0};
        char *mine = gl_read_file(path, &n1, &ignore),
             *starter = gl_read_file(l->exercise->starter, &n2, &ignore);
        int same = mine && starter && n1 == n2 && memcmp(mine, starter, n1) == 0;
        free(mine);
        free(starter);
        if (same)
            return GL_OK; /* already the starter: nothing to keep or restore */
        if ((st = move_aside(path, bak, bak_len, err)) != GL_OK) {
            bak[0] = '\0';
            return st;
        }
    }
    st = copy_starter(l, path, err);
    if (st != GL_OK && bak[0]) {
        /* the learner's version is never left where they cannot find it: back in place,
         * else where it was moved, and the message says which */
        char why[sizeof err->msg];
        snprintf(why, sizeof why, "%s", err->msg);
        if (!exists(path) && rename(bak, path) == 0)
            gl_fail(err, st, "%s; not reset: your version is unchanged at %s", why, path);
        else
            gl_fail(err, st, "%s; not reset: your version is kept as %s", why, bak);
        bak[0] = '\0';
    }
    return st;
}

/* ------------------------------------------------------------------------ progress */

static void progress_path(char *path, size_t len)
{
    snprintf(path, len, "%s/progress.json", workspace_root());
}

/* Holds <root>/progress.lock locked (flock, exclusive) for one read-modify-write of
 * progress.json: graders of different lessons and the TUI, at once, each see the others'
 * marks. Returns the lock's descriptor (release with progress_unlock), or -1 when there
 * is no lock file to take (a read-only or missing workspace: nothing is written then
 * either, and reading alone needs no lock). */
static int progress_lock(void)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/progress.lock", workspace_root());
    int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0)
        return -1;
    while (flock(fd, LOCK_EX) != 0)
        if (errno != EINTR) {
            close(fd);
            return -1;
        }
    return fd;
}

static void progress_unlock(int fd)
{
    if (fd >= 0)
        close(fd); /* closing releases the lock */
}

/* Sets a corrupt progress.json (path) aside under a name no earlier one has:
 * progress.json.corrupt-<UTC time to the nanosecond>-<n> (link() refuses a name that
 * exists: the first n free). The name goes to aside; 1 when moved. */
static int set_aside(const char *path, char *aside, size_t len)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    char stamp[64];
    strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%S", &tm);
    for (unsigned n = 1; n < 1000; n++) {
        snprintf(aside, len, "%s.corrupt-%s.%09ldZ-%u", path, stamp, (long)ts.tv_nsec, n);
        if (link(path, aside) == 0)
            return unlink(path) == 0;
        if (errno == EEXIST)
            continue;
        if (!exists(aside) && rename(path, aside) == 0) /* no hard links here */
            return 1;
        return 0;
    }
    return 0;
}

/* workspace_progress_load with the lock held by the caller (or none to take). */
static gl_status load_locked(gl_lesson_progress **out, int *count, char *warning,
                             size_t warning_len, gl_error *err)
{
    *out = NULL;
    *count = 0;
    if (warning && warning_len)
        warning[0] = '\0';
    char path[PATH_MAX];
    progress_path(path, sizeof path);
    if (!exists(path))
        return GL_OK;
    size_t len = 0;
    gl_error rerr = {0};
    char *text = gl_read_file(path, &len, &rerr);
    cJSON *js = text ? cJSON_ParseWithLength(text, len) : NULL;
    free(text);
    const cJSON *lessons = cJSON_GetObjectItemCaseSensitive(js, "lessons");
    int ok = js && cJSON_IsObject(lessons);
    const cJSON *it;
    if (ok)
        cJSON_ArrayForEach(it, lessons)
        {
            const cJSON *seen = cJSON_GetObjectItemCaseSensitive(it, "steps_seen");
            const cJSON *passed = cJSON_GetObjectItemCaseSensitive(it, "passed");
            ok &= cJSON_IsObject(it) && strlen(it->string) < 64 &&
                  (!seen || (cJSON_IsNumber(seen) && seen->valuedouble >= 0 &&
                             seen->valuedouble <= 4294967295.0)) &&
                  (!passed || cJSON_IsBool(passed));
        }
    if (!ok) {
        cJSON_Delete(js);
        char aside[PATH_MAX + 96];
        const int moved = set_aside(path, aside, sizeof aside);
        if (warning && warning_len && moved)
            snprintf(warning, warning_len,
                     "%s is not valid progress; set it aside as %s and starting from empty "
                     "progress",
                     gl_display_path(path), gl_display_path(aside));
        else if (warning && warning_len)
            snprintf(warning, warning_len,
                     "%s is not valid progress; could not set it aside (%s) and starting from "
                     "empty progress",
                     gl_display_path(path), strerror(errno));
        return GL_OK;
    }
    int n = cJSON_GetArraySize(lessons);
    gl_lesson_progress *p = calloc((size_t)n + 1, sizeof *p);
    if (!p) {
        cJSON_Delete(js);
        return gl_fail(err, GL_ERR_NOMEM, "out of memory");
    }
    int k = 0;
    cJSON_ArrayForEach(it, lessons)
    {
        const cJSON *seen = cJSON_GetObjectItemCaseSensitive(it, "steps_seen");
        const cJSON *last = cJSON_GetObjectItemCaseSensitive(it, "last_step");
        snprintf(p[k].id, sizeof p[k].id, "%s", it->string);
        p[k].steps_seen = seen ? (unsigned)seen->valuedouble : 0;
        p[k].last_step = cJSON_IsNumber(last) && last->valuedouble >= 0 && last->valuedouble < 1e6
                             ? (int)last->valuedouble
                             : -1;
        p[k].passed = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "passed"));
        k++;
    }
    cJSON_Delete(js);
    *out = p;
    *count = k;
    return GL_OK;
}

gl_status workspace_progress_load(gl_lesson_progress **out, int *count, char *warning,
                                  size_t warning_len, gl_error *err)
{
    const int lock = progress_lock();
    gl_status st = load_locked(out, count, warning, warning_len, err);
    progress_unlock(lock);
    return st;
}

/* Sets obj[key] to a number (replacing what was there). */
static void set_number(cJSON *obj, const char *key, double v)
{
    cJSON *n = cJSON_CreateNumber(v);
    if (n && !cJSON_ReplaceItemInObjectCaseSensitive(obj, key, n))
        cJSON_AddItemToObject(obj, key, n);
}

/* The parsed progress file as it is (keys this version does not know are kept), or a
 * fresh {"format": 1, "lessons": {}}; NULL when out of memory. workspace_progress_load has set a
 * corrupt file aside first. */
static cJSON *progress_doc(void)
{
    char path[PATH_MAX];
    progress_path(path, sizeof path);
    cJSON *js = NULL;
    if (exists(path)) {
        size_t len = 0;
        gl_error ignored;
        char *text = gl_read_file(path, &len, &ignored);
        js = text ? cJSON_ParseWithLength(text, len) : NULL;
        free(text);
    }
    if (!cJSON_IsObject(js) || !cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(js, "lessons"))) {
        cJSON_Delete(js);
        js = cJSON_CreateObject();
        if (js && (!cJSON_AddNumberToObject(js, "format", 1) ||
                   !cJSON_AddObjectToObject(js, "lessons"))) {
            cJSON_Delete(js);
            js = NULL;
        }
    }
    return js;
}

/* Updates the entry for id in progress.json (step >= 0: seen, and the lesson's and the
 * learner's last position; passed: the exercise passed) and saves atomically, keeping
 * every key it does not change. */
static gl_status progress_update(const char *id, int step, int passed, gl_error *err)
{
    if (strlen(id) >= 64)
        return gl_fail(err, GL_ERR_INPUT, "lesson id '%s' is too long", id);
    gl_lesson_progress *p = NULL;
    int n = 0;
    char warning[2 * PATH_MAX + 256];
    gl_status st = make_dirs(workspace_root(), err);
    if (st != GL_OK)
        return st;
    /* read, change and replace the file under the lock: no other writer in between */
    const int lock = progress_lock();
    st = load_locked(&p, &n, warning, sizeof warning, err); /* validates */
    if (st != GL_OK) {
        progress_unlock(lock);
        return st;
    }
    free(p);
    if (warning[0])
        fprintf(stderr, "gpulearn: warning: %s\n", warning);
    cJSON *js = progress_doc();
    cJSON *lessons = js ? cJSON_GetObjectItemCaseSensitive(js, "lessons") : NULL;
    cJSON *o = lessons ? cJSON_GetObjectItemCaseSensitive(lessons, id) : NULL;
    if (lessons && !o)
        o = cJSON_AddObjectToObject(lessons, id);
    if (!o) {
        cJSON_Delete(js);
        progress_unlock(lock);
        return gl_fail(err, GL_ERR_NOMEM, "out of memory");
    }
    const cJSON *seen = cJSON_GetObjectItemCaseSensitive(o, "steps_seen");
    unsigned steps_seen = cJSON_IsNumber(seen) ? (unsigned)seen->valuedouble : 0;
    if (step >= 0 && step < 32)
        steps_seen |= 1u << step;
    set_number(o, "steps_seen", steps_seen);
    if (step >= 0) {
        set_number(o, "last_step", step);
        cJSON *last = cJSON_CreateString(id);
        if (last && !cJSON_ReplaceItemInObjectCaseSensitive(js, "last_lesson", last))
            cJSON_AddItemToObject(js, "last_lesson", last);
    }
    if (passed || !cJSON_GetObjectItemCaseSensitive(o, "passed")) {
        cJSON *b =
            cJSON_CreateBool(passed || cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "passed")));
        if (b && !cJSON_ReplaceItemInObjectCaseSensitive(o, "passed", b))
            cJSON_AddItemToObject(o, "passed", b);
    }
    char *text = cJSON_Print(js);
    cJSON_Delete(js);
    if (!text) {
        progress_unlock(lock);
        return gl_fail(err, GL_ERR_NOMEM, "out of memory");
    }
    char path[PATH_MAX];
    progress_path(path, sizeof path);
    st = gl_write_file_atomic(path, text, strlen(text), err); /* temporary file + rename */
    progress_unlock(lock);
    free(text);
    return st;
}

int workspace_last_lesson(char *id, size_t len)
{
    id[0] = '\0';
    char path[PATH_MAX];
    progress_path(path, sizeof path);
    if (!exists(path))
        return 0;
    cJSON *js = progress_doc();
    const cJSON *last = js ? cJSON_GetObjectItemCaseSensitive(js, "last_lesson") : NULL;
    if (cJSON_IsString(last) && strlen(last->valuestring) < len)
        snprintf(id, len, "%s", last->valuestring);
    cJSON_Delete(js);
    return id[0] != '\0';
}

gl_status workspace_mark_step(const char *id, int step, gl_error *err)
{
    return progress_update(id, step, 0, err);
}

gl_status workspace_mark_passed(const char *id, gl_error *err)
{
    return progress_update(id, -1, 1, err);
}
