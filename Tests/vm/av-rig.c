// The A/V sync rig for the device tests (Tests/vm/device/65-sound.sh) and Benchmarks/av-sync.sh:
// ONE process that, every EVERY seconds (2), shows a white picture on a v4l2loopback output node
// (320x240 YUYV, or GREY with -g, or whichever of the two the node already keeps; FPS frames a
// second, continuous) and plays a 0.1 s 1 kHz beep at -6 dBFS (else digital silence) on an ALSA
// playback PCM (snd-aloop's hw:Loopback,0,0: 48000 Hz, S16_LE, STEREO, the same tone on both
// channels; stereo because that is what ffmpeg's alsa input asks by default), both at the same
// instant. The pictures between flashes are not plain black but dark greys that count the frames
// since the flash (below), so a cycle can still be timed when a busy recorder dropped its flash.
// What a recorder makes of it all is measured from its file alone (Tests/vm/av-offsets.py).
//
// Calibration (when the beep is heard, and the flash seen):
//   * Sound. The playback PCM runs with a small buffer (period 10 ms, buffer 100 ms, kept ~80 ms
//     full: under emulation the rig is sometimes held up for tens of ms) and driver timestamps
//     (CLOCK_MONOTONIC, the clock of V4L2 buffer timestamps). Before every write, snd_pcm_status()
//     gives, coherently, TS (when the hardware position last moved) and the delay D (frames written
//     but not yet played), so the frame at absolute position P plays - and snd-aloop copies it to
//     the capture side at the same timer tick - at TS + (P - (written - D)) / 48000. An event's beep
//     is placed at the position whose play time is the event's time, when that position is about to
//     be written (~80 ms ahead); its exact play time B follows from that same mapping.
//   * Picture. Frames go out by streaming I/O (mmap + VIDIOC_QBUF) with each frame's timestamp set
//     to the moment it stands for: v4l2loopback keeps a writer's non-zero QBUF timestamp (write()
//     would stamp the moment of the copy), as a camera driver stamps a frame with its capture time
//     however late a reader takes it. The event's first white frame is stamped B to the microsecond
//     and queued when the clock reaches B; how late it was queued (the rig's wake-up under load,
//     typically 0.2-5 ms under qemu) no longer matters to the measurement and is only reported.
//   * One line per event: "rig: event K: beep plays at B (placed N frames ahead of the play head,
//     position P; card clock X ppm over 5 events); flash stamped B, queued L ms later". X is the
//     card's clock against CLOCK_MONOTONIC over the last ~10 s (+-400 ppm: the 4 ms ticks), "nan"
//     across an underrun or a hold-up. "rig: held up N ms, from A to B" when the guest stopped the
//     rig for longer than the frames it keeps ahead (see the main loop).
// Precision: snd-aloop moves its positions on jiffies ticks (HZ=250 in Debian's kernel: 4 ms), and
// a status timestamp is when the position was last seen to move, 0-4 ms after the tick; the
// recorder's capture stamps carry the same 0-4 ms ambiguity, so a perfect recorder's pairs lie
// within about +-4 ms of 0 (measured at the card's own clock: -3..+4 ms). ffprobe's onsets add
// nothing (a synthetic file with a known 10 ms offset reads +10.0 ms). The rest is the recorder's.
// With snd-aloop's "PCM Rate Shift 100000" set (device=1,subdevice=0 for this cable; 100300 makes
// the card 0.3% slow, 99700 0.3% fast), the rig follows the card (its mapping is taken afresh
// before every write, <100 ms ahead: 0.3% moves a beep by <0.3 ms), and the recorder must too.
// Underruns: if the rig is starved past its buffer it counts an underrun and restarts the stream;
// an event whose beep was written before it is reported "LOST" and gets no flash ("after a
// hold-up" when the guest had just held it up).
//
// Build: cc -O2 -o av-rig av-rig.c -lasound -lm
// Usage: av-rig [-v /dev/video10] [-a hw:Loopback,0,0] [-r FPS] [-e EVERY_S] [-t SECONDS] [-g]
//   runs until SIGTERM/SIGINT or SECONDS; the first event is 1 s after the start. Runs SCHED_FIFO
//   when allowed (root in the guest): it uses little CPU (frames rendered once, whole-buffer copies).
//
// Built with -DAV_RIG_READI_FAULT (cc -shared -fPIC -DAV_RIG_READI_FAULT -o readi-fault.so av-rig.c
// -ldl) the same file is instead an LD_PRELOAD shim for the recorder over alsa-lib's
// snd_pcm_readi (recorder links libasound.so.2 and calls it through its PLT): after
// RECORDER_TEST_ALSA_FAULT=enodev:N successful reads every later read says -ENODEV, as a USB
// microphone pulled out does (snd-aloop cannot be unplugged).
#define _GNU_SOURCE
#ifdef AV_RIG_READI_FAULT
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

