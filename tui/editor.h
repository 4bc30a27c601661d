/* editor.h — the built-in editor `e` opens when neither $VISUAL nor $EDITOR is set:
 * a small kilo-style editor for one lesson file, with CUDA C highlighting, undo/redo,
 * incremental find and an atomic save.
 *
 * Two layers. The text buffer (ed_buf_*) is pure: lines of bytes, a cursor, edits and
 * their undo records, load and save; no curses, so the unit tests (tests/test_editor.c)
 * drive it directly. editor_run is the ncurses front end over it, drawing on stdscr of
 * the TUI's screen (term.h owns the terminal).
 *
 * Positions are (row, col): row 0-based over lines, col a 0-based byte offset in the
 * line. Display columns ("rx") expand a tab to the next multiple of ED_TAB_COLS and
 * count a UTF-8 sequence as one column. */
#ifndef GL_TUI_EDITOR_H
#define GL_TUI_EDITOR_H

#include <stdbool.h>
#include <stddef.h>

#include "runtime/gl.h"

enum {
    ED_TAB_COLS = 4,   /* a tab in the file is shown to the next multiple of this */
    ED_INDENT_COLS = 4 /* the Tab key inserts this many spaces */
};

/* An editable text: lines, a cursor, undo/redo history and the modified flag.
 * Opaque; ed_buf_new / ed_buf_free. */
typedef struct ed_buf ed_buf;

/* ---------------------------------------------------------------- lifetime */

/* A new buffer holding text[0..len) (may be NULL/0: one empty line); cursor at 0:0,
 * no history, not modified. A final '\n' ends the last line rather than starting an
 * empty one, and is written back by ed_buf_text. NULL when out of memory. Caller frees
 * with ed_buf_free. */
ed_buf *ed_buf_new(const char *text, size_t len);

/* Frees b and everything it owns. NULL is fine. */
void ed_buf_free(ed_buf *b);

/* Reads the file at path into a new buffer (*out; caller frees). GL_ERR_INPUT with
 * "path: why" in err when the file cannot be read (gl_read_file's limits),
 * GL_ERR_NOMEM when out of memory. */
gl_status ed_buf_load(const char *path, ed_buf **out, gl_error *err);

/* Writes the whole text to path atomically (gl_write_file_atomic: a temporary file in
 * the same folder, fsync, rename; an existing file's mode is kept, a symbolic link is
 * followed). On success the buffer is no longer modified and the next edit starts a
 * new undo group. GL_ERR_INPUT / GL_ERR_NOMEM with the reason in err. */
gl_status ed_buf_save(ed_buf *b, const char *path, gl_error *err);

/* ------------------------------------------------------------------ reading */

/* The whole text, lines joined by '\n', plus a final '\n' when the loaded text had one
 * or was empty ("" while the buffer is one empty line). NUL-terminated, *len (may be NULL) gets its length without the
 * NUL. NULL when out of memory. Caller frees. */
char *ed_buf_text(const ed_buf *b, size_t *len);

/* Number of lines (at least 1). */
size_t ed_buf_nlines(const ed_buf *b);

/* Line row's bytes (NUL-terminated, no '\n'), *len (may be NULL) its length. Valid
 * until the next edit. NULL when row is out of range. */
const char *ed_buf_line(const ed_buf *b, size_t row, size_t *len);

/* The cursor (row, byte col). */
void ed_buf_cursor(const ed_buf *b, size_t *row, size_t *col);

/* Whether the text differs from the last load or save: undoing back to the saved
 * text clears it again. */
bool ed_buf_modified(const ed_buf *b);

/* Display column of byte col in line row (tabs expanded, UTF-8 counted once). */
size_t ed_buf_rx(const ed_buf *b, size_t row, size_t col);

/* --------------------------------------------------------------- the cursor */

/* Cursor moves. Every move ends the current typing run (the next edit starts a new
 * undo group). Up/down keep the display column of the last horizontal move (the
 * "wanted" column) where the line is long enough. */
