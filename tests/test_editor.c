/* test_editor.c — the built-in editor's text buffer (tui/editor.h): edits, auto-indent,
 * joining lines, undo/redo groups, the wanted column, search, and the atomic save.
 * Edits are tables: a starting text and cursor, a script of keys, the exact text and
 * cursor expected. Run from the repository root. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/gl.h"
#include "tui/editor.h"

/* ------------------------------------------------------------------ helpers */

/* Runs a script on b. Characters are typed; "~" starts a key:
 * ~N Enter  ~B Backspace  ~D Delete  ~T Tab  ~U undo  ~Y redo  ~b end the typing run
 * ~l ~r ~u ~d left right up down  ~h ~e Home End  ~t ~z top/bottom of the text  ~~ a '~' */
static void run_script(ed_buf *b, const char *script)
{
    for (const char *p = script; *p; p++) {
        if (*p != '~') {
            ck_assert(ed_buf_insert_char(b, *p));
            continue;
        }
        switch (*++p) {
        case 'N': ck_assert(ed_buf_newline(b)); break;
        case 'B': ed_buf_backspace(b); break;
        case 'D': ed_buf_delete(b); break;
        case 'T': ck_assert(ed_buf_insert_text(b, "    ", ED_INDENT_COLS)); break;
        case 'U': ed_buf_undo(b); break;
        case 'Y': ed_buf_redo(b); break;
        case 'b': ed_buf_break_group(b); break;
        case 'l': ed_buf_move(b, ED_LEFT); break;
        case 'r': ed_buf_move(b, ED_RIGHT); break;
        case 'u': ed_buf_move(b, ED_UP); break;
        case 'd': ed_buf_move(b, ED_DOWN); break;
        case 'h': ed_buf_move(b, ED_HOME); break;
        case 'e': ed_buf_move(b, ED_END); break;
        case 't': ed_buf_move(b, ED_TOP); break;
        case 'z': ed_buf_move(b, ED_BOTTOM); break;
        case '~': ck_assert(ed_buf_insert_char(b, '~')); break;
        default: ck_abort_msg("bad script key ~%c", *p);
        }
    }
}

static void assert_text(const ed_buf *b, const char *want)
{
    size_t len;
    char *got = ed_buf_text(b, &len);
    ck_assert_ptr_nonnull(got);
    ck_assert_str_eq(got, want);
    ck_assert_uint_eq(len, strlen(want));
    free(got);
}

static void assert_cursor(const ed_buf *b, size_t row, size_t col)
{
    size_t r, c;
    ed_buf_cursor(b, &r, &c);
    ck_assert_msg(r == row && c == col, "cursor %zu:%zu, want %zu:%zu", r, c, row, col);
}

/* A fresh temporary folder (caller removes it with rm_tree). */
static void make_dir(char *dir, size_t len)
{
    snprintf(dir, len, "/tmp/test_editor.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            n++;
    closedir(d);
    return n;
}

static void rm_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char p[512];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        unlink(p);
    }
    closedir(d);
    rmdir(dir);
}

static void write_file(const char *path, const char *text, mode_t mode)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    ck_assert_int_eq(chmod(path, mode), 0);
}

static char *read_all(const char *path)
{
    gl_error err = {0};
    char *t = gl_read_file(path, NULL, &err);
    ck_assert_msg(t != NULL, "%s", err.msg);
    return t;
}

/* ------------------------------------------------------------ edits as data */

typedef struct edit_case {
    const char *name;
    const char *text;   /* the starting text */
    size_t row, col;    /* the starting cursor */
    const char *script; /* run_script's keys */
    const char *want;   /* the exact text after */
    size_t wrow, wcol;  /* the cursor after */
    int modified;       /* ed_buf_modified after */
} edit_case;

