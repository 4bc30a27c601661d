/* editor.c — the built-in editor (editor.h). First the text buffer, which knows nothing
 * of curses (its edits go through two primitives, raw_insert and raw_delete, and every
 * edit is recorded as the one primitive that undoes it); then the curses front end,
 * which draws each frame from the buffer and turns keys into buffer calls (kilo's
 * shape: editorRefreshScreen, editorProcessKeypress). */
#include "tui/editor.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/app.h"
#include "tui/term.h"

/* =========================================================== the text buffer */

typedef struct ed_line {
    char *s; /* NUL-terminated, cap >= len + 1 */
    size_t len, cap;
} ed_line;

typedef enum ed_kind { REC_INSERT, REC_DELETE } ed_kind;

/* The typing run the newest record may still grow by (RUN_NONE: it may not). */
typedef enum ed_run { RUN_NONE, RUN_TYPE, RUN_BACKSPACE, RUN_DELETE } ed_run;

/* One undo step: text inserted at, or deleted from, (row, col). */
typedef struct ed_rec {
    ed_kind kind;
    unsigned long id; /* unique, increasing: the modified flag compares them */
    size_t row, col;  /* where the text starts */
    char *text;       /* may hold '\n' */
    size_t len, cap;
    size_t brow, bcol; /* the cursor before the step (undo puts it back) */
    size_t arow, acol; /* the cursor after it (redo puts it back) */
} ed_rec;

struct ed_buf {
    ed_line *lines;
    size_t n, cap;
    bool final_nl;   /* write a '\n' after the last line */
    size_t row, col; /* the cursor */
    size_t want_rx;  /* display column up/down aim for */
    ed_rec *recs;    /* [0, nrec) done, [nrec, nall) undone (redo) */
    size_t nrec, nall, rcap;
    unsigned long next_id;
    unsigned long saved_id; /* id of the newest done record at load/save (0: none) */
    ed_run run;
};

static bool line_reserve(ed_line *l, size_t len)
{
    if (len + 1 <= l->cap)
        return true;
    size_t cap = l->cap ? l->cap : 16;
    while (cap < len + 1)
        cap *= 2;
    char *s = realloc(l->s, cap);
    if (!s)
        return false;
    l->s = s;
    l->cap = cap;
    return true;
}

static bool line_set(ed_line *l, const char *s, size_t n)
{
    if (!line_reserve(l, n))
        return false;
    if (n)
        memcpy(l->s, s, n);
    l->s[n] = '\0';
    l->len = n;
    return true;
}

/* Room for n more lines in the line array. */
static bool lines_reserve(ed_buf *b, size_t more)
{
    if (b->n + more <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 16;
    while (cap < b->n + more)
        cap *= 2;
    ed_line *l = realloc(b->lines, cap * sizeof *l);
    if (!l)
        return false;
    b->lines = l;
    b->cap = cap;
    return true;
}

static bool is_cont(char c)
{
    return ((unsigned char)c & 0xC0) == 0x80;
}

/* Start of the character before byte col of line l. */
static size_t prev_char(const ed_line *l, size_t col)
{
    if (col == 0)
        return 0;
    col--;
    while (col > 0 && is_cont(l->s[col]))
        col--;
    return col;
}

/* End of the character at byte col of line l. */
static size_t next_char(const ed_line *l, size_t col)
{
    if (col >= l->len)
        return l->len;
    col++;
    while (col < l->len && is_cont(l->s[col]))
        col++;
    return col;
}

/* Where text[0..len) ends when it starts at (row, col). */
static void text_end(size_t row, size_t col, const char *text, size_t len, size_t *erow,
                     size_t *ecol)
{
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '\n')
            row++, col = 0;
        else
            col++;
    }
    *erow = row;
    *ecol = col;
}

/* Inserts text at (row, col), which must be a valid position. *erow, *ecol get the
 * end of the inserted text. false, with nothing changed, when out of memory. */
static bool raw_insert(ed_buf *b, size_t row, size_t col, const char *text, size_t len,
                       size_t *erow, size_t *ecol)
{
    size_t k = 0;
    for (size_t i = 0; i < len; i++)
        k += text[i] == '\n';
    ed_line *l = &b->lines[row];
    if (k == 0) {
        if (!line_reserve(l, l->len + len))
            return false;
        memmove(l->s + col + len, l->s + col, l->len - col + 1);
        memcpy(l->s + col, text, len);
        l->len += len;
        *erow = row;
        *ecol = col + len;
        return true;
    }
    /* Allocate everything first, so that failing leaves the text as it was. */
    if (!lines_reserve(b, k))
        return false;
    l = &b->lines[row];
    const char *first_nl = memchr(text, '\n', len);
    size_t head = (size_t)(first_nl - text);
    ed_line *fresh = calloc(k, sizeof *fresh);
    if (!fresh)
        return false;
    bool ok = line_reserve(l, col + head);
    const char *p = first_nl + 1;
    for (size_t j = 0; j < k && ok; j++) {
        const char *e = memchr(p, '\n', len - (size_t)(p - text));
        size_t seg = e ? (size_t)(e - p) : len - (size_t)(p - text);
        size_t tail = j + 1 == k ? l->len - col : 0;
        ok = line_reserve(&fresh[j], seg + tail);
        if (ok) {
            memcpy(fresh[j].s, p, seg);
            if (tail)
                memcpy(fresh[j].s + seg, l->s + col, tail);
            fresh[j].len = seg + tail;
            fresh[j].s[fresh[j].len] = '\0';
        }
        p = e ? e + 1 : text + len;
    }
    if (!ok) {
        for (size_t j = 0; j < k; j++)
            free(fresh[j].s);
        free(fresh);
        return false;
    }
    memcpy(l->s + col, text, head);
    l->len = col + head;
    l->s[l->len] = '\0';
    memmove(&b->lines[row + 1 + k], &b->lines[row + 1], (b->n - row - 1) * sizeof *b->lines);
    memcpy(&b->lines[row + 1], fresh, k * sizeof *fresh);
    b->n += k;
    free(fresh);
    text_end(row, col, text, len, erow, ecol);
    return true;
}

