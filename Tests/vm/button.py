#!/usr/bin/env python3
"""A booth button for the device tests: a virtual keyboard made through /dev/uinput (the kernel's
own input core, evdev and its autorepeat), driven one command per line, and the checks around it.

    button.py serve NAME    reads commands on stdin, answers "done COMMAND" on stdout:
        plug            create the device (a USB button is a keyboard with one key: Enter)
        unplug          destroy it, as pulling the plug does
        press           Enter down, 0.1 s, up
        hold SECONDS    Enter held down (the kernel repeats it, as for a real keyboard), then up
        chatter         a bouncing contact: down/up edges 3 ms apart, then a bounce on release
        press-stop URL  press; once the kiosk at URL says it records, 1 s later press again
    button.py node NAME     prints /dev/input/eventN of the input device called NAME
    button.py spy NODE SECONDS READY  reads NODE (not taken) for SECONDS, creating the file READY once
                                      it listens; prints how many key events came
    button.py wait URL EXPR SECONDS   polls the kiosk's URL/api/status until EXPR (Python, the status
                                      as `s`) holds; exit 1 with the last status when it never does
    button.py get URL EXPR       prints EXPR of the kiosk's status

No python3-evdev needed: the uinput ioctls are computed here from linux/uinput.h."""
import fcntl, json, os, select, struct, sys, time, urllib.request

UI_SET_EVBIT = 0x40045564     # _IOW('U', 100, int)
UI_SET_KEYBIT = 0x40045565    # _IOW('U', 101, int)
UI_DEV_SETUP = 0x405C5503     # _IOW('U', 3, struct uinput_setup): input_id (4 x u16), name[80], u32
UI_DEV_CREATE = 0x5501        # _IO('U', 1)
UI_DEV_DESTROY = 0x5502       # _IO('U', 2)
EV_SYN, EV_KEY, EV_REP = 0x00, 0x01, 0x14
KEY_ENTER = 28
EVENT = "llHHi"               # struct input_event on 64-bit: timeval, type, code, value
BUS_USB = 0x03


class Button:
    def __init__(self, name):
        self.name, self.fd = name, None

    def plug(self):
        self.fd = os.open("/dev/uinput", os.O_WRONLY | os.O_NONBLOCK)
        fcntl.ioctl(self.fd, UI_SET_EVBIT, EV_KEY)
        fcntl.ioctl(self.fd, UI_SET_EVBIT, EV_REP)   # the input core repeats a held key
        fcntl.ioctl(self.fd, UI_SET_KEYBIT, KEY_ENTER)
        setup = struct.pack("HHHH80sI", BUS_USB, 0x1234, 0x5678, 1, self.name.encode(), 0)
        fcntl.ioctl(self.fd, UI_DEV_SETUP, setup)
        fcntl.ioctl(self.fd, UI_DEV_CREATE)
        # The node appears a moment after UI_DEV_CREATE.
        for _ in range(100):
            if node(self.name):
                return
            time.sleep(0.05)

    def unplug(self):
        fcntl.ioctl(self.fd, UI_DEV_DESTROY)
        os.close(self.fd)
        self.fd = None

    def key(self, value):
        os.write(self.fd, struct.pack(EVENT, 0, 0, EV_KEY, KEY_ENTER, value))
        os.write(self.fd, struct.pack(EVENT, 0, 0, EV_SYN, 0, 0))

    def press(self):
        self.key(1); time.sleep(0.1); self.key(0)

    def press_stop(self, url):
        # Both presses from this one running process: a wait in a new Python (its start takes
        # seconds under emulation on a busy machine) once outlasted the kiosk's whole 6 s shot.
        self.press()
        if wait(url, "s['state'] == 'recording'", 60) == 0:
            time.sleep(1)
        self.press()

    def hold(self, seconds):
        self.key(1); time.sleep(seconds); self.key(0)

    def chatter(self):
        for value in (1, 0, 1, 0, 1):
            self.key(value); time.sleep(0.003)
        time.sleep(0.2)
        for value in (0, 1, 0):
            self.key(value); time.sleep(0.003)


def node(name):
    for entry in sorted(os.listdir("/sys/class/input")):
        if entry.startswith("event"):
            try:
                with open(f"/sys/class/input/{entry}/device/name") as f:
                    if f.read().strip() == name:
                        return "/dev/input/" + entry
            except OSError:
                pass
    return None


def spy(path, seconds, ready):
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    # (python starts slowly under emulation: the caller presses only once this file exists)
    open(ready, "w").close()
    keys, end = 0, time.time() + seconds
    while time.time() < end:
        ready, _, _ = select.select([fd], [], [], max(0, end - time.time()))
        if not ready:
            continue
        try:
            data = os.read(fd, 24 * 64)
        except BlockingIOError:
            continue
        keys += sum(1 for i in range(0, len(data), 24) if struct.unpack(EVENT, data[i:i + 24])[2] == EV_KEY)
    return keys


def status(url):
    with urllib.request.urlopen(url + "/api/status", timeout=10) as r:
        return json.load(r)


def wait(url, expression, seconds):
    end, last = time.time() + seconds, None
    while time.time() < end:
        try:
            last = status(url)
            if eval(expression, {"s": last}):
                return 0
        except Exception as e:  # not answering yet, or a field not there yet
            last = last or repr(e)
        time.sleep(0.2)
    brief = {k: last.get(k) for k in ("state", "trigger", "currentShot", "message")} if isinstance(last, dict) else last
    print(f"never true in {seconds} s: {expression}; last status {json.dumps(brief)}")
    return 1


if sys.argv[1] == "serve":
    button = Button(sys.argv[2])
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "hold":
            button.hold(float(words[1]))
        elif words[0] == "press-stop":
            button.press_stop(words[1])
        else:
            getattr(button, words[0])()
        print("done", " ".join(words), flush=True)
elif sys.argv[1] == "node":
    print(node(sys.argv[2]) or "")
elif sys.argv[1] == "spy":
    print(spy(sys.argv[2], float(sys.argv[3]), sys.argv[4]))
elif sys.argv[1] == "wait":
    sys.exit(wait(sys.argv[2], sys.argv[3], float(sys.argv[4])))
elif sys.argv[1] == "get":
    print(eval(sys.argv[3], {"s": status(sys.argv[2])}))
