// Loads libssl at the first https request (see CTLS.h) and calls it through the pointers dlsym found.
#if defined(__linux__)

#include "CTLS.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

// OpenSSL's public constants (ssl.h, tls1.h, x509_vfy.h).
#define SSL_VERIFY_PEER 1
#define SSL_CTRL_SET_TLSEXT_HOSTNAME 55
#define TLSEXT_NAMETYPE_host_name 0
#define SSL_CTRL_SET_MIN_PROTO_VERSION 123
#define TLS1_2_VERSION 0x0303
#define SSL_ERROR_SSL 1
#define X509_V_OK 0
// err.h: an error code's reason (OpenSSL 3's ERR_GET_REASON, an inline function), and ssl.h's reason for a connection
// closed without TLS's close notice.
#define ERR_SYSTEM_FLAG ((unsigned long)1 << 31)
#define ERR_REASON_MASK 0x7FFFFFUL
#define SSL_R_UNEXPECTED_EOF_WHILE_READING 294

static struct {
    int (*init_ssl)(uint64_t options, const void *settings);
    const void *(*client_method)(void);
    void *(*ctx_new)(const void *method);
    void (*ctx_free)(void *ctx);
    int (*ctx_default_paths)(void *ctx);
    int (*ctx_load_locations)(void *ctx, const char *file, const char *path);
    void (*ctx_set_verify)(void *ctx, int mode, void *callback);
    long (*ctx_ctrl)(void *ctx, int command, long value, void *argument);
    void *(*ssl_new)(void *ctx);
    void (*ssl_free)(void *ssl);
    int (*set_fd)(void *ssl, int fd);
    long (*ssl_ctrl)(void *ssl, int command, long value, void *argument);
    int (*set1_host)(void *ssl, const char *host);
    void *(*get0_param)(void *ssl);
    int (*param_set1_ip_asc)(void *param, const char *address);
    int (*connect)(void *ssl);
    int (*read)(void *ssl, void *buffer, int size);
    int (*write)(void *ssl, const void *buffer, int size);
    int (*get_error)(const void *ssl, int result);
    long (*verify_result)(const void *ssl);
    const char *(*verify_string)(long code);
    unsigned long (*error_get)(void);
    unsigned long (*error_peek)(void);
    void (*error_clear)(void);
    void (*error_string)(unsigned long code, char *buffer, size_t size);
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failure[512];

static void *find(void *library, const char *name) {
    void *symbol = dlsym(library, name);
    if (symbol == NULL && failure[0] == '\0') snprintf(failure, sizeof failure, "the libssl found has no %s", name);
    return symbol;
}

static void load(void) {
    // libssl.so.3 is OpenSSL 3's name (Debian 12, Ubuntu 22.04 and later); libcurl's own TLS is the same library.
    void *library = dlopen("libssl.so.3", RTLD_LAZY | RTLD_LOCAL);
    if (library == NULL) library = dlopen("libssl.so", RTLD_LAZY | RTLD_LOCAL);
    if (library == NULL) {
        const char *why = dlerror();
        snprintf(failure, sizeof failure, "OpenSSL could not be loaded for https (%s); install it (Debian and Ubuntu: "
                 "apt-get install libssl3), or set \"transport\": \"curl\" in the config file", why ? why : "libssl.so.3 not found");
        return;
    }
    // dlsym on libssl's handle also finds libcrypto's functions: libssl depends on it.
    *(void **)&api.init_ssl = find(library, "OPENSSL_init_ssl");
    *(void **)&api.client_method = find(library, "TLS_client_method");
    *(void **)&api.ctx_new = find(library, "SSL_CTX_new");
    *(void **)&api.ctx_free = find(library, "SSL_CTX_free");
    *(void **)&api.ctx_default_paths = find(library, "SSL_CTX_set_default_verify_paths");
    *(void **)&api.ctx_load_locations = find(library, "SSL_CTX_load_verify_locations");
    *(void **)&api.ctx_set_verify = find(library, "SSL_CTX_set_verify");
    *(void **)&api.ctx_ctrl = find(library, "SSL_CTX_ctrl");
    *(void **)&api.ssl_new = find(library, "SSL_new");
    *(void **)&api.ssl_free = find(library, "SSL_free");
    *(void **)&api.set_fd = find(library, "SSL_set_fd");
    *(void **)&api.ssl_ctrl = find(library, "SSL_ctrl");
    *(void **)&api.set1_host = find(library, "SSL_set1_host");
    *(void **)&api.get0_param = find(library, "SSL_get0_param");
    *(void **)&api.param_set1_ip_asc = find(library, "X509_VERIFY_PARAM_set1_ip_asc");
    *(void **)&api.connect = find(library, "SSL_connect");
    *(void **)&api.read = find(library, "SSL_read");
    *(void **)&api.write = find(library, "SSL_write");
    *(void **)&api.get_error = find(library, "SSL_get_error");
    *(void **)&api.verify_result = find(library, "SSL_get_verify_result");
    *(void **)&api.verify_string = find(library, "X509_verify_cert_error_string");
    *(void **)&api.error_get = find(library, "ERR_get_error");
    *(void **)&api.error_peek = find(library, "ERR_peek_error");
    *(void **)&api.error_clear = find(library, "ERR_clear_error");
    *(void **)&api.error_string = find(library, "ERR_error_string_n");
    if (failure[0] == '\0' && api.init_ssl(0, NULL) != 1) snprintf(failure, sizeof failure, "OpenSSL could not be initialised");
}

static void queued_error(char *reason, size_t size, const char *otherwise) {
    unsigned long code = api.error_get();
    if (code == 0) {
        snprintf(reason, size, "%s", otherwise);
        return;
    }
    api.error_string(code, reason, size);
    while (api.error_get() != 0) {}  // the queue is per thread, and the next connection on this thread starts clean
}

void *el_tls_context(const char *ca_file, char *reason, size_t size) {
    pthread_once(&once, load);
    if (failure[0] != '\0') {
        snprintf(reason, size, "%s", failure);
        return NULL;
    }
    void *context = api.ctx_new(api.client_method());
    if (context == NULL) {
        queued_error(reason, size, "OpenSSL could not make a TLS context");
        return NULL;
    }
    int trusted = ca_file != NULL ? api.ctx_load_locations(context, ca_file, NULL) : api.ctx_default_paths(context);
    if (trusted != 1) {
        char detail[256];
        queued_error(detail, sizeof detail, "no detail");
        snprintf(reason, size, "the trusted certificates could not be read from %s (%s)",
                 ca_file != NULL ? ca_file : "the system's default place", detail);
        api.ctx_free(context);
        return NULL;
    }
    api.ctx_set_verify(context, SSL_VERIFY_PEER, NULL);
    api.ctx_ctrl(context, SSL_CTRL_SET_MIN_PROTO_VERSION, TLS1_2_VERSION, NULL);
    // A connection closed without TLS's close notice stays an error (el_tls_error's EL_TLS_CUT): an answer read to the
    // connection's end is whole only after the notice (RFC 9112 9.8), or anyone on the path could cut it short.
    return context;
}

void el_tls_context_free(void *context) { api.ctx_free(context); }

void *el_tls_new(void *context, int fd, const char *host, int is_address) {
    void *tls = api.ssl_new(context);
    if (tls == NULL) return NULL;
    int named = is_address ? api.param_set1_ip_asc(api.get0_param(tls), host)
                           : (api.ssl_ctrl(tls, SSL_CTRL_SET_TLSEXT_HOSTNAME, TLSEXT_NAMETYPE_host_name, (void *)host) == 1
                              && api.set1_host(tls, host) == 1);
    if (!named || api.set_fd(tls, fd) != 1) {
        api.ssl_free(tls);
        return NULL;
    }
    return tls;
}

void el_tls_free(void *tls) { api.ssl_free(tls); }

// OpenSSL reads its thread's error queue to tell why a call failed, so it must be empty before each call: transfer
// threads run one connection after another.
int el_tls_handshake(void *tls) {
    api.error_clear();
    return api.connect(tls);
}

int el_tls_read(void *tls, void *buffer, int size) {
    api.error_clear();
    return api.read(tls, buffer, size);
}

int el_tls_write(void *tls, const void *buffer, int size) {
    api.error_clear();
    return api.write(tls, buffer, size);
}

int el_tls_error(void *tls, int result) {
    int error = api.get_error(tls, result);
    unsigned long code = api.error_peek();
    if (error == SSL_ERROR_SSL && (code & ERR_SYSTEM_FLAG) == 0 && (code & ERR_REASON_MASK) == SSL_R_UNEXPECTED_EOF_WHILE_READING) {
        api.error_clear();
        return EL_TLS_CUT;
    }
    return error;
}

void el_tls_describe(void *tls, char *reason, size_t size) {
    long verdict = api.verify_result(tls);
    if (verdict != X509_V_OK) {
        snprintf(reason, size, "the server's certificate was refused (%s)", api.verify_string(verdict));
        while (api.error_get() != 0) {}
        return;
    }
    queued_error(reason, size, "the TLS connection failed");
}

#endif
