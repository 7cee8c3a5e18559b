"""base36id under pg_auto_failover: a monitor, a primary and a standby on loopback.

Run by test/ops/autofailover.sh (as root, with Debian's /usr/bin/python3,
which has psycopg 3):

    autofailover_test.py PG_BIN DIR [--switchovers N] [--failovers N]

pg_auto_failover (Debian 12's pg_autoctl 2.0) runs a monitor and two data
nodes from the PostgreSQL tree PG_BIN, every process as the server user, its
configuration, state and run files (XDG_CONFIG_HOME, XDG_DATA_HOME,
XDG_RUNTIME_DIR) and the servers' sockets in DIR; the servers listen on
127.0.0.1 only.  The first data node is made with initdb by the test, with
idgen's settings in its postgresql.conf (as doc/ha-backup-upgrade.md says:
pg_autoctl's own file is included at its top, so these lines win), then
registered by pg_autoctl; the second is cloned from it by pg_autoctl
(pg_basebackup), settings included.  The formation keeps
number_sync_standbys 0 with both nodes in the replication quorum: the
primary names the standby in synchronous_standby_names ('ANY 1 (...)').

Two clients generate base36ids continuously through a multi-host connection
string (target_session_attrs=read-write), one tagged INSERT ... RETURNING of
5 ids per round trip in autocommit, and record what each INSERT returned,
or that its outcome is unknown (patroni_test.py's client, and its checks).  Meanwhile the loop alternates switchovers (the monitor's
perform_failover, the primary healthy) and failovers (kill -9 of the
primary's whole pg_autoctl process group, postgres included; the test
starts its pg_autoctl again, as a service manager would, once the standby
has taken over).  After each, both nodes must be back: one primary, one
secondary, the primary naming the standby synchronous and streaming to it.
Checked at the end: every client error is classified and came during an
event; on the final primary's table, patroni_test.py's table_checks(): no
id twice in the table (so no id of an INSERT whose reply was lost was
issued again), each committed INSERT there with exactly the ids it
returned, each of unknown outcome whole or not at all, no other row, no id
returned twice, and these checks failing on the rows with a planted
re-issued id; every id carries the worker id.  --plant-reissued-id plants
such a row in the table itself (the test must then fail).  Prints
"ok - ..." / "not ok - ..." lines.
"""

import argparse
import os
import pwd
import signal
import subprocess
import sys
import threading
import time

import psycopg

# the checks, free ports and the generating client of the Patroni test
import patroni_test
from patroni_test import (Client, Cluster, check, check_errors, check_table, free_port, plant_reissued_id,
                          results)

NODES = ("node1", "node2")
WORKER = 9
EVENT_TIMEOUT = patroni_test.EVENT_TIMEOUT
# the monitor's health checks, shortened so that a dead primary is noticed
# in seconds (defaults: every 5 s, 2 retries 2 s apart, 20 s unhealthy);
# and the time it gives a primary it lost to demote itself before it
# promotes the standby (default 30 s), shortened with the keepers'
# network_partition_timeout (default 20 s, NETWORK_PARTITION_TIMEOUT), which
# it must stay above: an isolated primary stops writing before the other
# node takes over (doc/ha-backup-upgrade.md)
MONITOR_CONF = [
    "pgautofailover.health_check_period = 1000",
    "pgautofailover.health_check_timeout = 1000",
    "pgautofailover.health_check_max_retries = 1",
    "pgautofailover.health_check_retry_delay = 500",
    "pgautofailover.node_considered_unhealthy_timeout = 4000",
    "pgautofailover.primary_demote_timeout = 10000",
]
NETWORK_PARTITION_TIMEOUT = 5
# idgen's settings (doc/ha-backup-upgrade.md), and a small test server's
NODE_CONF = [
    "shared_preload_libraries = 'pg_stat_statements,idgen'",
    f"idgen.worker_id = {WORKER}",
    "synchronous_commit = on",
]
SMALL = ["shared_buffers = '16MB'", "fsync = off"]

