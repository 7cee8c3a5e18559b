"""doc/runbooks.md's runbooks, run as written, against real servers.

Usage (as root, Debian's /usr/bin/python3; test/ops/runbooks.sh runs it):

    runbooks_test.py manual  PG_BIN DIR    failover and switchover by the page's commands
    runbooks_test.py key     PG_BIN DIR    the public-id key's life
    runbooks_test.py patroni PG_BIN DIR    failover and switchover under Patroni

Each scenario runs the page's blocks (runbook.py) on the servers they name,
with the settings of those servers, in the page's order, and checks what
the runbook promises beside the "# expect:" lines the blocks check
themselves:

- manual: a primary (worker 9), its synchronous standby and another server
  of the id space (worker 3); a client inserts base36ids through the
  page's multi-host connection string throughout.  A failover to the
  standby with worker id 10 (the old primary fenced, then rewound back as a
  standby), then a switchover back.  No id returned twice, every id a
  committed INSERT returned in the last primary's table, ids of both
  workers, the old primary a streaming standby each time.
- key: a primary and a standby with the key file outside the data
  directory, an escrow holder's key pair; the key generated, escrowed (the
  copy opens to the key's fingerprint, computed here from the file), used
  on both servers, rotated in two stages while sessions on both servers
  encode and decode each other's public ids without pause (none may decode
  to NULL or to another id); a base backup holds no key; a restore onto a
  new server from the backup and the escrowed copy decodes the canary;
  a fresh key after "every copy lost" decodes it to nothing.
- patroni: three nodes (test/ops/patroni_test.py's cluster); a
  switchover, a failover (the leader's postmaster killed), a manual
  failover, a new worker id through the DCS and a reinit, each by the
  page's commands, with a client inserting base36ids throughout: none
  returned twice, all in the final leader's table.
Every scenario also prints "# ran: BLOCK" for each block it ran, which
runbooks.sh holds against the page's list.  Prints "ok - ..." /
"not ok - ..." and "runbook-SCENARIO: N passed, M failed".
"""
import hashlib
import base64
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time

import psycopg

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from runbook import Runbook, Tally, server_env   # noqa: E402
from patroni_test import Client, Cluster, NODES, WORKER   # noqa: E402

PAGE = os.path.join(HERE, "..", "..", "doc", "runbooks.md")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def as_server(args, **kw):
    return subprocess.run(["runuser", "-u", "postgres", "--"] + args, check=True,
                          capture_output=True, text=True, **kw)


def postgres_ids():
    pw = pwd.getpwnam("postgres")
    return pw.pw_uid, pw.pw_gid


class Server:
    """a scratch server on loopback; its port comes from PGPORT at start (not
    postgresql.conf, which pg_rewind copies from its source)"""

    def __init__(self, pg_bin, top, name):
        self.bin, self.name = pg_bin, name
        self.data = os.path.join(top, name)
        self.log = os.path.join(top, f"{name}.log")
        self.port = free_port()
        self.top = top

    def initdb(self, *conf):
        as_server([f"{self.bin}/initdb", "-D", self.data, "-U", "postgres", "-A", "trust",
                   "-E", "UTF8", "--locale=C", "--no-sync"])
        self.conf("shared_preload_libraries = 'idgen'", "listen_addresses = '127.0.0.1'",
                  f"unix_socket_directories = '{self.top}'", "wal_log_hints = on",
                  "wal_keep_size = '128MB'", "fsync = off", *conf)

    def conf(self, *lines, file="postgresql.conf"):
        with open(os.path.join(self.data, file), "a") as f:
            f.write("".join(line + "\n" for line in lines))

    def basebackup(self, source, recovery=True):
        as_server([f"{self.bin}/pg_basebackup", "-h", "127.0.0.1", "-p", str(source.port),
                   "-U", "postgres", "-D", self.data, "-X", "stream"] + (["-R"] if recovery else []))

    def start(self):
        as_server(["env", f"PGPORT={self.port}", f"{self.bin}/pg_ctl", "-D", self.data, "-l", self.log,
                   "-w", "-t", "120", "start"])

    def stop(self, mode="fast"):
        if os.path.exists(os.path.join(self.data, "postmaster.pid")):
            subprocess.run(["runuser", "-u", "postgres", "--", f"{self.bin}/pg_ctl", "-D", self.data,
                            "-m", mode, "-w", "stop"], capture_output=True)

    def conninfo(self):
        return f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres"

    def sql(self, query, args=None):
        with psycopg.connect(self.conninfo(), autocommit=True, connect_timeout=5,
                             options="-c statement_timeout=60s") as c:
            cur = c.execute(query, args)
            return cur.fetchall() if cur.description else []

    def env(self, **more):
        return server_env(self.bin, self.data, self.port, self.log, **more)