/* The text from (r1, c1) to (r2, c2) (lines joined by '\n'), malloc'd, NUL-terminated;
 * *len its length. NULL when out of memory. */
static char *text_range(const ed_buf *b, size_t r1, size_t c1, size_t r2, size_t c2, size_t *len)
{
    size_t n = 0;
    for (size_t r = r1; r <= r2; r++) {
        size_t from = r == r1 ? c1 : 0, to = r == r2 ? c2 : b->lines[r].len;
        n += to - from + (r < r2);
    }
    char *t = malloc(n + 1), *o = t;
    if (!t)
        return NULL;
    for (size_t r = r1; r <= r2; r++) {
        size_t from = r == r1 ? c1 : 0, to = r == r2 ? c2 : b->lines[r].len;
        memcpy(o, b->lines[r].s + from, to - from);
        o += to - from;
        if (r < r2)
            *o++ = '\n';
    }
    *o = '\0';
    *len = n;
    return t;
}

/* Deletes the text from (r1, c1) to (r2, c2) (valid positions, the first not after the
 * second). false, with nothing changed, when out of memory. */
static bool raw_delete(ed_buf *b, size_t r1, size_t c1, size_t r2, size_t c2)
{
    ed_line *l = &b->lines[r1];
    if (r1 == r2) {
        memmove(l->s + c1, l->s + c2, l->len - c2 + 1);
        l->len -= c2 - c1;
        return true;
    }
    ed_line *last = &b->lines[r2];
    size_t tail = last->len - c2;
    if (!line_reserve(l, c1 + tail))
        return false;
    memcpy(l->s + c1, last->s + c2, tail);
    l->len = c1 + tail;
    l->s[l->len] = '\0';
    for (size_t r = r1 + 1; r <= r2; r++)
        free(b->lines[r].s);
    memmove(&b->lines[r1 + 1], &b->lines[r2 + 1], (b->n - r2 - 1) * sizeof *b->lines);
    b->n -= r2 - r1;
    return true;
}

/* ------------------------------------------------------------ undo records */

static void drop_redo(ed_buf *b)
{
    for (size_t i = b->nrec; i < b->nall; i++)
        free(b->recs[i].text);
    b->nall = b->nrec;
}

static bool recs_reserve(ed_buf *b)
{
    if (b->nrec + 1 <= b->rcap)
        return true;
    size_t cap = b->rcap ? b->rcap * 2 : 64;
    ed_rec *r = realloc(b->recs, cap * sizeof *r);
    if (!r)
        return false;
    b->recs = r;
    b->rcap = cap;
    return true;
}

static bool rec_reserve(ed_rec *r, size_t len)
{
    if (len + 1 <= r->cap)
        return true;
    size_t cap = r->cap ? r->cap : 16;
    while (cap < len + 1)
        cap *= 2;
    char *t = realloc(r->text, cap);
    if (!t)
        return false;
    r->text = t;
    r->cap = cap;
    return true;
}

/* The newest done record, if the current typing run may still grow it. */
static ed_rec *open_rec(ed_buf *b, ed_run run)
{
    if (run == RUN_NONE || b->run != run || b->nrec == 0 || b->nrec != b->nall)
        return NULL;
    return &b->recs[b->nrec - 1];
}

/* Appends a new record (drops what could be redone). text is taken over. */
static void push_rec(ed_buf *b, ed_kind kind, size_t row, size_t col, char *text, size_t len,
                     size_t brow, size_t bcol, size_t arow, size_t acol)
{
    drop_redo(b);
    ed_rec *r = &b->recs[b->nrec++];
    *r = (ed_rec){kind, ++b->next_id, row, col, text, len, len + 1, brow, bcol, arow, acol};
    b->nall = b->nrec;
}

/* ------------------------------------------------------------ the cursor */

size_t ed_buf_rx(const ed_buf *b, size_t row, size_t col)
{
    if (row >= b->n)
        return 0;
    const ed_line *l = &b->lines[row];
    size_t rx = 0;
    for (size_t i = 0; i < col && i < l->len; i++) {
        if (l->s[i] == '\t')
            rx = (rx / ED_TAB_COLS + 1) * ED_TAB_COLS;
        else if (!is_cont(l->s[i]))
            rx++;
    }
    return rx;
}

/* The byte column of line row at display column rx: the character covering rx (a tab
 * spans several), or the line's end. */
static size_t col_at_rx(const ed_buf *b, size_t row, size_t rx)
{
    const ed_line *l = &b->lines[row];
    size_t cur = 0, i = 0;
    while (i < l->len) {
        size_t next = l->s[i] == '\t' ? (cur / ED_TAB_COLS + 1) * ED_TAB_COLS : cur + 1;
        if (next > rx)
            return i;
        cur = next;
        i = next_char(l, i);
    }
    return l->len;
}