class Formation:
    def __init__(self, pg_bin, top):
        self.bin = pg_bin
        self.top = top
        self.port = {n: free_port() for n in ("monitor",) + NODES}
        self.procs = {}
        pw = pwd.getpwnam("postgres")
        self.uid, self.gid = pw.pw_uid, pw.pw_gid
        for d in ("config", "share", "run"):
            os.makedirs(os.path.join(top, d), mode=0o700, exist_ok=True)
            os.chown(os.path.join(top, d), self.uid, self.gid)
        self.env = {"XDG_CONFIG_HOME": os.path.join(top, "config"),
                    "XDG_DATA_HOME": os.path.join(top, "share"),
                    "XDG_RUNTIME_DIR": os.path.join(top, "run"),
                    "PGHOST": top}
        self.monitor_uri = (f"postgres://autoctl_node@127.0.0.1:{self.port['monitor']}"
                            "/pg_auto_failover?sslmode=disable")

    def data(self, name):
        return os.path.join(self.top, name)

    def cmd(self, args):
        return (["runuser", "-u", "postgres", "--", "env"]
                + [f"{k}={v}" for k, v in self.env.items()] + args)

    def initdb(self, name, conf):
        subprocess.run(self.cmd([os.path.join(self.bin, "initdb"), "-D", self.data(name), "-U", "postgres",
                                 "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"]),
                       check=True, capture_output=True)
        with open(os.path.join(self.data(name), "postgresql.conf"), "a") as f:
            f.write("\n".join([f"unix_socket_directories = '{self.top}'"] + conf) + "\n")

    def spawn(self, name, args):
        """pg_autoctl ARGS for NAME in the background, in a process group of its own"""
        log = open(os.path.join(self.top, f"{name}.log"), "ab")
        self.procs[name] = subprocess.Popen(self.cmd(["pg_autoctl"] + args), stdout=log,
                                            stderr=subprocess.STDOUT, start_new_session=True)

    def create_monitor(self):
        self.initdb("monitor", SMALL + MONITOR_CONF)
        subprocess.run(self.cmd(["pg_autoctl", "create", "monitor", "--pgctl", os.path.join(self.bin, "pg_ctl"),
                                 "--pgdata", self.data("monitor"), "--pgport", str(self.port["monitor"]),
                                 "--hostname", "127.0.0.1", "--listen", "127.0.0.1",
                                 "--auth", "trust", "--no-ssl"]),
                       check=True, capture_output=True, timeout=120)
        self.spawn("monitor", ["run", "--pgdata", self.data("monitor")])

    def create_node(self, name):
        self.spawn(name, ["create", "postgres", "--pgctl", os.path.join(self.bin, "pg_ctl"),
                          "--pgdata", self.data(name), "--pgport", str(self.port[name]),
                          "--pghost", self.top, "--hostname", "127.0.0.1", "--listen", "127.0.0.1",
                          "--name", name, "--monitor", self.monitor_uri,
                          "--auth", "trust", "--no-ssl", "--run"])

    def run_node(self, name):
        self.spawn(name, ["run", "--pgdata", self.data(name)])

    def kill_node(self, name):
        """kill -9 of NAME's pg_autoctl and everything it started (postgres)"""
        os.killpg(self.procs[name].pid, signal.SIGKILL)
        self.procs[name].wait()

    def stop_all(self):
        for n in NODES + ("monitor",):
            p = self.procs.get(n)
            if p is not None and p.poll() is None:
                p.send_signal(signal.SIGTERM)
                try:
                    p.wait(30)
                except subprocess.TimeoutExpired:
                    pass
            if p is not None:
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        # a postmaster left behind (its pg_autoctl killed)
        for n in NODES + ("monitor",):
            if os.path.exists(os.path.join(self.data(n), "postmaster.pid")):
                subprocess.run(self.cmd([os.path.join(self.bin, "pg_ctl"), "-D", self.data(n),
                                         "-m", "immediate", "stop"]), capture_output=True)

    def sql(self, name, query, dbname="postgres"):
        with psycopg.connect(host="127.0.0.1", port=self.port[name], user="postgres",
                             dbname=dbname, autocommit=True, connect_timeout=3) as c:
            cur = c.execute(query)
            return cur.fetchall() if cur.description else []

    def monitor_sql(self, query):
        return self.sql("monitor", query, dbname="pg_auto_failover")

    def dsn(self):
        return ("host=" + ",".join("127.0.0.1" for _ in NODES)
                + " port=" + ",".join(str(self.port[n]) for n in NODES)
                + " user=postgres dbname=postgres target_session_attrs=read-write connect_timeout=2")

    def state(self):
        """(primary, healthy, why): healthy when the monitor has one primary
        and one secondary, both reported as assigned, and the primary names
        the secondary synchronous and streams to it"""
        try:
            rows = self.monitor_sql("SELECT nodename, reportedstate, goalstate FROM pgautofailover.node")
        except psycopg.Error as e:
            return None, False, f"monitor: {e}"
        states = {r[0]: (r[1], r[2]) for r in rows}
        primaries = [n for n, s in states.items() if s == ("primary", "primary")]
        secondaries = [n for n, s in states.items() if s == ("secondary", "secondary")]
        if len(primaries) != 1 or len(secondaries) != 1:
            return None, False, f"states: {states}"
        primary, standby = primaries[0], secondaries[0]
        try:
            names = self.sql(primary, "SHOW synchronous_standby_names")[0][0]
            repl = self.sql(primary, "SELECT application_name, state, sync_state FROM pg_stat_replication")
        except psycopg.Error as e:
            return primary, False, str(e)
        if not names or not any(r[1] == "streaming" and r[2] in ("sync", "quorum") for r in repl):
            return primary, False, f"synchronous_standby_names '{names}', replication {repl}"
        return primary, True, ""

    # until state() says healthy, with another primary than not_leader
    wait_healthy = Cluster.wait_healthy


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pg_bin")
    ap.add_argument("dir")
    ap.add_argument("--switchovers", type=int, default=1)
    ap.add_argument("--failovers", type=int, default=1)
    ap.add_argument("--plant-reissued-id", action="store_true",
                    help="test-only: a re-issued id planted in the final table (the test must fail)")
    a = ap.parse_args()

    # a run stopped by SIGTERM (a CI timeout) still stops what it started:
    # pg_autoctl runs in sessions of its own
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    f = Formation(a.pg_bin, a.dir)
    stop = threading.Event()
    clients = []
    try:
        f.create_monitor()
        # the first node: made here, idgen's settings in its postgresql.conf
        f.initdb("node1", SMALL + NODE_CONF)
        f.create_node("node1")
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                if f.monitor_sql("SELECT reportedstate FROM pgautofailover.node WHERE nodename = 'node1'") \
                        == [("single",)]:
                    break
            except psycopg.Error:
                pass
            time.sleep(0.5)
        # the second: cloned by pg_autoctl from the first, settings included
        f.create_node("node2")
        primary = f.wait_healthy(timeout=120)
        if not check("monitor, primary and standby up: the primary streams to the standby, synchronous", primary):
            return
        for n in NODES:
            subprocess.run(f.cmd(["pg_autoctl", "config", "set", "--pgdata", f.data(n),
                                  "timeout.network_partition_timeout", str(NETWORK_PARTITION_TIMEOUT)]),
                           check=True, capture_output=True)
        settings = {n: dict(f.sql(n, "SELECT name, setting FROM pg_settings WHERE name IN "
                                     "('idgen.worker_id', 'shared_preload_libraries', 'listen_addresses')"))
                    for n in NODES}
        check("both nodes preload idgen with the same worker id and listen on loopback only",
              all(s.get("idgen.worker_id") == str(WORKER) and "idgen" in s.get("shared_preload_libraries", "").split(",")
                  and s.get("listen_addresses") == "127.0.0.1" for s in settings.values()), settings)
        formation = f.monitor_sql("SELECT number_sync_standbys FROM pgautofailover.formation")
        quorum = f.monitor_sql("SELECT bool_and(replicationquorum) FROM pgautofailover.node")
        names = f.sql(primary, "SHOW synchronous_standby_names")[0][0]
        print(f"# number_sync_standbys {formation[0][0]}, replication quorum {quorum[0][0]}, "
              f"synchronous_standby_names '{names}'", flush=True)
        check("the formation's defaults: number_sync_standbys 0, both nodes in the replication quorum, "
              "the primary names the standby synchronous",
              formation == [(0,)] and quorum == [(True,)] and names.startswith("ANY 1 ("), names)
        f.sql(primary, "CREATE EXTENSION idgen; CREATE TABLE ids_base36id (id base36id, tag text)")

        clients = [Client("base36id", f.dsn(), stop, name=f"client{i}") for i in range(2)]
        for c in clients:
            c.start()
        time.sleep(2)

        done = {"switchover": 0, "failover": 0}
        windows = []
        # alternating, as long as either count lasts
        events = [ev for i in range(max(a.switchovers, a.failovers))
                  for ev, n in (("switchover", a.switchovers), ("failover", a.failovers)) if i < n]
        for ev in events:
            old = primary
            t0 = time.time()
            windows.append([t0, None])
            if ev == "switchover":
                f.monitor_sql("SELECT pgautofailover.perform_failover('default', 0)")
                new = f.wait_healthy(not_leader=old)
            else:
                f.kill_node(old)
                # the standby takes over alone (wait_primary: no standby to wait for)
                deadline = time.time() + EVENT_TIMEOUT
                new = None
                while time.time() < deadline and new is None:
                    rows = f.monitor_sql("SELECT nodename FROM pgautofailover.node WHERE nodename <> "
                                         f"'{old}' AND reportedstate IN ('wait_primary', 'primary')")
                    new = rows[0][0] if rows else None
                    time.sleep(0.5)
                if new is not None:
                    # alone, it commits without waiting for a standby
                    names = f.sql(new, "SHOW synchronous_standby_names")[0][0]
                    print(f"#   {new} took over in {time.time() - t0:.1f} s; synchronous_standby_names '{names}'",
                          flush=True)
                    check(f"failover {done[ev] + 1}: the standby that took over, alone, names no synchronous standby",
                          names == "", names)
                    f.run_node(old)     # as a service manager restarts it
                    new = f.wait_healthy(not_leader=old)
            if new is None:
                check(f"{ev} {done[ev] + 1}: both nodes back without a hand", False,
                      f"from {old}; states: {f.state()}")
                break
            windows[-1][1] = time.time()
            primary = new
            done[ev] += 1
            print(f"# {ev} {done[ev]}: {old} -> {primary}, both back in {time.time() - t0:.1f} s", flush=True)
            time.sleep(1)   # ids on the new primary before the next event

        check(f"{a.switchovers} switchovers (perform_failover), both nodes back each time",
              done["switchover"] == a.switchovers, done)
        check(f"{a.failovers} failovers (kill -9 of the primary's pg_autoctl and postgres), both nodes back each time",
              done["failover"] == a.failovers, done)

        time.sleep(1)
        stop.set()
        for c in clients:
            c.join(30)
        primary = f.wait_healthy(timeout=30) or f.state()[0] or primary
        ids = [i for c in clients for i in c.ids]
        print(f"# base36id: {len(ids)} ids recorded, {sum(len(c.errors) for c in clients)} client errors",
              flush=True)
        check_errors(clients, windows)
        if a.plant_reissued_id:
            plant_reissued_id(lambda q: f.sql(primary, q), "base36id", clients[0])
        rows = f.sql(primary, "SELECT id::text, tag FROM ids_base36id")
        counted = f.sql(primary, "SELECT count(*) = count(DISTINCT id) FROM ids_base36id")[0][0]
        check("base36id: the server counts as many distinct ids as rows", counted and len(ids) > 0)
        check_table("base36id", rows, clients)
        workers = f.sql(primary, f"SELECT count(*) FROM ids_base36id WHERE base36id_worker(id) <> {WORKER}")
        check(f"base36id: every id has worker {WORKER}", workers[0][0] == 0 and len(ids) > 0)
    except Exception as e:  # a broken step is a failure, with its cause
        check(f"the test ran to its end ({type(e).__name__}: {e})", False)
        raise
    finally:
        stop.set()
        f.stop_all()
        print(f"pgautofailover: {results['pass']} passed, {results['fail']} failed", flush=True)


if __name__ == "__main__":
    main()
    sys.exit(1 if results["fail"] else 0)
