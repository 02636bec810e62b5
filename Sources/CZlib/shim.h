// zlib's CRC-32, and ones that fold sixteen bytes a step with carry-less multiplication (four lanes
// of them, or sixteen in AVX-512 registers) where the processor has it, for the ZIP archives' members. Owned by StorageUpload only.
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

/// The CRC from four lanes x0..x3 that hold everything before `p` (as the remainder's image), then
/// `left` bytes from `p` (whole sixteens) and the `count` bytes at `tail`: lanes folded 64 bytes
/// ahead at a time, then into one lane; that lane's sixteen bytes, as a message of their own, have
/// the same remainder as everything folded into them (so zlib finishes it, and any bytes after the
/// last sixteen).
__attribute__((target("pclmul,sse4.1")))
static inline unsigned long czlib_fold_rest(__m128i x0, __m128i x1, __m128i x2, __m128i x3, const unsigned char *p, size_t left,
                                            const unsigned char *tail, size_t count) {
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
    return crc32_z(folded, tail, count);
}

/// crc32_z's answer for `crc` followed by `buf`: four lanes of sixteen bytes folded 64 bytes ahead
/// at a time (`czlib_fold_rest`). Only where czlib_has_clmul().
__attribute__((target("pclmul,sse4.1")))
static inline unsigned long czlib_crc32_clmul(unsigned long crc, const unsigned char *buf, size_t len) {
    if (len < 128) return crc32_z(crc, buf, len);
    size_t whole = len & ~(size_t)15;
    __m128i x0 = _mm_loadu_si128((const __m128i *)buf), x1 = _mm_loadu_si128((const __m128i *)(buf + 16));
    __m128i x2 = _mm_loadu_si128((const __m128i *)(buf + 32)), x3 = _mm_loadu_si128((const __m128i *)(buf + 48));
    // (the running remainder, as zlib keeps it inverted, added to the first four bytes)
    x0 = _mm_xor_si128(x0, _mm_cvtsi32_si128((int)~(uint32_t)crc));
    return czlib_fold_rest(x0, x1, x2, x3, buf + 64, whole - 64, buf + whole, len - whole);
}

/// Whether the processor also multiplies without carries in 64-byte registers (VPCLMULQDQ with
/// AVX-512), and the system saves those registers (XCR0: SSE, AVX, opmask and the upper ZMM state).
static inline int czlib_has_wide_clmul(void) {
    unsigned int a, b, c, d;
    if (!czlib_has_clmul() || !__get_cpuid(1, &a, &b, &c, &d) || (c & bit_OSXSAVE) == 0) return 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d) || (b & bit_AVX512F) == 0 || (c & bit_VPCLMULQDQ) == 0) return 0;
    unsigned int low, high;
    __asm__("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
    return (low & 0xE6) == 0xE6;
}

#define CZLIB_K_2048_LOW 0x11542778aULL /* x^2080 */
#define CZLIB_K_2048_HIGH 0x1322d1430ULL /* x^2016 */

/// czlib_fold four lanes at once, in a 64-byte register.
__attribute__((target("vpclmulqdq,avx512f")))
static inline __m512i czlib_fold4(__m512i x, __m512i k, __m512i next) {
    // (0x96: the three inputs added, a ^ b ^ c)
    return _mm512_ternarylogic_epi64(_mm512_clmulepi64_epi128(x, k, 0x00), _mm512_clmulepi64_epi128(x, k, 0x11), next, 0x96);
}

/// As czlib_crc32_clmul, sixteen lanes folded 256 bytes ahead at a time in four 64-byte registers,
/// then into four lanes 64 bytes apart for `czlib_fold_rest`. Only where czlib_has_wide_clmul().
__attribute__((target("vpclmulqdq,avx512f,pclmul,sse4.1")))
static inline unsigned long czlib_crc32_wide_clmul(unsigned long crc, const unsigned char *buf, size_t len) {
    if (len < 512) return czlib_crc32_clmul(crc, buf, len);
    size_t whole = len & ~(size_t)15;
    __m512i z0 = _mm512_loadu_si512((const void *)buf), z1 = _mm512_loadu_si512((const void *)(buf + 64));
    __m512i z2 = _mm512_loadu_si512((const void *)(buf + 128)), z3 = _mm512_loadu_si512((const void *)(buf + 192));
    z0 = _mm512_xor_si512(z0, _mm512_zextsi128_si512(_mm_cvtsi32_si128((int)~(uint32_t)crc)));
    const unsigned char *p = buf + 256;
    size_t left = whole - 256;
    __m512i k = _mm512_broadcast_i32x4(_mm_set_epi64x((long long)CZLIB_K_2048_HIGH, (long long)CZLIB_K_2048_LOW));
    for (; left >= 256; p += 256, left -= 256) {
        z0 = czlib_fold4(z0, k, _mm512_loadu_si512((const void *)p));
        z1 = czlib_fold4(z1, k, _mm512_loadu_si512((const void *)(p + 64)));
        z2 = czlib_fold4(z2, k, _mm512_loadu_si512((const void *)(p + 128)));
        z3 = czlib_fold4(z3, k, _mm512_loadu_si512((const void *)(p + 192)));
    }
    // Each register into the next, 64 bytes on: four lanes, each 64 bytes before the next one's.
    k = _mm512_broadcast_i32x4(_mm_set_epi64x((long long)CZLIB_K_512_HIGH, (long long)CZLIB_K_512_LOW));
    z1 = czlib_fold4(z0, k, z1);
    z2 = czlib_fold4(z1, k, z2);
    z3 = czlib_fold4(z2, k, z3);
    return czlib_fold_rest(_mm512_extracti32x4_epi32(z3, 0), _mm512_extracti32x4_epi32(z3, 1), _mm512_extracti32x4_epi32(z3, 2),
                           _mm512_extracti32x4_epi32(z3, 3), p, left, buf + whole, len - whole);
}
#else
static inline int czlib_has_clmul(void) { return 0; }
static inline int czlib_has_wide_clmul(void) { return 0; }
static inline unsigned long czlib_crc32_clmul(unsigned long crc, const unsigned char *buf, size_t len) { return crc32_z(crc, buf, len); }
static inline unsigned long czlib_crc32_wide_clmul(unsigned long crc, const unsigned char *buf, size_t len) { return crc32_z(crc, buf, len); }
#endif

#endif