def inserter(dsn):
    """base36ids inserted through a connection string by patroni_test.py's
    client (into ids_base36id), every id a committed INSERT returned
    recorded; .finish() stops it"""
    stop = threading.Event()
    c = Client("base36id", dsn, stop)
    c.finish = lambda: (stop.set(), c.join(30))
    c.start()
    return c


def step(t, rb, name, on, env, **kw):
    print(f"# ran: {name}", flush=True)
    return t.step(rb, name, on, env, **kw)


def ids_checks(t, ins, table_ids, what):
    dup = len(ins.ids) - len(set(ins.ids))
    t.check(f"{what}: no base36id returned twice among {len(ins.ids)}", ins.ids and dup == 0, f"{dup} repeated")
    lost = set(ins.ids) - table_ids
    t.check(f"{what}: every id a committed INSERT returned is in the primary's table", not lost,
            f"{len(lost)} missing, e.g. {sorted(lost)[:3]}")


def wait_for(cond, timeout=60):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            if cond():
                return True
        except psycopg.Error:
            pass
        time.sleep(0.3)
    return False


# ---------------------------------------------------------------- manual

def manual(pg_bin, top, t, rb):
    a, b, x = (Server(pg_bin, top, n) for n in ("a", "b", "x"))
    servers = [a, b, x]
    try:
        a.initdb("idgen.worker_id = 9")
        a.start()
        a.sql("CREATE EXTENSION idgen")
        a.sql("CREATE TABLE ids_base36id (id base36id, tag text)")
        b.basebackup(a)
        # synchronous from now on, in both servers' configuration (a commit
        # would wait for a standby before there is one)
        for s in (a, b):
            s.conf("synchronous_standby_names = '*'")
        b.start()
        a.sql("SELECT pg_reload_conf()")
        x.initdb("idgen.worker_id = 3")
        x.start()
        t.check("a primary (worker 9) streams to its synchronous standby",
                wait_for(lambda: a.sql("SELECT sync_state FROM pg_stat_replication") == [("sync",)]))
        clients = (f"host=127.0.0.1,127.0.0.1 port={a.port},{b.port} user=postgres dbname=postgres "
                   "target_session_attrs=read-write connect_timeout=2")
        ins = inserter(clients)
        time.sleep(2)

        def settings(s, new_primary, worker, **more):
            return s.env(NEW_PRIMARY=new_primary.conninfo(), WORKER_ID=worker, CLIENTS=clients,
                         WORKER_ID_SERVERS=f"'{new_primary.conninfo()}', '{x.conninfo()}'", **more)

        # failover: a fails, b takes over as worker 10 (a might come back)
        before = len(ins.ids)
        for name, s in (("fence", a), ("replayed", b), ("worker-id", b), ("promote", b),
                        ("sync-off", b), ("check", b), ("clients", b)):
            step(t, rb, name, "old-primary" if s is a else "new-primary", settings(s, b, 10))
        t.check("the client went on inserting on the new primary",
                wait_for(lambda: len(ins.ids) > before + 30, 30), f"{before} -> {len(ins.ids)}")
        step(t, rb, "rejoin", "old-primary", settings(a, b, 10))
        step(t, rb, "sync-on", "new-primary", settings(b, b, 10))
        t.check("the old primary streams from the new one, synchronous",
                b.sql("SELECT sync_state FROM pg_stat_replication") == [("sync",)])

        # switchover back: b stops cleanly, a takes over, the worker stays 10
        time.sleep(1)
        out = step(t, rb, "switch-stop", "old-primary", settings(b, a, 10)) or ""
        checkpoint = (out.strip().splitlines() or ["0/0"])[-1]
        t.check(f"the clean stop printed its last checkpoint ({checkpoint})", "/" in checkpoint)
        step(t, rb, "switch-caught-up", "new-primary", settings(a, a, 10, OLD_CHECKPOINT=checkpoint))
        for name in ("promote", "sync-off", "check", "clients"):
            step(t, rb, name, "new-primary", settings(a, a, 10))
        step(t, rb, "rejoin", "old-primary", settings(b, a, 10))
        step(t, rb, "sync-on", "new-primary", settings(a, a, 10))
        time.sleep(1)
        ins.finish()
        stored = {r[0] for r in a.sql("SELECT id::text FROM ids_base36id")}
        ids_checks(t, ins, stored, "manual failover and switchover")
        workers = dict(a.sql("SELECT base36id_worker(id), count(*) FROM ids_base36id GROUP BY 1"))
        t.check(f"ids of worker 9 before the failover and of 10 after it ({workers})",
                set(workers) == {9, 10}, workers)
        print(f"# {len(ins.ids)} ids, {len(ins.errors)} client errors during the changes", flush=True)
    finally:
        for s in servers:
            s.stop("immediate")


