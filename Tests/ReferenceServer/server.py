#!/usr/bin/env python3
"""Reference server for expense-log's socket-level tests (Python 3 stdlib only).

It imitates the Google Apps Script web app the client talks to (one endpoint,
/exec: GET fetches a month, POST stores items) closely enough to test the real
HTTP code, and adds a /_control API so tests can inject faults and inspect
exactly what the client sent.

    python3 server.py [--port 0] [--host 127.0.0.1] [--redirect] [--redirect-host H] [--token T]
                      [--seed FILE.json] [--sheet [--sheet-zone Asia/Tokyo]]
                      [--latency SECONDS] [--redirect-latency SECONDS] [--verbose] [--actions]
                      [--tls CERT.pem KEY.pem]

With --sheet it stores items as a Google Sheet left at its default formats
does, and answers as Apps Script's getValues() + JSON.stringify then do:
typed text becomes a number, a boolean or a date (`0120` -> 120, `TRUE` ->
true, `7-11` -> "2026-07-10T15:00:00.000Z"), an empty cell is "", and rows
typed by hand (POST /_control/rows) come back exactly as given.

With --latency every request to /exec waits that long (in its own thread, so
concurrent requests overlap) before it is answered, as an Apps Script
execution takes 0.5-3 s; with --redirect-latency every /echo answer (the
redirect hop) waits too. POST /_control/latency {"latency": 1.0, "redirect": 0.1}
changes either at run time (GET /_control/latency shows them); reset keeps them.

With --tls a connection that opens with a TLS handshake is answered over TLS with
that certificate, as Google's front end terminates TLS before Apps Script; any
other is plain http, so /_control stays plain (redirects keep each connection's scheme).

Prints one line "PORT <n>" once listening. It exits when stdin reaches EOF, so
a test runner that dies takes the server with it; when running it by hand keep
stdin open, e.g. `tail -f /dev/null | python3 server.py`.

    python3 server.py --zygote

starts no server: it reads one JSON line per server wanted, {"id": N, "argv": [...]}
with the options above, forks a server for each (Python's start-up and imports,
most of a test's CPU, are paid once per test run instead of once per test), and
prints "<id> PORT <port> PID <pid>" once that server listens, or "<id> ERROR
<message>". A forked server stops on SIGTERM, and exits when the zygote is gone;
the zygote exits when its stdin reaches EOF.
"""

import argparse
import datetime
import email.utils
import html
import json
import os
import re
import signal
import socket
import ssl
import sys
import threading
import time
import uuid
import zoneinfo
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

JSON_TYPE = "application/json; charset=utf-8"
HTML_TYPE = "text/html; charset=utf-8"
TEXT_TYPE = "text/plain; charset=utf-8"

ITEM_KEYS = ("id", "date", "name", "price", "category", "categorySub")
REQUIRED_KEYS = set(ITEM_KEYS) - {"categorySub"}
# [0-9], not \d: \d also matches non-ASCII digits, which the real sheet would reject.
YEAR_RE = re.compile(r"[0-9]{4}")
MONTH_RE = re.compile(r"[1-9]|1[0-2]")  # the API takes months without zero padding
DATE_RE = re.compile(r"[0-9]{8}")

FAULT_KINDS = {"html", "signin", "script_error", "truncated", "stall", "execute_then_stall", "drop", "execute_then_drop",
               "gather", "endless", "trickle", "hold", "unframed", "unframed_cut", "tls_garbage"}
# unframed: the answer without Content-Length, its end the connection's (with TLS's close notice over TLS);
# unframed_cut: half of it, then the connection just ends (no close notice: over TLS, a cut the client must see);
# tls_garbage: the request is run, then its answer's head is followed by bytes that are no TLS record (over TLS).
# endless: a 200 whose chunked body never ends, at full speed; trickle: one byte every 0.1 s. Both stop after "seconds".
# hold: the request waits (before it is run) until POST /_control/release, or "seconds" pass.
TIMED_KINDS = {"stall", "execute_then_stall", "endless", "trickle", "hold"}

# What Google serves (with status 200!) when a script deployment is unavailable.
GOOGLE_ERROR_PAGE = (
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
    "<title>Google Drive - Page Not Found</title></head><body>"
    '<div style="margin:50px auto;max-width:600px;text-align:center">'
    "<p>Sorry, unable to open the file at this time.</p>"
    "<p>Please check the address and try again.</p></div></body></html>"
).encode()

