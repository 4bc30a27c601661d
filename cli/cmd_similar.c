/* cmd_similar.c — `gpulearn similar [LESSON] DIR`: copied work among a folder's
 * submissions (runtime/similar.h), as a report for the terminal, an HTML page and JSON;
 * and the report `grade --batch --similarity` adds. Every name and line quoted comes from
 * a submission: escaped for the terminal (gl_escape_term) and for HTML. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "runtime/similar.h"

/* Pairs shown by default (--top). */
#define TOP_DEFAULT 10
/* Rows of one region the terminal shows (the HTML page shows them all). */
#define TERM_REGION_ROWS 20
/* Base files a lesson or --base may give. */
#define MAX_BASE 64

/* How the report is shown. */
typedef struct show {
    int top;            /* pairs shown, with their regions */
    double min_score;   /* 0..1: pairs below are not shown */
    int colour;         /* the terminal takes escape sequences */
    const char *lesson; /* the lesson whose files are the base, or NULL */
    const char *dir;
} show;

/* ------------------------------------------------------------------ text */

/* Display columns of code point cp: 2 for the wide East Asian ranges and emoji, 0 for
 * combining marks, else 1 (what terminals do, without the locale's wcwidth). */
static int cp_cols(uint32_t cp)
{
    if ((cp >= 0x300 && cp <= 0x36f) || (cp >= 0x200b && cp <= 0x200d))
        return 0;
    if ((cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf) ||
        (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) ||
        (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) ||
        (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x1f300 && cp <= 0x1faff) ||
        (cp >= 0x20000 && cp <= 0x3fffd))
        return 2;
    return 1;
}

/* s[0..len) (a line of a submission, or a name) made safe for the terminal (tabs expanded
 * to 4 columns, then gl_escape_term) and cut or padded to exactly cols columns into
 * out[n]; a cut line ends in '~'. */
static void fit(char *out, size_t n, const char *s, size_t len, int cols)
{
    char raw[1024], esc[4096];
    size_t r = 0;
    for (size_t i = 0; i < len && r + 8 < sizeof raw; i++) {
        if (s[i] == '\t')
            do
                raw[r++] = ' ';
            while (r % 4 && r + 1 < sizeof raw);
        else if (s[i] == '\0')
            raw[r++] = '\\', raw[r++] = '0';
        else
            raw[r++] = s[i];
    }
    raw[r] = '\0';
    gl_escape_term(esc, sizeof esc, raw, 0);
    size_t o = 0;
    int used = 0;
    for (const char *p = esc; *p && o + 8 < n;) {
        uint32_t cp = (unsigned char)*p;
        int k = gl_utf8_next(p, &cp); /* valid: escaped above */
        if (k <= 0)
            k = 1;
        const int w = cp_cols(cp), more = p[k] != '\0';
        if (used + w + more > cols) { /* no room for it (and the '~' after it): cut */
            while (used < cols - 1 && o + 1 < n)
                out[o++] = ' ', used++;
            out[o++] = '~', used++;
            break;
        }
        memcpy(out + o, p, (size_t)k);
        o += (size_t)k, used += w, p += k;
    }
    while (used < cols && o + 1 < n)
        out[o++] = ' ', used++;
    out[o] = '\0';
}

/* A name (or a message) fitted to at most cols columns as fit does, without the padding. */
static const char *fit_name(char *out, size_t n, const char *s, int cols)
{
    fit(out, n, s, strlen(s), cols);
    for (char *e = out + strlen(out); e > out && e[-1] == ' ';)
        *--e = '\0';
    return out;
}

/* The start of each line of d's text: *starts[line - 1], with one more entry at the end;
 * returns the number of lines, or -1 when out of memory (caller frees *starts). */
static int line_starts(const gl_similar_doc *d, size_t **starts)
{
    size_t n = 1;
    for (size_t i = 0; i < d->len; i++)
        n += d->text[i] == '\n';
    size_t *s = malloc((n + 1) * sizeof *s);
    if (!(*starts = s))
        return -1;
    size_t k = 0;
    s[k++] = 0;
    for (size_t i = 0; i < d->len; i++)
        if (d->text[i] == '\n')
            s[k++] = i + 1;
    s[k] = d->len + 1;
    return (int)n;
}

