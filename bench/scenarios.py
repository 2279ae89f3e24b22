"""The scenarios of `make bench`: each pairs an expense-log command with what a user would run instead."""

import glob
import json
import os
import random
import shutil
import subprocess
from dataclasses import dataclass, field

from workload import ROOT, ReferenceServer, month_items, write_import_csv

NAMES = ["start-up", "dummy-fetch", "loopback-fetch", "offline-read", "import", "import-memory", "year-summary"]

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
    metric: str      # "wall", "cpu" or "rss"
    limit: float     # the highest acceptable ratio ours / theirs


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

    def __enter__(self):
        self.sizes = {"month": 100, "years": 2, "rows": 2_000} if self.quick else \
                     {"month": 1_000, "years": 10, "rows": 100_000}
        return self

    def __exit__(self, *exc):
        if self.server:
            self.server.stop()

    def url(self):
        if self.server is None:
            self.server = ReferenceServer()
        return self.server.url

    def env(self, home, **extra):
        """A clean environment: no user config, a C.UTF-8 locale, the home given, the server when asked."""
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", "HOME": self.work,
               "EXPENSE_LOG_HOME": os.path.join(self.work, home), "EXPENSE_LOG_ENV": "development"}
        env.update(extra)
        return env

    def ours(self, home, *args, server=True):
        extra = {"EXPENSE_LOG_BASE_URL": self.url()} if server else {}
        return Command([self.binary, *args], self.env(home, **extra))

    def fetch_args(self, year=YEAR, month=1):
        return ["fetch", "--year", str(year), "--month", str(month), "--format", "json"]

    def cache_dir(self, home):
        return os.path.join(self.work, home, "cache", "development")

    def scenarios(self, only=None):
        made = [self.startup(), self.dummy_fetch(), self.loopback_fetch(), self.offline_read(),
                self.import_rows(), self.import_memory(), self.year_summary()]
        return [s for s in made if not only or s.name in only]

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
        return Scenario("offline-read", self.ours("big", *offline, server=False), self.ours("small", *offline, server=False),
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
                        [Goal("cpu", 0.5), Goal("wall", 1.0), Goal("rss", 1.0)], prepare=prepare,
                        before_each=self.empty_import, rounds=3,
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
        return Scenario("year-summary", self.ours("big", "summary", "--year", str(YEAR), "--format", "json"),
                        theirs, [Goal("wall", 1.5)], prepare=prepare,
                        labels=("expense-log summary --year Y --format json (12 cached months)", "jq -s summing the same files"))
