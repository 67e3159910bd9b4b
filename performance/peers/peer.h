/* What the four reference peers share: the clock, listening and connecting on loopback or a Unix socket. */
#ifndef PEER_H
#define PEER_H

#define _GNU_SOURCE
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
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static inline double peer_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Milliseconds left until deadline for epoll_wait, at most 100 so that a quiet loop still sees it; 0 once past. */
static inline int peer_ms_until(double deadline) {
    double left = deadline - peer_now();
    if (left <= 0)
        return 0;
    return left > 0.1 ? 100 : (int)(left * 1000) + 1;
}

static inline int peer_unix_address(const char *path, struct sockaddr_un *address) {
    memset(address, 0, sizeof *address);
    address->sun_family = AF_UNIX;
    if (strlen(path) >= sizeof address->sun_path) {
        fprintf(stderr, "socket path too long: %s\n", path);
        return -1;
    }
    strcpy(address->sun_path, path);
    return 0;
}

/* A non-blocking listener on 127.0.0.1:port, or on the Unix socket path (a stale file is replaced); -1 after perror. */
static inline int peer_listen(int port, const char *path) {
    int fd;
    if (path) {
        struct sockaddr_un address;
        if (peer_unix_address(path, &address) < 0)
            return -1;
        unlink(path);
        fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (fd < 0 || bind(fd, (struct sockaddr *)&address, sizeof address) < 0) {
            perror("bind");
            return -1;
        }
    } else {
        struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        int one = 1;
        fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (fd >= 0)
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (fd < 0 || bind(fd, (struct sockaddr *)&address, sizeof address) < 0) {
            perror("bind");
            return -1;
        }
    }
    if (listen(fd, 4096) < 0) {
        perror("listen");
        return -1;
    }
    return fd;
}

/* A connected, then non-blocking socket to host:port or to the Unix socket path; -1 after perror. Nagle stays on
 * (no TCP_NODELAY) here and in the servers, as in our benchmark programs, so that both sides batch alike. */
static inline int peer_connect(const char *host, int port, const char *path) {
    int fd;
    if (path) {
        struct sockaddr_un address;
        if (peer_unix_address(path, &address) < 0)
            return -1;
        fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0 || connect(fd, (struct sockaddr *)&address, sizeof address) < 0) {
            perror("connect");
            if (fd >= 0)
                close(fd);
            return -1;
        }
    } else {
        struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
        if (inet_pton(AF_INET, host, &address.sin_addr) != 1) {
            fprintf(stderr, "not an IPv4 address: %s\n", host);
            return -1;
        }
        fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0 || connect(fd, (struct sockaddr *)&address, sizeof address) < 0) {
            perror("connect");
            if (fd >= 0)
                close(fd);
            return -1;
        }
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    return fd;
}

/* The options every load client takes; 0, or 2 after a usage message. */
typedef struct {
    const char *host, *path;
    int port, clients, messages, size, seconds, websocket;
} peer_load_options;

static inline int peer_load_parse(int argc, char **argv, peer_load_options *o, int takes_messages, const char *usage) {
    *o = (peer_load_options){ .host = "127.0.0.1", .clients = 1, .messages = 1000, .size = 32, .seconds = 10 };
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-w") && takes_messages == 0) {
            o->websocket = 1;
            continue;
        }
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (!value) goto bad;
        if (!strcmp(argv[i], "-h")) o->host = value;
        else if (!strcmp(argv[i], "-u")) o->path = value;
        else if (!strcmp(argv[i], "-p")) o->port = atoi(value);
        else if (!strcmp(argv[i], "-c")) o->clients = atoi(value);
        else if (!strcmp(argv[i], "-s")) o->size = atoi(value);
        else if (!strcmp(argv[i], "-z")) o->seconds = atoi(value);
        else if (!strcmp(argv[i], "-m") && takes_messages) o->messages = atoi(value);
        else goto bad;
        i++;
    }
    if ((!o->path && (o->port < 1 || o->port > 65535)) || o->clients < 1 || o->clients > 100000 || o->messages < 1
        || o->size < 1 || o->size > 1 << 20 || o->seconds < 1)
        goto bad;
    return 0;
bad:
    fprintf(stderr, "%s\n", usage);
    return 2;
}

#endif