/* Line `line` (1-based) of d: its bytes without the newline. */
static const char *line_of(const gl_similar_doc *d, const size_t *starts, int nlines, int line,
                           size_t *len)
{
    if (line < 1 || line > nlines) {
        *len = 0;
        return "";
    }
    const size_t a = starts[line - 1], b = starts[line] - 1;
    *len = b > a ? b - a : 0;
    if (*len && d->text[a + *len - 1] == '\r')
        (*len)--;
    return d->text + a;
}

static const char *on(const show *s, const char *seq)
{
    return s->colour ? seq : "";
}

/* A pair's regions side by side: each file's line numbers and lines, aligned. */
static void text_regions(FILE *f, const show *s, const gl_similar_report *r,
                         const gl_similar_pair *p)
{
    const gl_similar_doc *A = &r->docs[p->a], *B = &r->docs[p->b];
    size_t *sa = NULL, *sb = NULL;
    const int na = line_starts(A, &sa), nb = line_starts(B, &sb);
    if (na < 0 || nb < 0) {
        free(sa), free(sb);
        return;
    }
    enum { COL = 37, TEXT = COL - 6 };
    for (int g = 0; g < p->nregions; g++) {
        const gl_similar_region *q = &p->regions[g];
        char ha[160], hb[160], name[512], cell[512];
        snprintf(ha, sizeof ha, "%s lines %d-%d", fit_name(name, sizeof name, A->name, 18),
                 q->a_first, q->a_last);
        snprintf(hb, sizeof hb, "%s lines %d-%d", fit_name(name, sizeof name, B->name, 18),
                 q->b_first, q->b_last);
        fit(cell, sizeof cell, ha, strlen(ha), COL);
        fprintf(f, "\n  %s%s%s | ", on(s, "\033[36m"), cell, on(s, "\033[0m"));
        fprintf(f, "%s%s%s\n", on(s, "\033[36m"), fit_name(cell, sizeof cell, hb, COL),
                on(s, "\033[0m"));
        const int la = q->a_last - q->a_first + 1, lb = q->b_last - q->b_first + 1;
        const int rows = la > lb ? la : lb;
        for (int i = 0; i < rows && i < TERM_REGION_ROWS; i++) {
            fputs("  ", f);
            for (int side = 0; side < 2; side++) {
                const gl_similar_doc *d = side ? B : A;
                const int line = (side ? q->b_first : q->a_first) + i;
                const int last = side ? q->b_last : q->a_last;
                size_t len;
                const char *t = line_of(d, side ? sb : sa, side ? nb : na, line, &len);
                if (line <= last) {
                    fit(cell, sizeof cell, t, len, TEXT);
                    if (side) /* the right column: no trailing spaces */
                        for (char *e = cell + strlen(cell); e > cell && e[-1] == ' ';)
                            *--e = '\0';
                    fprintf(f, "%s%s%5d%s %s", side ? " " : "", on(s, "\033[33m"), line,
                            on(s, "\033[0m"), cell);
                } else if (!side) {
                    fprintf(f, "%*s", COL, "");
                }
                fputs(side ? "\n" : " |", f); /* no space at a line's end */
            }
        }
        if (rows > TERM_REGION_ROWS)
            fprintf(f, "  ... %d more lines (the HTML report, --html FILE, shows them all)\n",
                    rows - TERM_REGION_ROWS);
    }
    free(sa), free(sb);
}

/* The pairs shown: the first `top` whose score is at least min_score. */
static int shown_pairs(const show *s, const gl_similar_report *r)
{
    int n = 0;
    while (n < r->npairs && n < s->top && r->pairs[n].score >= s->min_score)
        n++;
    return n;
}

