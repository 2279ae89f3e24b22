// TLS for the built-in HTTP client (NativeSession): the system's OpenSSL (libssl.so.3), loaded with dlopen by the first
// https request, so a run over plain http or none at all loads no TLS library. Declared here without OpenSSL's headers
// (SSL and SSL_CTX are opaque pointers); the constants used are OpenSSL's public ABI, unchanged since 1.1.
#ifndef EXPENSE_LOG_CTLS_H
#define EXPENSE_LOG_CTLS_H
#if defined(__linux__)

#include <stddef.h>

/// SSL_get_error's answers that a caller acts on.
enum {
    EL_TLS_WANT_READ = 2,
    EL_TLS_WANT_WRITE = 3,
    EL_TLS_SYSCALL = 5,
    EL_TLS_CLOSED = 6,
    /// Not OpenSSL's: the connection ended without TLS's close notice (OpenSSL 3's "unexpected eof while reading").
    EL_TLS_CUT = 100,
};

/// Loads libssl (libssl.so.3, else whatever libssl.so is) and sets up a TLS 1.2-or-later client context that verifies the server's certificate against the system's trusted
/// certificates (OpenSSL's default paths, which SSL_CERT_FILE and SSL_CERT_DIR override), or against `ca_file` alone
/// when it is not NULL. Returns the context, or NULL after writing why into `reason` (NUL-terminated).
void *el_tls_context(const char *ca_file, char *reason, size_t size);
void el_tls_context_free(void *context);

/// A TLS connection over the connected socket `fd`, for the host `host` (a name, sent as SNI and checked against the
/// certificate; or an IP address when `is_address` is not 0). NULL when OpenSSL cannot make one.
void *el_tls_new(void *context, int fd, const char *host, int is_address);
void el_tls_free(void *tls);

/// SSL_connect, SSL_read, SSL_write: > 0 on success; otherwise pass the result to el_tls_error.
int el_tls_handshake(void *tls);
int el_tls_read(void *tls, void *buffer, int size);
int el_tls_write(void *tls, const void *buffer, int size);
/// SSL_get_error for the last call's result, or EL_TLS_CUT.
int el_tls_error(void *tls, int result);
/// Why the last call failed, for a person: the certificate check's verdict, or OpenSSL's error queue.
void el_tls_describe(void *tls, char *reason, size_t size);

#endif
#endif
