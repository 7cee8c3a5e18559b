"""idgen under Patroni: three nodes on loopback, switchovers and failovers.

Run by test/ops/patroni.sh (as root, with Debian's /usr/bin/python3, which
has patroni's modules and psycopg 3):

    patroni_test.py PG_BIN DIR [--switchovers N] [--failovers N] [--no-rewind]

Patroni (its built-in Raft store) runs three PostgreSQL servers with idgen
preloaded, the same idgen.worker_id and key file for all (Patroni's
bootstrap.dcs parameters), synchronous_mode and use_pg_rewind.  A client per
id type generates ids continuously through a multi-host connection string
(target_session_attrs=read-write), one INSERT ... RETURNING per round trip in
autocommit, and records every id a committed INSERT returned.  Meanwhile the
loop alternates switchovers (Patroni's REST API) and failovers (kill -9 of
the leader's postmaster); after each, every node must be back: the leader
streaming to both others, one of them synchronous, all on its timeline.
Each INSERT carries a tag of its own (client and statement number) in a
second column of the keyless table; a client keeps, per tag, the ids the
INSERT returned, or that its outcome is unknown: the connection was lost
while the statement ran (it may have committed, its reply lost).  Every
client error is classified (classify(): no read-write server to connect to,
read-only, connection lost; see doc/ha-backup-upgrade.md); any other, or
one outside an event (from its start to 10 s after every node is back),
fails.  Checked at the end, on the final leader's table (table_checks()):
no id twice in the table, count(*) = count(DISTINCT id), so the id of an
INSERT whose reply was lost was not issued again either; each committed
INSERT's rows are there with exactly the ids it returned; each INSERT of
unknown outcome is there whole or not at all; no other row; no id returned
twice; and the same checks must fail on the table's rows with a planted
re-issued id (a row of an INSERT of unknown outcome taking a committed
row's id).  --plant-reissued-id plants such a row in the leader's table
itself before the checks (the test must then fail).  And nothing needed a
hand: each old leader came back by itself, through pg_rewind where its WAL
had diverged (how many did is printed; with --no-rewind such a node cannot
come back, and the test fails).  Prints "ok - ..." / "not ok - ..." lines.
"""

import argparse
import collections
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request

import psycopg

NODES = ("node1", "node2", "node3")
# the generator of each type, several ids per round trip
GENERATORS = {
    "base36id": "base36id_generate()",
    "iuid": "iuid_generate(1, 2)",
    "distid": "distid_generate()",
    "flaxid": "flaxid_generate()",
}
WORKER = 9
EVENT_TIMEOUT = 90
# ids per INSERT
PER_STATEMENT = 5
# an error this long after every node is back is not part of the event
SETTLE = 10

results = {"pass": 0, "fail": 0}


def check(name, cond, detail=None):
    if cond:
        results["pass"] += 1
        print(f"ok - {name}", flush=True)
    else:
        results["fail"] += 1
        print(f"not ok - {name}", flush=True)
        if detail:
            print(f"#   {detail}", flush=True)
    return cond


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def as_server(args, **kw):
    return subprocess.run(["runuser", "-u", "postgres", "--"] + args, **kw)


