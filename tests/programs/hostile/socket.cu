// A graded program that opens a network socket: stopped at the call.
#include <cstdio>
#include <netinet/in.h>
#include <sys/socket.h>

int main()
{
    printf("connecting\n");
    int s = socket(AF_INET, SOCK_STREAM, 0);
    printf("socket %d\n", s);
    return 0;
}