typedef enum ed_move {
    ED_LEFT,
    ED_RIGHT, /* one character (across line ends) */
    ED_UP,
    ED_DOWN, /* one line */
    ED_HOME,
    ED_END, /* start / end of the line */
    ED_TOP,
    ED_BOTTOM, /* start of the text / end of the text */
} ed_move;
void ed_buf_move(ed_buf *b, ed_move m);

/* Puts the cursor at (row, col), clamped to the text (col also to the start of a
 * UTF-8 sequence). Ends the typing run. */
void ed_buf_set_cursor(ed_buf *b, size_t row, size_t col);

/* Puts the cursor on row at display column rx (or the line's end when shorter). */
void ed_buf_set_cursor_rx(ed_buf *b, size_t row, size_t rx);

/* ------------------------------------------------------------------- edits */
/* Each returns false, with the buffer unchanged, when out of memory (or, for the
 * deletions, when there is nothing to delete). */

/* Types byte c at the cursor (c is not '\n'; a UTF-8 sequence is typed byte by byte).
 * Consecutive characters typed without a move in between form one undo group. */
bool ed_buf_insert_char(ed_buf *b, char c);

/* Types text[0..len) at the cursor as consecutive characters would be (one typing
 * run); '\n' in text splits lines without auto-indent. */
bool ed_buf_insert_text(ed_buf *b, const char *text, size_t len);

/* Enter: splits the line at the cursor; the new line starts with the leading
 * whitespace of the line split (no more of it than lies before the cursor). One undo
 * group of its own. */
bool ed_buf_newline(ed_buf *b);

/* Backspace: deletes the character before the cursor, or joins the line with the
 * previous one at column 0. Consecutive backspaces form one undo group. */
bool ed_buf_backspace(ed_buf *b);

/* Delete: deletes the character at the cursor, or joins the next line at the end of
 * the line. Consecutive deletes form one undo group. */
bool ed_buf_delete(ed_buf *b);

/* Ends the current typing run: the next edit starts a new undo group. */
void ed_buf_break_group(ed_buf *b);

/* Undoes the last undo group (cursor back where it was before it); false when there
 * is nothing to undo. */
bool ed_buf_undo(ed_buf *b);

/* Redoes the last undone group (cursor where it was after it); false when there is
 * nothing to redo. Any new edit drops what could be redone. */
bool ed_buf_redo(ed_buf *b);

/* ------------------------------------------------------------------- search */

/* Finds needle[0..len) (case-sensitive, within a line) at or after (row, col) when
 * forward, else strictly before it, wrapping around the text. true with the match's
 * start in *mrow, *mcol; false when needle is empty or nowhere in the text. Does not
 * move the cursor. */
bool ed_buf_find(const ed_buf *b, const char *needle, size_t len, size_t row, size_t col,
                 bool forward, size_t *mrow, size_t *mcol);

/* --------------------------------------------------------------- front end */

/* What editor_run did to the file. */
typedef enum editor_result {
    EDITOR_UNCHANGED, /* quit without saving: the file is as it was */
    EDITOR_SAVED,     /* saved at least once (the learner may have edited more and quit) */
    EDITOR_FAILED,    /* the file could not be loaded: msg says why, nothing was shown */
} editor_result;

/* Edits the file at path full-screen on the TUI's curses screen (term_init done) until
 * the learner quits (Ctrl-Q or Esc; asks "save changes?" when modified) or a quit
 * signal arrives (term_quit_signal; unsaved changes are then lost). While it runs the
 * terminal passes Ctrl-S/Q/Z/Y/C through as keys (term_raw_keys). Leaves stdscr erased
 * and the screen marked for a full repaint; the caller redraws its views. msg (size
 * msg_len) gets a one-line summary ("saved exercise.cu", or why it failed). */
editor_result editor_run(const char *path, char *msg, size_t msg_len);

#endif
