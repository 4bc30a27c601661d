/* term.c — owns the terminal: curses start/stop, colours, glyphs, signals. */
#include "tui/term.h"

#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

static SCREEN *g_screen;
static bool g_active;
static bool g_color;
static int g_palette_n;
static volatile sig_atomic_t g_quit_signal;
static bool g_mouse;

/* Fatal and quit signals whose previous actions we restore at the end. */
static const int k_quit_signals[] = {SIGINT, SIGTERM, SIGHUP};
static const int k_fatal_signals[] = {SIGQUIT, SIGSEGV, SIGBUS, SIGFPE, SIGABRT};
#define NQUIT (sizeof k_quit_signals / sizeof k_quit_signals[0])
#define NFATAL (sizeof k_fatal_signals / sizeof k_fatal_signals[0])
static struct sigaction g_old_quit[NQUIT], g_old_fatal[NFATAL];

static const term_glyphs k_utf8 = {"\u2500", "\u2502", "\u250c", "\u2510", "\u2514",
                                   "\u2518", "\u2026", "\u00b7", "\u2588"};
static const term_glyphs k_ascii = {"-", "|", "+", "+", "+", "+", "...", ".", "#"};
static const term_glyphs *g_glyphs = &k_ascii;

/* Colour pairs: roles use 1..TC__COUNT-1, map palette entries start at PAL_BASE. */
enum { PAL_BASE = 32, PAL_MAX = 12 };
static int g_role_attr[TC__COUNT];
static int g_pal_attr[PAL_MAX];

static void on_quit_signal(int sig)
{
    g_quit_signal = sig;
}

/* Restores the terminal, then lets the signal do what it would have done (core dump,
 * or a sanitizer's report) by reinstalling the previous action and re-raising. */
static void on_fatal_signal(int sig)
{
    if (g_active)
        endwin(); /* not async-signal-safe, but the process is dying (as htop) */
    g_active = false;
    for (size_t i = 0; i < NFATAL; i++)
        if (k_fatal_signals[i] == sig)
            sigaction(sig, &g_old_fatal[i], NULL);
    raise(sig);
}

static void install_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_quit_signal; /* no SA_RESTART: getch returns so the loop sees it */
    for (size_t i = 0; i < NQUIT; i++)
        sigaction(k_quit_signals[i], &sa, &g_old_quit[i]);
    sa.sa_handler = on_fatal_signal;
    sa.sa_flags = SA_RESETHAND;
    for (size_t i = 0; i < NFATAL; i++)
        sigaction(k_fatal_signals[i], &sa, &g_old_fatal[i]);
}

static void restore_signals(void)
{
    for (size_t i = 0; i < NQUIT; i++)
        sigaction(k_quit_signals[i], &g_old_quit[i], NULL);
    for (size_t i = 0; i < NFATAL; i++)
        sigaction(k_fatal_signals[i], &g_old_fatal[i], NULL);
}