class Cluster:
    def __init__(self, pg_bin, top, rewind):
        self.bin = pg_bin
        self.top = top
        self.rewind = rewind
        self.pg = {n: free_port() for n in NODES}
        self.rest = {n: free_port() for n in NODES}
        self.raft = {n: free_port() for n in NODES}
        self.procs = {}
        self.logs = {}
        self.keyfile = os.path.join(top, "public_id.keys")

    def config(self, name):
        return {
            "scope": "idgen",
            "name": name,
            "restapi": {"listen": f"127.0.0.1:{self.rest[name]}",
                        "connect_address": f"127.0.0.1:{self.rest[name]}"},
            "raft": {"data_dir": os.path.join(self.top, f"raft-{name}"),
                     "self_addr": f"127.0.0.1:{self.raft[name]}",
                     "partner_addrs": [f"127.0.0.1:{self.raft[n]}" for n in NODES if n != name]},
            "bootstrap": {
                "dcs": {
                    "ttl": 20, "loop_wait": 1, "retry_timeout": 5,
                    "maximum_lag_on_failover": 1048576,
                    # a crashed leader fails over at once, not after 5 minutes
                    "primary_start_timeout": 0,
                    "synchronous_mode": True,
                    "postgresql": {
                        "use_pg_rewind": self.rewind,
                        "use_slots": True,
                        # in the DCS: the same on every node, written by
                        # Patroni into each node's postgresql.conf
                        "parameters": {
                            "shared_preload_libraries": "idgen",
                            "idgen.worker_id": WORKER,
                            "idgen.public_id_key_file": self.keyfile,
                            "wal_log_hints": "on",
                            "synchronous_commit": "on",
                            "fsync": "off",
                        },
                    },
                },
                "initdb": [{"encoding": "UTF8"}, {"locale": "C"}],
            },
            "postgresql": {
                "listen": f"127.0.0.1:{self.pg[name]}",
                "connect_address": f"127.0.0.1:{self.pg[name]}",
                "data_dir": os.path.join(self.top, f"data-{name}"),
                "bin_dir": self.bin,
                "pgpass": os.path.join(self.top, f"pgpass-{name}"),
                "authentication": {"superuser": {"username": "postgres"},
                                   "replication": {"username": "postgres"},
                                   "rewind": {"username": "postgres"}},
                "pg_hba": ["local all all trust",
                           "host all all 127.0.0.1/32 trust",
                           "host replication all 127.0.0.1/32 trust"],
                "parameters": {"unix_socket_directories": self.top},
            },
        }

    def start(self, name):
        path = os.path.join(self.top, f"{name}.yml")
        with open(path, "w") as f:
            json.dump(self.config(name), f, indent=1)   # JSON is YAML
        os.chown(path, *self.server_ids())
        self.logs[name] = os.path.join(self.top, f"{name}.log")
        log = open(self.logs[name], "ab")
        self.procs[name] = subprocess.Popen(
            ["runuser", "-u", "postgres", "--", "/usr/bin/python3", "/usr/bin/patroni", path],
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)

    @staticmethod
    def server_ids():
        import pwd
        pw = pwd.getpwnam("postgres")
        return pw.pw_uid, pw.pw_gid

    def stop_all(self):
        for p in self.procs.values():
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        deadline = time.time() + 40
        for p in self.procs.values():
            try:
                p.wait(max(1, deadline - time.time()))
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
        # a postmaster Patroni left behind
        for n in NODES:
            pidfile = os.path.join(self.top, f"data-{n}", "postmaster.pid")
            if os.path.exists(pidfile):
                as_server([os.path.join(self.bin, "pg_ctl"), "-D", os.path.dirname(pidfile),
                           "-m", "immediate", "stop"], capture_output=True)

    def cluster(self):
        for n in NODES:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.rest[n]}/cluster", timeout=2) as r:
                    return json.load(r)
            except (OSError, ValueError):
                continue
        return None

    def sql(self, name, query):
        with psycopg.connect(host="127.0.0.1", port=self.pg[name], user="postgres",
                             dbname="postgres", autocommit=True, connect_timeout=3) as c:
            cur = c.execute(query)
            return cur.fetchall() if cur.description else []

    def dsn(self):
        return ("host=" + ",".join("127.0.0.1" for _ in NODES)
                + " port=" + ",".join(str(self.pg[n]) for n in NODES)
                + " user=postgres dbname=postgres target_session_attrs=read-write connect_timeout=2")

    def state(self):
        """(leader, healthy, why): healthy when the leader streams to both
        others, one synchronous, and all are on the leader's timeline"""
        c = self.cluster()
        if not c:
            return None, False, "no REST API answers"
        members = {m["name"]: m for m in c.get("members", [])}
        leaders = [n for n, m in members.items() if m.get("role") in ("leader", "master")]
        if len(leaders) != 1:
            return None, False, f"leaders: {leaders}"
        leader = leaders[0]
        if len(members) != 3 or members[leader].get("state") != "running":
            return leader, False, f"members: {members}"
        tl = members[leader].get("timeline")
        if any(m.get("timeline") != tl for m in members.values()):
            return leader, False, "timelines: " + str({n: m.get("timeline") for n, m in members.items()})
        try:
            rows = self.sql(leader, "SELECT application_name, state, sync_state FROM pg_stat_replication")
        except psycopg.Error as e:
            return leader, False, str(e)
        streaming = sorted(r[0] for r in rows if r[1] == "streaming")
        others = sorted(n for n in NODES if n != leader)
        sync = [r[0] for r in rows if r[2] == "sync"]
        if streaming != others or len(sync) != 1:
            return leader, False, f"replication: {rows}"
        # Patroni fails over only to the standby its DCS names synchronous:
        # until it does, a crashed leader is restarted instead
        if [n for n, m in members.items() if m.get("role") == "sync_standby"] != sync:
            return leader, False, f"DCS sync standby: {members}"
        return leader, True, ""

    def wait_healthy(self, not_leader=None, timeout=EVENT_TIMEOUT):
        deadline = time.time() + timeout
        why = ""
        while time.time() < deadline:
            leader, ok, why = self.state()
            if ok and leader != not_leader:
                return leader
            time.sleep(0.5)
        print(f"#   not healthy after {timeout} s: {why}", flush=True)
        return None

    def rewinds(self, name):
        """how many times pg_rewind ran successfully on node NAME"""
        with open(self.logs[name], errors="replace") as f:
            return sum(1 for line in f if "pg_rewind exit code=0" in line)