# ---------------------------------------------------------------- key

def fingerprint(path):
    """the first key's fingerprint, computed here: SHA-256 of the key bytes"""
    with open(path) as f:
        line = f.readline().split("#")[0].strip()
    return hashlib.sha256(base64.b64decode(line)).hexdigest()[:8]


def install_key(src, dst):
    """a copy onto another server, owner and mode as the page says"""
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    shutil.copyfile(src, dst)
    os.chown(dst, 0, postgres_ids()[1])
    os.chmod(dst, 0o640)


class Coder(threading.Thread):
    """encodes ids on one server and decodes them on another, without pause"""

    def __init__(self, enc, dec, start):
        super().__init__(daemon=True)
        self.enc, self.dec, self.n = enc, dec, start
        self.stop = threading.Event()
        self.done, self.bad, self.errors = 0, [], 0

    def run(self):
        with psycopg.connect(self.enc.conninfo(), autocommit=True) as e, \
                psycopg.connect(self.dec.conninfo(), autocommit=True) as d:
            while not self.stop.is_set():
                try:
                    p = e.execute("SELECT public_id(%s::bigint)", (self.n,)).fetchone()[0]
                    back = d.execute("SELECT public_id_to_bigint(%s)", (p,)).fetchone()[0]
                except psycopg.Error as ex:
                    self.errors += 1
                    self.bad.append(str(ex)[:200])
                    time.sleep(0.05)
                    continue
                if back != self.n:
                    self.bad.append(f"{self.n} -> {p} -> {back}")
                self.n += 1
                self.done += 1


