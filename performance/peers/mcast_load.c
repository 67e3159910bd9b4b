/* Multicast load client: C connections read whatever a multicast server streams to them for Z seconds; the bytes
 * divided by S are the messages, summed over the clients. One thread, one level-triggered epoll loop; prints one JSON
 * line. With -w each connection first upgrades to WebSocket (RFC 6455 section 4.1) and a message is a server frame of
 * S payload bytes (its 2, 4 or 10 header bytes counted too); the frames are not parsed, as the raw stream is not.
 * Build: cc -O2 -pthread -o mcast_load mcast_load.c
 * Usage: mcast_load -h 127.0.0.1 -p 1111 [-u PATH] [-w] -c 100 -s 32 -z 10
 */
#include "peer.h"

#define READ_SIZE (256 * 1024)

/* Sends the upgrade request and reads the response head; returns the bytes read past it (the first frames), or -1. */
static ssize_t websocket_upgrade(int fd, char *buffer) {
    static const char request[] = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                                  "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
    if (send(fd, request, sizeof request - 1, 0) != (ssize_t)(sizeof request - 1))
        return -1;
    size_t have = 0;
    double deadline = peer_now() + 10;
    while (peer_now() < deadline && have < 8192) {
        ssize_t r = recv(fd, buffer + have, 8192 - have, 0);
        if (r == 0 || (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR))
            return -1;
        if (r < 0) {
            usleep(1000);
            continue;
        }
        have += (size_t)r;
        char *end = memmem(buffer, have, "\r\n\r\n", 4);
        if (end) {
            if (have < 12 || memcmp(buffer + 9, "101", 3) != 0)
                return -1;
            return (ssize_t)(have - (size_t)(end + 4 - buffer));
        }
    }
    return -1;
}

int main(int argc, char **argv) {
    peer_load_options o;
    if (peer_load_parse(argc, argv, &o, 0, "usage: mcast_load -h HOST -p PORT | -u PATH [-w] [-c CLIENTS] [-s SIZE] [-z SECONDS]"))
        return 2;
    char *buffer = malloc(READ_SIZE);
    int *fds = calloc((size_t)o.clients, sizeof *fds);
    int ep = epoll_create1(EPOLL_CLOEXEC);
    if (!buffer || !fds || ep < 0) {
        perror("mcast_load");
        return 1;
    }
    uint64_t bytes = 0, errors = 0;
    for (int i = 0; i < o.clients; i++) {
        fds[i] = peer_connect(o.host, o.port, o.path);
        if (fds[i] < 0)
            return 1;
        if (o.websocket) {
            ssize_t first = websocket_upgrade(fds[i], buffer);
            if (first < 0) {
                fprintf(stderr, "mcast_load: the WebSocket upgrade of connection %d failed\n", i);
                return 1;
            }
            bytes += (uint64_t)first;
        }
        struct epoll_event ev = { .events = EPOLLIN, .data.u32 = (uint32_t)i };
        epoll_ctl(ep, EPOLL_CTL_ADD, fds[i], &ev);
    }

    double start = peer_now(), deadline = start + o.seconds;
    struct epoll_event events[512];
    for (;;) {
        int timeout = peer_ms_until(deadline);
        if (timeout == 0)
            break;
        int n = epoll_wait(ep, events, 512, timeout);
        for (int k = 0; k < n; k++) {
            int fd = fds[events[k].data.u32];
            ssize_t r = recv(fd, buffer, READ_SIZE, 0);
            if (r > 0) {
                bytes += (uint64_t)r;
            } else if (r == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
                errors++;
                epoll_ctl(ep, EPOLL_CTL_DEL, fd, NULL);
            }
        }
    }
    double seconds = peer_now() - start;

    uint64_t frame = (uint64_t)o.size + (!o.websocket ? 0 : o.size < 126 ? 2 : o.size < 65536 ? 4 : 10);
    uint64_t messages = bytes / frame;
    printf("{\"tool\":\"mcast_load\",\"clients\":%d,\"size\":%d,\"seconds\":%.3f,\"total_bytes\":%llu,\"total_messages\":%llu,"
           "\"msg_per_s\":%.0f,\"mib_per_s\":%.3f,\"errors\":%llu}\n",
        o.clients, o.size, seconds, (unsigned long long)bytes, (unsigned long long)messages, messages / seconds,
        bytes / seconds / 1048576.0, (unsigned long long)errors);
    fflush(stdout);
    for (int i = 0; i < o.clients; i++)
        close(fds[i]);
    return 0;
}