static void text_report(FILE *f, const show *s, const gl_similar_report *r, int nshown)
{
    char name[512], name2[512];
    int compared = 0;
    for (int d = 0; d < r->ndocs; d++)
        compared += !r->docs[d].skipped;
    fprintf(f, "%ssimilar submissions in %s%s: %d compared\n", on(s, "\033[1m"),
            fit_name(name, sizeof name, s->dir, 40), on(s, "\033[0m"), compared);
    if (s->lesson)
        fprintf(f, "the code of lesson %s's starter and steps excluded; ", s->lesson);
    else
        fputs("no starter excluded (gpulearn similar LESSON DIR excludes one); ", f);
    if (r->max_common >= 0)
        fprintf(f, "passages in more\nthan %d submissions ignored (%d)\n", r->max_common,
                r->ncommon);
    else
        fputs("no passage ignored as common\n", f);
    for (int d = 0; d < r->ndocs; d++)
        if (r->docs[d].skipped) {
            fprintf(f, "skipped %s:\n  %s\n", fit_name(name, sizeof name, r->docs[d].name, 70),
                    fit_name(name2, sizeof name2, r->docs[d].skipped, 78));
        }
    if (nshown == 0) {
        fprintf(f, "\nno pair shares a passage of %d normalised tokens%s\n", GL_SIMILAR_K,
                r->npairs ? " above --min-score" : "");
        return;
    }
    fputs("\nrank score  shared  tokens  pair\n", f);
    for (int i = 0; i < nshown; i++) {
        const gl_similar_pair *p = &r->pairs[i];
        fit(name, sizeof name, r->docs[p->a].name, strlen(r->docs[p->a].name), 24);
        fit_name(name2, sizeof name2, r->docs[p->b].name, 24);
        fprintf(f, "%4d %4.0f%% %7d %7d  %s %s\n", i + 1, p->score * 100, p->shared, p->matched,
                name, name2);
    }
    for (int i = 0; i < nshown; i++) {
        const gl_similar_pair *p = &r->pairs[i];
        fit_name(name, sizeof name, r->docs[p->a].name, 24);
        fit_name(name2, sizeof name2, r->docs[p->b].name, 24);
        fprintf(f,
                "\n%s%d. %s and %s%s\n   %.0f%%: %d of %d fingerprints shared; %d tokens in "
                "%d region%s\n",
                on(s, "\033[1m"), i + 1, name, name2, on(s, "\033[0m"), p->score * 100, p->shared,
                r->docs[p->a].nhashes < r->docs[p->b].nhashes ? r->docs[p->a].nhashes
                                                              : r->docs[p->b].nhashes,
                p->matched, p->nregions, p->nregions == 1 ? "" : "s");
        text_regions(f, s, r, p);
    }
}

/* ------------------------------------------------------------------ HTML */

/* s[0..len) as HTML text: made safe as for the terminal (control characters, invalid
 * UTF-8 and bidirectional overrides shown as escapes; newlines and tabs kept), then
 * & < > " ' as entities. */
static void html_text(FILE *f, const char *s, size_t len)
{
    char *raw = malloc(len + 1);
    if (!raw)
        return;
    for (size_t i = 0; i < len; i++)
        raw[i] = s[i] ? s[i] : '?';
    raw[len] = '\0';
    const size_t need = gl_escape_term(NULL, 0, raw, GL_ESC_LINES) + 1;
    char *esc = malloc(need);
    if (esc) {
        gl_escape_term(esc, need, raw, GL_ESC_LINES);
        for (const char *p = esc; *p; p++)
            switch (*p) {
            case '&': fputs("&amp;", f); break;
            case '<': fputs("&lt;", f); break;
            case '>': fputs("&gt;", f); break;
            case '"': fputs("&quot;", f); break;
            case '\'': fputs("&#39;", f); break;
            default: fputc(*p, f);
            }
    }
    free(esc), free(raw);
}

static void html_str(FILE *f, const char *s)
{
    html_text(f, s, strlen(s));
}

/* One side of a region: its lines, numbered, padded to rows lines. */
static void html_side(FILE *f, const gl_similar_doc *d, int first, int last, int rows)
{
    size_t *st = NULL;
    const int n = line_starts(d, &st);
    if (n < 0)
        return;
    fputs("<td><pre>", f);
    for (int i = 0; i < rows; i++) {
        if (first + i <= last) {
            size_t len;
            const char *t = line_of(d, st, n, first + i, &len);
            fprintf(f, "<span class=n>%5d</span> ", first + i);
            html_text(f, t, len);
        }
        fputc('\n', f);
    }
    fputs("</pre></td>", f);
    free(st);
}

