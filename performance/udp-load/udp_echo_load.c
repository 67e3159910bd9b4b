// udp_echo_load: a UDP echo load client in C, cheap enough to leave the CPU to the server under test.
// C sockets (each connected to the server) keep M datagrams of S bytes in flight: every echo lets one more go out.
// The rules are those of performance/EchoClient over udp, so figures compare with it: each datagram carries its send
// time in its first 8 bytes; a socket that has heard nothing for 100 ms, or for four smoothed round trips if longer,
// writes its whole window off as lost and sends a fresh one (the lost figure is an upper bound). T threads share the
// sockets; each waits on its own epoll set and moves datagrams in batches (recvmmsg / sendmmsg).
//   cc -O2 -pthread -o udp_echo_load udp_echo_load.c
//   udp_echo_load -h 127.0.0.1 -p 3333 -c 100 -m 100 -s 32 -z 10 -t 1
// Prints one JSON line. Exit status: 0 ok, 1 socket error, 2 an echo that was not what was sent.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { BATCH = 32, MAXSIZE = 65507 };

typedef struct {
    int fd;
    int64_t last_progress;  // ns: last echo, or last window sent
    int64_t srtt;           // ns, smoothed as TCP does (RFC 6298: 1/8 of each sample)
} sock_t;

typedef struct {
    int first, step;
    uint64_t received, lost, corrupt, send_errors;
} worker_t;

static const char *g_host = "127.0.0.1";
static int g_port = 3333, g_clients = 100, g_window = 100, g_size = 32, g_threads = 1;
static double g_seconds = 10;
static sock_t *g_socks;
static int64_t g_end;

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static inline uint8_t pattern(int i) { return (uint8_t)('a' + i % 26); }

// Sends n stamped datagrams on one socket; what the socket refuses counts as lost.
static void send_n(worker_t *w, sock_t *s, int n) {
    static __thread uint8_t bufs[BATCH][64];
    static __thread uint8_t *big;
    while (n > 0) {
        int k = n < BATCH ? n : BATCH;
        struct mmsghdr msgs[BATCH];
        struct iovec iov[BATCH];
        int64_t stamp = now_ns();
        for (int i = 0; i < k; i++) {
            uint8_t *b;
            if (g_size <= 64) b = bufs[i];
            else {
                if (!big) { big = malloc(MAXSIZE); for (int j = 0; j < MAXSIZE; j++) big[j] = pattern(j); }
                b = big;
            }
            if (g_size <= 64) for (int j = 0; j < g_size; j++) b[j] = pattern(j);
            if (g_size >= 8) memcpy(b, &stamp, 8);
            iov[i] = (struct iovec){.iov_base = b, .iov_len = (size_t)g_size};
            memset(&msgs[i], 0, sizeof(msgs[i]));
            msgs[i].msg_hdr.msg_iov = &iov[i];
            msgs[i].msg_hdr.msg_iovlen = 1;
        }
        int sent = sendmmsg(s->fd, msgs, k, 0);
        if (sent < 0) sent = 0;
        if (sent < k) { w->send_errors++; w->lost += (uint64_t)(k - sent); }
        n -= k;
    }
}

