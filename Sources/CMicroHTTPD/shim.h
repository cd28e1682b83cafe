#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <string.h>
#include <stdint.h>
#include <stdarg.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <microhttpd.h>
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>

/// libmicrohttpd's own error messages, written to stderr with every argument replaced by "…":
/// the format strings are fixed text, the arguments can be a request's path (which may hold a
/// code or a token), so only the former may reach the log.
static void cmhd_log(void *cls, const char *fmt, va_list ap) {
    (void)cls;
    (void)ap;
    char out[600];
    size_t o = 0;
    const char *prefix = "tracedesk: serve: libmicrohttpd: ";
    for (const char *p = prefix; *p && o < sizeof out - 8; p++) out[o++] = *p;
    for (const char *f = fmt; *f && o < sizeof out - 8; f++) {
        if (*f != '%') {
            if (*f != '\n') out[o++] = *f;
            continue;
        }
        if (f[1] == '%') { out[o++] = '%'; f++; continue; }
        /* Skip flags, width, precision and length up to the conversion letter. */
        f++;
        while (*f && !((*f >= 'a' && *f <= 'z' && *f != 'h' && *f != 'l' && *f != 'j' && *f != 'z' && *f != 't')
                       || (*f >= 'A' && *f <= 'Z' && *f != 'L'))) f++;
        out[o++] = (char)0xE2; out[o++] = (char)0x80; out[o++] = (char)0xA6;  /* … */
        if (!*f) break;
    }
    out[o++] = '\n';
    ssize_t ignored = write(2, out, o);
    (void)ignored;
}

static int cmhd_hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/// Percent-decoding of paths and query values, except `%00`, which stays as the three
/// characters: a decoded NUL would silently cut the C string short (`/v1/otp%00junk` served as
/// `/v1/otp`); kept, it simply matches nothing.
static size_t cmhd_unescape(void *cls, struct MHD_Connection *connection, char *s) {
    (void)cls;
    (void)connection;
    char *r = s, *w = s;
    while (*r) {
        int hi, lo;
        if (r[0] == '%' && (hi = cmhd_hex(r[1])) >= 0 && (lo = cmhd_hex(r[2])) >= 0 && (hi | lo) != 0) {
            *w++ = (char)(hi * 16 + lo);
            r += 3;
        } else {
            *w++ = *r++;
        }
    }
    *w = 0;
    return (size_t)(w - s);
}

/// MHD_start_daemon is C-variadic, which Swift cannot call: this wrapper takes plain parameters
/// and passes the options as one MHD_OPTION_ARRAY (so the TLS ones are simply left out when not
/// used). Binds exactly `ipv4`:`port` (never every interface). `port` 0 picks an ephemeral port.
/// `ipv4` NULL: no listening socket (MHD_USE_NO_LISTEN_SOCKET; connections come from
/// MHD_add_connection, after the server's own head check).
/// `notify_connection` (may be NULL): told when each connection starts and closes.
/// `tls_key_pem`/`tls_cert_pem` NULL: plain HTTP; both set: HTTPS (MHD_USE_TLS must be in flags).
static inline struct MHD_Daemon *
cmhd_start(unsigned int flags, const char *ipv4, uint16_t port, unsigned int threads,
           unsigned int connection_timeout_s, size_t connection_memory_limit, unsigned int connection_limit,
           unsigned int per_ip_limit, const char *tls_key_pem, const char *tls_cert_pem, const char *tls_trust_pem,
           MHD_AccessHandlerCallback handler, void *handler_cls,
           MHD_RequestCompletedCallback completed, void *completed_cls,
           MHD_NotifyConnectionCallback notify_connection, void *notify_connection_cls) {
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons(port);
    if (ipv4 != NULL && inet_pton(AF_INET, ipv4, &sa.sin_addr) != 1) return NULL;
    struct MHD_OptionItem options[16];
    int n = 0;
    /* The logger first, so that no message goes to MHD's own logger (which prints arguments). */
    options[n++] = (struct MHD_OptionItem){MHD_OPTION_EXTERNAL_LOGGER, (intptr_t)cmhd_log, NULL};
    if (ipv4 != NULL) options[n++] = (struct MHD_OptionItem){MHD_OPTION_SOCK_ADDR, 0, &sa};
    options[n++] = (struct MHD_OptionItem){MHD_OPTION_THREAD_POOL_SIZE, threads > 1 ? threads : 0, NULL};
    options[n++] = (struct MHD_OptionItem){MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)completed, completed_cls};
    if (notify_connection != NULL)
        options[n++] = (struct MHD_OptionItem){MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)notify_connection,
                                               notify_connection_cls};
    options[n++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_s, NULL};
    options[n++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)connection_memory_limit, NULL};
    options[n++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_LIMIT, connection_limit, NULL};
    options[n++] = (struct MHD_OptionItem){MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip_limit, NULL};
    options[n++] = (struct MHD_OptionItem){MHD_OPTION_UNESCAPE_CALLBACK, (intptr_t)cmhd_unescape, NULL};
    if (tls_key_pem != NULL && tls_cert_pem != NULL) {
        options[n++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_KEY, 0, (void *)tls_key_pem};
        options[n++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_CERT, 0, (void *)tls_cert_pem};
        /* The authority of client certificates (his_auth certificate): GnuTLS then asks every
           client for a certificate, and a client without one still connects (the handler
           refuses it). */
        if (tls_trust_pem != NULL)
            options[n++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_TRUST, 0, (void *)tls_trust_pem};
    }
    options[n++] = (struct MHD_OptionItem){MHD_OPTION_END, 0, NULL};
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_cls, MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// The port a daemon actually listens on (after binding port 0), or 0.
static inline uint16_t cmhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// How many connections the daemon holds (open, including suspended ones).
static inline unsigned int cmhd_current_connections(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info == NULL ? 0 : info->num_connections;
}