/* Moves the cursor (a horizontal move: sets the wanted column). */
static void cursor_to(ed_buf *b, size_t row, size_t col)
{
    b->row = row;
    b->col = col;
    b->want_rx = ed_buf_rx(b, row, col);
}

void ed_buf_cursor(const ed_buf *b, size_t *row, size_t *col)
{
    *row = b->row;
    *col = b->col;
}

void ed_buf_break_group(ed_buf *b)
{
    b->run = RUN_NONE;
}

void ed_buf_set_cursor(ed_buf *b, size_t row, size_t col)
{
    if (row >= b->n)
        row = b->n - 1;
    const ed_line *l = &b->lines[row];
    if (col > l->len)
        col = l->len;
    while (col > 0 && col < l->len && is_cont(l->s[col]))
        col--;
    cursor_to(b, row, col);
    b->run = RUN_NONE;
}

void ed_buf_set_cursor_rx(ed_buf *b, size_t row, size_t rx)
{
    if (row >= b->n)
        row = b->n - 1;
    cursor_to(b, row, col_at_rx(b, row, rx));
    b->run = RUN_NONE;
}

/* Moves the cursor n lines up (n < 0) or down, as ED_UP/ED_DOWN n times. */
static void ed_buf_move_lines(ed_buf *b, long n)
{
    size_t row = b->row;
    if (n < 0)
        row = (size_t)(-n) > row ? 0 : row - (size_t)(-n);
    else
        row = (size_t)n >= b->n - row ? b->n - 1 : row + (size_t)n;
    b->row = row;
    b->col = col_at_rx(b, row, b->want_rx); /* vertical: the wanted column stays */
    b->run = RUN_NONE;
}

void ed_buf_move(ed_buf *b, ed_move m)
{
    const ed_line *l = &b->lines[b->row];
    switch (m) {
    case ED_LEFT:
        if (b->col > 0)
            cursor_to(b, b->row, prev_char(l, b->col));
        else if (b->row > 0)
            cursor_to(b, b->row - 1, b->lines[b->row - 1].len);
        break;
    case ED_RIGHT:
        if (b->col < l->len)
            cursor_to(b, b->row, next_char(l, b->col));
        else if (b->row + 1 < b->n)
            cursor_to(b, b->row + 1, 0);
        break;
    case ED_UP: ed_buf_move_lines(b, -1); break;
    case ED_DOWN: ed_buf_move_lines(b, 1); break;
    case ED_HOME: cursor_to(b, b->row, 0); break;
    case ED_END: cursor_to(b, b->row, l->len); break;
    case ED_TOP: cursor_to(b, 0, 0); break;
    case ED_BOTTOM: cursor_to(b, b->n - 1, b->lines[b->n - 1].len); break;
    }
    b->run = RUN_NONE;
}

/* ------------------------------------------------------------------ edits */

/* Inserts text at the cursor and records it: the open record of `run` grows when the
 * text continues it, else a new record starts (RUN_NONE: one that nothing joins). */
static bool do_insert(ed_buf *b, const char *text, size_t len, ed_run run)
{
    if (len == 0)
        return true;
    size_t r0 = b->row, c0 = b->col, r1, c1;
    ed_rec *top = open_rec(b, run);
    if (top && !(top->kind == REC_INSERT && top->arow == r0 && top->acol == c0))
        top = NULL;
    char *copy = NULL;
    if (top) {
        if (!rec_reserve(top, top->len + len))
            return false;
    } else {
        if (!recs_reserve(b) || !(copy = malloc(len + 1)))
            return false;
        memcpy(copy, text, len);
        copy[len] = '\0';
    }
    if (!raw_insert(b, r0, c0, text, len, &r1, &c1)) {
        free(copy);
        return false;
    }
    if (top) {
        memcpy(top->text + top->len, text, len);
        top->len += len;
        top->text[top->len] = '\0';
        top->arow = r1;
        top->acol = c1;
    } else {
        push_rec(b, REC_INSERT, r0, c0, copy, len, r0, c0, r1, c1);
    }
    cursor_to(b, r1, c1);
    b->run = run;
    return true;
}

/* Deletes (r1, c1)..(r2, c2) and records it; the open record of `run` grows when the
 * deletion continues it (backspace: ends where it starts; delete: starts there too). */
static bool do_delete(ed_buf *b, size_t r1, size_t c1, size_t r2, size_t c2, ed_run run)
{
    size_t len;
    char *t = text_range(b, r1, c1, r2, c2, &len);
    if (!t)
        return false;
    ed_rec *top = open_rec(b, run);
    if (top && top->kind != REC_DELETE)
        top = NULL;
    if (top && run == RUN_BACKSPACE && !(top->row == r2 && top->col == c2))
        top = NULL;
    if (top && run == RUN_DELETE && !(top->row == r1 && top->col == c1))
        top = NULL;
    if ((top && !rec_reserve(top, top->len + len)) || (!top && !recs_reserve(b))) {
        free(t);
        return false;
    }
    size_t brow = b->row, bcol = b->col;
    if (!raw_delete(b, r1, c1, r2, c2)) {
        free(t);
        return false;
    }
    if (top && run == RUN_BACKSPACE) {
        memmove(top->text + len, top->text, top->len + 1);
        memcpy(top->text, t, len);
        top->len += len;
        top->row = r1, top->col = c1;
        top->arow = r1, top->acol = c1;
        free(t);
    } else if (top) {
        memcpy(top->text + top->len, t, len + 1);
        top->len += len;
        free(t);
    } else {
        push_rec(b, REC_DELETE, r1, c1, t, len, brow, bcol, r1, c1);
    }
    cursor_to(b, r1, c1);
    b->run = run;
    return true;
}

