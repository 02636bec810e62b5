// Kernel headers only: the process-descriptor system call, which glibc 2.36 wraps in a header
// Swift's Glibc module leaves out, and which `syscall` (variadic) cannot reach from Swift; and
// glibc's malloc_trim (malloc.h, which Swift's Glibc module leaves out too).
#ifndef RECORDER_CPROCESS_SHIM_H
#define RECORDER_CPROCESS_SHIM_H

#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>
#include <errno.h>
#include <malloc.h>
#include <fcntl.h>

/// A descriptor that becomes readable when process `pid` ends (Linux 5.3 and later), close-on-exec;
/// -1 with errno set on failure.
static inline int cprocess_pidfd_open(pid_t pid) {
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    errno = ENOSYS;
    return -1;
#endif
}

/// Gives the pages of freed memory in every malloc arena back to the system; 1 when any went back.
static inline int cprocess_malloc_trim(void) {
    return malloc_trim(0);
}

/// A pipe whose two ends are close-on-exec (pipe2, a GNU extension Swift's Glibc module leaves out),
/// so no other child the process starts meanwhile holds its write end open; -1 with errno on failure.
static inline int cprocess_pipe_cloexec(int fds[2]) {
    return (int)syscall(SYS_pipe2, fds, O_CLOEXEC);
}

#endif
