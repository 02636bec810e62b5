// Faults a real driver cannot produce on demand, for the device tests: loaded with LD_PRELOAD in
// front of libv4l2, it passes every call through to the real v4l2_ioctl except, after N frames
// (RECORDER_TEST_V4L2_FAULT=kind:N):
//   bad-index:N  one VIDIOC_DQBUF hands back a buffer index the driver never mapped;
//   eagain:N     every later VIDIOC_DQBUF says EAGAIN although poll said ready (a driver with
//                nothing to give after all), which must end as a stall, not a busy loop forever.
// Build: cc -shared -fPIC -o v4l2-faults.so v4l2-faults.c -ldl
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <linux/videodev2.h>

typedef int (*ioctl_fn)(int, unsigned long, ...);

static long frames_seen;

int v4l2_ioctl(int fd, unsigned long request, ...) {
    static ioctl_fn real;
    if (!real) real = (ioctl_fn)dlsym(RTLD_NEXT, "v4l2_ioctl");
    va_list ap;
    va_start(ap, request);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    const char *fault = getenv("RECORDER_TEST_V4L2_FAULT");
    if (request != VIDIOC_DQBUF || !fault) return real(fd, request, arg);
    const char *colon = strchr(fault, ':');
    long after = colon ? atol(colon + 1) : 0;
    if (strncmp(fault, "eagain:", 7) == 0 && frames_seen >= after) {
        errno = EAGAIN;
        return -1;
    }
    int result = real(fd, request, arg);
    if (result == 0 && ++frames_seen == after + 1 && strncmp(fault, "bad-index:", 10) == 0) {
        ((struct v4l2_buffer *)arg)->index += 1000;
    }
    return result;
}