bool ed_buf_insert_char(ed_buf *b, char c)
{
    if (c == '\n')
        return ed_buf_newline(b);
    return do_insert(b, &c, 1, RUN_TYPE);
}

bool ed_buf_insert_text(ed_buf *b, const char *text, size_t len)
{
    return do_insert(b, text, len, RUN_TYPE);
}

bool ed_buf_newline(ed_buf *b)
{
    const ed_line *l = &b->lines[b->row];
    size_t ind = 0;
    while (ind < l->len && ind < b->col && (l->s[ind] == ' ' || l->s[ind] == '\t'))
        ind++;
    char *t = malloc(ind + 1);
    if (!t)
        return false;
    t[0] = '\n';
    memcpy(t + 1, l->s, ind);
    bool ok = do_insert(b, t, ind + 1, RUN_NONE);
    free(t);
    return ok;
}

bool ed_buf_backspace(ed_buf *b)
{
    if (b->col > 0)
        return do_delete(b, b->row, prev_char(&b->lines[b->row], b->col), b->row, b->col,
                         RUN_BACKSPACE);
    if (b->row == 0)
        return false;
    return do_delete(b, b->row - 1, b->lines[b->row - 1].len, b->row, 0, RUN_BACKSPACE);
}

bool ed_buf_delete(ed_buf *b)
{
    const ed_line *l = &b->lines[b->row];
    if (b->col < l->len)
        return do_delete(b, b->row, b->col, b->row, next_char(l, b->col), RUN_DELETE);
    if (b->row + 1 >= b->n)
        return false;
    return do_delete(b, b->row, l->len, b->row + 1, 0, RUN_DELETE);
}

bool ed_buf_undo(ed_buf *b)
{
    if (b->nrec == 0)
        return false;
    ed_rec *r = &b->recs[b->nrec - 1];
    size_t erow, ecol;
    text_end(r->row, r->col, r->text, r->len, &erow, &ecol);
    bool ok = r->kind == REC_INSERT ? raw_delete(b, r->row, r->col, erow, ecol)
                                    : raw_insert(b, r->row, r->col, r->text, r->len, &erow, &ecol);
    if (!ok)
        return false;
    b->nrec--;
    cursor_to(b, r->brow, r->bcol);
    b->run = RUN_NONE;
    return true;
}

bool ed_buf_redo(ed_buf *b)
{
    if (b->nrec == b->nall)
        return false;
    ed_rec *r = &b->recs[b->nrec];
    size_t erow, ecol;
    text_end(r->row, r->col, r->text, r->len, &erow, &ecol);
    bool ok = r->kind == REC_INSERT ? raw_insert(b, r->row, r->col, r->text, r->len, &erow, &ecol)
                                    : raw_delete(b, r->row, r->col, erow, ecol);
    if (!ok)
        return false;
    b->nrec++;
    cursor_to(b, r->arow, r->acol);
    b->run = RUN_NONE;
    return true;
}

/* ---------------------------------------------------------- whole buffer */

ed_buf *ed_buf_new(const char *text, size_t len)
{
    ed_buf *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->final_nl = len == 0 || text[len - 1] == '\n';
    if (len && text[len - 1] == '\n')
        len--; /* the final '\n' ends the last line */
    size_t i = 0;
    for (;;) {
        const char *e = len > i ? memchr(text + i, '\n', len - i) : NULL;
        size_t seg = e ? (size_t)(e - (text + i)) : len - i;
        if (!lines_reserve(b, 1))
            goto oom;
        b->lines[b->n] = (ed_line){0};
        if (!line_set(&b->lines[b->n], seg ? text + i : "", seg))
            goto oom;
        b->n++;
        if (!e)
            break;
        i += seg + 1;
    }
    return b;
oom:
    ed_buf_free(b);
    return NULL;
}

void ed_buf_free(ed_buf *b)
{
    if (!b)
        return;
    for (size_t i = 0; i < b->n; i++)
        free(b->lines[i].s);
    free(b->lines);
    for (size_t i = 0; i < b->nall; i++)
        free(b->recs[i].text);
    free(b->recs);
    free(b);
}

gl_status ed_buf_load(const char *path, ed_buf **out, gl_error *err)
{
    *out = NULL;
    size_t len = 0;
    char *text = gl_read_file(path, &len, err);
    if (!text)
        return err ? err->status : GL_ERR_INPUT;
    *out = ed_buf_new(text, len);
    free(text);
    return *out ? GL_OK : gl_fail(err, GL_ERR_NOMEM, "%s: out of memory", path);
}

char *ed_buf_text(const ed_buf *b, size_t *len)
{
    size_t n = 0;
    for (size_t i = 0; i < b->n; i++)
        n += b->lines[i].len + 1;
    bool empty = b->n == 1 && b->lines[0].len == 0;
    if (!b->final_nl || empty)
        n--;
    char *t = malloc(n + 1), *o = t;
    if (!t)
        return NULL;
    for (size_t i = 0; i < b->n; i++) {
        memcpy(o, b->lines[i].s, b->lines[i].len);
        o += b->lines[i].len;
        if (i + 1 < b->n || (b->final_nl && !empty))
            *o++ = '\n';
    }
    *o = '\0';
    if (len)
        *len = n;
    return t;
}