def classify(e, phase):
    """What a client may see during a switchover or failover
    (doc/ha-backup-upgrade.md, "What clients see"): no server to connect to
    that takes writes (phase "connect": nothing ran), or the connection lost
    while the statement ran (no SQLSTATE, or 57P01/57P02/57P03, or class
    08: it may have committed); also a statement refused as read-only
    (25006: nothing ran), which the runs have not shown.  Anything else is
    "unexpected"."""
    state = getattr(e, "sqlstate", None)
    if not isinstance(e, psycopg.Error):
        return "unexpected"
    if phase == "connect":
        return "no read-write server" if isinstance(e, psycopg.OperationalError) else "unexpected"
    if state == "25006":
        return "read-only"
    if isinstance(e, psycopg.OperationalError) and (state is None or state in ("57P01", "57P02", "57P03")
                                                    or state.startswith("08")):
        return "connection lost"
    return "unexpected"


class Client(threading.Thread):
    """generates one type continuously, one tagged INSERT of PER_STATEMENT
    ids per round trip; keeps what each statement's outcome was"""

    def __init__(self, kind, dsn, stop, name=None):
        super().__init__(daemon=True)
        self.kind, self.dsn, self.stop = kind, dsn, stop
        self.name = name or kind
        self.ids = []
        # tag -> the ids its INSERT returned, or None: unknown (connection lost)
        self.outcome = {}
        # (time, class, SQLSTATE, first line of the message)
        self.errors = []

    def run(self):
        q = (f"INSERT INTO ids_{self.kind} (id, tag) SELECT {GENERATORS[self.kind]}, %s "
             f"FROM generate_series(1, {PER_STATEMENT}) RETURNING id::text")
        conn = None
        n = 0
        while not self.stop.is_set():
            phase = "connect"
            tag = None
            try:
                if conn is None:
                    conn = psycopg.connect(self.dsn, autocommit=True)
                phase = "statement"
                n += 1
                tag = f"{self.name}-{n}"
                rows = conn.execute(q, (tag,)).fetchall()
                self.outcome[tag] = [r[0] for r in rows]
                self.ids.extend(r[0] for r in rows)
                time.sleep(0.005)   # room for Patroni on a small machine
            except Exception as e:  # noqa: BLE001 (classified; an unexpected one fails the test)
                kind = classify(e, phase)
                self.errors.append((time.time(), kind, getattr(e, "sqlstate", None),
                                    f"{type(e).__name__}: " + (str(e).splitlines() or [""])[0]))
                if kind == "connection lost":
                    self.outcome[tag] = None
                if conn is not None:
                    try:
                        conn.close()
                    except psycopg.Error:
                        pass
                conn = None
                time.sleep(0.05)
        if conn is not None:
            conn.close()


