/* Multicast load client: C connections read whatever a multicast server streams to them for Z seconds; the bytes
 * divided by S are the messages, summed over the clients. One thread, one level-triggered epoll loop; prints one JSON
 * line.
 * Build: cc -O2 -pthread -o mcast_load mcast_load.c
 * Usage: mcast_load -h 127.0.0.1 -p 1111 [-u PATH] -c 100 -s 32 -z 10
 */
#include "peer.h"

#define READ_SIZE (256 * 1024)

int main(int argc, char **argv) {
    peer_load_options o;
    if (peer_load_parse(argc, argv, &o, 0, "usage: mcast_load -h HOST -p PORT | -u PATH [-c CLIENTS] [-s SIZE] [-z SECONDS]"))
        return 2;
    char *buffer = malloc(READ_SIZE);
    int *fds = calloc((size_t)o.clients, sizeof *fds);
    int ep = epoll_create1(EPOLL_CLOEXEC);
    if (!buffer || !fds || ep < 0) {
        perror("mcast_load");
        return 1;
    }
    for (int i = 0; i < o.clients; i++) {
        fds[i] = peer_connect(o.host, o.port, o.path);
        if (fds[i] < 0)
            return 1;
        struct epoll_event ev = { .events = EPOLLIN, .data.u32 = (uint32_t)i };
        epoll_ctl(ep, EPOLL_CTL_ADD, fds[i], &ev);
    }

    uint64_t bytes = 0, errors = 0;
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

    uint64_t messages = bytes / (uint64_t)o.size;
    printf("{\"tool\":\"mcast_load\",\"clients\":%d,\"size\":%d,\"seconds\":%.3f,\"total_bytes\":%llu,\"total_messages\":%llu,"
           "\"msg_per_s\":%.0f,\"mib_per_s\":%.3f,\"errors\":%llu}\n",
        o.clients, o.size, seconds, (unsigned long long)bytes, (unsigned long long)messages, messages / seconds,
        bytes / seconds / 1048576.0, (unsigned long long)errors);
    fflush(stdout);
    for (int i = 0; i < o.clients; i++)
        close(fds[i]);
    return 0;
}
