#ifndef NETKIT_CCURL_SHIM_H
#define NETKIT_CCURL_SHIM_H
#include <curl/curl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <fcntl.h>
#include <unistd.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

/* Swift cannot call C variadic functions: these fixed-type wrappers forward to
   curl_easy_setopt / curl_easy_getinfo / curl_multi_setopt, plus the two socket calls the
   stall watchdog needs (ioctl is variadic too) and the epoll calls of the WebSocket loops (a
   packed struct). Nothing else lives here. */

typedef size_t (*netkit_data_callback)(char *buffer, size_t size, size_t count, void *context);
typedef int (*netkit_xferinfo_callback)(void *context, curl_off_t dltotal, curl_off_t dlnow,
                                        curl_off_t ultotal, curl_off_t ulnow);
typedef int (*netkit_seek_callback)(void *context, curl_off_t offset, int origin);

static inline CURLcode netkit_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode netkit_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode netkit_easy_setopt_ptr(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode netkit_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode netkit_easy_setopt_data_callback(CURL *handle, CURLoption option, netkit_data_callback value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode netkit_easy_setopt_xferinfo_callback(CURL *handle, netkit_xferinfo_callback value) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, value);
}

static inline CURLcode netkit_easy_setopt_seek_callback(CURL *handle, netkit_seek_callback value) {
    return curl_easy_setopt(handle, CURLOPT_SEEKFUNCTION, value);
}

/* CURLOPT_SSL_CTX_FUNCTION: called on each new connection's TLS context before its handshake. */
static inline CURLcode netkit_easy_setopt_ssl_ctx_callback(CURL *handle, curl_ssl_ctx_callback value) {
    return curl_easy_setopt(handle, CURLOPT_SSL_CTX_FUNCTION, value);
}

/* Blob options (CURLOPT_CAINFO_BLOB): libcurl copies the bytes. */
static inline CURLcode netkit_easy_setopt_blob(CURL *handle, CURLoption option, const void *data, size_t length) {
    struct curl_blob blob;
    blob.data = (void *)data;
    blob.len = length;
    blob.flags = CURL_BLOB_COPY;
    return curl_easy_setopt(handle, option, &blob);
}

static inline CURLcode netkit_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode netkit_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode netkit_easy_getinfo_socket(CURL *handle, CURLINFO info, curl_socket_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode netkit_easy_getinfo_ptr(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}

typedef curl_socket_t (*netkit_opensocket_callback)(void *context, curlsocktype purpose,
                                                   struct curl_sockaddr *address);
typedef int (*netkit_closesocket_callback)(void *context, curl_socket_t socket);

static inline CURLcode netkit_easy_setopt_opensocket_callback(CURL *handle, netkit_opensocket_callback value) {
    return curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, value);
}

static inline CURLcode netkit_easy_setopt_closesocket_callback(CURL *handle, netkit_closesocket_callback value) {
    return curl_easy_setopt(handle, CURLOPT_CLOSESOCKETFUNCTION, value);
}

/* How many bytes the application has read from a TCP socket so far: the kernel's count of bytes
   received (tcp_info.tcpi_bytes_received, Linux 4.1+) minus what still waits unread (FIONREAD).
   -1 where the kernel cannot tell. */
static inline long long netkit_socket_bytes_consumed(int fd) {
#if defined(__linux__)
    unsigned char info[256];
    socklen_t length = sizeof(info);
    unsigned long long received = 0;
    int unread = 0;
    if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, info, &length) != 0 || length < 136) return -1;
    memcpy(&received, info + 128, sizeof(received));  /* offsetof(struct tcp_info, tcpi_bytes_received) */
    if (ioctl(fd, FIONREAD, &unread) != 0) return -1;
    return (long long)received - (long long)unread;
#else
    (void)fd;
    return -1;
#endif
}

/* Cuts a connection off from under whoever reads it: an unconnected socket takes the place of
   `fd` (dup2 swaps them atomically and closes the original), so the next read fails at once with
   ENOTCONN while `fd` stays a valid descriptor for its owner to close. 0 on success. */
static inline int netkit_socket_sever(int fd) {
    int dead = socket(AF_INET, SOCK_STREAM, 0);
    if (dead < 0) return -1;
    int result = dup2(dead, fd) < 0 ? -1 : 0;
    if (result == 0) fcntl(fd, F_SETFD, FD_CLOEXEC);
    close(dead);
    return result;
}

/* epoll for the curl WebSocket loops (NetCurl/WebSocket/CurlWebSocketLoop.swift): the kernel's
   struct epoll_event is packed on x86-64, so Swift never touches it; these take and give plain
   values. Each returns what the system call returns (-1 with errno on failure). */
#if defined(__linux__)
#include <sys/epoll.h>

static inline int netkit_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

/* Adds, changes (`op` EPOLL_CTL_ADD / EPOLL_CTL_MOD) or removes (EPOLL_CTL_DEL) `fd`, with `key`
   handed back with its events. */
static inline int netkit_epoll_control(int epoll, int op, int fd, unsigned int events, unsigned long long key) {
    struct epoll_event event;
    event.events = events;
    event.data.u64 = key;
    return epoll_ctl(epoll, op, fd, &event);
}

/* Waits up to `milliseconds` (0: not at all) for at most `capacity` ready descriptors; fills
   `keys` and `events` with theirs and returns how many. */
static inline int netkit_epoll_wait(int epoll, unsigned long long *keys, unsigned int *events, int capacity, int milliseconds) {
    struct epoll_event ready[256];
    if (capacity > 256) capacity = 256;
    int count = epoll_wait(epoll, ready, capacity, milliseconds);
    for (int index = 0; index < count; index++) {
        keys[index] = ready[index].data.u64;
        events[index] = ready[index].events;
    }
    return count;
}

static const unsigned int netkit_epoll_in = EPOLLIN;
static const unsigned int netkit_epoll_out = EPOLLOUT;
static const unsigned int netkit_epoll_hangup = EPOLLHUP | EPOLLERR | EPOLLRDHUP;
#endif

static inline CURLMcode netkit_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

#endif