static void *run(void *arg) {
    worker_t *w = arg;
    int ep = epoll_create1(0);
    for (int i = w->first; i < g_clients; i += w->step) {
        struct epoll_event ev = {.events = EPOLLIN, .data.u32 = (uint32_t)i};
        epoll_ctl(ep, EPOLL_CTL_ADD, g_socks[i].fd, &ev);
        g_socks[i].last_progress = now_ns();
        send_n(w, &g_socks[i], g_window);
    }
    uint8_t *in = malloc((size_t)BATCH * (g_size + 1));
    struct mmsghdr msgs[BATCH];
    struct iovec iov[BATCH];
    struct epoll_event evs[256];
    int64_t next_check = now_ns() + 10000000;
    while (1) {
        int64_t now = now_ns();
        if (now >= g_end) break;
        int n = epoll_wait(ep, evs, 256, 10);
        for (int e = 0; e < n; e++) {
            sock_t *s = &g_socks[evs[e].data.u32];
            for (int i = 0; i < BATCH; i++) {
                // One byte more than sent: a longer echo shows up as corrupt instead of as a truncated match.
                iov[i] = (struct iovec){.iov_base = in + (size_t)i * (g_size + 1), .iov_len = (size_t)g_size + 1};
                memset(&msgs[i], 0, sizeof(msgs[i]));
                msgs[i].msg_hdr.msg_iov = &iov[i];
                msgs[i].msg_hdr.msg_iovlen = 1;
            }
            int got = recvmmsg(s->fd, msgs, BATCH, MSG_DONTWAIT, NULL);
            if (got <= 0) continue;
            int64_t t = now_ns();
            for (int i = 0; i < got; i++) {
                uint8_t *b = iov[i].iov_base;
                if ((int)msgs[i].msg_len != g_size) { w->corrupt++; continue; }
                for (int j = g_size >= 8 ? 8 : 0; j < g_size; j++)
                    if (b[j] != pattern(j)) { w->corrupt++; break; }
                if (g_size >= 8) {
                    int64_t stamp;
                    memcpy(&stamp, b, 8);
                    int64_t sample = t - stamp;
                    s->srtt = s->srtt == 0 ? sample : s->srtt + (sample - s->srtt) / 8;
                }
            }
            w->received += (uint64_t)got;
            s->last_progress = t;
            send_n(w, s, got);
        }
        now = now_ns();
        if (now >= next_check) {
            next_check = now + 10000000;
            for (int i = w->first; i < g_clients; i += w->step) {
                sock_t *s = &g_socks[i];
                int64_t limit = 4 * s->srtt > 100000000 ? 4 * s->srtt : 100000000;
                if (now - s->last_progress >= limit) {
                    w->lost += (uint64_t)g_window;
                    s->last_progress = now;
                    send_n(w, s, g_window);
                }
            }
        }
    }
    free(in);
    close(ep);
    return NULL;
}

int main(int argc, char **argv) {
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "-h")) g_host = argv[i + 1];
        else if (!strcmp(argv[i], "-p")) g_port = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-c")) g_clients = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-m")) g_window = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-s")) g_size = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-z")) g_seconds = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "-t")) g_threads = atoi(argv[i + 1]);
    }
    if (g_clients < 1 || g_window < 1 || g_size < 1 || g_size > MAXSIZE || g_threads < 1 || g_seconds <= 0 || g_seconds > 3600) {
        fprintf(stderr, "bad arguments\n");
        return 1;
    }
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)g_port)};
    if (inet_pton(AF_INET, g_host, &a.sin_addr) != 1) { fprintf(stderr, "bad address %s\n", g_host); return 1; }
    g_socks = calloc((size_t)g_clients, sizeof(sock_t));
    for (int i = 0; i < g_clients; i++) {
        int fd = socket(AF_INET, SOCK_DGRAM, 0);
        int rcvbuf = 1 << 20;
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
        if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0) { perror("socket"); return 1; }
        fcntl(fd, F_SETFL, O_NONBLOCK);
        g_socks[i].fd = fd;
    }
    int64_t start = now_ns();
    g_end = start + (int64_t)(g_seconds * 1e9);
    worker_t *ws = calloc((size_t)g_threads, sizeof(worker_t));
    pthread_t *ts = calloc((size_t)g_threads, sizeof(pthread_t));
    for (int t = 0; t < g_threads; t++) {
        ws[t] = (worker_t){.first = t, .step = g_threads};
        pthread_create(&ts[t], NULL, run, &ws[t]);
    }
    uint64_t received = 0, lost = 0, corrupt = 0, send_errors = 0;
    for (int t = 0; t < g_threads; t++) {
        pthread_join(ts[t], NULL);
        received += ws[t].received; lost += ws[t].lost; corrupt += ws[t].corrupt; send_errors += ws[t].send_errors;
    }
    double elapsed = (now_ns() - start) / 1e9;
    for (int i = 0; i < g_clients; i++) close(g_socks[i].fd);
    printf("{\"protocol\":\"udp\",\"clients\":%d,\"messages\":%d,\"size\":%d,\"seconds\":%.3f,\"threads\":%d,"
           "\"total_messages\":%llu,\"msg_per_s\":%.1f,\"lost\":%llu,\"corrupt\":%llu,\"send_errors\":%llu}\n",
           g_clients, g_window, g_size, elapsed, g_threads, (unsigned long long)received, received / elapsed,
           (unsigned long long)lost, (unsigned long long)corrupt, (unsigned long long)send_errors);
    return corrupt ? 2 : 0;
}