/// A connection's socket, or -1.
static inline int cmhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// The client's address of a connection as a number, as the head gate counts addresses: an
/// IPv4 address as stored (network order), an IPv6 address's /64 (its first 8 bytes, big-endian).
static inline uint64_t cmhd_connection_source(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return 0;
    const struct sockaddr *address = info->client_addr;
    if (address->sa_family == AF_INET6) {
        const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)(const void *)address;
        uint64_t n = 0;
        for (int i = 0; i < 8; i++) n = n << 8 | v6->sin6_addr.s6_addr[i];
        return n;
    }
    if (address->sa_family == AF_INET)
        return (uint64_t)((const struct sockaddr_in *)(const void *)address)->sin_addr.s_addr;
    return 0;
}

/// A connection's socket context (set by the connection notification), or NULL.
static inline void *cmhd_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

/// Whether this libmicrohttpd was built with TLS.
static inline int cmhd_has_tls(void) { return MHD_is_feature_supported(MHD_FEATURE_TLS) == MHD_YES; }

/// The subject common name of the TLS client certificate of a connection, in `out`, only when the
/// peer's chain verified against the daemon's trust (MHD_OPTION_HTTPS_MEM_TRUST: signed by that
/// authority, within its validity, not malformed); returns 1, else 0 (no TLS, no certificate,
/// not verified, no CN, or a CN that does not fit).
static int cmhd_client_certificate_name(struct MHD_Connection *connection, char *out, size_t length) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_GNUTLS_SESSION);
    if (info == NULL || info->tls_session == NULL || length == 0) return 0;
    gnutls_session_t session = (gnutls_session_t)info->tls_session;
    unsigned int status = 0;
    if (gnutls_certificate_verify_peers2(session, &status) != GNUTLS_E_SUCCESS || status != 0) return 0;
    unsigned int count = 0;
    const gnutls_datum_t *chain = gnutls_certificate_get_peers(session, &count);
    if (chain == NULL || count == 0) return 0;
    gnutls_x509_crt_t certificate;
    if (gnutls_x509_crt_init(&certificate) != GNUTLS_E_SUCCESS) return 0;
    int ok = 0;
    size_t size = length;
    if (gnutls_x509_crt_import(certificate, &chain[0], GNUTLS_X509_FMT_DER) == GNUTLS_E_SUCCESS &&
        gnutls_x509_crt_get_dn_by_oid(certificate, GNUTLS_OID_X520_COMMON_NAME, 0, 0, out, &size) ==
            GNUTLS_E_SUCCESS &&
        size < length && memchr(out, 0, size) == NULL) {
        out[size] = 0;
        ok = 1;
    }
    gnutls_x509_crt_deinit(certificate);
    return ok;
}
/// The client's address of a connection as text (IPv4 dotted, IPv6 colon form) in `out`;
/// returns 1, or 0 when libmicrohttpd does not know it.
static int cmhd_client_address(struct MHD_Connection *connection, char *out, size_t length) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL || length == 0) return 0;
    const struct sockaddr *address = info->client_addr;
    if (address->sa_family == AF_INET) {
        const struct sockaddr_in *v4 = (const struct sockaddr_in *)(const void *)address;
        return inet_ntop(AF_INET, &v4->sin_addr, out, (socklen_t)length) != NULL;
    }
    if (address->sa_family == AF_INET6) {
        const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)(const void *)address;
        return inet_ntop(AF_INET6, &v6->sin6_addr, out, (socklen_t)length) != NULL;
    }
    return 0;
}

#endif
