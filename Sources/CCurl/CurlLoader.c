// Loads libcurl at the first request (see CCurl.h) and calls it through the pointers dlsym found.
#if defined(__linux__)

#include "CCurl.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static struct {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *handle);
    void (*easy_reset)(CURL *handle);
    CURLcode (*easy_perform)(CURL *handle);
    const char *(*easy_strerror)(CURLcode code);
    CURLcode (*easy_setopt)(CURL *handle, CURLoption option, ...);
    CURLcode (*easy_getinfo)(CURL *handle, CURLINFO info, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *text);
    void (*slist_free_all)(struct curl_slist *list);
    curl_version_info_data *(*version_info)(CURLversion stamp);
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failure[512];

static void *find(void *library, const char *name) {
    void *symbol = dlsym(library, name);
    if (symbol == NULL && failure[0] == '\0') {
        snprintf(failure, sizeof failure, "the libcurl found has no %s", name);
    }
    return symbol;
}

static void load(void) {
    // libcurl.so.4 is libcurl's name on every Linux distribution since 2006; the unversioned name comes with the
    // development package only. Lazily bound: the functions of its thirty libraries that a run never calls are never
    // looked up.
    void *library = dlopen("libcurl.so.4", RTLD_LAZY | RTLD_LOCAL);
    if (library == NULL) library = dlopen("libcurl.so", RTLD_LAZY | RTLD_LOCAL);
    if (library == NULL) {
        const char *why = dlerror();
        snprintf(failure, sizeof failure, "libcurl could not be loaded (%s); install it (Debian and Ubuntu: apt-get install libcurl4)",
                 why ? why : "libcurl.so.4 not found");
        return;
    }
    *(void **)&api.global_init = find(library, "curl_global_init");
    *(void **)&api.easy_init = find(library, "curl_easy_init");
    *(void **)&api.easy_cleanup = find(library, "curl_easy_cleanup");
    *(void **)&api.easy_reset = find(library, "curl_easy_reset");
    *(void **)&api.easy_perform = find(library, "curl_easy_perform");
    *(void **)&api.easy_strerror = find(library, "curl_easy_strerror");
    *(void **)&api.easy_setopt = find(library, "curl_easy_setopt");
    *(void **)&api.easy_getinfo = find(library, "curl_easy_getinfo");
    *(void **)&api.slist_append = find(library, "curl_slist_append");
    *(void **)&api.slist_free_all = find(library, "curl_slist_free_all");
    *(void **)&api.version_info = find(library, "curl_version_info");
    if (failure[0] != '\0') return;
    CURLcode code = api.global_init(CURL_GLOBAL_ALL);
    if (code != CURLE_OK) {
        snprintf(failure, sizeof failure, "libcurl could not be initialised (%s)", api.easy_strerror(code));
    }
}

int el_curl_load(char *reason, size_t size) {
    pthread_once(&once, load);
    if (failure[0] == '\0') return 0;
    snprintf(reason, size, "%s", failure);
    return -1;
}

CURL *el_easy_init(void) { return api.easy_init(); }

void el_easy_reset(CURL *handle) { api.easy_reset(handle); }
void el_easy_cleanup(CURL *handle) { api.easy_cleanup(handle); }
CURLcode el_easy_perform(CURL *handle) { return api.easy_perform(handle); }
const char *el_easy_strerror(CURLcode code) { return api.easy_strerror(code); }
struct curl_slist *el_slist_append(struct curl_slist *list, const char *text) { return api.slist_append(list, text); }
void el_slist_free_all(struct curl_slist *list) { api.slist_free_all(list); }

CURLcode el_setopt_long(CURL *handle, CURLoption option, long value) { return api.easy_setopt(handle, option, value); }
CURLcode el_setopt_pointer(CURL *handle, CURLoption option, const void *value) { return api.easy_setopt(handle, option, value); }
CURLcode el_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) { return api.easy_setopt(handle, option, value); }

CURLcode el_setopt_data_callback(CURL *handle, CURLoption option, el_data_callback callback) {
    return api.easy_setopt(handle, option, callback);
}

CURLcode el_setopt_progress_callback(CURL *handle, el_progress_callback callback) {
    return api.easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

// The option by the libcurl that was loaded, not by the headers the build saw: CURLOPT_PROTOCOLS_STR came in 7.85,
// and CURLOPT_PROTOCOLS is deprecated since.
CURLcode el_allow_web_only(CURL *handle) {
    if (api.version_info(CURLVERSION_NOW)->version_num >= 0x075500) {
        return api.easy_setopt(handle, (CURLoption)(CURLOPTTYPE_STRINGPOINT + 318), "http,https");
    }
    return api.easy_setopt(handle, (CURLoption)(CURLOPTTYPE_LONG + 181), (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
}

long el_response_code(CURL *handle) {
    long code = 0;
    api.easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &code);
    return code;
}

#endif
