#!/usr/bin/python3
"""idgen's metrics through the real postgres_exporter, checked against the views.

Usage: exporter_test.py EXPORTER QUERIES RULES DSN-ADMIN DSN-MONITOR OFFSET-FILE

Run by test/monitoring/run.sh (as root, with Debian's /usr/bin/python3 and
psycopg 3) against a scratch server that has idgen preloaded, a worker id
and libfaketime reading OFFSET-FILE.  As the server's superuser (DSN-ADMIN)
it creates idgen and a monitoring role that is a member of pg_monitor only,
makes ids, has another role make an overload of public_id in public,
steps the server's clock back 30 s (base36id's counter is then
ahead of the clock; iuid and flaxid follow the step), and leaves one session
waiting for a synchronous standby that does not exist.  Then it starts
EXPORTER (Debian's prometheus-postgres-exporter) with the queries file
QUERIES, connected as the monitoring role (DSN-MONITOR), on a loopback port
it picks, scrapes its HTTP endpoint and reads the views at once as that
role.  Checked:
- the exporter loaded the file and its last scrape had no error;
- every column of idgen_stat_base36id and idgen_stat_clock is a metric whose
  value is the view's (times of day as Unix seconds, the LSN as bytes, NULL
  as NaN; the text columns as labels), and counter_ahead_seconds is the
  counter's lead over the clock the view shows;
- the waiting sessions are what the test arranged: one waiting for a
  standby, none for anything else;
- what the test did shows (counter ahead by about 30 s, a step back
  followed), so the comparison compares something;
- another role's overload of an idgen function, made in public, is counted
  by idgen_schema_untrusted_objects as idgen_check_schema() lists it;
- every metric RULES (the alerting rules) names is among those exported.
Prints "ok - ..." / "not ok - ..." and "exporter: N passed, M failed".
"""
import datetime
import math
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.request

import psycopg
import yaml

results = {"pass": 0, "fail": 0}


def check(name, cond, detail=None):
    results["pass" if cond else "fail"] += 1
    print(f"{'ok' if cond else 'not ok'} - {name}", flush=True)
    if not cond and detail is not None:
        print(f"#   {detail}", flush=True)
    return cond


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


LINE = re.compile(r'^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$')
LABEL = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')


def scrape(port):
    """{(name, frozenset(labels)): value} of the exporter's text format"""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as r:
        text = r.read().decode()
    out = {}
    for line in text.splitlines():
        m = LINE.match(line)
        if m and not line.startswith("#"):
            labels = frozenset((k, v) for k, v in LABEL.findall(m.group(2) or "") if k != "server")
            out[(m.group(1), labels)] = float(m.group(3))
    return out


def as_number(v):
    """a view's value as the exporter gives it"""
    if v is None:
        return math.nan
    if isinstance(v, datetime.datetime):
        return v.timestamp()
    return float(v)


def lsn_bytes(lsn):
    hi, lo = lsn.split("/")
    return float((int(hi, 16) << 32) + int(lo, 16))


def same(a, b, tol=1e-6):
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return abs(a - b) <= tol * max(1.0, abs(a), abs(b))


