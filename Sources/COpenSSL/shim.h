#include <openssl/evp.h>
#include <openssl/err.h>
#include <openssl/crypto.h>
#include <openssl/rand.h>
#include <openssl/x509.h>

/// OPENSSL_free is a macro.
static inline void cossl_free(void *p) { OPENSSL_free(p); }
