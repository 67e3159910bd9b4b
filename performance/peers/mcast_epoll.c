/* Reference multicast server: writes an endless stream of S-byte messages to every connected client, each as fast
 * as its socket takes it, from one level-triggered epoll loop (a writable socket gets one large write per wake-up).
 * Listens on 127.0.0.1:PORT or a Unix socket, prints "mcast_epoll ready", exits by itself after -z seconds.
 * Build: cc -O2 -pthread -o mcast_epoll mcast_epoll.c
 * Usage: mcast_epoll -p 1111 [-u PATH] -s 32 [-z 30]
 */
#include "peer.h"

#define CHUNK (256 * 1024)

typedef struct {
    int fd;
    uint64_t sent; /* sent % size is where in a message the next write starts */
} conn_t;

int main(int argc, char **argv) {
    int port = 0, seconds = 30, size = 32;
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "-p") && value) port = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-u") && value) path = argv[++i];
        else if (!strcmp(argv[i], "-s") && value) size = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-z") && value) seconds = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: mcast_epoll -p PORT | -u PATH [-s SIZE] [-z SECONDS]\n");
            return 2;
        }
    }
    if ((!path && (port < 1 || port > 65535)) || seconds < 1 || size < 1 || size > CHUNK) {
        fprintf(stderr, "mcast_epoll: -p 1..65535 (or -u PATH), -s 1..%d, -z >= 1\n", CHUNK);
        return 2;
    }
    /* Whole messages of the stream, plus one more so that a write may start inside the first. */
    size_t length = (size_t)(CHUNK / size) * (size_t)size;
    char *stream = malloc(length + (size_t)size);
    int listener = peer_listen(port, path);
    int ep = epoll_create1(EPOLL_CLOEXEC);
    if (!stream || listener < 0 || ep < 0)
        return 1;
    for (size_t i = 0; i < length + (size_t)size; i++)
        stream[i] = (char)('0' + i % (size_t)size % 10);
    struct epoll_event lev = { .events = EPOLLIN, .data.ptr = NULL };
    epoll_ctl(ep, EPOLL_CTL_ADD, listener, &lev);
    double deadline = peer_now() + seconds;
    printf("mcast_epoll ready\n");
    fflush(stdout);

    struct epoll_event events[512];
    for (;;) {
        int timeout = peer_ms_until(deadline);
        if (timeout == 0)
            break;
        int n = epoll_wait(ep, events, 512, timeout);
        for (int i = 0; i < n; i++) {
            conn_t *c = events[i].data.ptr;
            if (!c) {
                int fd;
                while ((fd = accept4(listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
                    c = calloc(1, sizeof *c);
                    if (!c) {
                        close(fd);
                        continue;
                    }
                    c->fd = fd;
                    struct epoll_event ev = { .events = EPOLLOUT | EPOLLRDHUP, .data.ptr = c };
                    if (epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) < 0) {
                        close(fd);
                        free(c);
                    }
                }
                continue;
            }
            int closed = (events[i].events & (EPOLLERR | EPOLLHUP | EPOLLRDHUP)) != 0;
            if (!closed && (events[i].events & EPOLLOUT)) {
                size_t skip = (size_t)(c->sent % (uint64_t)size);
                ssize_t w = send(c->fd, stream + skip, length, MSG_NOSIGNAL);
                if (w > 0)
                    c->sent += (uint64_t)w;
                else if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
                    closed = 1;
            }
            if (closed) {
                epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
                close(c->fd);
                free(c);
            }
        }
    }
    if (path)
        unlink(path);
    return 0;
}