gl_status ed_buf_save(ed_buf *b, const char *path, gl_error *err)
{
    size_t len;
    char *t = ed_buf_text(b, &len);
    if (!t)
        return gl_fail(err, GL_ERR_NOMEM, "%s: out of memory", path);
    gl_status st = gl_write_file_atomic(path, t, len, err);
    free(t);
    if (st != GL_OK)
        return st;
    b->saved_id = b->nrec ? b->recs[b->nrec - 1].id : 0;
    b->run = RUN_NONE;
    return GL_OK;
}

size_t ed_buf_nlines(const ed_buf *b)
{
    return b->n;
}

const char *ed_buf_line(const ed_buf *b, size_t row, size_t *len)
{
    if (row >= b->n)
        return NULL;
    if (len)
        *len = b->lines[row].len;
    return b->lines[row].s;
}

bool ed_buf_modified(const ed_buf *b)
{
    return (b->nrec ? b->recs[b->nrec - 1].id : 0) != b->saved_id;
}

/* ------------------------------------------------------------------ search */

/* Offset of the first (last) occurrence of needle in line l within [from, to) of
 * match starts; -1 when none. */
static long find_in(const ed_line *l, const char *needle, size_t len, size_t from, size_t to,
                    bool last)
{
    long found = -1;
    if (len > l->len)
        return -1;
    if (to > l->len - len + 1)
        to = l->len - len + 1;
    for (size_t i = from; i < to; i++) {
        if (memcmp(l->s + i, needle, len) != 0)
            continue;
        found = (long)i;
        if (!last)
            break;
    }
    return found;
}

bool ed_buf_find(const ed_buf *b, const char *needle, size_t len, size_t row, size_t col,
                 bool forward, size_t *mrow, size_t *mcol)
{
    if (len == 0 || b->n == 0)
        return false;
    if (row >= b->n)
        row = b->n - 1;
    for (size_t k = 0; k <= b->n; k++) {
        size_t r = forward ? (row + k) % b->n : (row + b->n - k % b->n) % b->n;
        size_t from = 0, to = SIZE_MAX;
        if (k == 0) {
            if (forward)
                from = col;
            else
                to = col;
        } else if (k == b->n) { /* back on the first line: the part not yet searched */
            if (forward)
                to = col;
            else
                from = col;
        }
        long at = find_in(&b->lines[r], needle, len, from, to, !forward);
        if (at >= 0) {
            *mrow = r;
            *mcol = (size_t)at;
            return true;
        }
    }
    return false;
}

/* ============================================================= the front end */

#define CTRL_KEY(k) ((k)&0x1f)
enum {
    KEY_ESC_ = 27,
    KEY_DEL_ = 127,
    KEY_QUIT_SIGNAL = -2, /* read_key: a quit signal arrived (term_quit_signal) */
    FIND_MAX = 120,       /* bytes of a search */
};

/* The editor's screen state; everything drawn comes from here and the buffer. */
typedef struct ed_view {
    ed_buf *b;
    const char *path;
    const char *name; /* the file's base name, for the title */
    size_t top;       /* first line shown */
    size_t coloff;    /* first display column shown */
    char msg[256];    /* shown on the bottom line until the next key */
    int msg_attr;
    char query[FIND_MAX + 1]; /* the last search */
    size_t qlen;
    bool match; /* highlight the match at (mrow, mcol), qlen bytes */
    size_t mrow, mcol;
    bool saved;                      /* saved at least once */
    int key_ctrl_home, key_ctrl_end; /* terminfo's kHOM5 / kEND5 codes, or -1 */
    int *attrs;                      /* scratch: a line's colouring */
    size_t attrs_cap;
} ed_view;

static void set_msg(ed_view *v, int attr, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void set_msg(ed_view *v, int attr, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->msg, sizeof v->msg, fmt, ap);
    va_end(ap);
    v->msg_attr = attr;
}

/* The key code curses gives an extended terminfo key ("kHOM5": Ctrl-Home), or -1. */
static int ext_key(const char *cap)
{
    for (int k = KEY_MAX + 1; k < KEY_MAX + 2048; k++) {
        const char *nm = keyname(k);
        if (nm && strcmp(nm, cap) == 0)
            return k;
    }
    return -1;
}

/* Rows of text on the screen (all but the title and the bottom line). */
static size_t text_rows(void)
{
    return LINES > 3 ? (size_t)LINES - 2 : 1;
}

/* Width of the line-number gutter: the digits of the last line number and a space. */
static int gutter_cols(const ed_view *v)
{
    int d = 1;
    for (size_t n = ed_buf_nlines(v->b); n >= 10; n /= 10)
        d++;
    return (d < 3 ? 3 : d) + 1;
}

static size_t text_cols(const ed_view *v)
{
    int w = COLS - gutter_cols(v);
    return w > 1 ? (size_t)w : 1;
}

/* Scrolls so that the cursor is on the screen. */
static void scroll_to_cursor(ed_view *v)
{
    size_t row, col, rows = text_rows(), cols = text_cols(v);
    ed_buf_cursor(v->b, &row, &col);
    size_t rx = ed_buf_rx(v->b, row, col);
    if (row < v->top)
        v->top = row;
    if (row >= v->top + rows)
        v->top = row - rows + 1;
    if (rx < v->coloff)
        v->coloff = rx;
    if (rx >= v->coloff + cols)
        v->coloff = rx - cols + 1;
}

