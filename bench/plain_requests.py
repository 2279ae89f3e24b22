#!/usr/bin/env python3
"""The requests a user's own script would make against a slow (Apps Script-like) server: the "theirs" side
of the slow-server benchmarks. Kept plain on purpose: urllib, one thread per concurrent GET, no retries.

    python3 plain_requests.py months URL YEAR MONTH...   # GET these months concurrently
    python3 plain_requests.py send URL FILE BATCH        # GET the months FILE's items fall in concurrently,
                                                         # then POST the items, BATCH at a time, one after another
    python3 plain_requests.py updates URL FILE           # POST the bundled script's update of each item's price
                                                         # (one more yen), one after another

FILE is a JSON array of wire items, or a CSV with the header date,name,price,category,categorySub (ids are
made here). urllib follows Apps Script's 302 (after a POST, as a GET without body).
"""

import csv
import json
import sys
import threading
import urllib.request
import uuid


def get_month(url, year, month, answers):
    with urllib.request.urlopen(f"{url}?year={year}&month={month}") as response:
        answers[(year, month)] = json.load(response)


def months(url, pairs):
    """GETs every (year, month) at once, a thread each, as the naive concurrent script does."""
    answers = {}
    threads = [threading.Thread(target=get_month, args=(url, year, month, answers)) for year, month in pairs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if len(answers) != len(pairs):
        raise SystemExit(f"plain_requests: {len(pairs) - len(answers)} GET(s) failed")
    return answers


def post(url, batch):
    body = json.dumps(batch, ensure_ascii=False).encode("utf-8")
    request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return len(json.load(response))


def read_items(path):
    if not path.endswith(".csv"):
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    with open(path, newline="", encoding="utf-8") as f:
        return [{"id": str(uuid.uuid4()).upper(), "date": row["date"], "name": row["name"],
                 "price": int(row["price"]), "category": int(row["category"]),
                 "categorySub": int(row["categorySub"]) if row["categorySub"] else None}
                for row in csv.DictReader(f)]


def main():
    mode, url = sys.argv[1], sys.argv[2]
    if mode == "months":
        year = int(sys.argv[3])
        answers = months(url, [(year, int(month)) for month in sys.argv[4:]])
        print(f"got {sum(len(items) for items in answers.values())} items")
    elif mode == "send":
        items, size = read_items(sys.argv[3]), int(sys.argv[4])
        months(url, sorted({(int(item["date"][:4]), int(item["date"][4:6])) for item in items}))
        sent = sum(post(url, items[start:start + size]) for start in range(0, len(items), size))
        print(f"sent {sent}")
    elif mode == "updates":
        for item in read_items(sys.argv[3]):
            change = {"action": "update", "id": item["id"], "date": item["date"], "changes": {"price": item["price"] + 1},
                      "was": {"price": item["price"]}}
            post(url, change)
        print("updated")
    else:
        raise SystemExit(f"plain_requests: unknown mode {mode!r} (months, send or updates)")


if __name__ == "__main__":
    main()