static const edit_case k_edits[] = {
    {"typing into an empty buffer", "", 0, 0, "abc", "abc\n", 0, 3, 1},
    {"typing in the middle of a line", "hello\n", 0, 2, "XY", "heXYllo\n", 0, 4, 1},
    {"a text without a final newline keeps it so", "a\nb", 1, 1, "c", "a\nbc", 1, 2, 1},
    {"Enter copies the line's indentation", "    int x;\n", 0, 10, "~Ny = 1;",
     "    int x;\n    y = 1;\n", 1, 10, 1},
    {"Enter copies a tab indentation", "\tif (a)\n", 0, 7, "~N", "\tif (a)\n\t\n", 1, 1, 1},
    {"Enter inside the indentation copies only what lies before the cursor", "    x\n", 0, 2, "~N",
     "  \n    x\n", 1, 2, 1},
    {"Enter in the middle of a line splits it", "ab cd\n", 0, 2, "~N", "ab\n cd\n", 1, 0, 1},
    {"Tab inserts four spaces", "x\n", 0, 0, "~T", "    x\n", 0, 4, 1},
    {"Backspace deletes the character before the cursor", "abc\n", 0, 2, "~B", "ac\n", 0, 1, 1},
    {"Backspace at a line's start joins it to the previous line", "ab\ncd\n", 1, 0, "~B", "abcd\n",
     0, 2, 1},
    {"Backspace at the start of the text does nothing", "ab\n", 0, 0, "~B", "ab\n", 0, 0, 0},
    {"Delete at a line's end joins the next line", "ab\ncd\n", 0, 2, "~D", "abcd\n", 0, 2, 1},
    {"Delete at the end of the text does nothing", "ab\n", 0, 2, "~D", "ab\n", 0, 2, 0},
    {"Delete deletes forward", "hello\n", 0, 0, "~D~D", "llo\n", 0, 0, 1},
    {"Backspace deletes a whole UTF-8 character", "a\xc3\xa9z\n", 0, 0, "~r~r~B", "az\n", 0, 1, 1},
    {"Left at a line's start goes to the end of the previous line", "ab\ncd\n", 1, 0, "~lX",
     "abX\ncd\n", 0, 3, 1},
    {"Up and Down keep the wanted column across a short line", "abcdef\nab\nabcdef\n", 0, 5,
     "~d~dX", "abcdef\nab\nabcdeXf\n", 2, 6, 1},
    {"Down on a shorter line stops at its end", "abcdef\nab\n", 0, 5, "~dX", "abcdef\nabX\n", 1, 3,
     1},
    {"Home and End", "  ab\n", 0, 2, "~eX~hY", "Y  abX\n", 0, 1, 1},
    {"top and bottom of the text", "ab\ncd\n", 0, 1, "~zX~tY", "Yab\ncdX\n", 0, 1, 1},

    /* undo and redo */
    {"undo takes back a whole typing run", "x\n", 0, 1, "abc~U", "x\n", 0, 1, 0},
    {"a move ends the typing run", "", 0, 0, "abc~hXY~U", "abc\n", 0, 0, 1},
    {"undo twice takes back both runs", "", 0, 0, "abc~hXY~U~U", "", 0, 0, 0},
    {"redo puts the runs back, the cursor after them", "", 0, 0, "abc~hXY~U~U~Y~Y", "XYabc\n", 0, 2,
     1},
    {"a new edit drops what could be redone", "", 0, 0, "abc~Ux~Y", "x\n", 0, 1, 1},
    {"Enter is an undo group of its own", "", 0, 0, "ab~Ncd~U", "ab\n\n", 1, 0, 1},
    {"undoing Enter joins the lines again", "  a\n", 0, 3, "~Nb~U~U", "  a\n", 0, 3, 0},
    {"a run of backspaces is one group", "hello\n", 0, 5, "~B~B~B~U", "hello\n", 0, 5, 0},
    {"undoing a joining backspace splits the lines again", "ab\ncd\n", 1, 0, "~B~U", "ab\ncd\n", 1,
     0, 0},
    {"a run of deletes is one group", "hello\n", 0, 0, "~D~D~U", "hello\n", 0, 0, 0},
    {"typing then backspacing are two groups", "", 0, 0, "abcd~B~B~U", "abcd\n", 0, 4, 1},
    {"undo with nothing to undo does nothing", "ab\n", 0, 1, "~U~U", "ab\n", 0, 1, 0},
    {"a broken run undoes in two steps", "", 0, 0, "ab~bcd~U", "ab\n", 0, 2, 1},
    {"redo of a join joins again", "ab\ncd\n", 1, 0, "~B~U~Y", "abcd\n", 0, 2, 1},
    {"undo and redo of a multi-line mix", "int f()\n{\n}\n", 1, 1, "~N x = 1;~N~Ty;~U~U~U~Y~Y",
     "int f()\n{\n x = 1;\n \n}\n", 3, 1, 1},
};

