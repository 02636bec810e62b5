// alsa-lib for capture, and typed wrappers for what Swift cannot import (the snd_pcm_*_alloca
// macros, the variadic error handler). Owned by the AudioCapture module only.
#ifndef RECORDER_CALSA_SHIM_H
#define RECORDER_CALSA_SHIM_H

#include <alsa/asoundlib.h>
#include <stdint.h>

// alsa-lib prints "ALSA lib confmisc.c:165:(snd_config_get_card) ..." to stderr on every failed
// open; the recorder reports the same failure as a typed error that names the fix, so the
// library's own lines are only noise. The handler is variadic, which Swift cannot define.
static void calsa_quiet_error_handler(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}
static inline void calsa_silence_library_errors(void) { snd_lib_error_set_handler(calsa_quiet_error_handler); }

// A status's high-resolution timestamp in microseconds (0 when the driver gives none).
static inline int64_t calsa_status_htstamp_us(const snd_pcm_status_t *status) {
    snd_htimestamp_t t;
    snd_pcm_status_get_htstamp(status, &t);
    return (int64_t)t.tv_sec * 1000000 + (int64_t)t.tv_nsec / 1000;
}

#endif
