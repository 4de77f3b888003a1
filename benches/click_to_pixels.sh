#!/usr/bin/env bash
# Click to changed pixels under software rendering: starts the release app under Xvfb (1600x1000, Mesa's llvmpipe /
# lavapipe, no GPU) on a generated DGX SuperPOD H100 design, clicks the File menu (open, close, open, ...) through
# XTest, as xdotool does, and polls that corner of the screen (XGetImage) until its pixels change. Reports, per
# click, the time to the first changed pixels and to the last change (the screen settled), and the CPU time the app
# spent on the click (all its threads, Mesa's rasteriser included, from /proc/PID/stat); then the medians. Last,
# the idle CPU with a text field focused (the palette's search field), over 20 s.
# The app writes its frame log (RACKSMITH_FRAME_LOG, src/app/frame_log.rs), so each click also reports the frames it
# caused (those drawn from the press until the screen settled) and the longest of them (the app's own ui time).
#
# MODE picks what is clicked:
#   MODE=menu (default)  the File menu, open and close;
#   MODE=select          a rack on the canvas (an empty unit near its top: selects it) and the empty floor,
#                        alternately; the changes are looked for around the rack (SELECT_AT=x,y, FLOOR_AT=x,y);
#   MODE=drag            a server pressed (DRAG_FROM=x,y) and dragged a unit down and back, DRAG_STEPS moves
#                        (default 60) DRAG_MS apart (default 10 ms), released where it started (no edit); reports
#                        the frames per second drawn during the drag and the longest gap between two frames, from
#                        the frame log. CLICKS drags.
# The default points are those of the 4-SU design at 1600x1000 (`cargo bench --bench frame_cost` prints them for
# each size it measures).
#
#   cargo build --release
#   benches/click_to_pixels.sh [SU] [CLICKS]          # defaults: 4 SU, 5 clicks
#   RACKSMITH_RENDERER=wgpu benches/click_to_pixels.sh 4   # the other renderer (glow is the desktop default)
#   PRE_CLICK=737,37 benches/click_to_pixels.sh 4      # in the floor view (the toolbar's Floor at 1600x1000)
#   MODE=select benches/click_to_pixels.sh 4 8          # clicks on a rack on the canvas
#   MODE=drag benches/click_to_pixels.sh 4 3            # drags of a server, frames per second
#
# Needs xvfb and python3 (X11 and XTest through ctypes: libx11-6, libxtst6). The figures depend on the load of the
# machine: run it on a quiet one and read the load average it prints.
set -euo pipefail
cd "$(dirname "$0")/.."

SU=${1:-4}
CLICKS=${2:-5}
BIN=${RACKSMITH_BIN:-target/release/racksmith}
DISPLAY_NUM=${DISPLAY_NUM:-:97}
WORK=$(mktemp -d)
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT

[ -x "$BIN" ] || { echo "no $BIN: run cargo build --release first" >&2; exit 2; }
"$BIN" new superpod-h100 --su "$SU" -o "$WORK/design.ron" >/dev/null

Xvfb "$DISPLAY_NUM" -screen 0 1600x1000x24 -nolisten tcp >"$WORK/xvfb.log" 2>&1 &
PIDS+=($!)
sleep 1
# A home of its own: no recovery offers, recent files or window state from another session.
HOME="$WORK" RACKSMITH_FRAME_LOG="$WORK/frames.log" XDG_CONFIG_HOME="$WORK/config" XDG_DATA_HOME="$WORK/data" DISPLAY="$DISPLAY_NUM" \
  "$BIN" "$WORK/design.ron" >"$WORK/app.log" 2>&1 &
APP=$!
PIDS+=("$APP")

DISPLAY="$DISPLAY_NUM" python3 - "$APP" "$CLICKS" "$SU" "$WORK/frames.log" <<'PY'
import ctypes, ctypes.util, os, statistics, sys, time

app, clicks, su, frame_log = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
mode = os.environ.get("MODE", "menu")
x11 = ctypes.CDLL(ctypes.util.find_library("X11"))
xtst = ctypes.CDLL(ctypes.util.find_library("Xtst"))
x11.XOpenDisplay.restype = ctypes.c_void_p
x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
x11.XDefaultRootWindow.restype = ctypes.c_ulong
x11.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
x11.XGetImage.restype = ctypes.c_void_p
x11.XGetImage.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int, ctypes.c_uint,
                          ctypes.c_uint, ctypes.c_ulong, ctypes.c_int]