# What Apps Script serves (with status 200) when doGet/doPost throws: the message sits, HTML-escaped, in the
# monospace <div> (the shape collected from pages people have quoted; the title is localised, "Error" here).
SCRIPT_ERROR_PAGE = (
    '<!DOCTYPE html><html><head><link rel="shortcut icon" href="//ssl.gstatic.com/docs/script/images/favicon.ico">'
    '<title>Error</title><style type="text/css" nonce="Xq2aBcDeFgHiJkLmNoPqRs">body {background-color: #fff; margin: 0; '
    "padding: 0;}.errorMessage {font-family: Arial,sans-serif; font-size: 12pt; font-weight: bold; line-height: 150%; "
    'padding-top: 25px;}</style></head><body style="margin:20px"><div><img alt="Google Apps Script" '
    'src="//ssl.gstatic.com/docs/script/images/logo.png"></div><div style="text-align:center;font-family:monospace;'
    'margin:50px auto 0;max-width:600px">{message}</div></body></html>'
)

# Google's sign-in interstitial, served with 200 when the web app is deployed for "only myself" or a domain.
SIGNIN_PAGE = (
    '<!doctype html><html lang="en" dir="ltr"><head><meta charset="utf-8"><title>Sign in - Google Accounts</title>'
    '<meta name="viewport" content="width=device-width, initial-scale=1"></head><body><div id="initialView">'
    '<h1 id="headingText"><span>Sign in</span></h1><div id="headingSubtext"><span>to continue to Google Drive</span>'
    '</div><form method="post" action="https://accounts.google.com/v3/signin/_/AccountsSignInUi/data">'
    '<input type="email" name="identifier" aria-label="Email or phone"></form></div></body></html>'
).encode()

# The year Sheets puts on a typed day without one (`7-11`), fixed so that answers do not depend on the clock.
SHEET_YEAR = 2026
SHEET_NUMBER_RE = re.compile(r"[+-]?([0-9]{1,3}(,[0-9]{3})+|[0-9]+)?(\.[0-9]+)?([eE][+-]?[0-9]+)?")
SHEET_DATE_RES = [
    (re.compile(r"([0-9]{4})[/-]([0-9]{1,2})[/-]([0-9]{1,2})"), lambda m: (int(m[1]), int(m[2]), int(m[3]))),
    (re.compile(r"([0-9]{1,2})[/-]([0-9]{1,2})"), lambda m: (SHEET_YEAR, int(m[1]), int(m[2]))),
]
SHEET_TIME_RE = re.compile(r"([0-9]{1,2}):([0-9]{2})(:([0-9]{2}))?")


def js_instant(moment):
    """A datetime as JSON.stringify writes a Date: UTC with milliseconds and Z."""
    utc = moment.astimezone(datetime.timezone.utc)
    return utc.strftime("%Y-%m-%dT%H:%M:%S.") + f"{utc.microsecond // 1000:03d}Z"


def sheet_cell(text, zone):
    """What getValues() hands back for text typed into a cell of Automatic format, as JSON would carry it."""
    if not isinstance(text, str):
        return "" if text is None else text
    if text.upper() in ("TRUE", "FALSE"):
        return text.upper() == "TRUE"
    if SHEET_NUMBER_RE.fullmatch(text) and any(c.isdigit() for c in text):
        number = float(text.replace(",", ""))
        return int(number) if number.is_integer() and abs(number) < 2 ** 53 else number
    for pattern, parts in SHEET_DATE_RES:
        if match := pattern.fullmatch(text):
            try:
                return js_instant(datetime.datetime(*parts(match), tzinfo=zone))
            except ValueError:
                return text
    if match := SHEET_TIME_RE.fullmatch(text):
        hour, minute, second = int(match[1]), int(match[2]), int(match[4] or 0)
        if hour < 24 and minute < 60 and second < 60:
            # A time alone is a Date on Sheets' day zero, 1899-12-30, in the sheet's zone.
            return js_instant(datetime.datetime(1899, 12, 30, hour, minute, second, tzinfo=zone))
    return text


def sheet_row(item, zone):
    """An item as the sheet row getValues() returns once it was written with appendRow."""
    return {key: sheet_cell(item.get(key), zone) if key in ("id", "name") else
            int(item["date"]) if key == "date" else ("" if item.get(key) is None else item[key])
            for key in ITEM_KEYS}


class BadRequest(Exception):
    """A client error whose message goes back verbatim as {"error": ...}."""


def is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)  # JSON true is not a price


