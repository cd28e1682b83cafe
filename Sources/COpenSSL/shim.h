#include <openssl/evp.h>
#include <openssl/err.h>
#include <openssl/crypto.h>
#include <openssl/rand.h>
#include <openssl/hmac.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/x509_vfy.h>
#include <openssl/pem.h>
#include <openssl/bio.h>
#include <openssl/ec.h>
#include <openssl/bn.h>
#include <openssl/obj_mac.h>

/// OPENSSL_free is a macro.
static inline void cossl_free(void *p) { OPENSSL_free(p); }

/// BIO_get_mem_data is a macro: the bytes written to a memory BIO, and their count.
static inline long cossl_BIO_get_mem_data(BIO *bio, char **data) { return BIO_get_mem_data(bio, data); }

/// The STACK_OF(X509) helpers are macros over OPENSSL_sk_*.
static inline STACK_OF(X509) *cossl_sk_X509_new_null(void) { return sk_X509_new_null(); }
/// Takes ownership of `cert` on success (returns the new count, 0 on failure).
static inline int cossl_sk_X509_push(STACK_OF(X509) *stack, X509 *cert) { return sk_X509_push(stack, cert); }
/// Frees the stack and every certificate in it.
static inline void cossl_sk_X509_pop_free(STACK_OF(X509) *stack) { sk_X509_pop_free(stack, X509_free); }

/// A PEM password callback that refuses: encrypted keys fail instead of prompting on a terminal.
static inline int cossl_no_password(char *buf, int size, int rwflag, void *u) {
    (void)buf; (void)size; (void)rwflag; (void)u;
    return -1;
}
static inline pem_password_cb *cossl_no_password_cb(void) { return cossl_no_password; }