x11.XGetSubImage.restype = ctypes.c_void_p
x11.XGetSubImage.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int, ctypes.c_uint,
                             ctypes.c_uint, ctypes.c_ulong, ctypes.c_int, ctypes.c_void_p, ctypes.c_int,
                             ctypes.c_int]
x11.XFlush.argtypes = [ctypes.c_void_p]
x11.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
xtst.XTestFakeMotionEvent.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_ulong]
xtst.XTestFakeButtonEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_ulong]


class XImage(ctypes.Structure):
    _fields_ = [("width", ctypes.c_int), ("height", ctypes.c_int), ("xoffset", ctypes.c_int),
                ("format", ctypes.c_int), ("data", ctypes.c_void_p), ("byte_order", ctypes.c_int),
                ("bitmap_unit", ctypes.c_int), ("bitmap_bit_order", ctypes.c_int), ("bitmap_pad", ctypes.c_int),
                ("depth", ctypes.c_int), ("bytes_per_line", ctypes.c_int), ("bits_per_pixel", ctypes.c_int)]


dpy = x11.XOpenDisplay(None)
if not dpy:
    sys.exit("cannot open the display")
root = x11.XDefaultRootWindow(dpy)
ALL_PLANES, ZPIXMAP = (1 << 64) - 1, 2


def point(name, default):
    return tuple(int(v) for v in os.environ.get(name, default).split(","))


# The File menu's button and the corner its menu opens in; or a rack and the floor, and the square around the rack.
CLICK = (22, 12)
REGION = (0, 0, 320, 320)
if mode == "select":
    CLICK = point("SELECT_AT", "479,188")
    FLOOR = point("FLOOR_AT", "279,110")
    REGION = (max(CLICK[0] - 160, 0), max(CLICK[1] - 160, 0), 320, 320)
elif mode == "drag":
    CLICK = point("DRAG_FROM", "490,268")
    REGION = (max(CLICK[0] - 160, 0), max(CLICK[1] - 160, 0), 320, 320)
img = x11.XGetImage(dpy, root, *REGION, ALL_PLANES, ZPIXMAP)
im = XImage.from_address(img)
size = im.bytes_per_line * im.height


def grab(region=REGION):
    x11.XGetSubImage(dpy, root, *region, ALL_PLANES, ZPIXMAP, img, 0, 0)
    return ctypes.string_at(im.data, size)


