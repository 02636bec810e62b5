// Typed wrappers for libcurl's variadic curl_easy_setopt/curl_easy_getinfo/curl_multi_setopt. Owned by StorageUpload only.
#ifndef RECORDER_CCURL_SHIM_H
#define RECORDER_CCURL_SHIM_H

#include <curl/curl.h>
#include <stdint.h>

typedef size_t (*ccurl_data_callback)(char *buffer, size_t size, size_t nitems, void *userdata);
typedef int (*ccurl_debug_callback)(CURL *handle, curl_infotype type, char *data, size_t size, void *userdata);
typedef int (*ccurl_xferinfo_callback)(void *userdata, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow);

static inline CURLcode ccurl_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_setopt_off(CURL *h, CURLoption o, curl_off_t v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_setopt_string(CURL *h, CURLoption o, const char *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_setopt_pointer(CURL *h, CURLoption o, void *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_setopt_data_callback(CURL *h, CURLoption o, ccurl_data_callback v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_setopt_debug_callback(CURL *h, CURLoption o, ccurl_debug_callback v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_setopt_xferinfo_callback(CURL *h, CURLoption o, ccurl_xferinfo_callback v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_getinfo_long(CURL *h, CURLINFO i, long *v) { return curl_easy_getinfo(h, i, v); }
/// The socket of a CURLOPT_CONNECT_ONLY handle's connection (CURLINFO_ACTIVESOCKET), -1 when none.
static inline curl_socket_t ccurl_active_socket(CURL *h) {
    curl_socket_t socket = CURL_SOCKET_BAD;
    if (curl_easy_getinfo(h, CURLINFO_ACTIVESOCKET, &socket) != CURLE_OK) return CURL_SOCKET_BAD;
    return socket;
}
/// Stops taking a transfer's answer (its bytes wait in the socket), and goes on with it.
static inline CURLcode ccurl_pause_receiving(CURL *h) { return curl_easy_pause(h, CURLPAUSE_RECV); }
static inline CURLcode ccurl_resume(CURL *h) { return curl_easy_pause(h, CURLPAUSE_CONT); }
static inline CURLMcode ccurl_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return curl_multi_setopt(m, o, v); }

/// The value of the last response's header `name` (case-insensitive), or NULL. Valid until the next transfer.
static inline const char *ccurl_response_header(CURL *h, const char *name) {
    struct curl_header *header = NULL;
    if (curl_easy_header(h, name, 0, CURLH_HEADER, -1, &header) != CURLHE_OK || header == NULL) return NULL;
    return header->value;
}

#endif
