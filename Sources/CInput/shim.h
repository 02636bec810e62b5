// Typed wrappers for the evdev ioctls Swift cannot import (EVIOCGRAB, EVIOCGNAME(len) and
// EVIOCSCLOCKID are function-like macros) and the event's fields. Owned by TriggerInput only.
#ifndef RECORDER_CINPUT_SHIM_H
#define RECORDER_CINPUT_SHIM_H

#include <linux/input.h>
#include <sys/ioctl.h>
#include <time.h>
#include <stdint.h>

/// Takes the device for this descriptor alone (1) or gives it back (0): while taken, no other
/// reader (the X server, the browser) sees its keys.
static inline int cinput_grab(int fd, int take) { return ioctl(fd, EVIOCGRAB, (unsigned long)(take ? 1 : 0)); }
/// The device's name as the driver gives it ("PCsensor FootSwitch"), NUL-terminated in `name`.
static inline int cinput_name(int fd, char *name, int length) { return ioctl(fd, EVIOCGNAME(length), name); }
/// Events timestamped on CLOCK_MONOTONIC (evdev's default is the wall clock, which can jump).
static inline int cinput_use_monotonic_clock(int fd) {
    int clock = CLOCK_MONOTONIC;
    return ioctl(fd, EVIOCSCLOCKID, &clock);
}
/// Whether the device sends key events at all (EVIOCGBIT of the event types).
static inline int cinput_has_keys(int fd) {
    unsigned long types = 0;
    if (ioctl(fd, EVIOCGBIT(0, sizeof types), &types) < 0) return -1;
    return (types >> EV_KEY) & 1;
}

static const int CINPUT_EVENT_SIZE = (int)sizeof(struct input_event);
static const uint16_t CINPUT_EV_KEY = EV_KEY;
/// An event's fields, from the bytes read(2) gave (one struct input_event).
static inline uint16_t cinput_event_type(const void *event) { return ((const struct input_event *)event)->type; }
static inline int32_t cinput_event_value(const void *event) { return ((const struct input_event *)event)->value; }
static inline uint16_t cinput_event_code(const void *event) { return ((const struct input_event *)event)->code; }
static inline int64_t cinput_event_microseconds(const void *event) {
    const struct input_event *e = (const struct input_event *)event;
    return (int64_t)e->input_event_sec * 1000000 + (int64_t)e->input_event_usec;
}

#endif