static void setup_colors(void)
{
    const char *nc = getenv("NO_COLOR"); /* https://no-color.org: set and non-empty */
    g_color = !(nc && *nc) && has_colors() && start_color() == OK;
    if (!g_color) {
        g_role_attr[TC_NORMAL] = A_NORMAL;
        g_role_attr[TC_TITLE] = A_REVERSE | A_BOLD;
        g_role_attr[TC_STATUS] = A_REVERSE;
        g_role_attr[TC_BORDER] = A_NORMAL;
        g_role_attr[TC_HEADING] = A_BOLD;
        g_role_attr[TC_SELECTED] = A_REVERSE;
        g_role_attr[TC_DIM] = A_DIM;
        g_role_attr[TC_GOOD] = A_BOLD;
        g_role_attr[TC_BAD] = A_BOLD | A_UNDERLINE;
        g_role_attr[TC_WARN] = A_UNDERLINE;
        g_role_attr[TC_FAULTLINE] = A_REVERSE;
        g_role_attr[TC_KEY] = A_BOLD;
        g_role_attr[TC_CODE_KW] = A_BOLD;
        g_role_attr[TC_CODE_TYPE] = A_BOLD;
        g_role_attr[TC_CODE_BUILTIN] = A_UNDERLINE;
        g_role_attr[TC_CODE_COMMENT] = A_DIM;
        g_role_attr[TC_CODE_STRING] = A_NORMAL;
        g_role_attr[TC_CODE_NUMBER] = A_NORMAL;
        g_role_attr[TC_CODE_PREPROC] = A_BOLD;
        g_role_attr[TC_ERRMARK] = A_BOLD | A_REVERSE;
        g_role_attr[TC_MAPSEL] = A_BOLD | A_UNDERLINE | A_REVERSE;
        g_palette_n = 8;
        for (int i = 0; i < g_palette_n; i++)
            g_pal_attr[i] = (i % 2) ? A_REVERSE : A_NORMAL;
        return;
    }
    use_default_colors();
    int bg = -1;
    struct {
        term_color role;
        short fg, bg;
        int extra;
    } roles[] = {
        {TC_TITLE, COLOR_BLACK, COLOR_CYAN, A_BOLD},
        {TC_STATUS, COLOR_BLACK, COLOR_WHITE, 0},
        {TC_BORDER, COLOR_BLUE, -1, 0},
        {TC_HEADING, COLOR_CYAN, -1, A_BOLD},
        {TC_SELECTED, COLOR_BLACK, COLOR_CYAN, 0},
        {TC_DIM, COLOR_WHITE, -1, A_DIM},
        {TC_GOOD, COLOR_GREEN, -1, A_BOLD},
        {TC_BAD, COLOR_RED, -1, A_BOLD},
        {TC_WARN, COLOR_YELLOW, -1, 0},
        {TC_FAULTLINE, COLOR_WHITE, COLOR_RED, A_BOLD},
        {TC_KEY, COLOR_YELLOW, -1, A_BOLD},
        {TC_CODE_KW, COLOR_MAGENTA, -1, A_BOLD},
        {TC_CODE_TYPE, COLOR_CYAN, -1, 0},
        {TC_CODE_BUILTIN, COLOR_YELLOW, -1, 0},
        {TC_CODE_COMMENT, COLOR_GREEN, -1, 0},
        {TC_CODE_STRING, COLOR_RED, -1, 0},
        {TC_CODE_NUMBER, COLOR_BLUE, -1, A_BOLD},
        {TC_CODE_PREPROC, COLOR_MAGENTA, -1, 0},
        {TC_ERRMARK, COLOR_WHITE, COLOR_RED, A_BOLD},
        {TC_MAPSEL, COLOR_WHITE, COLOR_BLACK, A_BOLD | A_UNDERLINE},
    };
    g_role_attr[TC_NORMAL] = A_NORMAL;
    for (size_t i = 0; i < sizeof roles / sizeof roles[0]; i++) {
        short pair = (short)roles[i].role;
        init_pair(pair, roles[i].fg, roles[i].bg == -1 ? (short)bg : roles[i].bg);
        g_role_attr[roles[i].role] = (int)COLOR_PAIR(pair) | roles[i].extra;
    }
    /* Map palette: well-separated backgrounds with black or white text. */
    if (COLORS >= 256 && COLOR_PAIRS > PAL_BASE + PAL_MAX) {
        static const short bgs[PAL_MAX] = {160, 208, 178, 70, 37, 33, 98, 169, 130, 66, 142, 61};
        static const short fgs[PAL_MAX] = {231, 16, 16, 16, 16, 231, 231, 16, 231, 231, 16, 231};
        g_palette_n = PAL_MAX;
        for (int i = 0; i < PAL_MAX; i++) {
            init_pair((short)(PAL_BASE + i), fgs[i], bgs[i]);
            g_pal_attr[i] = (int)COLOR_PAIR(PAL_BASE + i);
        }
    } else {
        static const short bgs[6] = {COLOR_RED,  COLOR_GREEN,   COLOR_YELLOW,
                                     COLOR_BLUE, COLOR_MAGENTA, COLOR_CYAN};
        static const short fgs[6] = {COLOR_WHITE, COLOR_BLACK, COLOR_BLACK,
                                     COLOR_WHITE, COLOR_BLACK, COLOR_BLACK};
        g_palette_n = 6;
        for (int i = 0; i < 6; i++) {
            init_pair((short)(PAL_BASE + i), fgs[i], bgs[i]);
            g_pal_attr[i] = (int)COLOR_PAIR(PAL_BASE + i);
        }
    }
}

bool term_init(char *msg, size_t msg_len)
{
    if (g_active)
        return true;
    setlocale(LC_ALL, "");
    const char *cs = nl_langinfo(CODESET);
    g_glyphs = (cs && strcmp(cs, "UTF-8") == 0) ? &k_utf8 : &k_ascii;
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
        snprintf(msg, msg_len, "the TUI needs a terminal (try `gpulearn list` or `gpulearn run`)");
        return false;
    }
    const char *term = getenv("TERM");
    g_screen = newterm(NULL, stdout, stdin);
    if (!g_screen) {
        snprintf(msg, msg_len, "cannot initialise the terminal (TERM=%s)", term ? term : "");
        return false;
    }
    g_active = true;
    g_quit_signal = 0;
    static bool registered;
    if (!registered)
        atexit(term_end); /* a library calling exit() still restores */
    registered = true;
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    curs_set(0);
    set_escdelay(25);
    setup_colors();
    const char *nm = getenv("GPULEARN_NO_MOUSE");
    g_mouse = !(nm && *nm && strcmp(nm, "0") != 0) &&
              mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED, NULL) != 0;
    if (g_mouse)
        mouseinterval(0); /* report presses at once, no click detection delay */
    install_signals();
    return true;
}