def main(exporter, queries, rules, admin_dsn, monitor_dsn, offset_file):
    admin = psycopg.connect(admin_dsn, autocommit=True)
    admin.execute("CREATE EXTENSION idgen")
    admin.execute("CREATE ROLE idgen_monitor LOGIN")
    admin.execute("GRANT pg_monitor TO idgen_monitor")
    admin.execute("ALTER ROLE idgen_monitor SET search_path = public")
    admin.execute("SELECT base36id_generate(), iuid_generate(1, 1), flaxid_generate(), distid_generate(),"
                  " distid128_generate(), distid_generate_dense() FROM generate_series(1, 50)")
    # another role's overload of one of idgen's names in its schema, made
    # after the install (the role may create in public)
    admin.execute("CREATE ROLE idgen_squatter")
    admin.execute("GRANT CREATE ON SCHEMA public TO idgen_squatter")
    admin.execute("SET ROLE idgen_squatter")
    admin.execute("CREATE FUNCTION public.public_id(id bigint, key text) RETURNS uuid LANGUAGE sql AS 'SELECT NULL::uuid'")
    admin.execute("RESET ROLE")

    # the clock 30 s back: base36id's counter stays ahead of it; iuid and
    # flaxid follow a step of more than a second
    with open(offset_file + ".tmp", "w") as f:
        f.write("-30\n")
    os.rename(offset_file + ".tmp", offset_file)
    admin.execute("SELECT base36id_generate(), iuid_generate(1, 1), flaxid_generate() FROM generate_series(1, 5)")

    # one session waiting for a synchronous standby that is not there
    admin.execute("ALTER SYSTEM SET synchronous_standby_names = 'no_such_standby'")
    admin.execute("SELECT pg_reload_conf()")
    waiter = psycopg.connect(admin_dsn, autocommit=True)
    waiter_pid = waiter.execute("SELECT pg_backend_pid()").fetchone()[0]
    got = {}
    thread = threading.Thread(target=lambda: got.update(
        id=waiter.execute("SELECT base36id_generate()::text").fetchone()[0]), daemon=True)
    thread.start()
    deadline = time.time() + 30
    while time.time() < deadline:
        ev = admin.execute("SELECT wait_event FROM pg_stat_activity WHERE pid = %s", (waiter_pid,)).fetchone()
        if ev and ev[0] == "SyncRep":
            break
        time.sleep(0.1)
    check("a session waits for the synchronous standby (SyncRep)", ev and ev[0] == "SyncRep", ev)

    port = free_port()
    log = open(os.path.join(os.path.dirname(offset_file), "exporter.log"), "w")
    proc = subprocess.Popen(
        [exporter, f"--extend.query-path={queries}", "--disable-default-metrics",
         "--disable-settings-metrics", f"--web.listen-address=127.0.0.1:{port}"],
        env=dict(os.environ, DATA_SOURCE_NAME=monitor_dsn), stdout=log, stderr=subprocess.STDOUT)
    try:
        metrics = None
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                metrics = scrape(port)
                if metrics.get(("pg_up", frozenset())) == 1.0:
                    break
            except OSError:
                pass
            time.sleep(0.3)
        if not check("the exporter answers on loopback and reaches the server (pg_up 1)",
                     metrics and metrics.get(("pg_up", frozenset())) == 1.0):
            return
        # the views at once, as the monitoring role
        mon = psycopg.connect(monitor_dsn, autocommit=True)
        cur = mon.execute("SELECT *, clock_timestamp() AS now_, pg_is_in_recovery() AS standby_"
                          " FROM idgen_stat_base36id")
        b36 = dict(zip([d.name for d in cur.description], cur.fetchone()))
        cur = mon.execute("SELECT * FROM idgen_stat_clock")
        clock_cols = [d.name for d in cur.description]
        clock = {r[0]: dict(zip(clock_cols, r)) for r in cur.fetchall()}
        listed = mon.execute("SELECT count(*) FROM idgen_check_schema() WHERE NOT trusted").fetchone()[0]
        mon.close()

        check("the exporter loaded the queries file (pg_exporter_user_queries_load_error 0)",
              [v for (n, _), v in metrics.items() if n == "pg_exporter_user_queries_load_error"] == [0.0],
              [(n, dict(l), v) for (n, l), v in metrics.items() if n == "pg_exporter_user_queries_load_error"])
        check("its scrape ran every query without an error (pg_exporter_last_scrape_error 0)",
              metrics.get(("pg_exporter_last_scrape_error", frozenset())) == 0.0)

        # idgen_stat_base36id: one metric per column, labels role and state_file
        labels = frozenset({("role", "standby" if b36["standby_"] else "primary"),
                            ("state_file", b36["state_file"])})
        for col, val in b36.items():
            if col in ("now_", "standby_", "state_file"):
                continue
            name = f"idgen_base36id_{col}"
            want = (-1.0 if val is None else float(val)) if col == "worker_id" else \
                lsn_bytes(str(val)) if col == "last_reservation_lsn" and val is not None else as_number(val)
            have = metrics.get((name, labels))
            check(f"{name} is idgen_stat_base36id.{col} ({want})",
                  have is not None and same(have, want), f"exported {have}, labels {dict(labels)}")
        st = metrics.get(("idgen_base36id_state_file_ok", labels))
        check(f"idgen_base36id_state_file_ok is 1 for state_file {b36['state_file']!r}",
              st == (1.0 if b36["state_file"] in ("ok", "missing") else 0.0), st)
        ahead = (b36["counter_second"] - b36["now_"]).total_seconds()
        have = metrics.get(("idgen_base36id_counter_ahead_seconds", labels))
        check(f"idgen_base36id_counter_ahead_seconds is the counter's lead over the clock ({ahead:.1f} s)",
              have is not None and abs(have - ahead) < 5, have)
        check("the clock stepped back 30 s shows: the counter is more than 20 s ahead of it",
              have is not None and have > 20, have)

        # idgen_stat_clock: one metric per column, labelled by generator
        for gen, row in clock.items():
            for col, val in row.items():
                if col == "generator":
                    continue
                name = f"idgen_clock_{col}"
                have = metrics.get((name, frozenset({("generator", gen)})))
                check(f"{name}{{generator=\"{gen}\"}} is idgen_stat_clock.{col} ({val})",
                      have is not None and same(have, as_number(val)), have)
        check("the step back shows: iuid followed it",
              clock.get("iuid", {}).get("steps_back_followed", 0) >= 1, clock.get("iuid"))

        # the waits: what the test arranged
        waits = {dict(l)["wait"]: v for (n, l), v in metrics.items() if n == "idgen_base36id_waiting_sessions"}
        want = {"state_file_sync": 0.0, "reservation": 0.0, "next_second": 0.0, "line": 0.0,
                "reservation_or_line": 0.0, "standby": 1.0}
        check("idgen_base36id_waiting_sessions: one session waits for a standby, none for anything else",
              waits == want, waits)

        # other roles' objects in idgen's schema: the squatter's overload
        have = metrics.get(("idgen_schema_untrusted_objects", frozenset()))
        check(f"idgen_schema_untrusted_objects is idgen_check_schema()'s count ({listed}), the squatter's overload",
              have == float(listed) == 1.0, have)

        # every metric the alerting rules use is exported
        with open(rules) as f:
            exprs = [r["expr"] for g in yaml.safe_load(f)["groups"] for r in g["rules"]]
        used = {n for e in exprs for n in re.findall(r"\bidgen_\w+", e)}
        check(f"the alerting rules name metrics ({len(used)})", used)
        exported = {n for n, _ in metrics}
        for name in sorted(used):
            check(f"the alerting rules' {name} is exported", name in exported)
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        admin.execute("ALTER SYSTEM RESET synchronous_standby_names")
        admin.execute("SELECT pg_reload_conf()")
        thread.join(30)
        check("the waiting session got its id once the standby was no longer required",
              not thread.is_alive() and "id" in got, got)
        waiter.close()
        admin.close()


if __name__ == "__main__":
    if len(sys.argv) != 7:
        raise SystemExit(__doc__)
    try:
        main(*sys.argv[1:])
    except Exception as e:  # a broken step is a failure, with its cause
        check(f"the test ran to its end ({type(e).__name__}: {e})", False)
    print(f"exporter: {results['pass']} passed, {results['fail']} failed", flush=True)
    sys.exit(1 if results["fail"] or not results["pass"] else 0)
