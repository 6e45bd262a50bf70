#ifndef NETKIT_CCURLOPENSSL_SHIM_H
#define NETKIT_CCURLOPENSSL_SHIM_H
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <stdlib.h>
#include <string.h>

/* Public-key pins checked while OpenSSL verifies the server's chain, inside the handshake, so a
   server whose key is not pinned never sees the client's certificate (libcurl checks
   CURLOPT_PINNEDPUBLICKEY only after the handshake). NetCurl calls netkit_pins_attach from its
   CURLOPT_SSL_CTX_FUNCTION, on the SSL_CTX libcurl makes for each new connection.
   Only for libcurl built on the same OpenSSL (NetCurl checks curl_version_info first). */

/* The pins a context checks: `count` SHA-256 digests of SubjectPublicKeyInfo DER, 32 bytes each.
   The context owns its copy (ex_data), so it may outlive the transfer that made it. */
struct netkit_pins {
    size_t count;
    unsigned char digests[];
};

static inline void netkit_pins_free(void *parent, void *pointer, CRYPTO_EX_DATA *data, int index, long argl, void *argp) {
    (void)parent; (void)data; (void)index; (void)argl; (void)argp;
    free(pointer);
}

/* The SSL_CTX ex_data slot that owns the pins; call once per process. -1 on failure. */
static inline int netkit_pins_index_new(void) {
    return CRYPTO_get_ex_new_index(CRYPTO_EX_INDEX_SSL_CTX, 0, NULL, NULL, NULL, netkit_pins_free);
}

/* Replaces the chain verification (SSL_CTX_set_cert_verify_callback): OpenSSL's own, then the
   leaf's SPKI SHA-256 against the pins. A mismatch fails with X509_V_ERR_APPLICATION_VERIFICATION. */
static inline int netkit_pins_verify(X509_STORE_CTX *store, void *argument) {
    const struct netkit_pins *pins = (const struct netkit_pins *)argument;
    int verdict = X509_verify_cert(store);
    if (verdict <= 0) return verdict;
    X509 *leaf = X509_STORE_CTX_get0_cert(store);
    unsigned char *der = NULL;
    int length = leaf != NULL ? i2d_X509_PUBKEY(X509_get_X509_PUBKEY(leaf), &der) : -1;
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int digestLength = 0;
    int hashed = length > 0 && EVP_Digest(der, (size_t)length, digest, &digestLength, EVP_sha256(), NULL) == 1 && digestLength == 32;
    OPENSSL_free(der);
    for (size_t i = 0; hashed && pins != NULL && i < pins->count; i++) {
        if (CRYPTO_memcmp(digest, pins->digests + 32 * i, 32) == 0) return 1;
    }
    X509_STORE_CTX_set_error(store, X509_V_ERR_APPLICATION_VERIFICATION);
    return 0;
}

/* Copies `count` 32-byte digests into `context` (an SSL_CTX) at ex_data `index` and makes the
   handshake check them. Forces SSL_VERIFY_PEER: under SSL_VERIFY_NONE OpenSSL would ignore the
   verdict (NetCurl always sets CURLOPT_SSL_VERIFYPEER, so nothing else changes). 1 on success. */
static inline int netkit_pins_attach(void *context, int index, const unsigned char *digests, size_t count) {
    SSL_CTX *ctx = (SSL_CTX *)context;
    if (ctx == NULL || index < 0 || digests == NULL || count == 0) return 0;
    struct netkit_pins *pins = (struct netkit_pins *)malloc(sizeof(struct netkit_pins) + 32 * count);
    if (pins == NULL) return 0;
    pins->count = count;
    memcpy(pins->digests, digests, 32 * count);
    void *previous = SSL_CTX_get_ex_data(ctx, index);
    if (SSL_CTX_set_ex_data(ctx, index, pins) != 1) {
        free(pins);
        return 0;
    }
    free(previous);
    SSL_CTX_set_cert_verify_callback(ctx, netkit_pins_verify, pins);
    SSL_CTX_set_verify(ctx, SSL_CTX_get_verify_mode(ctx) | SSL_VERIFY_PEER, SSL_CTX_get_verify_callback(ctx));
    return 1;
}

/* The OpenSSL major version this process runs (3 for OpenSSL 3.x). */
static inline unsigned int netkit_openssl_major(void) {
    return OPENSSL_version_major();
}

#endif