def table_checks(kind, rows, outcome):
    """The checks of a final table's rows [(id, tag)] against what the
    clients that wrote into it were told (outcome: tag -> the ids its INSERT
    returned, or None if unknown): {name: problem, or None}"""
    by_tag = collections.defaultdict(list)
    for i, t in rows:
        by_tag[t].append(i)
    twice = [i for i, n in collections.Counter(i for i, _ in rows).items() if n > 1]
    committed = {t: ids for t, ids in outcome.items() if ids is not None}
    unknown = [t for t, ids in outcome.items() if ids is None]
    returned = [i for ids in committed.values() for i in ids]
    wrong = [t for t, ids in committed.items() if sorted(by_tag.get(t, [])) != sorted(ids)]
    partial = [t for t in unknown if len(by_tag.get(t, [])) not in (0, PER_STATEMENT)]
    other = [t for t in by_tag if t not in outcome]
    came = sum(1 for t in unknown if t in by_tag)

    def problem(bad, what):
        return f"{len(bad)} {what}: {sorted(bad)[:5]}" if bad else None
    return {
        f"{kind}: no id twice in the table, count(*) = count(DISTINCT id) ({len(rows)} rows)":
            problem(twice, "ids more than once"),
        f"{kind}: no id returned twice ({len(returned)} returned)":
            problem([i for i, n in collections.Counter(returned).items() if n > 1], "ids returned twice"),
        f"{kind}: every committed INSERT ({len(committed)}) is in the table with exactly the ids it returned":
            problem(wrong, "INSERTs whose rows differ from what they returned"),
        f"{kind}: every INSERT whose outcome is unknown ({len(unknown)}, the connection lost while it ran) "
        f"is in the table whole or not at all ({came} of them there)":
            problem(partial, "INSERTs in the table in part"),
        f"{kind}: no row of a failed INSERT or of none":
            problem(other, "tags no INSERT of which could have committed"),
    }


def check_table(kind, rows, clients):
    """table_checks() on the table, then on its rows with a planted
    re-issued id: an INSERT whose reply was lost, there whole, one of its
    ids that of a committed row"""
    outcome = {}
    for c in clients:
        outcome.update(c.outcome)
    for name, bad in table_checks(kind, rows, outcome).items():
        check(name, bad is None, bad)
    reissued = (rows + [(rows[0][0] if rows else "x", "mutant-1")]
                + [(f"new-{i}", "mutant-1") for i in range(PER_STATEMENT - 1)])
    caught = [n for n, bad in table_checks(kind, reissued, dict(outcome, **{"mutant-1": None})).items() if bad]
    check(f"{kind}: these checks fail on the table's rows with a planted re-issued id (caught by {caught})",
          len(caught) == 1 and "count(DISTINCT id)" in caught[0])


def plant_reissued_id(sql, kind, client):
    """test-only: an INSERT of unknown outcome that committed with one id
    of a committed row (a re-issued id), in the table itself"""
    client.outcome["planted-1"] = None
    sql(f"INSERT INTO ids_{kind} (id, tag) SELECT id, 'planted-1' FROM ids_{kind} "
        f"WHERE tag <> 'planted-1' LIMIT 1; "
        f"INSERT INTO ids_{kind} (id, tag) SELECT {GENERATORS[kind]}, 'planted-1' "
        f"FROM generate_series(2, {PER_STATEMENT})")


