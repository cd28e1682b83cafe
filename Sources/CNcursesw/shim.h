// SwiftPM drops the -D flags of ncursesw.pc, so the wide-character API is switched on here,
// before the header is read.
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <locale.h>
#include <wchar.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <sys/ioctl.h>
#include <pthread.h>
#include <ncursesw/curses.h>

// Macros and globals that Swift cannot import (or that Swift 6 rejects as shared mutable state).
static inline WINDOW *nc_stdscr(void) { return stdscr; }
static inline int nc_lines(void) { return LINES; }
static inline int nc_cols(void) { return COLS; }
static inline int nc_colors(void) { return COLORS; }
static inline int nc_color_pairs(void) { return COLOR_PAIRS; }
static inline attr_t nc_a_normal(void) { return A_NORMAL; }
static inline attr_t nc_a_bold(void) { return A_BOLD; }
static inline attr_t nc_a_dim(void) { return A_DIM; }
static inline attr_t nc_a_reverse(void) { return A_REVERSE; }
static inline attr_t nc_a_underline(void) { return A_UNDERLINE; }
static inline attr_t nc_a_italic(void) { return A_ITALIC; }
static inline int nc_key_f(int n) { return KEY_F(n); }
static inline mmask_t nc_all_mouse_events(void) { return ALL_MOUSE_EVENTS; }
static inline mmask_t nc_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t nc_button1_released(void) { return BUTTON1_RELEASED; }
static inline mmask_t nc_button1_clicked(void) { return BUTTON1_CLICKED; }
static inline mmask_t nc_button4_pressed(void) { return BUTTON4_PRESSED; }
static inline mmask_t nc_button5_pressed(void) { return BUTTON5_PRESSED; }

/// Writes one cell: a grapheme given as up to 5 wide characters, with attributes and a colour pair.
static inline int nc_put_cell(int y, int x, const wchar_t *wch, attr_t attrs, short pair) {
    cchar_t cc;
    if (setcchar(&cc, wch, attrs, pair, NULL) != OK) return ERR;
    return mvadd_wch(y, x, &cc);
}

/// Ctrl-Z (the console reads keys raw, so it arrives as a key, not as the signal): leaves curses
/// mode, which gives the shell its terminal modes and main screen back, then stops the process
/// as job control expects (SIGTSTP with its default action, whatever handler curses installed).
/// Returns once the shell continues it (`fg`, SIGCONT): curses mode again, at the size the
/// terminal has now (it may have been resized meanwhile), with the next refresh repainting
/// every cell. In an orphaned process group the kernel drops the signal and this returns at once.
static inline void nc_suspend(void) {
    endwin();
    fflush(stdout);
    struct sigaction fallback, previous;
    memset(&fallback, 0, sizeof fallback);
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    sigaction(SIGTSTP, &fallback, &previous);
    sigset_t tstp, mask;
    sigemptyset(&tstp);
    sigaddset(&tstp, SIGTSTP);
    pthread_sigmask(SIG_UNBLOCK, &tstp, &mask);
    raise(SIGTSTP);
    pthread_sigmask(SIG_SETMASK, &mask, NULL);
    sigaction(SIGTSTP, &previous, NULL);
    struct winsize size;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_row > 0 && size.ws_col > 0) {
        resize_term(size.ws_row, size.ws_col);
    }
    reset_prog_mode();
    clearok(stdscr, TRUE);
    erase();
    refresh();
}

/// Writes raw bytes to the terminal (used for private mode sequences ncurses does not emit).
static inline void nc_write_raw(const char *s) {
    fputs(s, stdout);
    fflush(stdout);
}

// Reading the virtual screen back (used by tests of the real backend; harmless elsewhere).

/// The colour-pair bits of an attribute word, to separate attributes from the pair.
static inline attr_t nc_a_color(void) { return A_COLOR; }

/// Reads one cell of `win`: its text (up to CCHARW_MAX wide characters, then a 0, so `text`
/// needs CCHARW_MAX + 1 elements), its attributes without the colour bits, and its colour pair.
/// Returns OK, or ERR when (y, x) is outside the window.
static inline int nc_read_cell(WINDOW *win, int y, int x, wchar_t *text, attr_t *attrs, short *pair) {
    cchar_t cc;
    if (mvwin_wch(win, y, x, &cc) == ERR) return ERR;
    if (getcchar(&cc, text, attrs, pair, NULL) == ERR) return ERR;
    *attrs &= ~A_COLOR;
    return OK;
}

/// Reads at most `n` characters of row `y` of `win` from column 0 into `text` (0-terminated,
/// so `text` needs n + 1 elements); the right half of a wide character is not repeated.
static inline int nc_read_row(WINDOW *win, int y, wchar_t *text, int n) {
    return mvwinnwstr(win, y, 0, text, n);
}
