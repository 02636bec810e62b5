// zlib's CRC-32, and one that folds sixteen bytes a step with carry-less multiplication where the
// processor has it, for the ZIP archives' members. Owned by StorageUpload only.
#ifndef RECORDER_CZLIB_SHIM_H
#define RECORDER_CZLIB_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

/// Whether the processor multiplies without carries (PCLMULQDQ) and has SSE4.1.
static inline int czlib_has_clmul(void) {
    unsigned int a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    return (c & bit_PCLMUL) != 0 && (c & bit_SSE4_1) != 0;
}

// The fold constants: for a distance of D bits, x^(D+32) and x^(D-32) modulo the CRC-32
// polynomial, bit-reflected and shifted left once (the product of two reflected numbers lands one
// bit low). Each is the power after it, reduced by long division over GF(2).
#define CZLIB_K_512_LOW 0x154442bd4ULL /* x^544 */
#define CZLIB_K_512_HIGH 0x1c6e41596ULL /* x^480 */
#define CZLIB_K_128_LOW 0x1751997d0ULL /* x^160 */
#define CZLIB_K_128_HIGH 0x0ccaa009eULL /* x^96 */

__attribute__((target("pclmul,sse4.1")))
static inline __m128i czlib_fold(__m128i x, __m128i k, __m128i next) {
    return _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00), _mm_clmulepi64_si128(x, k, 0x11)), next);
}

/// crc32_z's answer for `crc` followed by `buf`: four lanes of sixteen bytes folded 64 bytes ahead
/// at a time, then into one lane; that lane's sixteen bytes, as a message of their own, have the
/// same remainder as everything folded into them (so zlib finishes it, and any bytes after the last
/// sixteen). Only where czlib_has_clmul().
__attribute__((target("pclmul,sse4.1")))
static inline unsigned long czlib_crc32_clmul(unsigned long crc, const unsigned char *buf, size_t len) {
    if (len < 128) return crc32_z(crc, buf, len);
    size_t whole = len & ~(size_t)15;
    const unsigned char *p = buf + 64;
    size_t left = whole - 64;
    __m128i x0 = _mm_loadu_si128((const __m128i *)buf), x1 = _mm_loadu_si128((const __m128i *)(buf + 16));
    __m128i x2 = _mm_loadu_si128((const __m128i *)(buf + 32)), x3 = _mm_loadu_si128((const __m128i *)(buf + 48));
    // (the running remainder, as zlib keeps it inverted, added to the first four bytes)
    x0 = _mm_xor_si128(x0, _mm_cvtsi32_si128((int)~(uint32_t)crc));
    __m128i k = _mm_set_epi64x((long long)CZLIB_K_512_HIGH, (long long)CZLIB_K_512_LOW);
    for (; left >= 64; p += 64, left -= 64) {
        x0 = czlib_fold(x0, k, _mm_loadu_si128((const __m128i *)p));
        x1 = czlib_fold(x1, k, _mm_loadu_si128((const __m128i *)(p + 16)));
        x2 = czlib_fold(x2, k, _mm_loadu_si128((const __m128i *)(p + 32)));
        x3 = czlib_fold(x3, k, _mm_loadu_si128((const __m128i *)(p + 48)));
    }
    k = _mm_set_epi64x((long long)CZLIB_K_128_HIGH, (long long)CZLIB_K_128_LOW);
    x0 = czlib_fold(x0, k, x1);
    x0 = czlib_fold(x0, k, x2);
    x0 = czlib_fold(x0, k, x3);
    for (; left >= 16; p += 16, left -= 16) x0 = czlib_fold(x0, k, _mm_loadu_si128((const __m128i *)p));
    unsigned char lane[16];
    _mm_storeu_si128((__m128i *)lane, x0);
    unsigned long folded = crc32_z(0xFFFFFFFFUL, lane, 16);
    return crc32_z(folded, buf + whole, len - whole);
}
#else
static inline int czlib_has_clmul(void) { return 0; }
static inline unsigned long czlib_crc32_clmul(unsigned long crc, const unsigned char *buf, size_t len) { return crc32_z(crc, buf, len); }
#endif

#endif