typedef long (*readi_fn)(void *, void *, unsigned long);
static long reads_done;

long snd_pcm_readi(void *pcm, void *buffer, unsigned long size) {
    static readi_fn real;
    if (!real) real = (readi_fn)dlsym(RTLD_NEXT, "snd_pcm_readi");
    const char *fault = getenv("RECORDER_TEST_ALSA_FAULT");
    long after = (fault && strncmp(fault, "enodev:", 7) == 0) ? atol(fault + 7) : -1;
    if (after >= 0 && reads_done >= after) return -ENODEV;
    long got = real(pcm, buffer, size);
    if (got > 0) reads_done++;
    return got;
}
#else
#include <alsa/asoundlib.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define RATE 48000
#define CHANNELS 2
#define WIDTH 320
#define HEIGHT 240
#define PERIOD_FRAMES 480   // 10 ms
#define BUFFER_FRAMES 4800  // 100 ms
#define FILL_FRAMES 3840    // kept ~80 ms ahead
#define BEEP_FRAMES 4800    // 0.1 s
#define MAX_EVENTS 4096
#define MAX_COUNTED 32    // frames 1..32 of a cycle carry their number in their luma

static volatile sig_atomic_t stopping;
static void on_signal(int sig) { (void)sig; stopping = 1; }

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void sleep_until(int64_t ns) {
    struct timespec ts = {.tv_sec = ns / 1000000000LL, .tv_nsec = ns % 1000000000LL};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR && !stopping) {}
}

static void die(const char *what, const char *detail) {
    fprintf(stderr, "av-rig: %s: %s\n", what, detail);
    exit(1);
}

// One event: its beep's absolute position and play time, once placed.
struct event {
    int placed;      // beep position chosen
    int64_t pos;     // absolute frame position of the beep's first sample
    int64_t play_ns; // when that sample plays
    int64_t ts, head; // the play head's position and time when it was placed
    long xruns;      // underruns before it was placed
    long holdups;    // hold-ups (see the loop) before it was placed
    double ppm;      // the card's clock rate against CLOCK_MONOTONIC, in ppm
    long ahead;      // frames between the play head and the beep when it was placed
    int shown;       // flash written (or reported lost)
    int flashed;     // flash written
};

