"""Loads a page in headless Chromium as a person's browser would, and reports what that person would see.

    python3 browser_check.py PAGE.html SHOT.png WIDTH HEIGHT [crop=X0,Y0,X1,Y1] [#RRGGBB ...]

Prints one JSON object: the console errors Chromium logged, whether the page is wider than the window (it
would scroll sideways on a phone), the SVG texts drawn outside their chart, and how many pixels of the
screenshot (or of the part `crop` names) have each colour given. Chromium runs once, on a copy of the page with a
checking script added at its end. Standard library only: the PNG is decoded here with zlib.
"""
import itertools
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib



def find_chromium():
    """The browser: `CHROMIUM` if set; Debian's chromium (or Homebrew's `brew install --cask chromium`, which puts a
    `chromium` on PATH); else, on macOS, Chromium.app or Google Chrome.app (`brew install --cask google-chrome`, and
    on GitHub's macOS runners already), in /Applications or ~/Applications. Both take the same headless flags."""
    if os.environ.get("CHROMIUM"):
        return os.environ["CHROMIUM"]
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    for folder in ("/Applications", os.path.expanduser("~/Applications")):
        for app in ("Chromium.app/Contents/MacOS/Chromium", "Google Chrome.app/Contents/MacOS/Google Chrome"):
            if os.access(os.path.join(folder, app), os.X_OK):
                return os.path.join(folder, app)
    return "chromium"


CHROMIUM = find_chromium()
FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
         "--disable-dev-shm-usage", "--enable-logging=stderr", "--v=0", "--run-all-compositor-stages-before-draw"]

PROBE = """
<script>
(function () {
  var outside = [];
  document.querySelectorAll("svg").forEach(function (svg) {
    var box = svg.viewBox.baseVal;
    svg.querySelectorAll("text").forEach(function (text) {
      var b = text.getBBox();
      if (b.x < box.x - 1 || b.y < box.y - 1 || b.x + b.width > box.x + box.width + 1 || b.y + b.height > box.y + box.height + 1) {
        outside.push(text.textContent);
      }
    });
  });
  var wide = document.documentElement.scrollWidth > window.innerWidth + 1;
  document.body.setAttribute("data-probe", JSON.stringify({outside: outside, wide: wide, width: window.innerWidth}));
})();
</script>
"""


def run(args, timeout=120):
    home = tempfile.mkdtemp(prefix="chromium-")
    try:
        return subprocess.run([CHROMIUM] + FLAGS + ["--user-data-dir=" + home] + args, capture_output=True, text=True,
                              timeout=timeout)
    finally:
        shutil.rmtree(home, ignore_errors=True)


def console_errors(stderr):
    # Chromium logs a page's console as INFO:CONSOLE(line)] "message"; its own D-Bus and GPU chatter is not the page's.
    errors = []
    for line in stderr.splitlines():
        if "CONSOLE" in line and ("Uncaught" in line or "Error" in line or ":ERROR:" in line):
            errors.append(line)
        elif "Failed to load resource" in line or "net::ERR_" in line:
            errors.append(line)
    return errors


def pixels(path, last_row=None):
    """The PNG's pixels as (width, height, rows of bytes, bytes per pixel), for 8-bit RGB or RGBA non-interlaced; rows
    past `last_row` are not decoded (a crop needs only the rows above its bottom)."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    position, idat, width = 8, b"", 0
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0, "an 8-bit RGB(A) PNG"
            channels = 4 if colour == 6 else 3
        elif kind == b"IDAT":
            idat += body
        position += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous, offset = [], bytes(stride), 0
    for _ in range(height if last_row is None else min(height, last_row)):
        kind, line = raw[offset], raw[offset + 1:offset + 1 + stride]
        offset += 1 + stride
        if kind == 1:
            # Sub: a running sum along each channel.
            out = bytearray(stride)
            for c in range(channels):
                out[c::channels] = bytes(v & 0xFF for v in itertools.accumulate(line[c::channels]))
            line = bytes(out)
        elif kind == 2:
            line = bytes((a + b) & 0xFF for a, b in zip(line, previous))
        elif kind in (3, 4):
            line = bytearray(line)
            for i in range(stride):
                left = line[i - channels] if i >= channels else 0
                up = previous[i]
                corner = previous[i - channels] if i >= channels else 0
                if kind == 3:
                    line[i] = (line[i] + (left + up) // 2) & 0xFF
                else:
                    p = left + up - corner
                    pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                    line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 0xFF
            line = bytes(line)
        rows.append(line)
        previous = line
    return width, height, rows, channels


def main():
    page, shot, width, height = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    colours = [a for a in sys.argv[5:] if not a.startswith("crop=")]
    crops = [a[5:] for a in sys.argv[5:] if a.startswith("crop=")]
    with open(page, encoding="utf-8") as f:
        html = f.read()
    # One Chromium run takes the screenshot and dumps the DOM, of a copy of the page with the probe added: the probe
    # only sets an attribute, so the screenshot is what the page itself shows (the page loads nothing from beside it).
    probe_dir = tempfile.mkdtemp(prefix="probe-")
    try:
        probe_page = os.path.join(probe_dir, "probe.html")
        with open(probe_page, "w", encoding="utf-8") as f:
            f.write(html.replace("</body>", PROBE + "</body>"))
        shown = run(["--screenshot=" + shot, "--dump-dom", "--window-size=%d,%d" % (width, height), "file://" + probe_page])
    finally:
        shutil.rmtree(probe_dir, ignore_errors=True)
    if not os.path.exists(shot):
        sys.exit("browser_check: chromium made no screenshot:\n" + shown.stderr[-2000:])
    found = re.search(r'data-probe="([^"]*)"', shown.stdout)
    probe = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&")) if found else None
    x0, y0, x1, y1 = [int(n) for n in crops[0].split(",")] if crops else (0, 0, None, None)
    w, h, rows, channels = pixels(shot, last_row=y1 if colours else 0)
    x1 = w if x1 is None else min(x1, w)
    wanted = {bytes(int(c[i:i + 2], 16) for i in (1, 3, 5)): c for c in colours}
    counts = {c: 0 for c in colours}
    for row in rows[y0:y1]:
        for x in range(x0 * channels, x1 * channels, channels):
            colour = wanted.get(row[x:x + 3])
            if colour:
                counts[colour] += 1
    print(json.dumps({"consoleErrors": console_errors(shown.stderr), "probe": probe, "counts": counts, "width": w,
                      "height": h}))


if __name__ == "__main__":
    main()
