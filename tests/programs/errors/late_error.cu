// A compile error on line 30, below what a pane shows at first: the TUI opens the
// source at it, the line marked with the message (tests/tui_program.sh).
#include <cstdio>

// (line 5)
// (line 6)
// (line 7)
// (line 8)
// (line 9)
// (line 10)
// (line 11)
// (line 12)
// (line 13)
// (line 14)
// (line 15)
// (line 16)
// (line 17)
// (line 18)
// (line 19)
// (line 20)
// (line 21)
// (line 22)
// (line 23)
// (line 24)
// (line 25)
// (line 26)
// (line 27)
// (line 28)
__global__ void k(int *p)
{ p[0] = missing_name; }
int main(void) { return 0; }