def key(pg_bin, top, t, rb):
    uid, gid = postgres_ids()
    p, s, r = (Server(pg_bin, top, n) for n in ("p", "s", "r"))
    servers = [p, s, r]
    escrow = os.path.join(top, "escrow")
    os.makedirs(escrow, mode=0o700)
    store = os.path.join(top, "escrow-store")      # where escrowed copies are kept
    os.makedirs(store, mode=0o700)
    # each "machine" its own /etc: the key file outside the data directory
    keyfile = {sv.name: os.path.join(top, f"etc-{sv.name}", "idgen", "public_id.keys") for sv in servers}
    for sv in servers:
        os.makedirs(os.path.dirname(os.path.dirname(keyfile[sv.name])), mode=0o755)
    cert, ekey = os.path.join(escrow, "escrow.crt"), os.path.join(escrow, "escrow.key")
    # the servers have the certificate (public), not the private key
    server_cert = os.path.join(top, "escrow.crt")

    def env(sv, **more):
        return sv.env(KEYFILE=keyfile[sv.name], ESCROW_CERT=server_cert, **more)

    def esc_env(**more):
        return {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "ESCROW_KEY": ekey, "ESCROW_CERT": cert, **more}

    def escrow_copy(sv):
        """the copy the server's block wrote, moved to the escrow store"""
        d = os.path.dirname(keyfile[sv.name])
        made = [f for f in os.listdir(d) if ".escrow-" in f]
        if not made:
            return None
        dst = os.path.join(store, f"{len(os.listdir(store))}-{made[0]}")
        shutil.move(os.path.join(d, made[0]), dst)
        return dst

    try:
        p.initdb("idgen.worker_id = 1")
        p.start()
        p.sql("CREATE EXTENSION idgen")
        s.basebackup(p)
        s.start()
        t.check("a primary streams to its standby",
                wait_for(lambda: p.sql("SELECT state FROM pg_stat_replication") == [("streaming",)]))

        step(t, rb, "escrow-keypair", "escrow", esc_env(), cwd=escrow)
        shutil.copyfile(cert, server_cert)
        step(t, rb, "key-generate", "primary", env(p))
        st = os.stat(keyfile["p"])
        t.check("the key file is root:postgres, mode 0640",
                (st.st_uid, st.st_gid, st.st_mode & 0o777) == (0, gid, 0o640), oct(st.st_mode))
        copy1 = escrow_copy(p)
        t.check("the escrowed copy was made beside it, encrypted (no key text in it)",
                copy1 and open(keyfile["p"]).readline().strip().encode() not in open(copy1, "rb").read())
        install_key(keyfile["p"], keyfile["s"])
        for sv in (s, p):
            step(t, rb, "key-use", "every-server", env(sv))
        canary = (step(t, rb, "key-canary", "primary", env(p)) or "").strip()
        fp1 = fingerprint(keyfile["p"])
        step(t, rb, "escrow-check", "escrow", esc_env(ESCROW_COPY=copy1, FINGERPRINT=fp1), cwd=escrow)

        # rotation while sessions on both servers encode and decode each other's ids
        coders = [Coder(p, s, 1), Coder(s, p, 10 ** 12)]
        for c in coders:
            c.start()
        time.sleep(1)
        step(t, rb, "rotate-make", "primary", env(p))
        copy2 = escrow_copy(p)
        for stage in ("stage1", "stage2"):
            install_key(f"{keyfile['p']}.{stage}", f"{keyfile['s']}.{stage}")
        fp2 = fingerprint(f"{keyfile['p']}.stage2")
        t.check("the rotation's new key differs from the old", fp2 != fp1)
        step(t, rb, "escrow-check", "escrow", esc_env(ESCROW_COPY=copy2, FINGERPRINT=fp2), cwd=escrow)
        mark = [c.done for c in coders]
        for stage in ("stage1", "stage2"):
            for sv in (s, p):
                step(t, rb, f"rotate-{stage}", "every-server", env(sv))
                step(t, rb, f"rotate-{stage}-reload", "every-server", env(sv))
                time.sleep(0.5)
        time.sleep(1)
        for c in coders:
            c.stop.set()
            c.join(30)
        for c, m, name in zip(coders, mark, ("primary to standby", "standby to primary")):
            t.check(f"rotation: every public id made on the {name.split()[0]} decoded on the "
                    f"{name.split()[-1]}, through both stages ({c.done - m} during the rotation)",
                    not c.bad and c.done - m > 20, c.bad[:5])
        new_pub = p.sql("SELECT public_id(1::bigint)::text")[0][0]
        t.check("public ids are now made with the new key (the canary's id gives another public id)",
                new_pub != canary)

        # a restore onto a new machine: a base backup, which holds no key
        r.basebackup(p, recovery=False)
        found = [f for _, _, fs in os.walk(r.data) for f in fs if "keys" in f]
        t.check("the base backup holds no key file", not found, found)
        # the new machine's configuration names its own KEYFILE (one path
        # per machine here; the same path on real machines)
        r.conf(f"idgen.public_id_key_file = '{keyfile['r']}'", file="postgresql.auto.conf")
        step(t, rb, "restore-open", "escrow", esc_env(ESCROW_COPY=copy2), cwd=escrow)
        arrived = os.path.join(top, "arrived.keys")
        shutil.move(os.path.join(escrow, "public_id.keys.restored"), arrived)
        step(t, rb, "restore-install", "restored", env(r, RESTORED=arrived))
        t.check("the handed-over copy is gone", not os.path.exists(arrived))
        step(t, rb, "restore-check", "restored", env(r, CANARY=canary, CANARY_ID=1))

        # every copy lost: a fresh key on the restored server
        step(t, rb, "key-generate", "primary", env(r))
        escrow_copy(r)
        step(t, rb, "key-use", "every-server", env(r))
        step(t, rb, "lost-check", "restored", env(r, CANARY=canary))
    finally:
        for sv in servers:
            sv.stop("immediate")