def is_seconds(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value < float("inf")


def to_json(value):
    return json.dumps(value, ensure_ascii=False).encode("utf-8")


def parse_json(body):
    try:
        return json.loads(body.decode("utf-8"))
    except UnicodeDecodeError:
        raise BadRequest("body is not valid UTF-8")
    except ValueError as e:
        raise BadRequest(f"body is not valid JSON: {e}")


def validate_items(value):
    """Checks a whole batch before anything is stored, so a bad batch stores nothing."""
    if not isinstance(value, list):
        raise BadRequest("body must be a JSON array of items")
    items = []
    for i, item in enumerate(value):
        def fail(problem):
            raise BadRequest(f"item {i}: {problem}")
        if not isinstance(item, dict):
            fail("must be a JSON object")
        if unknown := sorted(set(item) - set(ITEM_KEYS)):
            fail(f"unknown key(s): {', '.join(unknown)}")
        if missing := sorted(REQUIRED_KEYS - set(item)):
            fail(f"missing key(s): {', '.join(missing)}")
        if not isinstance(item["id"], str) or not item["id"]:
            fail("id must be a non-empty string")
        date = item["date"]
        if not (isinstance(date, str) and DATE_RE.fullmatch(date)):
            fail("date must be an 8-digit yyyyMMdd string")
        try:
            datetime.date(int(date[:4]), int(date[4:6]), int(date[6:]))
        except ValueError:
            fail(f"date {date} is not a calendar date")
        if not isinstance(item["name"], str):
            fail("name must be a string")
        for key in ("price", "category"):
            if not is_int(item[key]):
                fail(f"{key} must be an integer")
        if item.get("categorySub") is not None and not is_int(item["categorySub"]):
            fail("categorySub must be an integer or null")
        items.append({key: item.get(key) for key in ITEM_KEYS})  # canonical shape
    return items


def validate_fault(fault):
    """Rejects malformed faults up front, so a typo in a test fails loudly, not silently."""
    if not isinstance(fault, dict):
        raise BadRequest("each fault must be a JSON object")
    kind, allowed = fault.get("kind"), {"count", "method", "path"}
    if "status" in fault:
        allowed |= {"status", "body", "contentType", "headers", "retryAfterDate"}
        headers = fault.get("headers", {})
        if not (is_int(fault["status"]) and 100 <= fault["status"] <= 599
                and isinstance(fault.get("body", ""), str) and isinstance(fault.get("contentType", ""), str)
                and isinstance(headers, dict) and all(isinstance(v, str) for v in headers.values())):
            raise BadRequest("status fault needs status 100-599 and string body/contentType/headers")
        if not isinstance(fault.get("retryAfterDate", 0), (int, float)):
            raise BadRequest("retryAfterDate is seconds from now, sent as an HTTP-date Retry-After")
    elif kind in FAULT_KINDS:
        allowed |= {"kind", "seconds"} if kind in TIMED_KINDS else {"kind", "message"} if kind == "script_error" else \
            {"kind", "size", "seconds"} if kind == "gather" else {"kind"}
        if kind == "gather" and not (is_int(fault.get("size")) and fault["size"] >= 1
                                     and isinstance(fault.get("seconds"), (int, float)) and fault["seconds"] > 0):
            raise BadRequest("fault gather needs size >= 1 (requests to hold together) and seconds > 0 (the most to wait)")
        if kind == "script_error" and not isinstance(fault.get("message"), str):
            raise BadRequest("fault script_error needs a message (the exception the script threw)")
        seconds = fault.get("seconds")
        if kind in TIMED_KINDS and not (isinstance(seconds, (int, float)) and not isinstance(seconds, bool)
                                        and seconds >= 0):
            raise BadRequest(f"fault {kind} needs seconds >= 0")
    else:
        raise BadRequest(f"fault needs a status or a kind among {sorted(FAULT_KINDS)}")
    if unknown := sorted(set(fault) - allowed):
        raise BadRequest(f"unknown fault key(s): {', '.join(unknown)}")
    count = fault.get("count", 1)
    if not is_int(count) or not (count == -1 or count >= 1):
        raise BadRequest("fault count must be -1 (forever) or >= 1")
    if fault.get("method") not in (None, "GET", "POST"):
        raise BadRequest('fault method must be "GET" or "POST"')
    if fault.get("path", "/exec") not in ("/exec", "/echo"):
        raise BadRequest('fault path must be "/exec" (the default) or "/echo" (the redirect target)')
    return dict(fault, count=count)


class State:
    """Everything shared between request threads; one lock, never held while sleeping."""

    def __init__(self):
        self.lock = threading.Lock()
        self.gathered = threading.Condition(self.lock)
        self.reset()

    def reset(self):
        with self.lock:
            self.items, self.faults, self.requests, self.echoes, self.rows = [], [], [], {}, []
            self.waiting, self.released = 0, False

    def add_items(self, items):
        with self.lock:
            self.items.extend(items)  # no de-duplication: tests must see double sends
        return len(items)

    def update_item(self, item_id, changes):
        """The bundled script's update, for --actions: the item with `changes` made, or None when there is none."""
        with self.lock:
            for item in self.items:
                if item["id"] == item_id:
                    item.update(changes)
                    return dict(item)
        return None

    def delete_ids(self, ids):
        """The bundled script's deletion, for --actions: (deleted, missing), in the order asked."""
        with self.lock:
            held = {item["id"] for item in self.items}
            self.items = [item for item in self.items if item["id"] not in ids]
        return [i for i in ids if i in held], [i for i in ids if i not in held]

    def items_where(self, prefix=""):
        with self.lock:
            return [dict(i) for i in self.items if i["date"].startswith(prefix)]

    def add_rows(self, month, rows):
        """Rows typed into a month's sheet by hand, kept exactly as getValues() would return them."""
        with self.lock:
            self.rows.extend((month, dict(row)) for row in rows)
        return len(rows)

    def rows_where(self, prefix):
        with self.lock:
            return [dict(row) for month, row in self.rows if month == prefix]

    def add_faults(self, faults):
        with self.lock:
            self.faults.extend(faults)
            return len(self.faults)

    def take_fault(self, method, path="/exec"):
        """First queued fault that applies to this method and path; others stay queued."""
        with self.lock:
            for index, fault in enumerate(self.faults):
                if fault.get("method") in (None, method) and fault.get("path", "/exec") == path:
                    if fault["count"] > 0:
                        fault["count"] -= 1
                        if fault["count"] == 0:
                            del self.faults[index]
                    return dict(fault)
        return {}

    def hold(self, seconds):
        """Holds a request until a test releases it: a request the server runs late, at a moment the test chooses."""
        with self.gathered:
            self.gathered.wait_for(lambda: self.released, timeout=seconds)

    def release(self):
        with self.gathered:
            self.released = True
            self.gathered.notify_all()

    def gather(self, size, seconds):
        """Holds a request until `size` requests are held together (or `seconds` pass), then lets them all go: a test
        learns how many requests a client has in flight at once without depending on how fast anything is."""
        with self.gathered:
            self.waiting += 1
            self.gathered.notify_all()
            self.gathered.wait_for(lambda: self.waiting >= size, timeout=seconds)

    def log_request(self, entry):
        with self.lock:
            self.requests.append(entry)
        return entry

    def set_status(self, entry, status):
        with self.lock:
            entry["status"] = status
            # With "time", how long it was in flight: tests count overlapping requests (a "stall" fault makes them long).
            entry["answered"] = time.time()

    def snapshot(self, name):
        with self.lock:
            return [dict(x) for x in getattr(self, name)]

    def put_echo(self, key, status, data):
        with self.lock:
            self.echoes[key] = (status, data)

    def get_echo(self, key):
        with self.lock:
            return self.echoes.get(key)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, like Google's front end
    # TCP_NODELAY, as real front ends set: with Nagle on, the body (written after the headers) waited for the
    # client's delayed ACK, adding 40 ms to most answers on a kept-alive connection.
    disable_nagle_algorithm = True
    server_version = "ExpenseLogReferenceServer/1"

    def log_message(self, format, *args):
        if self.server.verbose:
            sys.stderr.write(f"{self.address_string()} - {format % args}\n")

    def dispatch(self):
        url = urlsplit(self.path)
        try:
            body = self.read_body()
        except BadRequest as e:
            self.close_connection = True  # we no longer know where the next request starts
            return self.send_json(400, {"error": str(e)})
        if url.path.startswith("/_control/"):
            return self.control(url.path, body)
        if url.path in ("/exec", "/echo"):
            return self.app(url, body)
        self.send_json(404, {"error": f"no such path: {url.path}"})

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = dispatch

    def read_body(self):
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            chunks = []
            while True:
                line = self.rfile.readline(65537)
                try:
                    size = int(line.split(b";", 1)[0].strip(), 16)
                except ValueError:
                    raise BadRequest("malformed chunked body")
                if size == 0:
                    break
                chunks.append(self.rfile.read(size))
                self.rfile.readline()  # the CRLF closing each chunk
            while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                pass  # trailer fields, unused
            return b"".join(chunks)
        length = self.headers.get("Content-Length")
        if length is None:
            return b""
        if not length.strip().isdigit():
            raise BadRequest("invalid Content-Length")
        return self.rfile.read(int(length))

    def send(self, status, data, content_type, headers=None):
        try:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True  # the client gave up (e.g. during a stall)

    def send_json(self, status, value, headers=None):
        self.send(status, to_json(value), JSON_TYPE, headers)

    def answer(self, entry, status, data, content_type, headers=None):
        self.server.state.set_status(entry, status)
        self.send(status, data, content_type, headers)

    def stream_forever(self, entry, seconds, slowly):
        """A 200 JSON answer whose chunked body goes on until the client hangs up or `seconds` pass."""
        self.server.state.set_status(entry, 200)
        item = to_json({"id": "X", "date": "20240101", "name": "x" * 20, "price": 1, "category": 0, "categorySub": None})
        chunk = b"[" + b",".join([item] * 512) + b","
        end = time.time() + seconds
        self.close_connection = True
        try:
            self.send_response(200)
            self.send_header("Content-Type", JSON_TYPE)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            while time.time() < end:
                piece = b" " if slowly else chunk
                self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                self.wfile.flush()
                if slowly:
                    time.sleep(0.1)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def unframed(self, entry, status, data, cut):
        """An answer read to the connection's end; `cut` sends half of it and ends the connection without TLS's notice."""
        self.server.state.set_status(entry, status)
        self.close_connection = True
        self.send_response(status)
        self.send_header("Content-Type", JSON_TYPE)
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(data[: len(data) // 2] if cut else data)
        self.wfile.flush()
        if cut:
            self.connection.shutdown(socket.SHUT_RDWR)  # on an SSLSocket: TCP's end, no close notice

    def tls_garbage(self, entry, status, data):
        """The answer's head over TLS, then plain bytes on the TCP connection underneath, which break the TLS stream."""
        self.server.state.set_status(entry, status)
        self.close_connection = True
        self.send_response(status)
        self.send_header("Content-Type", JSON_TYPE)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.flush()
        raw = socket.socket(fileno=os.dup(self.connection.fileno()))
        raw.sendall(b"\x17\x03\x03\x00\x20" + b"not a TLS record, not even close" * 2)
        raw.close()
        self.connection.shutdown(socket.SHUT_RDWR)

    def drop(self):
        # No response bytes at all: the client must see the connection just end.
        self.close_connection = True
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def authorized(self):
        token = self.server.token
        return token is None or self.headers.get("Authorization") == f"Bearer {token}"

    def app(self, url, body):
        state = self.server.state
        headers = {}
        for name, value in self.headers.items():
            name = name.lower()
            headers[name] = f"{headers[name]}, {value}" if name in headers else value
        entry = state.log_request({
            "method": self.command, "path": url.path, "query": url.query, "headers": headers,
            "body": body.decode("utf-8", "replace") if body else None, "status": None,
            "time": time.time(), "answered": None, "peer": self.client_address[1],
            "tls": isinstance(self.connection, ssl.SSLSocket)})
        if url.path == "/echo":
            if self.server.redirect_latency:  # the hop to the script's output; sleeps in this request's thread only
                time.sleep(self.server.redirect_latency)
            fault = state.take_fault(self.command, "/echo")
            if "status" in fault:  # the script ran; only fetching its output fails
                return self.answer(entry, fault["status"], fault.get("body", "").encode(),
                                   fault.get("contentType", TEXT_TYPE), fault.get("headers"))
            return self.answer(entry, *self.echo(url))

        if self.server.latency:  # an Apps Script execution's time; concurrent requests sleep side by side
            time.sleep(self.server.latency)
        # Faults stand for Google's front end misbehaving, so they come before auth.
        fault = state.take_fault(self.command)
        kind = fault.get("kind")
        if "status" in fault:
            headers = dict(fault.get("headers", {}))
            if "retryAfterDate" in fault:  # an HTTP date computed now, so the test does not depend on start-up time
                headers["Retry-After"] = email.utils.formatdate(time.time() + fault["retryAfterDate"], usegmt=True)
            return self.answer(entry, fault["status"], fault.get("body", "").encode(),
                               fault.get("contentType", TEXT_TYPE), headers)
        if kind == "html":
            return self.answer(entry, 200, GOOGLE_ERROR_PAGE, HTML_TYPE)
        if kind == "signin":
            return self.answer(entry, 200, SIGNIN_PAGE, HTML_TYPE)
        if kind == "script_error":
            page = SCRIPT_ERROR_PAGE.replace("{message}", html.escape(fault["message"]))
            return self.answer(entry, 200, page.encode(), HTML_TYPE)
        if kind == "drop":
            return self.drop()
        if kind == "stall":
            time.sleep(fault["seconds"])
        if kind == "gather":
            state.gather(fault["size"], fault["seconds"])
        if kind == "hold":
            state.hold(fault["seconds"])
        if kind in ("endless", "trickle"):
            return self.stream_forever(entry, fault["seconds"], kind == "trickle")

        if not self.authorized():
            return self.answer(entry, 401, to_json({"error": "unauthorized"}), JSON_TYPE)
        if self.command == "GET":
            status, payload = self.fetch(url.query)
        elif self.command == "POST":
            status, payload = self.act(body) if self.server.actions and body.lstrip()[:1] == b"{" else self.store(body)
        else:
            return self.answer(entry, 405, to_json({"error": f"{self.command} not allowed"}),
                               JSON_TYPE, {"Allow": "GET, POST"})
        data = to_json(payload)

        if kind == "truncated":
            data = data[: len(data) // 2]
        if kind == "execute_then_drop":
            return self.drop()
        if kind == "execute_then_stall":
            time.sleep(fault["seconds"])
        if kind == "tls_garbage":
            return self.tls_garbage(entry, status, data)
        if kind in ("unframed", "unframed_cut"):
            return self.unframed(entry, status, data, kind == "unframed_cut")
        if self.server.redirect:
            # Apps Script runs the script, then 302s to a one-off URL holding the output;
            # the app's status (200 or 400) and body (even if truncated) are replayed there.
            key = str(uuid.uuid4())
            state.put_echo(key, status, data)
            location = f"{self.server.echo_base_url}/echo?user_content_key={key}"
            if isinstance(self.connection, ssl.SSLSocket):
                location = "https:" + location.split(":", 1)[1]
            page = ("<HTML><HEAD><TITLE>Moved Temporarily</TITLE></HEAD><BODY>"
                    f'The document has moved <A HREF="{html.escape(location)}">here</A>.'
                    "</BODY></HTML>").encode()
            return self.answer(entry, 302, page, HTML_TYPE, {"Location": location})
        return self.answer(entry, status, data, JSON_TYPE)

    def fetch(self, query):
        params = parse_qs(query, keep_blank_values=True)
        if self.server.actions and params.get("action") == ["info"]:
            return 200, {"app": "expense-log", "version": 2, "actions": ["info", "fetch", "register", "delete", "update"]}
        year, month = params.get("year", []), params.get("month", [])
        if len(year) != 1 or not YEAR_RE.fullmatch(year[0]):
            return 400, {"error": "year must be given once, as 4 digits"}
        if len(month) != 1 or not MONTH_RE.fullmatch(month[0]):
            return 400, {"error": "month must be given once, as 1-12 without zero padding"}
        prefix = f"{year[0]}{int(month[0]):02d}"
        items = self.server.state.items_where(prefix)
        if self.server.sheet_zone is None:
            return 200, items
        return 200, [sheet_row(item, self.server.sheet_zone) for item in items] + self.server.state.rows_where(prefix)

    def act(self, body):
        """--actions: the bundled script's update and delete (the benchmark's sync of queued edits), answered as it does."""
        try:
            request = parse_json(body)
        except BadRequest as e:
            return 400, {"error": str(e)}
        if request.get("action") == "update":
            saved = self.server.state.update_item(request.get("id"), request.get("changes", {}))
            return (200, saved) if saved else (200, {"error": f"no item {request.get('id')}", "kind": "missing"})
        if request.get("action") == "delete":
            deleted, missing = self.server.state.delete_ids([item.get("id") for item in request.get("items", [])])
            return 200, {"deleted": deleted, "missing": missing}
        return 400, {"error": "unknown action"}

    def store(self, body):
        try:
            items = validate_items(parse_json(body))
        except BadRequest as e:
            return 400, {"error": str(e)}
        self.server.state.add_items(items)
        if self.server.sheet_zone is None:
            return 200, items
        # The original script answers the rows it wrote, read back: retyped as the sheet retypes them.
        return 200, [sheet_row(item, self.server.sheet_zone) for item in items]

    def echo(self, url):
        """Returns (status, data, content type, headers) for the redirect target."""
        # Another origin (googleusercontent.com in Apps Script) serves the output by its one-off key alone.
        if self.server.echo_base_url == self.server.base_url and not self.authorized():
            return 401, to_json({"error": "unauthorized"}), JSON_TYPE, None
        if self.command != "GET":
            return 405, to_json({"error": f"{self.command} not allowed"}), JSON_TYPE, {"Allow": "GET"}
        keys = parse_qs(url.query).get("user_content_key", [])
        found = self.server.state.get_echo(keys[0]) if len(keys) == 1 else None
        if found is None:
            return 404, to_json({"error": "unknown user_content_key"}), JSON_TYPE, None
        return found[0], found[1], JSON_TYPE, None

    def control(self, path, body):
        """Test-only API: never logged, never faulted."""
        state = self.server.state
        route = (self.command, path)
        try:
            if route == ("GET", "/_control/items"):
                result = state.snapshot("items")
            elif route == ("POST", "/_control/items"):
                result = {"added": state.add_items(validate_items(parse_json(body)))}
            elif route == ("POST", "/_control/down"):
                # The server goes away for good, keeping its port: connections are refused from now on, and no
                # other server can take the port (a test that goes on with the same URL must not reach another).
                threading.Thread(target=self.server.go_down, daemon=True).start()
                result = {"down": True}
            elif route == ("POST", "/_control/release"):
                state.release()
                result = {"released": True}
            elif route == ("POST", "/_control/rows"):
                value = parse_json(body)
                if not (isinstance(value, dict) and isinstance(value.get("month"), str) and isinstance(value.get("rows"), list)):
                    raise BadRequest('body must be {"month": "yyyyMM", "rows": [{...}, ...]}')
                result = {"added": state.add_rows(value["month"], value["rows"])}
            elif route == ("GET", "/_control/requests"):
                result = state.snapshot("requests")
            elif route == ("GET", "/_control/faults"):
                result = state.snapshot("faults")
            elif route == ("POST", "/_control/faults"):
                value = parse_json(body)
                if not isinstance(value, dict) or not isinstance(value.get("faults"), list):
                    raise BadRequest('body must be {"faults": [...]}')
                result = {"queued": state.add_faults([validate_fault(f) for f in value["faults"]])}
            elif route == ("GET", "/_control/latency"):
                result = {"latency": self.server.latency, "redirect": self.server.redirect_latency}
            elif route == ("POST", "/_control/latency"):
                value = parse_json(body)
                if not (isinstance(value, dict) and value and set(value) <= {"latency", "redirect"}
                        and all(is_seconds(v) for v in value.values())):
                    raise BadRequest('body must be {"latency": seconds, "redirect": seconds} (either may be left out; >= 0)')
                self.server.latency = float(value.get("latency", self.server.latency))
                self.server.redirect_latency = float(value.get("redirect", self.server.redirect_latency))
                result = {"latency": self.server.latency, "redirect": self.server.redirect_latency}
            elif route == ("POST", "/_control/reset"):
                state.reset()
                result = {"reset": True}
            else:
                return self.send_json(404, {"error": f"no control route {self.command} {path}"})
        except BadRequest as e:
            return self.send_json(400, {"error": str(e)})
        self.send_json(200, result)


class Server(ThreadingHTTPServer):
    daemon_threads = True     # a stalled request must not keep the process alive
    block_on_close = False
    down = False
    latency = redirect_latency = 0.0  # seconds each /exec and /echo answer waits (--latency, --redirect-latency)
    # listen(2)'s backlog; socketserver's 5 drops the SYNs of a burst (a year's 12 GETs at once), whose clients then wait
    # out a 1 s retransmission, where Google's front end would take all 30 executions Apps Script allows a user.
    request_queue_size = 64

    def go_down(self):
        """Stops listening, and holds the port with a socket bound but never listening, so connects are refused.

        The guard binds right after the listener closes; bind(0) never hands out a port a bound socket holds, so no
        reference server started meanwhile can take it."""
        self.down = True  # before serve_forever returns, so that main keeps the process (and the port) alive
        self.shutdown()
        guard = socket.socket(self.address_family, socket.SOCK_STREAM)
        guard.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # past connections' TIME_WAIT
        address = self.server_address[:2]
        self.socket.close()
        guard.bind(address)
        if sys.platform == "darwin":
            # Darwin silently drops a connection to a socket that is bound but not listening (xnu's tcp_input.c), so
            # a client would wait out its timeout; connected to a listener of its own, the guard holds the port as
            # well and matches no new connection, which the kernel then refuses with a reset.
            peer = socket.socket(self.address_family, socket.SOCK_STREAM)
            peer.bind((address[0], 0))
            peer.listen(1)
            guard.connect(peer.getsockname()[:2])
            self.guard_peer = (peer, peer.accept()[0])
        self.guard = guard

    tls = None  # an ssl.SSLContext with --tls

    def finish_request(self, request, client_address):
        """With --tls, a connection whose first byte opens a TLS handshake (a record of type 22) is answered over TLS."""
        if self.tls is not None and request.recv(1, socket.MSG_PEEK) == b"\x16":
            request.settimeout(10)
            with self.tls.wrap_socket(request, server_side=True) as secure:
                secure.settimeout(None)
                super().finish_request(secure, client_address)
                try:
                    secure.settimeout(5)
                    secure.unwrap()  # TLS's close notice, as a real server sends it
                except (OSError, ValueError):
                    pass  # the client is gone, or the connection was cut on purpose
                return
        return super().finish_request(request, client_address)

    def handle_error(self, request, client_address):
        if self.verbose:      # clients hanging up mid-fault are expected; stay quiet
            super().handle_error(request, client_address)


def exit_on_stdin_eof():
    # The test process holds our stdin pipe; when it goes away, so do we.
    try:
        while os.read(0, 4096):
            pass
    except OSError:
        pass
    os._exit(0)


def seconds_arg(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}")
    if not is_seconds(value):
        raise argparse.ArgumentTypeError("must be a number of seconds >= 0")
    return value


def main(argv=None, announce=None):
    parser = argparse.ArgumentParser(description="Reference server for expense-log tests.")
    parser.add_argument("--port", type=int, default=0, help="0 = any free port")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--redirect", action="store_true", help="answer /exec with 302 to /echo")
    parser.add_argument("--redirect-host", help="redirect to /echo on this host name (another origin, which needs no token)")
    parser.add_argument("--token", help="require Authorization: Bearer TOKEN")
    parser.add_argument("--seed", help="JSON array of items to start with")
    parser.add_argument("--sheet", action="store_true", help="store and answer as a Google Sheet retypes cells")
    parser.add_argument("--sheet-zone", default="Asia/Tokyo", help="the spreadsheet's time zone (with --sheet)")
    parser.add_argument("--latency", type=seconds_arg, default=0.0, metavar="SECONDS",
                        help="every /exec request (GET or POST) waits this long before it is answered, "
                             "as an Apps Script execution does (default 0)")
    parser.add_argument("--redirect-latency", type=seconds_arg, default=0.0, metavar="SECONDS",
                        help="every /echo answer (the redirect hop, with --redirect) waits this long (default 0)")
    parser.add_argument("--verbose", action="store_true", help="log requests to stderr")
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"), help="answer TLS connections with this certificate")
    parser.add_argument("--actions", action="store_true",
                        help="answer ?action=info, update and delete as the bundled script does (the benchmark's queued edits)")
    parser.add_argument("--zygote", action="store_true", help="fork servers on request (see above)")
    args = parser.parse_args(argv)
    if args.zygote:
        return zygote()

    state = State()
    if args.seed:
        try:
            with open(args.seed, "rb") as f:
                state.add_items(validate_items(parse_json(f.read())))
        except (OSError, BadRequest) as e:
            sys.exit(f"server.py: cannot load seed {args.seed}: {e}")

    if ":" in args.host:
        Server.address_family = socket.AF_INET6
    server = Server((args.host, args.port), Handler)
    if args.host == "::1" and args.port == 0:
        # Tests reach a server on ::1 as `localhost`, which is tried on 127.0.0.1 first: hold the same port there
        # (bound, never listening, so refused) so that no other test's server can answer in its place.
        while True:
            guard = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            try:
                guard.bind(("127.0.0.1", server.server_address[1]))
                break
            except OSError:
                guard.close()
                server.server_close()
                server = Server((args.host, 0), Handler)
        server.v4_guard = guard
    server.state, server.redirect, server.token, server.verbose = state, args.redirect, args.token, args.verbose
    server.sheet_zone = zoneinfo.ZoneInfo(args.sheet_zone) if args.sheet else None
    server.latency, server.redirect_latency = args.latency, args.redirect_latency
    server.actions = args.actions
    if args.tls:
        server.tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        server.tls.load_cert_chain(*args.tls)
    port = server.server_address[1]
    host = f"[{args.host}]" if ":" in args.host else args.host
    server.base_url = f"http://{host}:{port}"
    server.echo_base_url = f"http://{args.redirect_host}:{port}" if args.redirect_host else server.base_url
    server.redirect = args.redirect or bool(args.redirect_host)

    def stop(signum, frame):
        raise SystemExit(0)  # unwinds serve_forever so the socket is closed
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    if announce:
        announce(port)
    else:
        print(f"PORT {port}", flush=True)
        threading.Thread(target=exit_on_stdin_eof, daemon=True).start()
    try:
        server.serve_forever()
        while server.down:  # gone down: keep the port held until stdin closes
            time.sleep(3600)
    finally:
        server.server_close()


def zygote():
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # forked servers are reaped by the kernel
    parent = os.getpid()
    for line in sys.stdin:
        try:
            request = json.loads(line)
            ident, argv = int(request["id"]), [str(a) for a in request["argv"]]
        except (ValueError, KeyError, TypeError) as e:
            print(f"0 ERROR bad request {line.strip()!r}: {e}", flush=True)
            continue
        sys.stdout.flush()
        if os.fork() == 0:
            serve_forked(ident, argv, parent)


def serve_forked(ident, argv, parent):
    """A forked server: never returns into the zygote's loop."""
    status = 0
    try:
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)  # the zygote's requests are not ours to read
        os.close(null)
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, signal.SIG_DFL)

        def orphaned():
            while os.getppid() == parent:
                time.sleep(1)
            os._exit(0)
        threading.Thread(target=orphaned, daemon=True).start()
        main(argv, announce=lambda port: os.write(1, f"{ident} PORT {port} PID {os.getpid()}\n".encode()))
    except SystemExit as e:
        if e.code not in (0, None):
            os.write(1, f"{ident} ERROR exit {e.code}\n".encode())
            status = 1
    except BaseException as e:
        os.write(1, f"{ident} ERROR {type(e).__name__}: {e}\n".encode())
        status = 1
    finally:
        os._exit(status)


if __name__ == "__main__":
    main()