static void html_report(FILE *f, const show *s, const gl_similar_report *r, int nshown)
{
    fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n<title>gpulearn similar: ", f);
    html_str(f, s->dir);
    fputs("</title>\n<style>\nbody{font-family:sans-serif;margin:1em 2em}\n"
          "table{border-collapse:collapse}td,th{padding:2px 8px;vertical-align:top}\n"
          "th{text-align:left;border-bottom:1px solid #888}\n"
          "pre{margin:0;font-size:90%;white-space:pre}.n{color:#b58900}\n"
          ".side td{border:1px solid #ccc}.side th{background:#eef}\n"
          "</style></head><body>\n<h1>Similar submissions in ",
          f);
    html_str(f, s->dir);
    int compared = 0;
    for (int d = 0; d < r->ndocs; d++)
        compared += !r->docs[d].skipped;
    fprintf(f,
            "</h1>\n<p>%d submissions compared by winnowed fingerprints of their "
            "normalised tokens (k = %d tokens, window %d). ",
            compared, GL_SIMILAR_K, GL_SIMILAR_W);
    if (s->lesson) {
        fputs("The code of lesson ", f);
        html_str(f, s->lesson);
        fputs("'s starter and steps is excluded. ", f);
    } else {
        fputs("No starter is excluded. ", f);
    }
    if (r->max_common >= 0)
        fprintf(f, "Passages in more than %d submissions are ignored (%d).", r->max_common,
                r->ncommon);
    fputs("</p>\n", f);
    for (int d = 0; d < r->ndocs; d++)
        if (r->docs[d].skipped) {
            fputs("<p>Skipped ", f);
            html_str(f, r->docs[d].name);
            fputs(": ", f);
            html_str(f, r->docs[d].skipped);
            fputs("</p>\n", f);
        }
    fputs("<table>\n<tr><th>rank</th><th>score</th><th>shared</th><th>tokens</th>"
          "<th>submission</th><th>submission</th></tr>\n",
          f);
    for (int i = 0; i < nshown; i++) {
        const gl_similar_pair *p = &r->pairs[i];
        fprintf(f, "<tr><td><a href=\"#p%d\">%d</a></td><td>%.0f%%</td><td>%d</td><td>%d</td><td>",
                i + 1, i + 1, p->score * 100, p->shared, p->matched);
        html_str(f, r->docs[p->a].name);
        fputs("</td><td>", f);
        html_str(f, r->docs[p->b].name);
        fputs("</td></tr>\n", f);
    }
    fputs("</table>\n", f);
    for (int i = 0; i < nshown; i++) {
        const gl_similar_pair *p = &r->pairs[i];
        const gl_similar_doc *A = &r->docs[p->a], *B = &r->docs[p->b];
        fprintf(f, "<h2 id=\"p%d\">%d. ", i + 1, i + 1);
        html_str(f, A->name);
        fputs(" and ", f);
        html_str(f, B->name);
        fprintf(f, "</h2>\n<p>%.0f%%: %d fingerprints shared; %d tokens in %d region%s.</p>\n",
                p->score * 100, p->shared, p->matched, p->nregions, p->nregions == 1 ? "" : "s");
        for (int g = 0; g < p->nregions; g++) {
            const gl_similar_region *q = &p->regions[g];
            fputs("<table class=side><tr><th>", f);
            html_str(f, A->name);
            fprintf(f, " lines %d-%d</th><th>", q->a_first, q->a_last);
            html_str(f, B->name);
            fprintf(f, " lines %d-%d</th></tr>\n<tr>", q->b_first, q->b_last);
            const int la = q->a_last - q->a_first + 1, lb = q->b_last - q->b_first + 1;
            const int rows = la > lb ? la : lb;
            html_side(f, A, q->a_first, q->a_last, rows);
            html_side(f, B, q->b_first, q->b_last, rows);
            fputs("</tr></table><br>\n", f);
        }
    }
    fputs("</body></html>\n", f);
}

/* ------------------------------------------------------------------ JSON */

static void json_name(cJSON *o, const char *key, const char *s)
{
    char *clean = gl_utf8_clean(s);
    cJSON_AddStringToObject(o, key, clean ? clean : "");
    free(clean);
}