# ---------------------------------------------------------------- patroni

def patroni(pg_bin, top, t, rb):
    cl = Cluster(pg_bin, top, True)
    uid, gid = cl.server_ids()
    fd = os.open(cl.keyfile, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    os.write(fd, subprocess.run(["openssl", "rand", "-base64", "32"], capture_output=True,
                                check=True, text=True).stdout.encode())
    os.close(fd)
    os.chown(cl.keyfile, uid, gid)
    ins = None
    try:
        for n in NODES:
            cl.start(n)
        leader = cl.wait_healthy(timeout=150)
        if not t.check("three nodes up, a leader with a synchronous standby", leader):
            return
        cl.sql(leader, "CREATE EXTENSION idgen; CREATE TABLE ids_base36id (id base36id, tag text)")
        ins = inserter(cl.dsn())
        time.sleep(2)

        def env(node, **more):
            return server_env(pg_bin, os.path.join(top, f"data-{node}"), cl.pg[node],
                              os.path.join(top, f"{node}.pglog"),
                              PATRONI_CONFIG=os.path.join(top, f"{node}.yml"), SCOPE="idgen", **more)

        def sync_standby():
            c = cl.cluster()
            return [m["name"] for m in c["members"] if m.get("role") == "sync_standby"][0]

        def leader_change(what, run):
            nonlocal leader
            old = leader
            run()
            new = cl.wait_healthy(not_leader=old, timeout=120)
            t.check(f"{what}: a new leader, every node back", new, cl.cluster())
            if new:
                leader = new
                step(t, rb, "patroni-check", "new-primary", env(new, WORKER_ID=worker))
            return new

        worker = WORKER
        other = [n for n in NODES if n != leader][0]
        cand = sync_standby()
        leader_change("switchover", lambda: step(t, rb, "patroni-switchover", "any-node",
                                                 env(other, LEADER=leader, CANDIDATE=cand)))

        def kill_leader():
            with open(os.path.join(top, f"data-{leader}", "postmaster.pid")) as f:
                os.kill(int(f.readline()), signal.SIGKILL)
        leader_change("failover (the leader's postmaster killed)", kill_leader)

        cand = sync_standby()
        leader_change("manual failover", lambda: step(t, rb, "patroni-failover", "any-node",
                                                      env(leader, CANDIDATE=cand)))

        worker = WORKER + 1
        step(t, rb, "patroni-worker-id", "any-node", env(leader, WORKER_ID=worker))
        t.check(f"every node has worker id {worker} from the DCS",
                wait_for(lambda: all(cl.sql(n, "SHOW idgen.worker_id") == [(str(worker),)] for n in NODES), 60))
        step(t, rb, "patroni-check", "new-primary", env(leader, WORKER_ID=worker))

        replica = [n for n in NODES if n != leader][0]
        step(t, rb, "patroni-reinit", "any-node", env(leader, OLD_LEADER=replica), timeout=300)
        t.check("after the reinit every node is back", cl.wait_healthy(timeout=120))
        time.sleep(1)
        ins.finish()
        leader = cl.wait_healthy(timeout=30) or leader
        ids_checks(t, ins, {r[0] for r in cl.sql(leader, "SELECT id::text FROM ids_base36id")},
                   "Patroni's changes")
        workers = {r[0] for r in cl.sql(leader, "SELECT DISTINCT base36id_worker(id) FROM ids_base36id")}
        t.check(f"ids of worker {WORKER} and, after the change, {worker}", workers == {WORKER, worker}, workers)
    finally:
        if ins is not None:
            ins.finish()
        cl.stop_all()


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("manual", "key", "patroni"):
        raise SystemExit(__doc__)
    scenario, pg_bin, top = sys.argv[1:]
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    t = Tally(f"runbook-{scenario}")
    rb = Runbook(PAGE)
    t.check("every variable the page's blocks use is in its settings, set in the block or named before it",
            not rb.undeclared(), rb.undeclared())
    try:
        globals()[scenario](pg_bin, top, t, rb)
    except Exception as e:  # a broken step is a failure, with its cause
        t.check(f"the scenario ran to its end ({type(e).__name__}: {e})", False)
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