void term_end(void)
{
    if (!g_active)
        return;
    endwin();
    g_active = false;
    restore_signals();
    if (g_screen) {
        delscreen(g_screen);
        g_screen = NULL;
    }
}

int term_quit_signal(void)
{
    return (int)g_quit_signal;
}

bool term_take_interrupt(void)
{
    if (g_quit_signal != SIGINT)
        return false;
    g_quit_signal = 0;
    return true;
}

void term_suspend(void)
{
    if (!g_active)
        return;
    def_prog_mode();
    endwin();
    fflush(stdout);
}

void term_resume(void)
{
    if (!g_active)
        return;
    reset_prog_mode();
    keypad(stdscr, TRUE);
    curs_set(0);
    clearok(curscr, TRUE);
    refresh();
}
void term_raw_keys(bool on)
{
    static struct termios saved;
    static bool have_saved;
    if (!g_active)
        return;
    if (on) {
        have_saved = tcgetattr(STDIN_FILENO, &saved) == 0;
        raw(); /* ncurses: ICANON, ISIG, IEXTEN and IXON off */
        struct termios t;
        if (tcgetattr(STDIN_FILENO, &t) == 0) { /* say so explicitly, whatever the curses */
            t.c_iflag &= ~(tcflag_t)(IXON | IXOFF);
            t.c_lflag &= ~(tcflag_t)(ISIG | IEXTEN | ICANON);
            tcsetattr(STDIN_FILENO, TCSANOW, &t);
            def_prog_mode(); /* curses' idea of the program's modes follows */
        }
    } else if (have_saved) {
        tcsetattr(STDIN_FILENO, TCSANOW, &saved);
        def_prog_mode();
        have_saved = false;
    } else {
        noraw();
        cbreak();
    }
}

int term_attr(term_color c)
{
    return (c >= 0 && c < TC__COUNT) ? g_role_attr[c] : (int)A_NORMAL;
}
bool term_has_color(void)
{
    return g_color;
}
int term_palette_size(void)
{
    return g_palette_n > 0 ? g_palette_n : 8;
}
int term_palette_attr(int i)
{
    return g_pal_attr[((i % term_palette_size()) + term_palette_size()) % term_palette_size()];
}
char term_palette_char(int i)
{
    return "0123456789abcdef"[(unsigned)i % 16u];
}
const term_glyphs *term_glyph(void)
{
    return g_glyphs;
}

/* ------------------------------------------------------------ quiet output */

static int g_saved_out = -1, g_saved_err = -1;
static FILE *g_capture;

void term_quiet_begin(void)
{
    if (g_capture)
        return;
    fflush(stdout);
    fflush(stderr);
    g_capture = tmpfile();
    if (!g_capture)
        return;
    g_saved_out = dup(STDOUT_FILENO);
    g_saved_err = dup(STDERR_FILENO);
    dup2(fileno(g_capture), STDOUT_FILENO);
    dup2(fileno(g_capture), STDERR_FILENO);
}

char *term_quiet_end(void)
{
    if (!g_capture)
        return NULL;
    fflush(stdout);
    fflush(stderr);
    if (g_saved_out >= 0)
        dup2(g_saved_out, STDOUT_FILENO), close(g_saved_out);
    if (g_saved_err >= 0)
        dup2(g_saved_err, STDERR_FILENO), close(g_saved_err);
    g_saved_out = g_saved_err = -1;
    char *text = NULL;
    long len = (fseek(g_capture, 0, SEEK_END) == 0) ? ftell(g_capture) : -1;
    if (len > 0 && fseek(g_capture, 0, SEEK_SET) == 0) {
        if (len > 65536)
            len = 65536;
        text = malloc((size_t)len + 1);
        if (text) {
            size_t got = fread(text, 1, (size_t)len, g_capture);
            text[got] = '\0';
            if (got == 0) {
                free(text);
                text = NULL;
            }
        }
    }
    fclose(g_capture);
    g_capture = NULL;
    return text;
}
