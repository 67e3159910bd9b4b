/* Echo load client: C connections each keep M messages of S bytes in flight against an echo server (a message goes
 * out for every whole message that came back, so -m 1 is ping-pong), verify every echoed byte, and after Z seconds
 * print one JSON line. One thread, one level-triggered epoll loop. Exit code 2 when an echo came back corrupted.
 * Build: cc -O2 -pthread -o echo_load echo_load.c
 * Usage: echo_load -h 127.0.0.1 -p 1111 [-u PATH] -c 100 -m 1000 -s 32 -z 10
 */
#include "peer.h"

#define READ_SIZE (256 * 1024)
#define PERIOD 251 /* the payload repeats every 251 bytes, a prime, so a shifted or dropped byte shows */

typedef struct {
    int fd;
    int writing; /* EPOLLOUT is being watched */
    uint64_t sent, received;
} conn_t;

static char *s_pattern; /* PERIOD + max(READ_SIZE, window) bytes of the repeating payload */
static uint64_t s_window, s_size;

/* Sends until the connection has its window in flight; -1 on an error. */
static int top_up(int ep, conn_t *c) {
    uint64_t target = c->received / s_size * s_size + s_window;
    while (c->sent < target) {
        ssize_t n = send(c->fd, s_pattern + c->sent % PERIOD, target - c->sent, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno != EAGAIN && errno != EWOULDBLOCK)
                return -1;
            break;
        }
        c->sent += (uint64_t)n;
    }
    int writing = c->sent < target;
    if (writing != c->writing) {
        struct epoll_event ev = { .events = EPOLLIN | (writing ? EPOLLOUT : 0), .data.ptr = c };
        epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &ev);
        c->writing = writing;
    }
    return 0;
}

int main(int argc, char **argv) {
    peer_load_options o;
    if (peer_load_parse(argc, argv, &o, 1, "usage: echo_load -h HOST -p PORT | -u PATH [-c CLIENTS] [-m MESSAGES] [-s SIZE] [-z SECONDS]"))
        return 2;
    s_size = (uint64_t)o.size;
    s_window = s_size * (uint64_t)o.messages;
    size_t span = s_window > READ_SIZE ? (size_t)s_window : READ_SIZE;
    s_pattern = malloc(PERIOD + span);
    char *buffer = malloc(READ_SIZE);
    conn_t *conns = calloc((size_t)o.clients, sizeof *conns);
    int ep = epoll_create1(EPOLL_CLOEXEC);
    if (!s_pattern || !buffer || !conns || ep < 0) {
        perror("echo_load");
        return 1;
    }
    for (size_t i = 0; i < PERIOD + span; i++)
        s_pattern[i] = (char)(i % PERIOD);

    for (int i = 0; i < o.clients; i++) {
        conns[i].fd = peer_connect(o.host, o.port, o.path);
        if (conns[i].fd < 0)
            return 1;
        struct epoll_event ev = { .events = EPOLLIN, .data.ptr = &conns[i] };
        epoll_ctl(ep, EPOLL_CTL_ADD, conns[i].fd, &ev);
    }

    uint64_t bytes = 0, errors = 0, corrupt = 0;
    double start = peer_now(), deadline = start + o.seconds;
    for (int i = 0; i < o.clients; i++) {
        if (top_up(ep, &conns[i]) < 0) {
            errors++;
            epoll_ctl(ep, EPOLL_CTL_DEL, conns[i].fd, NULL);
        }
    }
    struct epoll_event events[512];
    for (;;) {
        int timeout = peer_ms_until(deadline);
        if (timeout == 0)
            break;
        int n = epoll_wait(ep, events, 512, timeout);
        for (int k = 0; k < n; k++) {
            conn_t *c = events[k].data.ptr;
            int failed = 0;
            if (events[k].events & (EPOLLIN | EPOLLHUP | EPOLLERR)) {
                ssize_t r = recv(c->fd, buffer, READ_SIZE, 0);
                if (r > 0) {
                    if (memcmp(buffer, s_pattern + c->received % PERIOD, (size_t)r) != 0) {
                        corrupt++;
                        failed = 1;
                    }
                    c->received += (uint64_t)r;
                    bytes += (uint64_t)r;
                } else if (r == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
                    errors++;
                    failed = 1;
                }
            }
            if (!failed && top_up(ep, c) < 0) {
                errors++;
                failed = 1;
            }
            if (failed) {
                epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
                close(c->fd);
                c->fd = -1;
            }
        }
    }
    double seconds = peer_now() - start;

    uint64_t messages = bytes / s_size;
    printf("{\"tool\":\"echo_load\",\"clients\":%d,\"messages\":%d,\"size\":%d,\"seconds\":%.3f,\"total_bytes\":%llu,"
           "\"total_messages\":%llu,\"msg_per_s\":%.0f,\"mib_per_s\":%.3f,\"errors\":%llu,\"corrupt\":%llu}\n",
        o.clients, o.messages, o.size, seconds, (unsigned long long)bytes, (unsigned long long)messages,
        messages / seconds, bytes / seconds / 1048576.0, (unsigned long long)errors, (unsigned long long)corrupt);
    fflush(stdout);
    for (int i = 0; i < o.clients; i++)
        if (conns[i].fd >= 0)
            close(conns[i].fd);
    return corrupt ? 2 : 0;
}
