// The C-equivalent of the curl benchmark: one libcurl multi handle on one thread, keeping
// CONCURRENCY transfers of URL in flight until TOTAL have finished. Each slot reuses its easy
// handle (options set once), so this is libcurl's own floor for the same work without Swift,
// plugins or JSON decoding. Prints "requests seconds cpu_seconds" on success.
//
//   CurlMultiReference URL TOTAL CONCURRENCY
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

static size_t discard_body(char *data, size_t size, size_t count, void *context) {
    (void)data;
    *(size_t *)context += size * count;
    return size * count;
}

static double now_seconds(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (double)time.tv_sec + (double)time.tv_nsec / 1e9;
}

static double cpu_seconds(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return (double)usage.ru_utime.tv_sec + (double)usage.ru_utime.tv_usec / 1e6
        + (double)usage.ru_stime.tv_sec + (double)usage.ru_stime.tv_usec / 1e6;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s URL TOTAL CONCURRENCY\n", argv[0]);
        return 2;
    }
    const char *url = argv[1];
    long total = atol(argv[2]);
    int concurrency = atoi(argv[3]);
    if (total <= 0 || concurrency <= 0) {
        fprintf(stderr, "TOTAL and CONCURRENCY must be positive\n");
        return 2;
    }
    curl_global_init(CURL_GLOBAL_ALL);
    CURLM *multi = curl_multi_init();
    CURL **slots = calloc((size_t)concurrency, sizeof(CURL *));
    size_t received = 0;
    long started = 0, finished = 0, failed = 0;
    for (int slot = 0; slot < concurrency; slot++) {
        slots[slot] = curl_easy_init();
        curl_easy_setopt(slots[slot], CURLOPT_URL, url);
        curl_easy_setopt(slots[slot], CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(slots[slot], CURLOPT_ACCEPT_ENCODING, "");
        curl_easy_setopt(slots[slot], CURLOPT_WRITEFUNCTION, discard_body);
        curl_easy_setopt(slots[slot], CURLOPT_WRITEDATA, &received);
    }
    double wall_start = now_seconds(), cpu_start = cpu_seconds();
    for (int slot = 0; slot < concurrency && started < total; slot++, started++) {
        curl_multi_add_handle(multi, slots[slot]);
    }
    while (finished < total) {
        int running = 0, pending = 0;
        curl_multi_perform(multi, &running);
        CURLMsg *message;
        while ((message = curl_multi_info_read(multi, &pending)) != NULL) {
            if (message->msg != CURLMSG_DONE) continue;
            CURL *easy = message->easy_handle;
            if (message->data.result != CURLE_OK) failed++;
            finished++;
            curl_multi_remove_handle(multi, easy);
            if (started < total) {
                curl_multi_add_handle(multi, easy);
                started++;
            }
        }
        if (finished < total) curl_multi_poll(multi, NULL, 0, 1000, NULL);
    }
    double seconds = now_seconds() - wall_start, cpu = cpu_seconds() - cpu_start;
    for (int slot = 0; slot < concurrency; slot++) curl_easy_cleanup(slots[slot]);
    free(slots);
    curl_multi_cleanup(multi);
    curl_global_cleanup();
    if (failed > 0) {
        fprintf(stderr, "%ld of %ld transfers failed\n", failed, total);
        return 1;
    }
    printf("%ld %.6f %.6f\n", total, seconds, cpu);
    return 0;
}
