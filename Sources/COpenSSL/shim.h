#ifndef RECORDER_COPENSSL_SHIM_H
#define RECORDER_COPENSSL_SHIM_H

// libcrypto's message digests (OpenSSL 3, the library libcurl already loads for HTTPS): SHA-256
// for the metadata and x-amz-content-sha256, MD5 for Content-MD5 and S3 ETags, and HMAC-SHA256 for
// presigned links (SigV4 query signing, which libcurl does not do). Only StorageUpload imports this module.
#include <openssl/evp.h>
#include <openssl/hmac.h>

#endif