START_TEST(test_edit_scripts_give_the_exact_text_and_cursor)
{
    const edit_case *c = &k_edits[_i];
    ed_buf *b = ed_buf_new(c->text, strlen(c->text));
    ck_assert_ptr_nonnull(b);
    ed_buf_set_cursor(b, c->row, c->col);
    run_script(b, c->script);
    size_t len;
    char *got = ed_buf_text(b, &len);
    ck_assert_msg(strcmp(got, c->want) == 0, "%s: got \"%s\", want \"%s\"", c->name, got, c->want);
    free(got);
    size_t r, col;
    ed_buf_cursor(b, &r, &col);
    ck_assert_msg(r == c->wrow && col == c->wcol, "%s: cursor %zu:%zu, want %zu:%zu", c->name, r,
                  col, c->wrow, c->wcol);
    ck_assert_msg(ed_buf_modified(b) == (c->modified != 0), "%s: modified %d, want %d", c->name,
                  ed_buf_modified(b), c->modified);
    ed_buf_free(b);
}
END_TEST

/* ------------------------------------------------------------------ others */

START_TEST(test_lines_and_display_columns_expand_tabs_to_four)
{
    const char *t = "a\tb\n\t\tx\n\xc3\xa9t\n";
    ed_buf *b = ed_buf_new(t, strlen(t));
    ck_assert_uint_eq(ed_buf_nlines(b), 3);
    size_t len;
    ck_assert_str_eq(ed_buf_line(b, 0, &len), "a\tb");
    ck_assert_uint_eq(len, 3);
    ck_assert_ptr_null(ed_buf_line(b, 3, NULL));
    ck_assert_uint_eq(ed_buf_rx(b, 0, 1), 1);
    ck_assert_uint_eq(ed_buf_rx(b, 0, 2), 4); /* after the tab */
    ck_assert_uint_eq(ed_buf_rx(b, 1, 2), 8);
    ck_assert_uint_eq(ed_buf_rx(b, 2, 2), 1); /* é is one column */
    /* a click at display column 2 lands on the tab that covers it */
    ed_buf_set_cursor_rx(b, 0, 2);
    assert_cursor(b, 0, 1);
    ed_buf_set_cursor_rx(b, 0, 99);
    assert_cursor(b, 0, 3);
    ed_buf_set_cursor(b, 2, 1); /* inside é: back to its start */
    assert_cursor(b, 2, 0);
    ed_buf_free(b);
}
END_TEST

START_TEST(test_find_goes_forward_and_back_and_wraps)
{
    const char *t = "int i;\nfor (i = 0;;)\n  i++;\n";
    ed_buf *b = ed_buf_new(t, strlen(t));
    size_t r, c;
    ck_assert(ed_buf_find(b, "i", 1, 0, 1, true, &r, &c)); /* "int": i at 0 is before col 1 */
    ck_assert(r == 0 && c == 4);
    ck_assert(ed_buf_find(b, "i", 1, 0, 5, true, &r, &c));
    ck_assert(r == 1 && c == 5);
    ck_assert(ed_buf_find(b, "i++", 3, 0, 0, true, &r, &c));
    ck_assert(r == 2 && c == 2);
    ck_assert(ed_buf_find(b, "int", 3, 1, 0, true, &r, &c)); /* wraps to the top */
    ck_assert(r == 0 && c == 0);
    ck_assert(ed_buf_find(b, "i", 1, 1, 5, false, &r, &c)); /* strictly before 1:5 */
    ck_assert(r == 0 && c == 4);
    ck_assert(ed_buf_find(b, "i++", 3, 0, 0, false, &r, &c)); /* wraps to the bottom */
    ck_assert(r == 2 && c == 2);
    ck_assert(!ed_buf_find(b, "while", 5, 0, 0, true, &r, &c));
    ck_assert(!ed_buf_find(b, "", 0, 0, 0, true, &r, &c));
    assert_cursor(b, 0, 0); /* find does not move the cursor */
    ed_buf_free(b);
}
END_TEST

