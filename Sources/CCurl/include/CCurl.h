// libcurl for Swift, loaded with dlopen on the first request: a command that never goes to the network (--version,
// --help, a cached month) does not load libcurl and the thirty libraries it needs, which was half of start-up.
// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call, so each use gets a typed wrapper.
#ifndef EXPENSE_LOG_CCURL_H
#define EXPENSE_LOG_CCURL_H
#if defined(__linux__)

#include <stddef.h>
#include <curl/curl.h>

/// Loads libcurl and runs curl_global_init, once per process (later calls return the first outcome). Returns 0 when
/// libcurl can be used; otherwise writes why into `reason` (at most `size` bytes, NUL-terminated) and returns -1.
int el_curl_load(char *reason, size_t size);

CURL *el_easy_init(void);
/// Sets every option back to libcurl's default; the handle keeps its idle connections and DNS cache.
void el_easy_reset(CURL *handle);
void el_easy_cleanup(CURL *handle);
CURLcode el_easy_perform(CURL *handle);
const char *el_easy_strerror(CURLcode code);
struct curl_slist *el_slist_append(struct curl_slist *list, const char *text);
void el_slist_free_all(struct curl_slist *list);

CURLcode el_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode el_setopt_pointer(CURL *handle, CURLoption option, const void *value);
CURLcode el_setopt_offset(CURL *handle, CURLoption option, curl_off_t value);

typedef size_t (*el_data_callback)(char *data, size_t size, size_t count, void *context);
typedef int (*el_progress_callback)(void *context, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow);

CURLcode el_setopt_data_callback(CURL *handle, CURLoption option, el_data_callback callback);
CURLcode el_setopt_progress_callback(CURL *handle, el_progress_callback callback);

/// Only http and https, whatever a URL says: libcurl also speaks file, gopher, dict and more.
CURLcode el_allow_web_only(CURL *handle);

/// The last answer's HTTP status.
long el_response_code(CURL *handle);

#endif
#endif