def cpu_ms():
    with open(f"/proc/{app}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def frames(since_s, until_s):
    """The frame log's lines drawn between two wall-clock times: (unix ms, ui ms) each."""
    out = []
    try:
        with open(frame_log) as f:
            for line in f:
                parts = line.split()
                if len(parts) >= 5 and since_s * 1000 <= float(parts[1]) <= until_s * 1000:
                    out.append((float(parts[1]), float(parts[3])))
    except FileNotFoundError:
        pass
    return out


def click(at):
    xtst.XTestFakeMotionEvent(dpy, -1, *at, 0)
    xtst.XTestFakeButtonEvent(dpy, 1, 1, 0)
    xtst.XTestFakeButtonEvent(dpy, 1, 0, 0)
    x11.XFlush(dpy)


def settle(quiet_s, limit_s):
    """Waits until the corner has not changed for quiet_s; returns when it last changed."""
    last, changed = grab(), time.perf_counter()
    end = time.perf_counter() + limit_s
    while time.perf_counter() < end:
        time.sleep(0.005)
        now = grab()
        if now != last:
            last, changed = now, time.perf_counter()
        elif time.perf_counter() - changed >= quiet_s:
            return changed
    return changed


# The app is up when the corner has drawn something and stayed put for 3 s (the design laid out and analysed).
start = time.perf_counter()
while len(set(grab()[::4096])) < 2:
    if time.perf_counter() - start > 120:
        sys.exit("the window never appeared")
    time.sleep(0.2)
settle(3.0, 120)
# PRE_CLICK=x,y: one click before the measured ones, e.g. on the toolbar's Floor to measure in the floor view.
if os.environ.get("PRE_CLICK"):
    xtst.XTestFakeMotionEvent(dpy, -1, *(int(v) for v in os.environ["PRE_CLICK"].split(",")), 0)
    x11.XSync(dpy, 0)
    time.sleep(0.3)
    xtst.XTestFakeButtonEvent(dpy, 1, 1, 0)
    xtst.XTestFakeButtonEvent(dpy, 1, 0, 0)
    x11.XFlush(dpy)
    time.sleep(2)
    settle(2.0, 60)
xtst.XTestFakeMotionEvent(dpy, -1, *CLICK, 0)
x11.XSync(dpy, 0)
settle(1.0, 10)

def drag(i):
    """One drag of the server a unit down and back, released where it started; prints its frames per second."""
    steps, gap = int(os.environ.get("DRAG_STEPS", "60")), float(os.environ.get("DRAG_MS", "10")) / 1000
    c0, w0 = cpu_ms(), time.time()
    xtst.XTestFakeMotionEvent(dpy, -1, *CLICK, 0)
    xtst.XTestFakeButtonEvent(dpy, 1, 1, 0)
    x11.XFlush(dpy)
    for k in range(steps):
        time.sleep(gap)
        # Down 24 px (about a unit at the fitted zoom) and back up, a pixel or so a step.
        dy = round(24 * (1 - abs(2 * k / (steps - 1) - 1)))
        xtst.XTestFakeMotionEvent(dpy, -1, CLICK[0], CLICK[1] + dy, 0)
        x11.XFlush(dpy)
    w1 = time.time()
    xtst.XTestFakeButtonEvent(dpy, 1, 0, 0)
    x11.XFlush(dpy)
    settle(1.0, 10)
    drawn = frames(w0, w1)
    span = w1 - w0
    times = [w0 * 1000] + [t for t, _ in drawn] + [w1 * 1000]
    gaps = [b - a for a, b in zip(times, times[1:])]
    fps = len(drawn) / span
    print(f"drag {i + 1}: {len(drawn)} frames in {span * 1000:.0f} ms, {fps:.1f} frames per second, longest gap "
          f"{max(gaps):.0f} ms, longest ui {max((u for _, u in drawn), default=0):.1f} ms, app CPU "
          f"{cpu_ms() - c0:.0f} ms")
    return fps


if mode == "drag":
    rates = [drag(i) for i in range(clicks)]
    load = open("/proc/loadavg").read().split()[0]
    print(f"{su} SU, drag, {clicks} drags, load average {load}: median {statistics.median(rates):.1f} frames per "
          f"second")
    sys.exit(0)

first, last, cpu, counts = [], [], [], []
for i in range(clicks):
    at = FLOOR if mode == "select" and i % 2 else CLICK
    before = grab()
    c0 = cpu_ms()
    w0 = time.time()
    t0 = time.perf_counter()
    click(at)
    while grab() == before:
        if time.perf_counter() - t0 > 10:
            sys.exit("no change 10 s after the click")
        time.sleep(0.001)
    t1 = time.perf_counter()
    t2 = max(settle(1.0, 10), t1)
    c1 = cpu_ms()
    first.append((t1 - t0) * 1000)
    last.append((t2 - t0) * 1000)
    # The 1 s of quiet after the last change is in the CPU window too: an app that keeps drawing shows here.
    cpu.append(c1 - c0)
    drawn = frames(w0, time.time())
    counts.append(len(drawn))
    print(f"click {i + 1}: first change {first[-1]:.0f} ms, settled {last[-1]:.0f} ms, app CPU {cpu[-1]:.0f} ms, "
          f"{len(drawn)} frames (longest ui {max((u for _, u in drawn), default=0):.1f} ms)")

# Idle with a text field focused: the palette's search field clicked (twice: the first click may only close the
# menu), then the app's CPU over IDLE_S seconds (20 by default) with nothing happening.
idle_s = float(os.environ.get("IDLE_S", "20"))
SEARCH = (150, 97)
xtst.XTestFakeMotionEvent(dpy, -1, *SEARCH, 0)
x11.XSync(dpy, 0)
for _ in range(2):
    time.sleep(0.3)
    xtst.XTestFakeButtonEvent(dpy, 1, 1, 0)
    xtst.XTestFakeButtonEvent(dpy, 1, 0, 0)
    x11.XFlush(dpy)
    settle(1.0, 10)
time.sleep(2)
c0 = cpu_ms()
time.sleep(idle_s)
idle = (cpu_ms() - c0) / (idle_s * 1000) * 100

load = open("/proc/loadavg").read().split()[0]
renderer = os.environ.get("RACKSMITH_RENDERER", "default")
print(f"{su} SU, {mode}, renderer {renderer}, {clicks} clicks, load average {load}: median click to changed pixels "
      f"{statistics.median(first):.0f} ms, to settled {statistics.median(last):.0f} ms, "
      f"app CPU per click {statistics.median(cpu):.0f} ms, {statistics.median(counts):.0f} frames per click; idle with the search field focused: {idle:.1f}% of a "
      f"core over {idle_s:.0f} s")
PY