static cJSON *json_report(const show *s, const gl_similar_report *r, int nshown)
{
    cJSON *root = cJSON_CreateObject();
    json_name(root, "folder", s->dir);
    if (s->lesson)
        json_name(root, "lesson", s->lesson);
    cJSON_AddNumberToObject(root, "k", GL_SIMILAR_K);
    cJSON_AddNumberToObject(root, "window", GL_SIMILAR_W);
    cJSON_AddNumberToObject(root, "max_common", r->max_common);
    cJSON_AddNumberToObject(root, "common_ignored", r->ncommon);
    cJSON *subs = cJSON_AddArrayToObject(root, "submissions");
    for (int d = 0; d < r->ndocs; d++) {
        cJSON *o = cJSON_CreateObject();
        json_name(o, "file", r->docs[d].name);
        cJSON_AddNumberToObject(o, "tokens", r->docs[d].ntoks);
        cJSON_AddNumberToObject(o, "fingerprints", r->docs[d].nhashes);
        if (r->docs[d].skipped)
            json_name(o, "skipped", r->docs[d].skipped);
        cJSON_AddItemToArray(subs, o);
    }
    cJSON *pairs = cJSON_AddArrayToObject(root, "pairs");
    for (int i = 0; i < nshown; i++) {
        const gl_similar_pair *p = &r->pairs[i];
        cJSON *o = cJSON_CreateObject();
        json_name(o, "a", r->docs[p->a].name);
        json_name(o, "b", r->docs[p->b].name);
        cJSON_AddNumberToObject(o, "score", p->score);
        cJSON_AddNumberToObject(o, "shared", p->shared);
        cJSON_AddNumberToObject(o, "tokens", p->matched);
        cJSON *rs = cJSON_AddArrayToObject(o, "regions");
        for (int g = 0; g < p->nregions; g++) {
            const gl_similar_region *q = &p->regions[g];
            cJSON *x = cJSON_CreateObject();
            cJSON_AddItemToObject(x, "a_lines",
                                  cJSON_CreateIntArray((int[]){q->a_first, q->a_last}, 2));
            cJSON_AddItemToObject(x, "b_lines",
                                  cJSON_CreateIntArray((int[]){q->b_first, q->b_last}, 2));
            cJSON_AddNumberToObject(x, "tokens", q->ntoks);
            cJSON_AddItemToArray(rs, x);
        }
        cJSON_AddItemToArray(pairs, o);
    }
    return root;
}

/* ------------------------------------------------------------------ the command */

/* The base files of lesson l: its exercise's starter and its steps' kernel files (what
 * every learner was given), without repeats; returns their count. */
static int lesson_base(const gl_lesson *l, const char **base, int max)
{
    int n = 0;
    if (l->exercise && l->exercise->starter && n < max)
        base[n++] = l->exercise->starter;
    for (int s = 0; s < l->nsteps; s++) {
        const char *k = l->steps[s].kernel;
        int dup = !k;
        for (int i = 0; i < n && !dup; i++)
            dup = strcmp(base[i], k) == 0;
        if (!dup && n < max)
            base[n++] = k;
    }
    return n;
}

/* Compares dir's submissions with lesson l's files (or none) as the base: 0 with *r
 * filled (similar_report_free) and the regions of the shown pairs, else the exit code
 * after the message. */
static int compare(const gl_lesson *l, const char *const *extra, int nextra, const char *dir,
                   int max_common, const show *s, gl_similar_report *r, int *nshown)
{
    const char *base[MAX_BASE];
    int nbase = l ? lesson_base(l, base, MAX_BASE) : 0;
    for (int i = 0; i < nextra && nbase < MAX_BASE; i++)
        base[nbase++] = extra[i];
    gl_similar_opts o = {.dir = dir, .base = base, .nbase = nbase, .max_common = max_common};
    gl_error err = {0};
    gl_status st = similar_compare(&o, r, &err);
    if (st != GL_OK) {
        similar_report_free(r);
        return cli_die(st, err.msg);
    }
    *nshown = shown_pairs(s, r);
    for (int i = 0; i < *nshown; i++)
        if (similar_regions(r, &r->pairs[i]) != 0) {
            similar_report_free(r);
            return cli_die(GL_ERR_NOMEM, "out of memory");
        }
    return 0;
}

/* Writes the HTML page (or the JSON) of the report to path, never through a link
 * (gl_write_report): 0, or 2 after the message. */
static int write_file(const char *path, const show *s, const gl_similar_report *r, int nshown,
                      int json)
{
    char *text = NULL;
    size_t len = 0;
    if (json) {
        cJSON *j = json_report(s, r, nshown);
        text = cJSON_Print(j);
        cJSON_Delete(j);
        len = text ? strlen(text) : 0;
    } else {
        FILE *f = open_memstream(&text, &len);
        if (f) {
            html_report(f, s, r, nshown);
            if (fclose(f) != 0)
                free(text), text = NULL;
        }
    }
    if (!text)
        return cli_die(GL_ERR_NOMEM, "out of memory");
    gl_error err = {0};
    gl_status st = gl_write_report(path, text, len, &err);
    free(text);
    return st == GL_OK ? 0 : cli_die(st, err.msg);
}

/* NO_COLOR (https://no-color.org) set and not empty, or stdout not a terminal: plain. */
static int colour_ok(void)
{
    const char *nc = getenv("NO_COLOR");
    return isatty(STDOUT_FILENO) && !(nc && *nc);
}