/* Colours line (len bytes) into v->attrs[0..len); carries the block-comment state. */
static const int *line_attrs(ed_view *v, const char *line, size_t len, bool *in_comment)
{
    if (len + 1 > v->attrs_cap) {
        size_t cap = (len + 1) * 2;
        int *a = realloc(v->attrs, cap * sizeof *a);
        if (!a)
            return NULL;
        v->attrs = a;
        v->attrs_cap = cap;
    }
    memset(v->attrs, 0, (len + 1) * sizeof *v->attrs);
    view_code_attrs(line, v->attrs, in_comment); /* up to a NUL byte inside the line */
    return v->attrs;
}

/* Writes s on row y from column x, at most w columns, in attr (bytes; ASCII text). */
static void put_at(int y, int x, int w, const char *s, int attr)
{
    if (w <= 0)
        return;
    attrset((attr_t)attr);
    mvaddnstr(y, x, s, w);
    attrset(A_NORMAL);
}

/* One line of text on screen row y, from display column v->coloff. */
static void draw_line(ed_view *v, int y, size_t li, bool *in_comment)
{
    size_t len = 0;
    const char *s = ed_buf_line(v->b, li, &len);
    const int *attrs = line_attrs(v, s, len, in_comment);
    int g = gutter_cols(v);
    char num[32];
    int digits = snprintf(num, sizeof num, "%zu", li + 1);
    put_at(y, g - 1 - digits, digits, num, term_attr(TC_DIM)); /* right-aligned */
    size_t cols = text_cols(v), rx = 0, end = v->coloff + cols;
    for (size_t i = 0; i < len && rx < end;) {
        size_t k = 1;
        while (i + k < len && is_cont(s[i + k]))
            k++;
        int at = attrs ? attrs[i] : 0;
        if (v->match && li == v->mrow && i >= v->mcol && i < v->mcol + v->qlen)
            at = (int)A_REVERSE;
        unsigned char c = (unsigned char)s[i];
        if (c == '\t') {
            size_t next = (rx / ED_TAB_COLS + 1) * ED_TAB_COLS;
            attrset((attr_t)at);
            for (; rx < next && rx < end; rx++)
                if (rx >= v->coloff)
                    mvaddch(y, g + (int)(rx - v->coloff), ' ');
        } else {
            if (rx >= v->coloff) {
                move(y, g + (int)(rx - v->coloff));
                if (c < 0x20 || c == 0x7f) { /* control characters: shown, never sent */
                    attrset((attr_t)(at | A_REVERSE));
                    addch('?');
                } else {
                    attrset((attr_t)at);
                    addnstr(s + i, (int)k);
                }
            }
            rx++;
        }
        attrset(A_NORMAL);
        i += k;
    }
}

/* Draws the whole frame: title, text, bottom line (prompt, else message, else help),
 * and puts the cursor at the text cursor (or at the prompt's end). */
static void draw(ed_view *v, const char *prompt)
{
    werase(stdscr);
    if (LINES < 4 || COLS < 24) {
        put_at(0, 0, COLS, "terminal too small", A_NORMAL);
        refresh();
        return;
    }
    size_t row, col, n = ed_buf_nlines(v->b);
    ed_buf_cursor(v->b, &row, &col);

    /* title: " edit: name  modified" ... "line 12:5 " */
    int tattr = term_attr(TC_TITLE);
    attrset((attr_t)tattr);
    mvhline(0, 0, ' ', COLS);
    char right[64], left[300];
    snprintf(right, sizeof right, "line %zu:%zu ", row + 1, ed_buf_rx(v->b, row, col) + 1);
    int rw = (int)strlen(right);
    snprintf(left, sizeof left, " edit: %s%s", v->name,
             ed_buf_modified(v->b) ? "  [modified]" : "");
    int lw = (int)strlen(left);
    if (lw > COLS - rw - 1) { /* a long name gives way; the flag stays */
        const char *flag = ed_buf_modified(v->b) ? "  [modified]" : "";
        int room = COLS - rw - 1 - (int)strlen(flag) - 7;
        snprintf(left, sizeof left, " edit: %.*s%s", room > 0 ? room : 0, v->name, flag);
    }
    put_at(0, 0, COLS - rw - 1, left, tattr);
    put_at(0, COLS - rw, rw, right, tattr);

    /* text */
    bool inc = false;
    for (size_t i = 0; i < v->top && i < n; i++) {
        size_t len = 0;
        const char *s = ed_buf_line(v->b, i, &len);
        line_attrs(v, s, len, &inc);
    }
    size_t rows = text_rows();
    for (size_t r = 0; r < rows; r++) {
        size_t li = v->top + r;
        if (li < n)
            draw_line(v, (int)r + 1, li, &inc);
        else
            put_at((int)r + 1, 0, 1, "~", term_attr(TC_DIM));
    }

    /* bottom line */
    int y = LINES - 1;
    int sattr = term_attr(TC_STATUS);
    attrset((attr_t)sattr);
    mvhline(y, 0, ' ', COLS);
    int px = 0; /* the prompt's cursor: where its \x01 mark is (the mark is not drawn) */
    if (prompt) {
        size_t mark = strcspn(prompt, "\x01");
        px = (int)mark < COLS ? (int)mark : COLS - 1;
        put_at(y, 0, (int)mark < COLS ? (int)mark : COLS, prompt, sattr);
        if (prompt[mark] && (int)mark < COLS)
            put_at(y, (int)mark, COLS - (int)mark, prompt + mark + 1, sattr);
    } else if (v->msg[0]) {
        put_at(y, 0, COLS, v->msg, v->msg_attr ? v->msg_attr : sattr);
    } else {
        put_at(y, 0, COLS, " ^S save  ^Z undo  ^Y redo  ^F find  ^Q/Esc quit", sattr);
    }
    attrset(A_NORMAL);
    int cy = 1 + (int)(row - v->top);
    int cx = gutter_cols(v) + (int)(ed_buf_rx(v->b, row, col) - v->coloff);
    if (prompt)
        cy = y, cx = px;
    move(cy, cx);
    refresh();
}

