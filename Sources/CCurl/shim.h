#ifndef NETKIT_CCURL_SHIM_H
#define NETKIT_CCURL_SHIM_H
#include <curl/curl.h>

/* Swift cannot call C variadic functions: these fixed-type wrappers forward to
   curl_easy_setopt / curl_easy_getinfo / curl_multi_setopt. Nothing else lives here. */

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

static inline CURLcode netkit_easy_getinfo_ptr(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLMcode netkit_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

#endif
