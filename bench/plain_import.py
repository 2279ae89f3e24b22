#!/usr/bin/env python3
"""The script a user would write instead of `expense-log register`: csv -> JSON -> urllib POST.

    python3 plain_import.py rows.csv http://127.0.0.1:8080/exec 500

It streams the rows and POSTs every BATCH of them, as a careful ten-line script would; it is the
"theirs" side of the import benchmark, so it is kept plain on purpose (no validation, no retries).
"""

import csv
import json
import sys
import urllib.request
import uuid


def post(url, batch):
    body = json.dumps(batch, ensure_ascii=False).encode("utf-8")
    request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return len(json.load(response))


def main():
    path, url, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
    sent, batch = 0, []
    with open(path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            sub = row["categorySub"]
            batch.append({"id": str(uuid.uuid4()), "date": row["date"], "name": row["name"],
                          "price": int(row["price"]), "category": int(row["category"]),
                          "categorySub": int(sub) if sub else None})
            if len(batch) == size:
                sent += post(url, batch)
                batch = []
    if batch:
        sent += post(url, batch)
    print(f"sent {sent}")


if __name__ == "__main__":
    main()