/* The next key. Waits, waking now and then for quit signals (KEY_QUIT_SIGNAL). A lone
 * Esc is KEY_ESC_; an escape sequence curses does not know (ESC [ or ESC O: a key its
 * terminfo does not describe) or an Alt-key (ESC and a character) is swallowed whole
 * rather than read as Esc. Esc followed at once by a control key is both keys. */
static int read_key(void)
{
    for (;;) {
        wtimeout(stdscr, 250);
        int ch = wgetch(stdscr);
        if (term_quit_signal())
            return KEY_QUIT_SIGNAL;
        if (ch == ERR)
            continue;
        if (ch != KEY_ESC_)
            return ch;
        wtimeout(stdscr, 0);
        int next = wgetch(stdscr);
        if (next == ERR)
            return KEY_ESC_;
        if (next < 0x20 || next > 0xff) { /* Esc, then Ctrl-Q or an arrow key */
            ungetch(next);
            return KEY_ESC_;
        }
        if (next == '[' || next == 'O')
            while (wgetch(stdscr) != ERR) {
            }
    }
}

static bool do_save(ed_view *v)
{
    gl_error err = {0};
    if (ed_buf_save(v->b, v->path, &err) != GL_OK) {
        set_msg(v, term_attr(TC_BAD), " not saved: %.200s", err.msg);
        return false;
    }
    v->saved = true;
    size_t n = ed_buf_nlines(v->b);
    set_msg(v, term_attr(TC_STATUS), " saved %.180s (%zu line%s)", v->name, n, n == 1 ? "" : "s");
    return true;
}

/* Quitting: asks "save changes?" when modified. true to leave the editor. */
static bool confirm_quit(ed_view *v)
{
    if (!ed_buf_modified(v->b))
        return true;
    for (;;) {
        draw(v, " save changes? (y/n/esc) \x01");
        int ch = read_key();
        if (ch == KEY_QUIT_SIGNAL)
            return true;
        if (ch == 'y' || ch == 'Y')
            return do_save(v);
        if (ch == 'n' || ch == 'N')
            return true;
        if (ch == KEY_ESC_ || ch == CTRL_KEY('c') || ch == CTRL_KEY('g')) {
            set_msg(v, 0, " still editing");
            return false;
        }
    }
}

/* Ctrl-F: incremental search on the bottom line. Typing searches from where the
 * cursor was; Ctrl-F, Enter or Down go to the next match, Up to the previous; Esc or
 * any other key leaves the prompt with the cursor on the match. The last search is
 * offered again: Ctrl-F Ctrl-F finds its next match; typing replaces it. Returns the
 * key that left the prompt, for the editor to act on (ERR: none, Esc or a signal). */
static int find(ed_view *v)
{
    size_t srow, scol;
    ed_buf_cursor(v->b, &srow, &scol);
    bool fresh = v->qlen > 0; /* the offered last search: a typed character replaces it */
    bool failed = false;
    for (;;) {
        char prompt[FIND_MAX + 120];
        snprintf(prompt, sizeof prompt, " find: %s\x01%s   (^F/Enter next, Esc done)", v->query,
                 failed ? "  not found" : "");
        draw(v, prompt);
        int ch = read_key();
        if (ch == KEY_QUIT_SIGNAL || ch == KEY_ESC_)
            return ERR;
        if (ch == KEY_RESIZE)
            continue;
        size_t row, col, mr, mc;
        ed_buf_cursor(v->b, &row, &col);
        bool step =
            ch == CTRL_KEY('f') || ch == '\r' || ch == '\n' || ch == KEY_ENTER || ch == KEY_DOWN;
        bool back = ch == KEY_UP;
        bool edit = false;
        if (step || back) {
            fresh = false;
            /* next: after the match the cursor is on; previous: before it */
            bool on = v->match && v->mrow == row && v->mcol == col;
            failed = !ed_buf_find(v->b, v->query, v->qlen, row, col + (step && on ? 1 : 0), !back,
                                  &mr, &mc);
            if (!failed) {
                ed_buf_set_cursor(v->b, mr, mc);
                v->match = true, v->mrow = mr, v->mcol = mc;
            }
            scroll_to_cursor(v);
            continue;
        }
        if (ch == KEY_BACKSPACE || ch == KEY_DEL_ || ch == CTRL_KEY('h')) {
            if (fresh)
                v->qlen = 0;
            else if (v->qlen)
                v->qlen--;
            fresh = false;
            edit = true;
        } else if (ch >= 0x20 && ch < 0x100 && ch != KEY_DEL_) {
            if (fresh)
                v->qlen = 0;
            fresh = false;
            if (v->qlen < FIND_MAX)
                v->query[v->qlen++] = (char)ch;
            edit = true;
        } else {
            return ch; /* another key: done, the cursor stays on the match */
        }
        v->query[v->qlen] = '\0';
        if (edit) {
            v->match = false;
            failed =
                v->qlen > 0 && !ed_buf_find(v->b, v->query, v->qlen, srow, scol, true, &mr, &mc);
            if (v->qlen > 0 && !failed) {
                ed_buf_set_cursor(v->b, mr, mc);
                v->match = true, v->mrow = mr, v->mcol = mc;
            } else {
                ed_buf_set_cursor(v->b, srow, scol);
            }
            scroll_to_cursor(v);
        }
    }
}

