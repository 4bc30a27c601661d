/* term.h — the one owner of the terminal: curses start-up and shut-down, colours,
 * box-drawing glyphs, signal handling and quieting stray output while the runtime
 * works. Every other tui/ file only draws into the WINDOWs it is handed. */
#ifndef GL_TUI_TERM_H
#define GL_TUI_TERM_H

#include <curses.h>
#include <stdbool.h>

/* Colour pairs (attributes from term_attr()). In monochrome they map to A_BOLD,
 * A_REVERSE, A_UNDERLINE or A_NORMAL so that every view still reads. */
typedef enum term_color {
    TC_NORMAL = 0,
    TC_TITLE,        /* top bar */
    TC_STATUS,       /* bottom status bar */
    TC_BORDER,       /* pane borders */
    TC_HEADING,      /* pane titles, lesson numbers */
    TC_SELECTED,     /* selected row of a list */
    TC_DIM,          /* line numbers, secondary text */
    TC_GOOD,         /* PASS, "ran on" */
    TC_BAD,          /* FAIL, faults */
    TC_WARN,         /* notes (fell back to the simulator) */
    TC_FAULTLINE,    /* the source line of a fault */
    TC_KEY,          /* key names in the help overlay */
    TC_CODE_KW,      /* CUDA C keywords and qualifiers (if, for, __global__) */
    TC_CODE_TYPE,    /* types (int, float, unsigned, dim3) */
    TC_CODE_BUILTIN, /* built-ins (threadIdx, __syncthreads, atomicAdd, printf) */
    TC_CODE_COMMENT, /* comments */
    TC_CODE_STRING,  /* string and character literals */
    TC_CODE_NUMBER,  /* numbers */
    TC_CODE_PREPROC, /* #include, #define */
    TC_ERRMARK,      /* a line with a compile error: gutter mark and message */
    TC_MAPSEL,       /* the selected thread's cell in the map */
    TC__COUNT
} term_color;

/* Glyphs for borders and marks: UTF-8 box drawing when the locale is UTF-8, else
 * ASCII. Each is a NUL-terminated string one column wide. */
typedef struct term_glyphs {
    const char *h, *v, *tl, *tr, *bl, *br; /* ─ │ ┌ ┐ └ ┘ */
    const char *ellipsis;                  /* … or ... (may be 3 columns in ASCII) */
    const char *dot;                       /* · or . */
    const char *cell;                      /* █ or # : a map cell in monochrome */
} term_glyphs;

/* Starts curses: setlocale(LC_ALL, ""), initscr (newterm, so a bad TERM is an error
 * rather than an exit), cbreak, noecho, keypad, hidden cursor, a short ESC delay,
 * colours unless NO_COLOR is set or has_colors() is false, and signal handlers that
 * restore the terminal (SIGINT/SIGTERM/SIGHUP ask the loop to quit; SIGQUIT, SIGSEGV,
 * SIGBUS, SIGFPE, SIGABRT restore the terminal and re-raise). Returns false with a
 * message in msg (size msg_len) when the terminal cannot be initialised. */
bool term_init(char *msg, size_t msg_len);

/* Restores the terminal (endwin) and the previous signal handlers. Idempotent. */
void term_end(void);

/* Non-zero after SIGINT/SIGTERM/SIGHUP: the signal number; the loop should quit. */
int term_quit_signal(void);

/* True (once) when the pending quit signal is SIGINT, which is then cleared: a running
 * launch takes Ctrl-C as "cancel" instead of "quit". */
bool term_take_interrupt(void);

/* Hands the terminal to another program (the learner's editor): saves the curses
 * modes and calls endwin. term_resume takes it back and forces a full repaint. */
void term_suspend(void);
void term_resume(void);

/* While on, every key reaches the program as a character: raw mode, with flow control
 * (IXON: Ctrl-S/Ctrl-Q), signal keys (ISIG: Ctrl-C, Ctrl-Z, Ctrl-backslash) and IEXTEN
 * (Ctrl-V, Ctrl-O) off, for the built-in editor's Ctrl-S/Q/Z/Y. term_raw_keys(false)
 * restores exactly the terminal modes term_raw_keys(true) found (calls do not nest). */
void term_raw_keys(bool on);

/* The attribute (colour pair or monochrome attribute) of a colour role. */
int term_attr(term_color c);

/* Whether colours are in use; number of map palette entries (>= 6 with colours,
 * the glyph set in monochrome). */
bool term_has_color(void);
int term_palette_size(void);

/* Attribute of map palette entry i (0 <= i < term_palette_size()): a background
 * colour with readable text, or in monochrome A_NORMAL/A_REVERSE/A_BOLD mixes. */
int term_palette_attr(int i);
/* The character a monochrome map draws for palette entry i ('0'..'9', 'a'..). */
char term_palette_char(int i);

/* The glyph set chosen at start-up. */
const term_glyphs *term_glyph(void);

/* While the runtime compiles or runs a kernel, stray writes to stdout/stderr (a
 * compiler's chatter) must not scribble on the screen: term_quiet_begin points fds 1
 * and 2 at a temporary file; term_quiet_end restores them and returns what was
 * written (malloc'd, NUL-terminated, caller frees; NULL if nothing). */
void term_quiet_begin(void);
char *term_quiet_end(void);

#endif
