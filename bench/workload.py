"""The benchmark's data and its reference server: deterministic items, CSV rows and caches.

Everything is generated from a fixed seed, so two runs (and two commits) measure the same work.
"""

import csv
import json
import os
import random
import socket
import ssl
import subprocess
import sys
import urllib.request
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SERVER = os.path.join(ROOT, "Tests", "ReferenceServer", "server.py")
# The test certificates (a test CA, and localhost's signed by it) the https scenarios serve and trust.
TLS = os.path.join(ROOT, "Tests", "ReferenceServer", "tls")
CA = os.path.join(TLS, "ca.pem")

# Whether the scenarios' servers answer over TLS (bench.py --https): set once, before any server starts.
HTTPS = False


def trust_env():
    """The variables that make every client of a run trust the test CA: OpenSSL's tools, Python and expense-log read
    SSL_CERT_FILE, the curl command CURL_CA_BUNDLE."""
    return {"SSL_CERT_FILE": CA, "CURL_CA_BUNDLE": CA} if HTTPS else {}

# Names as a household writes them: Japanese and English, some with a comma or quotes (CSV must quote them).
NAMES = ["コーヒー", "紅茶", "ラーメン", "スーパー 食料品", "コンビニ おにぎり", "電車 定期券", "ガソリン",
         "ドラッグストア", "Amazon 日用品", "本", "映画", "ランチ, 定食", "カフェ \"駅前\"", "パン屋",
         "Netflix", "Uber Eats", "クリーニング", "文房具", "100円ショップ", "お菓子"]
# Every (category, sub) pair of the built-in catalogue.
CATEGORIES = [(0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 1), (1, 2)]
DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]


def month_items(year, month, count, rng):
    """`count` items dated in one month, in the wire shape, with random UUID ids."""
    items = []
    for _ in range(count):
        category, sub = rng.choice(CATEGORIES)
        items.append({"id": str(uuid.UUID(int=rng.getrandbits(128))).upper(),
                      "date": f"{year}{month:02d}{rng.randint(1, DAYS_IN_MONTH[month - 1]):02d}",
                      "name": rng.choice(NAMES), "price": rng.randint(50, 30_000),
                      "category": category, "categorySub": sub})
    return items


def write_import_csv(path, rows, year, seed=5):
    """A native-layout CSV (no ids: the client makes them) of `rows` rows spread over one year."""
    rng = random.Random(seed)
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["date", "name", "price", "category", "categorySub"])
        for _ in range(rows):
            month = rng.randint(1, 12)
            category, sub = rng.choice(CATEGORIES)
            # A name plus a number, so rows are distinct and none is a likely duplicate of another.
            writer.writerow([f"{year}{month:02d}{rng.randint(1, DAYS_IN_MONTH[month - 1]):02d}",
                             f"{rng.choice(NAMES)} {rng.randint(1, 10**9)}", rng.randint(50, 30_000), category, sub])


class ReferenceServer:
    """The tests' reference server on a free loopback port, answering like Apps Script (302 to the output).

    `latency` is how long each request to /exec waits (an Apps Script execution), `redirect_latency` how long each
    /echo answer waits (the redirect hop); the waits overlap across concurrent requests."""

    def __init__(self, redirect=True, latency=0.0, redirect_latency=0.0, actions=False):
        argv = [sys.executable, SERVER, "--port", "0", *(["--redirect"] if redirect else []), *(["--actions"] if actions else []),
                *(["--tls", os.path.join(TLS, "localhost.pem"), os.path.join(TLS, "localhost-key.pem")] if HTTPS else []),
                *(["--latency", str(latency)] if latency else []),
                *(["--redirect-latency", str(redirect_latency)] if redirect_latency else [])]
        self.latency, self.redirect_latency = latency, redirect_latency
        self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        if not line.startswith("PORT "):
            raise SystemExit(f"bench: the reference server did not start ({SERVER}): {line!r}")
        self.origin = f"{'https' if HTTPS else 'http'}://127.0.0.1:{int(line.split()[1])}"
        self.context = ssl.create_default_context(cafile=CA) if HTTPS else None
        self.url = f"{self.origin}/exec"

    def control(self, route, value=None):
        data = None if value is None else json.dumps(value, ensure_ascii=False).encode("utf-8")
        request = urllib.request.Request(f"{self.origin}/_control/{route}", data=data, method="POST")
        with urllib.request.urlopen(request, context=self.context) as response:
            return json.load(response)

    def requests(self):
        """What the server received since its last reset: method and path of each request."""
        request = urllib.request.Request(f"{self.origin}/_control/requests")
        with urllib.request.urlopen(request, context=self.context) as response:
            return json.load(response)

    def reset(self, items=()):
        """Empties the server, then stores `items` (in slices, so no request is huge)."""
        self.control("reset", {})
        items = list(items)
        for start in range(0, len(items), 20_000):
            self.control("items", items[start:start + 20_000])

    def stop(self):
        self.process.stdin.close()  # the server exits at EOF on its stdin
        self.process.wait(timeout=10)


class RefusedPort:
    """A loopback port bound and never listening, held for the run: connecting to it is refused at once, so a
    client pointed there sees the server down (and no other process can take the port meanwhile)."""

    def __init__(self):
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.socket.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.socket.getsockname()[1]}/exec"

    def close(self):
        self.socket.close()
