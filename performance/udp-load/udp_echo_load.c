/* UDP echo load client: C clients (one connected UDP socket each) keep M datagrams of S bytes in flight against
 * an echo server, count echoed datagrams per second and the ones written off as lost, and print one JSON line.
 * A client that hears nothing for W ms writes off what it has in flight and sends M again, so loss cannot stall it.
 * Build: cc -O2 -o udp_echo_load udp_echo_load.c
 * Usage: udp_echo_load -h 127.0.0.1 -p 3333 -c 100 -m 10 -s 32 -z 10 [-w 200]
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

typedef struct { int fd; int outstanding; double last; } client_t;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    const char *host = "127.0.0.1";
    int port = 3333, clients = 100, inflight = 10, size = 32, seconds = 10, writeoff_ms = 200;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "-h")) host = argv[i + 1];
        else if (!strcmp(argv[i], "-p")) port = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-c")) clients = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-m")) inflight = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-s")) size = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-z")) seconds = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-w")) writeoff_ms = atoi(argv[i + 1]);
        else { fprintf(stderr, "unknown option %s\n", argv[i]); return 2; }
    }
    if (clients < 1 || inflight < 1 || size < 1 || size > 65000 || seconds < 1) { fprintf(stderr, "bad arguments\n"); return 2; }
    struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(port) };
    if (inet_pton(AF_INET, host, &to.sin_addr) != 1) { fprintf(stderr, "bad host %s\n", host); return 2; }
    client_t *c = calloc(clients, sizeof(client_t));
    char *out = malloc(size), *in = malloc(65536);
    memset(out, 'x', size);
    int ep = epoll_create1(0);
    double start = now();
    uint64_t sent = 0, received = 0, lost = 0, bad = 0, errors = 0;
    for (int i = 0; i < clients; i++) {
        c[i].fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
        if (c[i].fd < 0 || connect(c[i].fd, (struct sockaddr *)&to, sizeof to) < 0) { perror("socket/connect"); return 1; }
        struct epoll_event ev = { .events = EPOLLIN, .data.u32 = i };
        epoll_ctl(ep, EPOLL_CTL_ADD, c[i].fd, &ev);
        for (int k = 0; k < inflight; k++) {
            if (send(c[i].fd, out, size, 0) == size) { sent++; c[i].outstanding++; } else errors++;
        }
        c[i].last = start;
    }
    struct epoll_event evs[256];
    double end = start + seconds, next_check = start + writeoff_ms / 1000.0;
    while (1) {
        double t = now();
        if (t >= end) break;
        int n = epoll_wait(ep, evs, 256, 5);
        t = now();
        for (int k = 0; k < n; k++) {
            client_t *cl = &c[evs[k].data.u32];
            for (int burst = 0; burst < 64; burst++) {
                ssize_t r = recv(cl->fd, in, 65536, 0);
                if (r < 0) { if (errno != EAGAIN && errno != EWOULDBLOCK && errno != ECONNREFUSED) errors++; break; }
                if (r != size) bad++;
                received++;
                cl->last = t;
                if (cl->outstanding > 0) cl->outstanding--;
                if (send(cl->fd, out, size, 0) == size) { sent++; cl->outstanding++; } else errors++;
            }
        }
        if (t >= next_check) {
            next_check = t + writeoff_ms / 1000.0;
            for (int i = 0; i < clients; i++) {
                if (t - c[i].last < writeoff_ms / 1000.0) continue;
                lost += c[i].outstanding;
                c[i].outstanding = 0;
                c[i].last = t;
                for (int k = 0; k < inflight; k++)
                    if (send(c[i].fd, out, size, 0) == size) { sent++; c[i].outstanding++; } else errors++;
            }
        }
    }
    double elapsed = now() - start;
    printf("{\"clients\":%d,\"inflight\":%d,\"size\":%d,\"seconds\":%.3f,\"sent\":%llu,\"received\":%llu,\"lost\":%llu,"
           "\"corrupt\":%llu,\"errors\":%llu,\"msg_per_s\":%.1f}\n", clients, inflight, size, elapsed,
           (unsigned long long)sent, (unsigned long long)received, (unsigned long long)lost, (unsigned long long)bad,
           (unsigned long long)errors, received / elapsed);
    return bad ? 1 : 0;
}
