"""The scenarios of `make bench`: each pairs an expense-log command with what a user would run instead."""

import glob
import json
import math
import os
import random
import shutil
import subprocess
import uuid
from dataclasses import dataclass, field

import workload
from workload import ROOT, ReferenceServer, RefusedPort, month_items, write_import_csv

# The slow-server scenarios (issue 16) each start a server of their own that waits like Apps Script:
# idle-* measure the client's CPU while it waits, trips-* its wall time against the fewest round trips.
IDLE = ["idle-fetch", "idle-register", "idle-summary", "idle-sync"]
TRIPS = ["trips-fetch", "trips-summary", "trips-register", "trips-import"]
NAMES = ["start-up", "dummy-fetch", "loopback-fetch", "offline-read", "import", "import-memory", "year-summary",
         *IDLE, *TRIPS, "sync-edits"]
GROUPS = {"idle": IDLE, "trips": TRIPS, "slow": IDLE + TRIPS}  # --only idle runs the four idle-* scenarios
# The scenarios that need no server at all, left out of an --https run (they would measure the same as over http).
LOCAL = {"start-up", "dummy-fetch", "offline-read", "year-summary"}

IDLE_LATENCY = 1.0                    # seconds per execution in the idle-* scenarios (no redirect)
TRIP_LATENCY, TRIP_HOP = 0.8, 0.1     # the trips-* server: an execution, then the 302 to /echo and its answer
TRIP = TRIP_LATENCY + TRIP_HOP        # one round trip at Apps Script latency
# register's --batch-size default (docs/register.md; `expense-log register --help` says "(default: 500)").
DEFAULT_BATCH = 500
SLOW_MONTH_ITEMS = 100                # items in each month the slow servers hold for fetch and summary
SLOW_ROUNDS = 3

YEAR = 2030          # the fetched, cached and summarised year
IMPORT_YEAR = 2031   # the imported rows' year: nothing else is ever there
# jq's year summary, what `summary --year Y --format json` answers: per month and per category, counts and totals.
JQ_SUMMARY = ("{months: [.[] | {month, count: (.items | length), total: ([.items[].price] | add)}], "
              "categories: ([.[].items[]] | group_by(.category) | map({category: .[0].category, count: length, "
              "total: (map(.price) | add)}))} | .total = ([.months[].total] | add)")


@dataclass
class Command:
    argv: list
    env: dict


@dataclass
class Goal:
    metric: str      # "wall", "cpu" or "rss"; "cpu-share" (ours' CPU / ours' wall); "wall-min" (ours' wall / minimum);
                     # "cpu-each" (ours' CPU / minimum, a count: seconds of CPU a change)
    limit: float     # the highest acceptable ratio ours / theirs (or share, or ratio to the minimum)
    minimum: float = None  # "wall-min": the fewest round trips the protocol allows, in seconds
    basis: str = ""        # "wall-min": how the minimum is made, e.g. "2 × 0.9 s"


@dataclass
class Scenario:
    name: str
    ours: Command
    theirs: Command
    goals: list
    prepare: callable = lambda: None
    before_each: callable = None
    rounds: int = None  # a cap on the rounds, for the long scenarios
    labels: tuple = ("", "")

    def before(self, side):
        if self.before_each:
            self.before_each(side)