def check_errors(clients, windows):
    """every client error classified, and during an event: windows are
    [start, end] of each event (end None: it never ended)"""
    errors = [e for c in clients for e in c.errors]
    by_kind = collections.Counter(e[1] for e in errors)
    print(f"#   client errors: {dict(by_kind) or 'none'}", flush=True)
    for kind in sorted(by_kind):
        seen = collections.Counter((e[2], e[3][:120]) for e in errors if e[1] == kind)
        for (state, message), n in seen.most_common(3):
            print(f"#     {kind}: {n} x {state or 'no SQLSTATE'} {message}", flush=True)
    odd = [e for e in errors if e[1] == "unexpected"]
    check("every client error is one of those a client sees during an event "
          "(no read-write server, read-only, connection lost)", not odd,
          "; ".join(f"{e[2]} {e[3]}" for e in odd[:5]))
    outside = [e for e in errors
               if not any(t0 <= e[0] <= (t1 if t1 is not None else float("inf")) + SETTLE for t0, t1 in windows)]
    check(f"every client error came during an event (from its start to {SETTLE} s after every node was back)",
          not outside, "; ".join(f"{time.strftime('%T', time.localtime(e[0]))} {e[1]}: {e[3]}" for e in outside[:5]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pg_bin")
    ap.add_argument("dir")
    ap.add_argument("--switchovers", type=int, default=10)
    ap.add_argument("--failovers", type=int, default=10)
    ap.add_argument("--no-rewind", action="store_true")
    ap.add_argument("--plant-reissued-id", action="store_true",
                    help="test-only: a re-issued id planted in the final table (the test must fail)")
    a = ap.parse_args()

    # a run stopped by SIGTERM (tools/test.sh stopped, a CI timeout) still
    # stops what it started: Patroni's nodes run in sessions of their own
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    signal.signal(signal.SIGHUP, lambda *_: sys.exit(1))
    cl = Cluster(a.pg_bin, a.dir, not a.no_rewind)
    uid, gid = cl.server_ids()
    key = subprocess.run(["openssl", "rand", "-base64", "32"], capture_output=True,
                         check=True, text=True).stdout
    fd = os.open(cl.keyfile, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    os.write(fd, key.encode())
    os.close(fd)
    os.chown(cl.keyfile, uid, gid)

    stop = threading.Event()
    clients = []
    try:
        for n in NODES:
            cl.start(n)
        leader = cl.wait_healthy(timeout=120)
        if not check("three nodes up: a leader streaming to two replicas, one synchronous", leader):
            return
        cl.sql(leader, "CREATE EXTENSION idgen; "
               + " ".join(f"CREATE TABLE ids_{k} (id {k}, tag text);" for k in GENERATORS))
        settings = {n: dict(cl.sql(n, "SELECT name, setting FROM pg_settings WHERE name IN "
                                      "('idgen.worker_id', 'shared_preload_libraries', "
                                      "'synchronous_standby_names')")) for n in NODES}
        check("every node preloads idgen with the same worker id (Patroni's parameters)",
              all(s.get("idgen.worker_id") == str(WORKER) and s.get("shared_preload_libraries") == "idgen"
                  for s in settings.values()), settings)
        check("synchronous mode: the leader names a synchronous standby",
              settings[leader].get("synchronous_standby_names", "") != "", settings[leader])

        clients = [Client(k, cl.dsn(), stop) for k in GENERATORS]
        for c in clients:
            c.start()
        time.sleep(2)

        timelines_start = cl.cluster()["members"][0].get("timeline")
        done = {"switchover": 0, "failover": 0}
        rewound = 0
        windows = []
        events = []
        for i in range(max(a.switchovers, a.failovers)):
            if i < a.switchovers:
                events.append("switchover")
            if i < a.failovers:
                events.append("failover")
        for ev in events:
            old = leader
            t0 = time.time()
            windows.append([t0, None])
            if ev == "switchover":
                req = urllib.request.Request(
                    f"http://127.0.0.1:{cl.rest[old]}/switchover", method="POST",
                    data=json.dumps({"leader": old}).encode(),
                    headers={"Content-Type": "application/json"})
                try:
                    with urllib.request.urlopen(req, timeout=60) as r:
                        r.read()
                except OSError as e:
                    print(f"#   switchover request: {e}", flush=True)
            else:
                rewinds_before = cl.rewinds(old)
                with open(os.path.join(a.dir, f"data-{old}", "postmaster.pid")) as f:
                    os.kill(int(f.readline()), signal.SIGKILL)
            new = cl.wait_healthy(not_leader=old)
            if new is None:
                check(f"{ev} {done[ev] + 1}: every node back without a hand", False,
                      f"from {old}; the cluster: {cl.cluster()}")
                break
            windows[-1][1] = time.time()
            leader = new
            done[ev] += 1
            how = ""
            if ev == "failover":
                rewound += cl.rewinds(old) > rewinds_before
                how = ", pg_rewind" if cl.rewinds(old) > rewinds_before else ", no pg_rewind"
            print(f"# {ev} {done[ev]}: {old} -> {leader}, all back in {time.time() - t0:.1f} s{how}", flush=True)
            time.sleep(1)   # ids on the new leader before the next event

        check(f"{a.switchovers} switchovers, every node back each time", done["switchover"] == a.switchovers,
              done)
        check(f"{a.failovers} failovers (kill -9 of the leader's postmaster), every node back each time",
              done["failover"] == a.failovers, done)
        # Patroni runs pg_rewind when the crashed leader's WAL went past the
        # new leader's timeline switch, and not otherwise (then the node just
        # follows); either way it must have come back on its own (above)
        print(f"# pg_rewind brought back {rewound} of {done['failover']} crashed leaders; "
              "the others had not diverged", flush=True)

        time.sleep(2)
        stop.set()
        for c in clients:
            c.join(30)
        # the leader now, even if some node did not come back
        leader = cl.wait_healthy(timeout=30) or cl.state()[0] or leader
        total = 0
        check_errors(clients, windows)
        for c in clients:
            total += len(c.ids)
            print(f"# {c.kind}: {len(c.ids)} ids recorded, {len(c.errors)} client errors", flush=True)
            if a.plant_reissued_id:
                plant_reissued_id(lambda q: cl.sql(leader, q), c.kind, c)
            rows = cl.sql(leader, f"SELECT id::text, tag FROM ids_{c.kind}")
            counted = cl.sql(leader, f"SELECT count(*) = count(DISTINCT id) FROM ids_{c.kind}")[0][0]
            check(f"{c.kind}: the server counts as many distinct ids as rows", counted and len(c.ids) > 0)
            check_table(c.kind, rows, [c])
        b36 = [c for c in clients if c.kind == "base36id"][0].ids
        workers = cl.sql(leader, f"SELECT count(*) FROM ids_base36id WHERE base36id_worker(id) <> {WORKER}")
        check(f"base36id: every id has worker {WORKER}", workers[0][0] == 0 and len(b36) > 0)
        pid = cl.sql(leader, "SELECT count(*) FROM ids_distid WHERE public_id_to_distid(public_id(id)) <> id")
        check("public ids: the key file every node reads round-trips on the last leader", pid[0][0] == 0)
        print(f"# timeline {timelines_start} -> {cl.cluster()['members'][0].get('timeline')}; {total} ids",
              flush=True)
    except Exception as e:  # a broken step is a failure, with its cause
        check(f"the test ran to its end ({type(e).__name__}: {e})", False)
        raise
    finally:
        stop.set()
        cl.stop_all()
        print(f"patroni: {results['pass']} passed, {results['fail']} failed", flush=True)


if __name__ == "__main__":
    main()
    sys.exit(1 if results["fail"] else 0)