int cmd_similar_batch(const gl_lesson *l, const char *dir, const char *prefix)
{
    show s = {.top = TOP_DEFAULT, .colour = colour_ok(), .lesson = l->label, .dir = dir};
    gl_similar_report r;
    int nshown;
    int rc = compare(l, NULL, 0, dir, 0, &s, &r, &nshown);
    if (rc)
        return rc;
    fputc('\n', stdout);
    text_report(stdout, &s, &r, nshown);
    char html[4200], json[4200];
    snprintf(html, sizeof html, "%s-similar.html", prefix);
    snprintf(json, sizeof json, "%s-similar.json", prefix);
    rc = write_file(html, &s, &r, nshown, 0);
    if (!rc)
        rc = write_file(json, &s, &r, nshown, 1);
    similar_report_free(&r);
    if (!rc) {
        char a[4200], b[4200];
        gl_escape_term(a, sizeof a, html, 0);
        gl_escape_term(b, sizeof b, json, 0);
        printf("wrote %s and %s\n", a, b);
    }
    return rc;
}

/* A whole number from lo to hi: 0 with *out set, else -1. */
static int parse_int(const char *s, long lo, long hi, long *out)
{
    char *end = NULL;
    errno = 0;
    const long v = strtol(s, &end, 10);
    if (!*s || *end || errno || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int cmd_similar(int argc, char **argv)
{
    const char *html = NULL, *pos[2] = {0};
    const char *base[MAX_BASE];
    int npos = 0, nbase = 0, json = 0;
    long top = TOP_DEFAULT, min_score = 0, max_common = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const int takes = !strcmp(a, "--top") || !strcmp(a, "--min-score") ||
                          !strcmp(a, "--max-common") || !strcmp(a, "--html") ||
                          !strcmp(a, "--base");
        const char *v = takes && i + 1 < argc ? argv[++i] : NULL;
        if (takes && !v)
            return cli_usage_error("%s needs a value", a);
        if (!strcmp(a, "--json")) {
            json = 1;
        } else if (!strcmp(a, "--top")) {
            if (parse_int(v, 1, 1000000, &top))
                return cli_usage_error("--top must be a whole number of at least 1, not '%s'", v);
        } else if (!strcmp(a, "--min-score")) {
            if (parse_int(v, 0, 100, &min_score))
                return cli_usage_error("--min-score must be a percentage from 0 to 100, not "
                                       "'%s'",
                                       v);
        } else if (!strcmp(a, "--max-common")) {
            if (parse_int(v, 0, 1000000, &max_common))
                return cli_usage_error("--max-common must be a whole number (0: no limit), "
                                       "not '%s'",
                                       v);
            if (max_common == 0)
                max_common = -1;
        } else if (!strcmp(a, "--html")) {
            html = v;
        } else if (!strcmp(a, "--base")) {
            if (nbase == MAX_BASE)
                return cli_usage_error("at most 64 --base files (%s)", v);
            base[nbase++] = v;
        } else if (a[0] == '-' && a[1]) {
            return cli_usage_error("unknown option '%s'", a);
        } else if (npos == 2) {
            return cli_usage_error("too many arguments ('%s')", a);
        } else {
            pos[npos++] = a;
        }
    }
    if (npos == 0)
        return cli_usage_error("similar needs a folder of submissions (gpulearn similar "
                               "[LESSON] DIR)%s",
                               "");
    gl_lesson l;
    int rc;
    if (npos == 2 && (rc = cli_exercise_lesson(pos[0], "compare", &l)) != 0)
        return rc;
    const char *dir = pos[npos - 1];
    show s = {.top = (int)top,
              .min_score = (double)min_score / 100,
              .colour = colour_ok(),
              .lesson = npos == 2 ? l.label : NULL,
              .dir = dir};
    gl_similar_report r;
    int nshown = 0;
    rc = compare(npos == 2 ? &l : NULL, base, nbase, dir, (int)max_common, &s, &r, &nshown);
    if (rc == 0) {
        if (json) {
            cJSON *j = json_report(&s, &r, nshown);
            char *t = cJSON_Print(j);
            cJSON_Delete(j);
            if (t)
                puts(t);
            else
                rc = cli_die(GL_ERR_NOMEM, "out of memory");
            free(t);
        } else {
            text_report(stdout, &s, &r, nshown);
        }
        if (!rc && html) {
            rc = write_file(html, &s, &r, nshown, 0);
            if (!rc && !json)
                printf("wrote %s\n", html);
        }
        similar_report_free(&r);
    }
    if (npos == 2)
        lesson_free(&l);
    return rc;
}