/* The mouse: a click in the text puts the cursor there. */
static void click(ed_view *v)
{
    MEVENT ev;
    if (getmouse(&ev) != OK || ev.y < 1 || ev.y > (int)text_rows())
        return;
    size_t li = v->top + (size_t)(ev.y - 1);
    if (li >= ed_buf_nlines(v->b))
        li = ed_buf_nlines(v->b) - 1;
    int x = ev.x - gutter_cols(v);
    ed_buf_set_cursor_rx(v->b, li, v->coloff + (size_t)(x > 0 ? x : 0));
}

/* One key in the editor. false to leave it. */
static bool handle_key(ed_view *v, int ch)
{
    size_t rows = text_rows();
    if (ch == v->key_ctrl_home && ch != -1) {
        ed_buf_move(v->b, ED_TOP);
        return true;
    }
    if (ch == v->key_ctrl_end && ch != -1) {
        ed_buf_move(v->b, ED_BOTTOM);
        return true;
    }
    switch (ch) {
    case CTRL_KEY('q'):
    case KEY_ESC_: return !confirm_quit(v);
    case CTRL_KEY('s'): do_save(v); break;
    case CTRL_KEY('z'):
        if (!ed_buf_undo(v->b))
            set_msg(v, 0, " nothing to undo");
        break;
    case CTRL_KEY('y'):
        if (!ed_buf_redo(v->b))
            set_msg(v, 0, " nothing to redo");
        break;
    case CTRL_KEY('f'): {
        int next = find(v);
        if (next != ERR && next != KEY_QUIT_SIGNAL)
            return handle_key(v, next);
        break;
    }
    case CTRL_KEY('c'): set_msg(v, 0, " Ctrl-Q or Esc quits the editor"); break;
    case KEY_LEFT: ed_buf_move(v->b, ED_LEFT); break;
    case KEY_RIGHT: ed_buf_move(v->b, ED_RIGHT); break;
    case KEY_UP: ed_buf_move(v->b, ED_UP); break;
    case KEY_DOWN: ed_buf_move(v->b, ED_DOWN); break;
    case KEY_HOME: ed_buf_move(v->b, ED_HOME); break;
    case KEY_END: ed_buf_move(v->b, ED_END); break;
    case KEY_PPAGE:
        v->top = v->top > rows ? v->top - rows : 0;
        ed_buf_move_lines(v->b, -(long)rows);
        break;
    case KEY_NPAGE:
        v->top += rows; /* but the last page stays full */
        if (v->top + rows > ed_buf_nlines(v->b))
            v->top = ed_buf_nlines(v->b) > rows ? ed_buf_nlines(v->b) - rows : 0;
        ed_buf_move_lines(v->b, (long)rows);
        break;
    case KEY_BACKSPACE:
    case KEY_DEL_:
    case CTRL_KEY('h'): ed_buf_backspace(v->b); break;
    case KEY_DC: ed_buf_delete(v->b); break;
    case '\r':
    case '\n':
    case KEY_ENTER: ed_buf_newline(v->b); break;
    case '\t': ed_buf_insert_text(v->b, "    ", ED_INDENT_COLS); break;
    case KEY_MOUSE: click(v); break;
    case KEY_RESIZE: break; /* LINES and COLS are new: the next frame uses them */
    default:
        if (ch >= 0x20 && ch < 0x100)
            ed_buf_insert_char(v->b, (char)ch); /* UTF-8 byte by byte */
        break;
    }
    return true;
}

editor_result editor_run(const char *path, char *msg, size_t msg_len)
{
    gl_error err = {0};
    ed_view v = {0};
    if (ed_buf_load(path, &v.b, &err) != GL_OK) {
        snprintf(msg, msg_len, "%s", err.msg);
        return EDITOR_FAILED;
    }
    v.path = path;
    const char *slash = strrchr(path, '/');
    v.name = slash ? slash + 1 : path;
    v.key_ctrl_home = ext_key("kHOM5");
    v.key_ctrl_end = ext_key("kEND5");
    term_raw_keys(true);
    curs_set(1);
    for (;;) {
        scroll_to_cursor(&v);
        draw(&v, NULL);
        int ch = read_key();
        if (ch == KEY_QUIT_SIGNAL)
            break;
        v.msg[0] = '\0';
        v.match = false;
        if (!handle_key(&v, ch))
            break;
    }
    curs_set(0);
    term_raw_keys(false);
    werase(stdscr);
    clearok(curscr, TRUE);
    if (v.saved)
        snprintf(msg, msg_len, "saved %s", v.name);
    else
        snprintf(msg, msg_len, "not saved: nothing changed");
    free(v.attrs);
    ed_buf_free(v.b);
    return v.saved ? EDITOR_SAVED : EDITOR_UNCHANGED;
}