int main(int argc, char **argv) {
    const char *video = "/dev/video10", *audio = "hw:Loopback,0,0";
    double fps = 15, every = 2, seconds = 0;
    int opt, grey = 0;
    while ((opt = getopt(argc, argv, "v:a:r:e:t:g")) != -1) {
        switch (opt) {
        case 'v': video = optarg; break;
        case 'a': audio = optarg; break;
        case 'r': fps = atof(optarg); break;
        case 'e': every = atof(optarg); break;
        case 't': seconds = atof(optarg); break;
        case 'g': grey = 1; break;
        default: fprintf(stderr, "usage: av-rig [-v VIDEO] [-a PCM] [-r FPS] [-e EVERY] [-t SECONDS] [-g]\n"); return 64;
        }
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    // Real-time priority (root in the guest): the rig uses little CPU, and a starved rig is late.
    struct sched_param sp = {.sched_priority = 20};
    int fifo = sched_setscheduler(0, SCHED_FIFO, &sp) == 0;

    // The picture: 320x240 YUYV (or GREY), black (luma 16) and white (235), rendered once. A
    // v4l2loopback node keeps the format of its first writer: the one it answers with is used.
    int vfd = open(video, O_RDWR);
    if (vfd < 0) die(video, strerror(errno));
    // v4l2loopback 0.12 with exclusive_caps: after a write() producer (ffmpeg) has gone, the node
    // offers neither capture nor output, and the first VIDIOC_QUERYCAP then makes the V4L2 core
    // refuse VIDIOC_S_FMT for output (EINVAL). A writer that has called STREAMON on output
    // restores "ready for output" when it closes: be that writer once, then open again.
    struct v4l2_capability cap;
    if (ioctl(vfd, VIDIOC_QUERYCAP, &cap) == 0 && !(cap.device_caps & (V4L2_CAP_VIDEO_OUTPUT | V4L2_CAP_VIDEO_CAPTURE))) {
        enum v4l2_buf_type out = V4L2_BUF_TYPE_VIDEO_OUTPUT;
        ioctl(vfd, VIDIOC_STREAMON, &out);
        close(vfd);
        if ((vfd = open(video, O_RDWR)) < 0) die(video, strerror(errno));
        ioctl(vfd, VIDIOC_QUERYCAP, &cap);
        printf("rig: %s offered neither capture nor output (v4l2loopback after a write() producer): reset, now %s\n", video,
               cap.device_caps & V4L2_CAP_VIDEO_OUTPUT ? "an output" : "still not an output");
    }
    struct v4l2_format fmt = {.type = V4L2_BUF_TYPE_VIDEO_OUTPUT};
    fmt.fmt.pix.width = WIDTH;
    fmt.fmt.pix.height = HEIGHT;
    fmt.fmt.pix.pixelformat = grey ? V4L2_PIX_FMT_GREY : V4L2_PIX_FMT_YUYV;
    fmt.fmt.pix.field = V4L2_FIELD_NONE;
    fmt.fmt.pix.bytesperline = grey ? WIDTH : WIDTH * 2;
    fmt.fmt.pix.sizeimage = fmt.fmt.pix.bytesperline * HEIGHT;
    if (ioctl(vfd, VIDIOC_S_FMT, &fmt) < 0) die("VIDIOC_S_FMT", strerror(errno));
    if (fmt.fmt.pix.width != WIDTH || fmt.fmt.pix.height != HEIGHT ||
        (fmt.fmt.pix.pixelformat != V4L2_PIX_FMT_GREY && fmt.fmt.pix.pixelformat != V4L2_PIX_FMT_YUYV))
        die("VIDIOC_S_FMT", "the node keeps another format than 320x240 YUYV or GREY (it keeps its first writer's)");
    grey = fmt.fmt.pix.pixelformat == V4L2_PIX_FMT_GREY;
    struct v4l2_streamparm parm = {.type = V4L2_BUF_TYPE_VIDEO_OUTPUT};
    parm.parm.output.timeperframe.numerator = 1000;
    parm.parm.output.timeperframe.denominator = (unsigned)(fps * 1000 + 0.5);
    ioctl(vfd, VIDIOC_S_PARM, &parm);  // the capture side's advertised rate; not essential
    size_t frame_bytes = (size_t)WIDTH * HEIGHT * (grey ? 1 : 2);
    // Frame k of an event's cycle (k frames after its flash's first frame) is one flat luma that
    // says k, so a cycle can be timed from any of its frames when a busy recorder dropped the flash
    // (Tests/vm/av-offsets.py): the flash frames white, 235 - 20k (> 180), then dark grey, 16 + 5k
    // (<= 180) up to k = 32; black (16: no number) before the first event, after a lost one, and
    // from k = 33 on.
    unsigned char *white[3], *dark[MAX_COUNTED + 1];
    for (int k = 0; k <= MAX_COUNTED; k++) {
        for (int w = 0; w < 2; w++) {
            if (w && k >= 3) continue;
            unsigned char *f = malloc(frame_bytes);
            int luma = w ? 235 - 20 * k : 16 + 5 * k;
            for (size_t i = 0; i < frame_bytes; i++) f[i] = (!grey && i % 2 == 1) ? 128 : (unsigned char)luma;
            if (w) white[k] = f; else dark[k] = f;
        }
    }
    unsigned char *black_frame = dark[0];
    // Streaming output (mmap + QBUF), so each frame carries the timestamp of the moment it shows:
    // v4l2loopback keeps a writer's non-zero QBUF timestamp, as a camera driver stamps a frame
    // with its capture time however late the reader takes it.
    struct v4l2_requestbuffers req = {.count = 2, .type = V4L2_BUF_TYPE_VIDEO_OUTPUT, .memory = V4L2_MEMORY_MMAP};
    if (ioctl(vfd, VIDIOC_REQBUFS, &req) < 0 || req.count < 1) die("VIDIOC_REQBUFS", strerror(errno));
    int nbufs = req.count > 8 ? 8 : (int)req.count;
    unsigned char *maps[8];
    for (int i = 0; i < nbufs; i++) {
        struct v4l2_buffer b = {.index = (unsigned)i, .type = V4L2_BUF_TYPE_VIDEO_OUTPUT, .memory = V4L2_MEMORY_MMAP};
        if (ioctl(vfd, VIDIOC_QUERYBUF, &b) < 0) die("VIDIOC_QUERYBUF", strerror(errno));
        maps[i] = mmap(NULL, b.length, PROT_READ | PROT_WRITE, MAP_SHARED, vfd, b.m.offset);
        if (maps[i] == MAP_FAILED) die("mmap", strerror(errno));
    }
    enum v4l2_buf_type out_type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
    if (ioctl(vfd, VIDIOC_STREAMON, &out_type) < 0) die("VIDIOC_STREAMON", strerror(errno));
    int64_t frames_out = 0;

    // The sound: the beep rendered once (1 kHz, 48 samples a cycle, -6 dBFS), silence otherwise.
    int16_t *beep = malloc(sizeof(int16_t) * BEEP_FRAMES * CHANNELS);
    for (int i = 0; i < BEEP_FRAMES; i++) {
        int16_t v = (int16_t)lrint(16384 * sin(2 * M_PI * 1000.0 * i / RATE));
        for (int c = 0; c < CHANNELS; c++) beep[i * CHANNELS + c] = v;
    }
    int16_t *chunk = malloc(sizeof(int16_t) * BUFFER_FRAMES * CHANNELS);

    snd_pcm_t *pcm;
    int err = snd_pcm_open(&pcm, audio, SND_PCM_STREAM_PLAYBACK, 0);
    if (err < 0) die(audio, snd_strerror(err));
    snd_pcm_hw_params_t *hw;
    snd_pcm_hw_params_alloca(&hw);
    snd_pcm_hw_params_any(pcm, hw);
    if ((err = snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED)) < 0 ||
        (err = snd_pcm_hw_params_set_format(pcm, hw, SND_PCM_FORMAT_S16_LE)) < 0 ||
        (err = snd_pcm_hw_params_set_channels(pcm, hw, CHANNELS)) < 0 ||
        (err = snd_pcm_hw_params_set_rate(pcm, hw, RATE, 0)) < 0)
        die("playback format 48000 Hz S16_LE stereo", snd_strerror(err));
    snd_pcm_uframes_t period = PERIOD_FRAMES, buffer = BUFFER_FRAMES;
    int dir = 0;
    snd_pcm_hw_params_set_period_size_near(pcm, hw, &period, &dir);
    snd_pcm_hw_params_set_buffer_size_near(pcm, hw, &buffer);
    if ((err = snd_pcm_hw_params(pcm, hw)) < 0) die("snd_pcm_hw_params", snd_strerror(err));
    snd_pcm_hw_params_get_period_size(hw, &period, &dir);
    snd_pcm_hw_params_get_buffer_size(hw, &buffer);
    long fill = buffer > FILL_FRAMES + period / 2 ? FILL_FRAMES : (long)buffer - (long)period / 2;
    snd_pcm_sw_params_t *sw;
    snd_pcm_sw_params_alloca(&sw);
    snd_pcm_sw_params_current(pcm, sw);
    snd_pcm_sw_params_set_tstamp_mode(pcm, sw, SND_PCM_TSTAMP_ENABLE);
    snd_pcm_sw_params_set_tstamp_type(pcm, sw, SND_PCM_TSTAMP_TYPE_MONOTONIC);
    snd_pcm_sw_params_set_start_threshold(pcm, sw, fill);  // starts once the first fill is written
    if ((err = snd_pcm_sw_params(pcm, sw)) < 0) die("snd_pcm_sw_params", snd_strerror(err));
    snd_pcm_status_t *status;
    snd_pcm_status_alloca(&status);

    int64_t start = now_ns();
    int64_t first_event = start + 1000000000LL, event_ns = (int64_t)(every * 1e9), frame_ns = (int64_t)(1e9 / fps);
    int frames_per_event = (int)lrint(every * fps);
    if (frames_per_event < 2) die("options", "EVERY must be at least two frames");
    int flash_frames = (int)ceil(0.1 * fps - 1e-9);  // white for the beep's 0.1 s, 1 to 3 frames
    if (flash_frames < 1) flash_frames = 1;
    if (flash_frames > 3) flash_frames = 3;
    printf("rig: start at %.6f: %s %s %dx%d at %g fps, %s 48000 Hz S16_LE stereo (period %lu, buffer %lu, kept %ld "
           "frames ahead), an event every %g s from %.6f, %s\n", start / 1e9, video, grey ? "GREY" : "YUYV", WIDTH, HEIGHT, fps, audio,
           (unsigned long)period, (unsigned long)buffer, fill, every, first_event / 1e9,
           fifo ? "SCHED_FIFO" : "normal priority (SCHED_FIFO refused)");

    static struct event events[MAX_EVENTS];
    int64_t written = 0;  // absolute frames written since the stream (re)started
    long xruns = 0, lost = 0, shown = 0;
    double max_late_ms = 0;
    // Video frame j is due at first_event + j*frame_ns (j < 0: the second before the first event).
    int64_t frame_index = -(int64_t)((first_event - start) / frame_ns);
    int64_t end = seconds > 0 ? start + (int64_t)(seconds * 1e9) : INT64_MAX;
    int next_event = 0;

    // The rig's turns are at most half a period (5 ms) apart. A turn that comes as late as the
    // frames kept ahead last (fill: 80 ms) means the rig was held up past them, and under emulation
    // that is the whole guest (the rig is SCHED_FIFO): the card has run out of fresh frames.
    // snd-aloop's timer then moves its positions by the whole stall at once and copies what the
    // playback ring holds to the capture side, stale frames included (a beep heard again, or cut),
    // and past the 100 ms buffer without an underrun being seen (its pointer is taken modulo the
    // buffer, so the play head the rig computes loses whole buffers). What a recorder made of
    // the sound captured then says nothing about the recorder: each hold-up is logged,
    // "rig: held up N ms, from A to B", for the tests to leave its pairs unjudged; the card's
    // clock is not measured across one; an underrun after one is said to be its.
    int64_t last_turn = 0, last_holdup = 0, stall_ns = (int64_t)fill * 1000000000LL / RATE;
    long holdups = 0, lost_to_holdups = 0;
    while (!stopping && now_ns() < end) {
        // 1. Picture first (an event's first frame is due at its beep's play time, to the
        //    microsecond): at most one frame per turn.
        int64_t now = now_ns();
        if (last_turn && now - last_turn >= stall_ns) {
            holdups++;
            last_holdup = now;
            printf("rig: held up %.1f ms, from %.6f to %.6f\n", (now - last_turn) / 1e6, last_turn / 1e9, now / 1e9);
        }
        last_turn = now;
        int64_t k = frame_index >= 0 ? frame_index / frames_per_event : -1;
        int phase = frame_index >= 0 ? (int)(frame_index % frames_per_event) : -1;
        struct event *e = (k >= 0 && k < MAX_EVENTS) ? &events[k] : NULL;
        int waiting_for_beep = e && phase == 0 && !e->placed && !e->shown;
        int flash_start = e && phase == 0 && e->placed && !e->shown;
        int64_t due = flash_start ? e->play_ns : first_event + frame_index * frame_ns;
        if (!waiting_for_beep && now >= due) {
            int counted = e && (flash_start || e->flashed) && phase <= MAX_COUNTED;
            unsigned char *picture = !counted ? black_frame : phase < flash_frames ? white[phase] : dark[phase];
            int slot = (int)(frames_out++ % nbufs);
            memcpy(maps[slot], picture, frame_bytes);
            struct v4l2_buffer b = {.index = (unsigned)slot, .type = V4L2_BUF_TYPE_VIDEO_OUTPUT, .memory = V4L2_MEMORY_MMAP,
                                    .bytesused = (unsigned)frame_bytes, .field = V4L2_FIELD_NONE};
            b.timestamp.tv_sec = due / 1000000000LL;
            b.timestamp.tv_usec = (due % 1000000000LL) / 1000;
            if (ioctl(vfd, VIDIOC_QBUF, &b) < 0) die("VIDIOC_QBUF", strerror(errno));
            int64_t after = now_ns();
            if (flash_start) {
                e->shown = e->flashed = 1; shown++;
                double late_ms = (after - due) / 1e6;
                if (late_ms > max_late_ms) max_late_ms = late_ms;
                printf("rig: event %lld: beep plays at %.6f (placed %ld frames ahead of the play head, position %lld; "
                       "card clock %+.0f ppm over 5 events); flash stamped %.6f, queued %.3f ms later\n", (long long)k, e->play_ns / 1e9,
                       e->ahead, (long long)e->pos, e->ppm, (due / 1000) / 1e6, late_ms);
            }
            frame_index++;
        }

        // 2. Sound: top the buffer up to `fill` frames ahead, placing any beep due in what is written.
        int64_t ts_ns = 0;
        snd_pcm_sframes_t delay = 0;
        if ((err = snd_pcm_status(pcm, status)) < 0) die("snd_pcm_status", snd_strerror(err));
        snd_pcm_state_t state = snd_pcm_status_get_state(status);
        if (state == SND_PCM_STATE_XRUN) {
            xruns++;
            int held = last_holdup && now_ns() - last_holdup < 500000000LL;
            printf("rig: underrun %ld at %.6f%s\n", xruns, now_ns() / 1e9, held ? " (after a hold-up)" : "");
            snd_pcm_prepare(pcm);
            // What was written and not played is gone: the events placed there are lost.
            for (int j = next_event; j < MAX_EVENTS && events[j].placed; j++)
                if (!events[j].shown) {
                    events[j].shown = 1; lost++;
                    if (held) lost_to_holdups++;
                    printf("rig: event %d: LOST (an underrun before its beep played%s)\n", j, held ? ", after a hold-up" : "");
                }
            written = 0;  // positions restart with the stream
            continue;
        }
        int running = state == SND_PCM_STATE_RUNNING;
        if (running) {
            snd_htimestamp_t ht;
            snd_pcm_status_get_htstamp(status, &ht);
            ts_ns = (int64_t)ht.tv_sec * 1000000000LL + ht.tv_nsec;
            delay = snd_pcm_status_get_delay(status);
        }
        now = now_ns();
        if (!running || ts_ns == 0) { ts_ns = now; delay = written; }  // prepared: starts once filled
        long want = fill - (long)delay;
        if (want >= (long)period / 2) {
            if (want > (long)buffer) want = buffer;
            memset(chunk, 0, sizeof(int16_t) * want * CHANNELS);
            int64_t head = written - delay;  // the play head: this position plays at ts_ns
            while (next_event < MAX_EVENTS && events[next_event].shown) next_event++;
            for (int j = next_event; j < MAX_EVENTS; j++) {
                int64_t t = first_event + j * event_ns;
                if (t > now + 1000000000LL) break;
                struct event *ev = &events[j];
                if (ev->shown) continue;
                if (!ev->placed) {
                    int64_t pos = head + (t - ts_ns) * RATE / 1000000000LL;
                    if (pos >= written + want) continue;  // not yet
                    if (pos < written) pos = written;     // late (a starved rig): as soon as it can
                    ev->placed = 1; ev->pos = pos; ev->ahead = (long)(pos - head);
                    ev->play_ns = ts_ns + (pos - head) * 1000000000LL / RATE;
                    // The card's clock against CLOCK_MONOTONIC over the last 5 events (~10 s: the 4 ms
                    // ticks make it +-400 ppm), as snd-aloop's Rate Shift sets it.
                    ev->ts = ts_ns; ev->head = head; ev->xruns = xruns; ev->holdups = holdups;
                    struct event *ref = j >= 5 ? &events[j - 5] : NULL;
                    ev->ppm = (ref && ref->placed && ref->xruns == xruns && ref->holdups == holdups)
                        ? ((double)(head - ref->head) * 1e9 / RATE / (double)(ts_ns - ref->ts) - 1) * 1e6 : NAN;
                }
                for (int64_t p = ev->pos > written ? ev->pos : written; p < ev->pos + BEEP_FRAMES && p < written + want; p++)
                    memcpy(&chunk[(p - written) * CHANNELS], &beep[(p - ev->pos) * CHANNELS], sizeof(int16_t) * CHANNELS);
            }
            snd_pcm_sframes_t n = snd_pcm_writei(pcm, chunk, want);
            if (n == -EPIPE) continue;  // the status says XRUN next turn
            if (n < 0) {
                if (snd_pcm_recover(pcm, (int)n, 1) < 0) die("snd_pcm_writei", snd_strerror((int)n));
                continue;
            }
            written += n;
        }

        // 3. Sleep until the next frame or the next top-up (half a period), whichever is first.
        k = frame_index >= 0 ? frame_index / frames_per_event : -1;
        phase = frame_index >= 0 ? (int)(frame_index % frames_per_event) : -1;
        e = (k >= 0 && k < MAX_EVENTS) ? &events[k] : NULL;
        due = (e && phase == 0 && e->placed && !e->shown) ? e->play_ns : first_event + frame_index * frame_ns;
        int64_t next = now_ns() + (int64_t)period * 1000000000LL / RATE / 2;
        if (!(e && phase == 0 && !e->placed && !e->shown) && due < next) next = due;
        sleep_until(next);
    }
    printf("rig: stopped at %.6f: %ld events shown, %ld lost (%ld after hold-ups), %ld underruns, %ld hold-ups, flashes queued at most "
           "%.2f ms after their stamp\n", now_ns() / 1e9, shown, lost, lost_to_holdups, xruns, holdups, max_late_ms);
    snd_pcm_drop(pcm);
    snd_pcm_close(pcm);
    close(vfd);
    return 0;
}
#endif
