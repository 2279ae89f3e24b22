// libcurl for Swift: curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call, so each use
// gets a typed wrapper here.
#ifndef EXPENSE_LOG_CCURL_H
#define EXPENSE_LOG_CCURL_H

#include <curl/curl.h>

static inline CURLcode el_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode el_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode el_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

typedef size_t (*el_data_callback)(char *data, size_t size, size_t count, void *context);
typedef int (*el_progress_callback)(void *context, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow);

static inline CURLcode el_setopt_data_callback(CURL *handle, CURLoption option, el_data_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

static inline CURLcode el_setopt_progress_callback(CURL *handle, el_progress_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

// Only http and https, whatever a URL says: libcurl also speaks file, gopher, dict and more.
static inline CURLcode el_allow_web_only(CURL *handle) {
#if LIBCURL_VERSION_NUM >= 0x075500
    return curl_easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
#else
    return curl_easy_setopt(handle, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
}

static inline long el_response_code(CURL *handle) {
    long code = 0;
    curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &code);
    return code;
}

#endif
