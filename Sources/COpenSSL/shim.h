#ifndef RECORDER_COPENSSL_SHIM_H
#define RECORDER_COPENSSL_SHIM_H

// libcrypto's message digests (OpenSSL 3, the library libcurl already loads for HTTPS): SHA-256
// for the metadata and x-amz-content-sha256, MD5 for Content-MD5 and S3 ETags, and HMAC-SHA256 for
// presigned links (SigV4 query signing, which libcurl does not do). Only StorageUpload imports this module.
#include <openssl/evp.h>
#include <openssl/hmac.h>
// X.509 certificates' dates, for `recorder doctor`'s look at the booth's TLS certificates.
#include <openssl/bio.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <time.h>

/// The first certificate of PEM text (a chain's first is the server's own), or NULL.
static inline X509 *copenssl_read_pem_certificate(const void *bytes, int count) {
    BIO *bio = BIO_new_mem_buf(bytes, count);
    if (bio == NULL) return NULL;
    X509 *certificate = PEM_read_bio_X509(bio, NULL, NULL, NULL);
    BIO_free(bio);
    return certificate;
}

/// A certificate's notBefore (`which` 0) or notAfter (1) as seconds since 1970 (UTC); 0 when it
/// has none that reads.
static inline int64_t copenssl_certificate_time(const X509 *certificate, int which) {
    const ASN1_TIME *time = which == 0 ? X509_get0_notBefore(certificate) : X509_get0_notAfter(certificate);
    struct tm parts;
    if (time == NULL || ASN1_TIME_to_tm(time, &parts) != 1) return 0;
    return (int64_t)timegm(&parts);
}

/// The certificate's subject as one line ("/CN=booth.example.com"), into `text` (NUL-ended).
static inline void copenssl_certificate_subject(const X509 *certificate, char *text, int length) {
    text[0] = 0;
    X509_NAME_oneline(X509_get_subject_name(certificate), text, length);
}

#endif