@dataclass
class Workbench:
    """The generated data, the homes (config, cache, outbox) and the server the scenarios share."""
    binary: str
    work: str
    quick: bool = False
    server: ReferenceServer = None
    sizes: dict = field(default_factory=dict)
    slow_servers: list = field(default_factory=list)  # one per slow-server scenario, started when it is made
    refused: RefusedPort = None

    def __enter__(self):
        self.sizes = {"month": 100, "years": 2, "rows": 2_000, "trip-rows": 300, "edits": 500} if self.quick else \
                     {"month": 1_000, "years": 10, "rows": 100_000, "trip-rows": 2_000, "edits": 5_000}
        return self

    def __exit__(self, *exc):
        for server in [self.server, *self.slow_servers]:
            if server:
                server.stop()
        if self.refused:
            self.refused.close()

    def url(self):
        if self.server is None:
            self.server = ReferenceServer()
        return self.server.url

    def env(self, home, **extra):
        """A clean environment: no user config, a C.UTF-8 locale, the home given, the server when asked."""
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", "HOME": self.work,
               "EXPENSE_LOG_HOME": os.path.join(self.work, home), "EXPENSE_LOG_ENV": "development", **workload.trust_env()}
        env.update(extra)
        return env

    def ours(self, home, *args, server=True):
        extra = {"EXPENSE_LOG_BASE_URL": self.url()} if server else {}
        return Command([self.binary, *args], self.env(home, **extra))

    def fetch_args(self, year=YEAR, month=1):
        return ["fetch", "--year", str(year), "--month", str(month), "--format", "json"]

    def cache_dir(self, home):
        """The home's cache folder for the bench's server (the cache is kept per server: cache/<env>/<host>-<hash>/)."""
        folders = glob.glob(os.path.join(self.work, home, "cache", "development", "127.0.0.1_*"))
        return folders[0] if len(folders) == 1 else os.path.join(self.work, home, "cache", "development", "missing")

    def scenarios(self, only=None, networked_only=False):
        """The scenarios asked for (names or GROUPS), in NAMES' order; only those are made (a slow one starts a server).
        `networked_only` leaves out the ones that reach no server."""
        wanted = {name for choice in only or NAMES for name in GROUPS.get(choice, [choice])}
        if networked_only:
            wanted -= LOCAL
        makers = {"start-up": self.startup, "dummy-fetch": self.dummy_fetch, "loopback-fetch": self.loopback_fetch,
                  "offline-read": self.offline_read, "import": self.import_rows, "import-memory": self.import_memory,
                  "year-summary": self.year_summary,
                  "idle-fetch": self.idle_fetch, "idle-register": self.idle_register,
                  "idle-summary": self.idle_summary, "idle-sync": self.idle_sync,
                  "trips-fetch": self.trips_fetch, "trips-summary": self.trips_summary,
                  "trips-register": self.trips_register, "trips-import": self.trips_import, "sync-edits": self.sync_edits}
        return [makers[name]() for name in NAMES if name in wanted]

    # -- the scenarios ------------------------------------------------------------------------

    def startup(self):
        return Scenario("start-up", Command([self.binary, "--version"], self.env("none")),
                        Command(["curl", "--version"], self.env("none")), [Goal("wall", 1.2)],
                        labels=("expense-log --version", "curl --version"))

    def dummy_fetch(self):
        return Scenario("dummy-fetch",
                        Command([self.binary, "--env", "dummy", *self.fetch_args(2024)], self.env("dummy")),
                        Command(["jq", ".", "Resources/fetch.json"], self.env("none")), [Goal("wall", 1.5)],
                        labels=("expense-log --env dummy fetch … --format json", "jq . Resources/fetch.json"))

    def loopback_fetch(self):
        def prepare():
            self.url()
            self.server.reset(month_items(YEAR, 1, self.sizes["month"], random.Random(1)))
        query = f"{self.url()}?year={YEAR}&month=1"
        return Scenario("loopback-fetch", self.ours("fetch", *self.fetch_args()),
                        Command(["sh", "-c", 'curl -sfL "$0" | jq .', query], self.env("none")),
                        [Goal("wall", 1.0)], prepare=prepare,
                        labels=(f"expense-log fetch … --format json ({self.sizes['month']:,} items)", "curl -sL URL | jq ."))

    def fill_cache(self, home, months):
        """Fetches each (year, month) into a home's cache with expense-log itself, so the cache format stays private."""
        for year, month in months:
            subprocess.run(self.ours(home, *self.fetch_args(year, month)).argv, env=self.ours(home).env,
                           stdout=subprocess.DEVNULL, check=True)

    def offline_read(self):
        months = [(year, month) for year in range(YEAR - self.sizes["years"] + 1, YEAR + 1) for month in range(1, 13)]

        def prepare():
            items = []
            for index, (year, month) in enumerate(months):
                items += month_items(year, month, self.sizes["month"], random.Random(index))
            self.url()
            self.server.reset(items)
            self.fill_cache("big", months)
            self.fill_cache("small", [(YEAR, 1)])
        offline = [*self.fetch_args(), "--offline"]
        # The base URL names the server's cache folder; --offline never contacts it.
        return Scenario("offline-read", self.ours("big", *offline), self.ours("small", *offline),
                        [Goal("wall", 1.1)], prepare=prepare,
                        labels=(f"fetch --offline, cache of {len(months)} months", "the same, cache of that month only"))

    def empty_import(self, side):
        """Every import run starts from an empty server and an empty home: nothing is a duplicate of the last run."""
        self.server.reset()
        shutil.rmtree(os.path.join(self.work, "import"), ignore_errors=True)

    def import_rows(self):
        rows, batch = self.sizes["rows"], "500"
        csv_path = os.path.join(self.work, "rows.csv")

        def prepare():
            write_import_csv(csv_path, rows, IMPORT_YEAR)
            self.url()

        plain = os.path.join(ROOT, "bench", "plain_import.py")
        return Scenario("import", self.ours("import", "register", "--batch-size", batch, csv_path),
                        Command(["python3", plain, csv_path, self.url(), batch], self.env("none")),
                        [Goal("cpu", 0.5), Goal("wall", 1.0), Goal("private", 1.0)], prepare=prepare,
                        # Up to seven rounds (`--rounds 7`): its CPU ratio moved by a tenth between three-round runs.
                        before_each=self.empty_import, rounds=7,
                        labels=(f"expense-log register ({rows:,} CSV rows, batches of {batch})",
                                "Python: csv → JSON → urllib POST"))

    def import_memory(self):
        """The design's "memory for a large import stays flat": ours against ourselves, 10× the rows."""
        rows, batch = self.sizes["rows"], "500"
        big, small = os.path.join(self.work, "rows.csv"), os.path.join(self.work, "rows-tenth.csv")

        def prepare():
            if not os.path.exists(big):
                write_import_csv(big, rows, IMPORT_YEAR)
            write_import_csv(small, rows // 10, IMPORT_YEAR)
            self.url()

        return Scenario("import-memory", self.ours("import", "register", "--batch-size", batch, big),
                        self.ours("import", "register", "--batch-size", batch, small),
                        [Goal("rss", 1.1)], prepare=prepare, before_each=self.empty_import, rounds=3,
                        labels=(f"expense-log register, {rows:,} rows", f"the same, {rows // 10:,} rows"))

    def year_summary(self):
        theirs = Command([], self.env("none"))

        def prepare():
            if not os.path.isdir(self.cache_dir("big")):
                self.offline_read().prepare()
            # The same twelve files summary reads, named the way the cache names them.
            theirs.argv = ["jq", "-s", JQ_SUMMARY, *sorted(glob.glob(os.path.join(self.cache_dir("big"), f"{YEAR}-*.json")))]
        return Scenario("year-summary", self.ours("big", "summary", "--year", str(YEAR), "--format", "json", "--offline"),
                        theirs, [Goal("wall", 1.5)], prepare=prepare,
                        labels=("expense-log summary --year Y --format json (12 cached months)", "jq -s summing the same files"))

    # -- the slow-server scenarios (issue 16: idle while the server thinks) ------------------------

    def slow_server(self, latency, redirect_latency=0.0, redirect=False):
        """A server of the scenario's own, whose every execution takes `latency` s: the shared one stays fast."""
        server = ReferenceServer(redirect=redirect, latency=latency, redirect_latency=redirect_latency)
        self.slow_servers.append(server)
        return server

    def sync_edits(self):
        """sync of N queued price changes over N cached items of one month, against a server taking the bundled script's
        update (server.py --actions); theirs: the same N updates POSTed one after another by a plain urllib loop."""
        count = self.sizes["edits"]
        server = ReferenceServer(actions=True)
        self.slow_servers.append(server)
        rng = random.Random(7)
        items = [{"id": str(uuid.UUID(int=rng.getrandbits(128), version=4)).upper(), "date": f"{YEAR}06{n % 28 + 1:02d}",
                  "name": f"item {n}", "price": 100 + n, "category": 0, "categorySub": 0} for n in range(count)]
        path = os.path.join(self.work, "edited-items.json")
        home = os.path.join(self.work, "edits")

        def before(side):
            server.reset(items)
            shutil.rmtree(home, ignore_errors=True)
            if side != "ours":
                return
            fetch = self.on(server, "edits", *self.fetch_args(YEAR, 6))
            subprocess.run(fetch.argv, env=fetch.env, stdout=subprocess.DEVNULL, check=True)
            # The journal as `edit` writes it while the server is away (Journal.append, JournalChanges.encode): one file a
            # change, in order. (Versions before the journal kept them in `edits/`, which the first run moves in.)
            queue = os.path.join(home, "state", "development", "journal")
            os.makedirs(queue)
            for n, item in enumerate(items):
                changed = dict(item, price=item["price"] + 1)
                with open(os.path.join(queue, f"{1_800_000_000_000_000 + n:020d}-1-BENCH{n:03d}.json"), "w", encoding="utf-8") as f:
                    json.dump({"queuedAt": 1_800_000_000 + n / 1e6, "action": "update", "item": item, "changed": changed,
                               "fields": ["price"]}, f, ensure_ascii=False)

        with open(path, "w", encoding="utf-8") as f:
            json.dump(items, f, ensure_ascii=False)
        return Scenario("sync-edits", self.on(server, "edits", "sync"), self.plain("updates", server.url, path),
                        [Goal("cpu-each", 0.010, minimum=count, basis="a change")], before_each=before, rounds=3,
                        labels=(f"expense-log sync, {count:,} queued edits over {count:,} cached items",
                                f"Python: the {count:,} update POSTs, one after another"))

    def on(self, server, home, *args):
        return Command([self.binary, *args], self.env(home, EXPENSE_LOG_BASE_URL=server.url))

    def plain(self, *args):
        return Command(["python3", os.path.join(ROOT, "bench", "plain_requests.py"), *args], self.env("none"))

    def year_items(self):
        return [item for month in range(1, 13) for item in month_items(YEAR, month, SLOW_MONTH_ITEMS, random.Random(month))]

    def fresh(self, server, home):
        """before_each of a writing scenario: an empty server and an empty home, so nothing is skipped as sent before."""
        def before(side):
            server.reset()
            shutil.rmtree(os.path.join(self.work, home), ignore_errors=True)
        return before

    def one_item_file(self):
        path = os.path.join(self.work, "one-item.json")
        item = {"id": "16000000-0000-4000-8000-000000000001", "date": f"{YEAR}0315", "name": "コーヒー",
                "price": 178, "category": 0, "categorySub": 1}
        with open(path, "w", encoding="utf-8") as f:
            json.dump([item], f, ensure_ascii=False)
        return path

    def idle_scenario(self, name, ours, theirs, labels, **extra):
        """An idle scenario: ours' CPU while it waits for IDLE_LATENCY s executions, at most 5% of its wall time."""
        return Scenario(name, ours, theirs, [Goal("cpu-share", 0.05)], rounds=SLOW_ROUNDS,
                        labels=(f"{labels[0]}; server {IDLE_LATENCY:g} s per execution", labels[1]), **extra)

    def idle_fetch(self):
        server = self.slow_server(IDLE_LATENCY)
        return self.idle_scenario("idle-fetch", self.on(server, "idle-fetch", *self.fetch_args(YEAR, 3)),
                                  Command(["curl", "-sfL", f"{server.url}?year={YEAR}&month=3"], self.env("none")),
                                  (f"expense-log fetch … --format json, {SLOW_MONTH_ITEMS} items", "curl -sL URL"),
                                  prepare=lambda: server.reset(self.year_items()))

    def idle_register(self):
        server = self.slow_server(IDLE_LATENCY)
        path = self.one_item_file()
        # GET the item's month, then POST it: what ours does (one comparing GET, one POST).
        script = ('curl -sfL "$0?year=$2&month=3" >/dev/null && '
                  'curl -sfL -H "Content-Type: application/json" --data-binary @"$1" "$0" >/dev/null')
        return self.idle_scenario("idle-register", self.on(server, "idle-register", "register", path),
                                  Command(["sh", "-c", script, server.url, path, str(YEAR)], self.env("none")),
                                  ("expense-log register one-item.json: a GET, a POST", "curl GET the month, curl POST"),
                                  before_each=self.fresh(server, "idle-register"))

    def idle_summary(self):
        server = self.slow_server(IDLE_LATENCY)
        summary = self.on(server, "idle-summary", "summary", "--year", str(YEAR), "--format", "json")
        return self.idle_scenario("idle-summary", summary,
                                  self.plain("months", server.url, str(YEAR), *map(str, range(1, 13))),
                                  ("expense-log summary --year Y --format json: 12 GETs", "Python: 12 concurrent urllib GETs"),
                                  prepare=lambda: server.reset(self.year_items()))

    def idle_sync(self):
        """sync of an outbox of 3 items over 2 months, queued by a register that found the server down."""
        server = self.slow_server(IDLE_LATENCY)
        if self.refused is None:
            self.refused = RefusedPort()
        path = os.path.join(self.work, "outbox-items.json")
        items = [{"id": f"16000000-0000-4000-8000-00000000010{n}", "date": date, "name": name, "price": price,
                  "category": 0, "categorySub": 1}
                 for n, (date, name, price) in enumerate([(f"{YEAR}0402", "紅茶", 200), (f"{YEAR}0417", "コーラ", 150),
                                                          (f"{YEAR}0505", "ラーメン", 900)])]
        with open(path, "w", encoding="utf-8") as f:
            json.dump(items, f, ensure_ascii=False)

        def before(side):
            self.fresh(server, "idle-sync")(side)
            if side == "ours":  # queue the items: the register finds the port refused and exits 75
                queue = self.env("idle-sync", EXPENSE_LOG_BASE_URL=self.refused.url)
                done = subprocess.run([self.binary, "--retries", "0", "register", path], env=queue,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                if done.returncode != 75:
                    raise SystemExit(f"bench: idle-sync: the offline register exited {done.returncode}, "
                                     f"not 75:\n{done.stderr}")
        return self.idle_scenario("idle-sync", self.on(server, "idle-sync", "sync"),
                                  self.plain("send", server.url, path, str(DEFAULT_BATCH)),
                                  ("expense-log sync, 3 queued items in 2 months: 2 GETs, 1 POST",
                               "Python: the 2 GETs concurrently, then the POST"),
                                  before_each=before)

    def trips(self, name, ours, theirs, executions, labels, **extra):
        """A round-trips scenario: ours' wall against `executions` sequential round trips of TRIP seconds."""
        return Scenario(name, ours, theirs,
                        [Goal("wall-min", 1.2, minimum=executions * TRIP, basis=f"{executions} × {TRIP:g} s")],
                        rounds=SLOW_ROUNDS,
                        labels=(f"{labels[0]}; server {TRIP_LATENCY:g} s + {TRIP_HOP:g} s redirect", labels[1]), **extra)

    def trip_server(self):
        return self.slow_server(TRIP_LATENCY, TRIP_HOP, redirect=True)

    def trips_fetch(self):
        server = self.trip_server()
        return self.trips("trips-fetch", self.on(server, "trips-fetch", *self.fetch_args(YEAR, 3)),
                          self.plain("months", server.url, str(YEAR), "3"), 1,
                          (f"expense-log fetch … --format json, {SLOW_MONTH_ITEMS} items", "Python: 1 urllib GET"),
                          prepare=lambda: server.reset(self.year_items()))

    def trips_summary(self):
        server = self.trip_server()
        summary = self.on(server, "trips-summary", "summary", "--year", str(YEAR), "--format", "json")
        return self.trips("trips-summary", summary,
                          self.plain("months", server.url, str(YEAR), *map(str, range(1, 13))), 1,
                          ("expense-log summary --year Y --format json", "Python: 12 concurrent urllib GETs"),
                          prepare=lambda: server.reset(self.year_items()))

    def trips_register(self):
        server = self.trip_server()
        path = self.one_item_file()
        return self.trips("trips-register", self.on(server, "trips-register", "register", path),
                          self.plain("send", server.url, path, str(DEFAULT_BATCH)), 2,
                          ("expense-log register one-item.json", "Python: GET the month, then POST"),
                          before_each=self.fresh(server, "trips-register"))

    def trips_import(self):
        server = self.trip_server()
        rows = self.sizes["trip-rows"]
        csv_path = os.path.join(self.work, "trip-rows.csv")
        posts = math.ceil(rows / DEFAULT_BATCH)  # each POST as full as register's default batch allows
        return self.trips("trips-import", self.on(server, "trips-import", "register", csv_path),
                          self.plain("send", server.url, csv_path, str(DEFAULT_BATCH)), 1 + posts,
                          (f"expense-log register, {rows:,} CSV rows over 12 months, batches of {DEFAULT_BATCH}",
                           f"Python: 12 concurrent GETs, then {posts} POSTs"),
                          prepare=lambda: write_import_csv(csv_path, rows, IMPORT_YEAR),
                          before_each=self.fresh(server, "trips-import"))
