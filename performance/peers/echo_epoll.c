/* Reference echo server: every connection gets back each byte it sends, from a plain level-triggered epoll loop
 * (one thread by default, -t N threads sharing the listener). Listens on 127.0.0.1:PORT or a Unix socket, prints
 * "echo_epoll ready" once it accepts, and exits by itself after -z seconds (or on SIGTERM).
 * Build: cc -O2 -pthread -o echo_epoll echo_epoll.c
 * Usage: echo_epoll -p 1111 [-u PATH] [-z 30] [-t 1]
 */
#include "peer.h"

#include <pthread.h>

#define READ_SIZE (256 * 1024)

typedef struct {
    int fd;
    char *pending; /* bytes read but not yet written back; while any, the connection is not read */
    size_t offset, length;
} conn_t;

static int s_listener;
static double s_deadline;

static void close_conn(int ep, conn_t *c) {
    epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
    close(c->fd);
    free(c->pending);
    free(c);
}

static void watch(int ep, conn_t *c, uint32_t events) {
    struct epoll_event ev = { .events = events, .data.ptr = c };
    epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &ev);
}

/* Writes what is pending; 0 when all of it went, 1 when the socket is full, -1 on an error. */
static int flush_pending(conn_t *c) {
    while (c->offset < c->length) {
        ssize_t n = send(c->fd, c->pending + c->offset, c->length - c->offset, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return errno == EAGAIN || errno == EWOULDBLOCK ? 1 : -1;
        }
        c->offset += (size_t)n;
    }
    c->offset = c->length = 0;
    return 0;
}

/* Reads and writes straight back until the socket is empty, at most READS times so that one busy connection cannot
 * starve the others; what the socket does not take waits in pending and reading pauses (backpressure). Reading again
 * at once often finds the peer's next batch without an epoll_wait (docs/design/suite-peers.md). */
#define READS 16
static int on_readable(int ep, conn_t *c, char *buffer) {
    ssize_t n, w;
    for (int reads = 0;; reads++) {
        if (reads == READS)
            return 0;
        n = recv(c->fd, buffer, READ_SIZE, 0);
        if (n == 0)
            return -1;
        if (n < 0)
            return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : -1;
        w = send(c->fd, buffer, (size_t)n, MSG_NOSIGNAL);
        if (w < 0) {
            if (errno != EAGAIN && errno != EWOULDBLOCK)
                return -1;
            w = 0;
        }
        if (w < n)
            break;
    }
    size_t rest = (size_t)(n - w);
    char *copy = realloc(c->pending, rest);
    if (!copy)
        return -1;
    memcpy(copy, buffer + w, rest);
    c->pending = copy;
    c->offset = 0;
    c->length = rest;
    watch(ep, c, EPOLLOUT);
    return 0;
}

static void accept_all(int ep) {
    for (;;) {
        int fd = accept4(s_listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0)
            return;
        conn_t *c = calloc(1, sizeof *c);
        if (!c) {
            close(fd);
            continue;
        }
        c->fd = fd;
        struct epoll_event ev = { .events = EPOLLIN, .data.ptr = c };
        if (epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) < 0) {
            close(fd);
            free(c);
        }
    }
}

static void *serve(void *unused) {
    (void)unused;
    char *buffer = malloc(READ_SIZE);
    int ep = epoll_create1(EPOLL_CLOEXEC);
    if (!buffer || ep < 0) {
        perror("echo_epoll: epoll");
        exit(1);
    }
    /* Every thread waits on the listener; EPOLLEXCLUSIVE wakes one of them per connection, not all. */
    struct epoll_event lev = { .events = EPOLLIN | EPOLLEXCLUSIVE, .data.ptr = NULL };
    epoll_ctl(ep, EPOLL_CTL_ADD, s_listener, &lev);
    struct epoll_event events[256];
    for (;;) {
        int timeout = peer_ms_until(s_deadline);
        if (timeout == 0)
            break;
        int n = epoll_wait(ep, events, 256, timeout);
        for (int i = 0; i < n; i++) {
            conn_t *c = events[i].data.ptr;
            if (!c) {
                accept_all(ep);
                continue;
            }
            int result;
            if (c->length > 0) {
                result = flush_pending(c);
                if (result == 0)
                    watch(ep, c, EPOLLIN);
                else if (result == 1)
                    result = 0;
            } else if (events[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR)) {
                result = on_readable(ep, c, buffer);
            } else {
                result = 0;
            }
            if (result < 0)
                close_conn(ep, c);
        }
    }
    return NULL;
}

int main(int argc, char **argv) {
    int port = 0, seconds = 30, threads = 1;
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "-p") && value) port = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-u") && value) path = argv[++i];
        else if (!strcmp(argv[i], "-z") && value) seconds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-t") && value) threads = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: echo_epoll -p PORT | -u PATH [-z SECONDS] [-t THREADS]\n");
            return 2;
        }
    }
    if ((!path && (port < 1 || port > 65535)) || seconds < 1 || threads < 1 || threads > 64) {
        fprintf(stderr, "echo_epoll: -p 1..65535 (or -u PATH), -z >= 1, -t 1..64\n");
        return 2;
    }
    s_listener = peer_listen(port, path);
    if (s_listener < 0)
        return 1;
    s_deadline = peer_now() + seconds;
    printf("echo_epoll ready\n");
    fflush(stdout);

    pthread_t workers[64];
    for (int t = 1; t < threads; t++)
        pthread_create(&workers[t], NULL, serve, NULL);
    serve(NULL);
    for (int t = 1; t < threads; t++)
        pthread_join(workers[t], NULL);
    if (path)
        unlink(path);
    return 0;
}
