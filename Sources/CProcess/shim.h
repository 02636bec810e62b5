// Kernel headers only: the process-descriptor system call, which glibc 2.36 wraps in a header
// Swift's Glibc module leaves out, and which `syscall` (variadic) cannot reach from Swift; and
// glibc's malloc_trim (malloc.h, which Swift's Glibc module leaves out too); splice, tee and a
// pipe's size (GNU extensions the module leaves out).
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

/// splice(2) with no offsets (both ends a pipe or a socket): moves up to `count` bytes from `from`
/// to `to` in the kernel, as page references; -1 with errno set on failure.
static inline long cprocess_splice(int from, int to, size_t count, unsigned int flags) {
    return syscall(SYS_splice, from, NULL, to, NULL, count, flags);
}

/// tee(2): up to `count` of the bytes in pipe `from` also into pipe `to`, leaving them in `from`.
static inline long cprocess_tee(int from, int to, size_t count, unsigned int flags) {
    return syscall(SYS_tee, from, to, count, flags);
}

/// splice's flags (fcntl.h, under _GNU_SOURCE).
static const unsigned int cprocess_splice_move = 1, cprocess_splice_nonblock = 2, cprocess_splice_more = 4;

/// Asks for a pipe of `bytes` (F_SETPIPE_SZ; a process without CAP_SYS_RESOURCE gets at most
/// /proc/sys/fs/pipe-max-size): the size it has now, or -1 with errno set.
static inline int cprocess_set_pipe_size(int fd, int bytes) {
    return fcntl(fd, 1031 /* F_SETPIPE_SZ */, bytes);
}

/// A pipe's size (F_GETPIPE_SZ), or -1 with errno set.
static inline int cprocess_pipe_size(int fd) {
    return fcntl(fd, 1032 /* F_GETPIPE_SZ */);
}

#endif