START_TEST(test_save_is_atomic_keeps_the_mode_and_reloads_exactly)
{
    char dir[64], path[128];
    make_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/exercise.cu", dir);
    write_file(path, "__global__ void k(int *c)\n{\n    c[0] = 1;\n}\n", 0640);
    struct stat before, after;
    ck_assert_int_eq(stat(path, &before), 0);

    gl_error err = {0};
    ed_buf *b = NULL;
    ck_assert_int_eq(ed_buf_load(path, &b, &err), GL_OK);
    ck_assert(!ed_buf_modified(b));
    ed_buf_set_cursor(b, 2, 14);
    run_script(b, "~N~Tc[1] = 2;");
    ck_assert(ed_buf_modified(b));
    ck_assert_int_eq(ed_buf_save(b, path, &err), GL_OK);
    ck_assert(!ed_buf_modified(b));

    const char *want = "__global__ void k(int *c)\n{\n    c[0] = 1;\n        c[1] = 2;\n}\n";
    char *disk = read_all(path);
    ck_assert_str_eq(disk, want);
    free(disk);
    ck_assert_int_eq(stat(path, &after), 0);
    ck_assert_uint_eq(after.st_mode & 07777, 0640);
    ck_assert_msg(after.st_ino != before.st_ino, "saved in place, not by renaming a new file");
    ck_assert_int_eq(count_entries(dir), 1); /* no temporary file left behind */

    /* undo after the save: modified again; redo back to the saved text: not modified */
    ed_buf_undo(b);
    ck_assert(ed_buf_modified(b));
    ed_buf_redo(b);
    ck_assert(!ed_buf_modified(b));

    ed_buf *again = NULL;
    ck_assert_int_eq(ed_buf_load(path, &again, &err), GL_OK);
    assert_text(again, want);
    ck_assert_uint_eq(ed_buf_nlines(again), 5);
    ed_buf_free(again);
    ed_buf_free(b);
    rm_tree(dir);
}
END_TEST

START_TEST(test_typing_after_a_save_starts_a_new_undo_group)
{
    char dir[64], path[128];
    make_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/k.cu", dir);
    write_file(path, "", 0600);
    gl_error err = {0};
    ed_buf *b = NULL;
    ck_assert_int_eq(ed_buf_load(path, &b, &err), GL_OK);
    run_script(b, "ab");
    ck_assert_int_eq(ed_buf_save(b, path, &err), GL_OK);
    run_script(b, "cd");
    ck_assert(ed_buf_modified(b));
    ed_buf_undo(b);
    assert_text(b, "ab\n");
    ck_assert(!ed_buf_modified(b));
    char *disk = read_all(path);
    ck_assert_str_eq(disk, "ab\n");
    free(disk);
    ed_buf_free(b);
    rm_tree(dir);
}
END_TEST

START_TEST(test_a_failed_save_reports_the_file_and_changes_nothing)
{
    char dir[64], path[160];
    make_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/missing-folder/k.cu", dir);
    ed_buf *b = ed_buf_new("x\n", 2);
    run_script(b, "y");
    gl_error err = {0};
    ck_assert_int_eq(ed_buf_save(b, path, &err), GL_ERR_INPUT);
    ck_assert_msg(strstr(err.msg, path) != NULL, "message \"%s\" does not name the file", err.msg);
    ck_assert(ed_buf_modified(b));
    ck_assert_int_eq(count_entries(dir), 0);
    ed_buf_free(b);
    rm_tree(dir);
}
END_TEST

START_TEST(test_loading_a_missing_file_names_it)
{
    gl_error err = {0};
    ed_buf *b = (ed_buf *)1;
    ck_assert_int_eq(ed_buf_load("/nonexistent/dir/k.cu", &b, &err), GL_ERR_INPUT);
    ck_assert_ptr_null(b);
    ck_assert_msg(strstr(err.msg, "/nonexistent/dir/k.cu") != NULL, "message: %s", err.msg);
}
END_TEST

static Suite *editor_suite(void)
{
    Suite *s = suite_create("editor");
    TCase *tc = tcase_create("editor");
    tcase_add_loop_test(tc, test_edit_scripts_give_the_exact_text_and_cursor, 0,
                        (int)(sizeof k_edits / sizeof k_edits[0]));
    tcase_add_test(tc, test_lines_and_display_columns_expand_tabs_to_four);
    tcase_add_test(tc, test_find_goes_forward_and_back_and_wraps);
    tcase_add_test(tc, test_save_is_atomic_keeps_the_mode_and_reloads_exactly);
    tcase_add_test(tc, test_typing_after_a_save_starts_a_new_undo_group);
    tcase_add_test(tc, test_a_failed_save_reports_the_file_and_changes_nothing);
    tcase_add_test(tc, test_loading_a_missing_file_names_it);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(editor_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
