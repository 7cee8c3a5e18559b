#!/usr/bin/python3
"""Online maintenance of tables keyed by idgen's types (test/maintenance/run.sh runs this).

For a table keyed by each type (iuid, distid, DistributedId128 in uuid,
base36id, flaxid; columns id, w, n, note, pad, an index on n, some pads
long enough to be TOASTed), each of pg_repack (where the server has it),
REINDEX TABLE CONCURRENTLY and CLUSTER on the id index runs while two
writer sessions change rows, one statement per transaction, in turn: an
INSERT with the key's DEFAULT, an UPDATE of n and note (or of note alone,
which may be a HOT update), an UPDATE of the key itself (SET id =
DEFAULT) and a DELETE, each of a row by its id, each RETURNING the row.
Every writer keeps what it was told: the whole rows it owns.

Each operation is held, by other sessions' open transactions, where it
has begun and cannot finish, while the writers make at least DURING
statements of each kind (counted, never timed):

- pg_repack: once its copy table repack.table_<oid> exists, it replays
  what its trigger logged (repack.log_<oid>: INSERTs as rows, UPDATEs and
  DELETEs through the key's equality, WHERE id = ...) until the
  transactions older than its copy end; an open transaction holds it
  there.  Then the writers pause, pg_repack must empty its log of every
  change made so far, the copy must hold exactly the rows the writers were
  told, and the statistics of the copy must count at least as many
  replayed UPDATEs and DELETEs as the writers made since the copy existed.
  Then the writers go on, the transaction ends, pg_repack swaps.
- REINDEX TABLE CONCURRENTLY: held in phase "waiting for writers before
  build" by a transaction holding ROW EXCLUSIVE, then in "waiting for old
  snapshots" (the new indexes built, validated and kept up to date by
  every write) by a REPEATABLE READ transaction older than the REINDEX.
- CLUSTER: it waits for an open transaction's lock, and a statement of
  each writer waits behind it (pg_locks); writes go on once it is done.

Afterwards, the writers stopped:

- the table holds exactly the rows the writers were told, every column,
  no id twice (count(*) = count(DISTINCT id));
- amcheck: bt_index_parent_check(index, heapallindexed => true,
  rootdescend => true) passes for every index of the table, and from 17 on
  bt_index_check and bt_index_parent_check with checkunique => true too;
- ORDER BY id read through the index and through a sequential scan and a
  sort give the same ids, in the order of the ids' decoded values
  (test/cdc/cdc.py's codecs, from doc/formats.md); after CLUSTER, a
  sequential scan returns the rows no writer touched since it began in id
  order.

Prints "ok - ..." / "not ok - ..." lines, then "maintenance: N passed, M failed".
"""

import collections
import os
import random
import subprocess
import sys
import threading

import psycopg2

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cdc"))
from cdc import Base36id, Distid, Distid128, Flaxid, Iuid, check, poll  # noqa: E402
import cdc  # noqa: E402

TABLES = [("m_iuid", "iuid", "iuid_generate(7, 9)", Iuid),
          ("m_distid", "distid", "distid_generate()", Distid),
          ("m_distid128", "uuid", "distid128_generate()", Distid128),
          ("m_base36id", "base36id", "base36id_generate()", Base36id),
          ("m_flaxid", "flaxid", "flaxid_generate()", Flaxid)]
ROWS = 600
WRITERS = 2
DURING = 20
KINDS = ("insert", "update", "update key", "delete")
COLUMNS = "id::text, w, n, note, pad"
RNG = random.Random(49)


def connect():
    c = psycopg2.connect(host=os.environ["PGHOST"], port=os.environ["PGPORT"], user="postgres",
                         dbname="postgres")
    c.autocommit = True
    return c


def pad(rng=RNG):
    """most rows short; one in ten longer than a page's TOAST threshold, incompressible"""
    if rng.random() < 0.1:
        return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(3000))
    return "x" * rng.randrange(10, 200)


class Writer(threading.Thread):
    """Changes the rows it owns (w = its number), one statement per
    transaction, the kinds in turn, until told to stop; keeps the rows it
    was told of (id -> (w, n, note, pad)) and counts each kind."""

    def __init__(self, table, coltype, k, rows):
        # daemon: a test that dies does not wait for it
        super().__init__(daemon=True)
        self.table, self.coltype, self.k = table, coltype, k
        self.rows = dict(rows)
        self.touched = set()    # ids inserted or changed since it started
        self.counts = collections.Counter()
        self.error = None
        self.stop, self.pause, self.paused = threading.Event(), threading.Event(), threading.Event()
        self.rng = random.Random(RNG.random())
        self.conn = connect()
        cur = self.conn.cursor()
        cur.execute("SELECT pg_backend_pid()")
        self.pid = cur.fetchone()[0]

    def one(self, cur, kind, i):
        t, ct = self.table, self.coltype
        note = "w%d-%d" % (self.k, i)
        if kind == "insert":
            cur.execute("INSERT INTO %s (w, n, note, pad) VALUES (%%s, %%s, %%s, %%s) RETURNING %s" % (t, COLUMNS),
                        (self.k, i, note, pad(self.rng)))
            old = None
        else:
            old = self.rng.choice(sorted(self.rows))
            where = " WHERE id = %%s::%s RETURNING %s" % (ct, COLUMNS)
            if kind == "delete":
                cur.execute("DELETE FROM %s" % t + where, (old,))
            else:
                # every other UPDATE of note alone: a HOT update where the page has room
                sets = ("id = DEFAULT, note = %s" if kind == "update key"
                        else "n = n + 1, note = %s" if self.counts[kind] % 2 else "note = %s")
                cur.execute("UPDATE %s SET %s" % (t, sets) + where, (note, old))
        got = cur.fetchall()
        if len(got) != 1:
            raise RuntimeError("%s of %s: %d rows" % (kind, old, len(got)))
        row = got[0]
        if old is not None:
            del self.rows[old]
        if kind != "delete":
            self.rows[row[0]] = tuple(row[1:])
            self.touched.add(row[0])
        self.counts[kind] += 1

    def run(self):
        cur = self.conn.cursor()
        i = 0
        try:
            while not self.stop.is_set():
                if self.pause.is_set():
                    self.paused.set()
                    self.stop.wait(0.01)
                    continue
                self.paused.clear()
                kind = KINDS[i % len(KINDS)]
                # keep rows to change
                if kind == "delete" and len(self.rows) < 50:
                    kind = "insert"
                self.one(cur, kind, i)
                i += 1
        except (psycopg2.Error, RuntimeError) as e:
            self.error = e
        self.conn.close()


class Writers:
    """the writer sessions of one operation"""

    def __init__(self, table, coltype, model):
        self.all = [Writer(table, coltype, k, {i: r for i, r in model.items() if r[0] == k})
                    for k in range(WRITERS)]
        for w in self.all:
            w.start()

    def counts(self):
        return sum((w.counts for w in self.all), collections.Counter())

    def failed(self):
        return any(w.error is not None or not w.is_alive() for w in self.all)

    def wait_for(self, since, n=DURING):
        """at least n statements of each kind since the counts since (or a
        writer failed); bounded polls"""
        return poll(lambda: all(self.counts()[k] - since[k] >= n for k in KINDS) or self.failed(), 3000, 0.01)

    def pause(self):
        for w in self.all:
            w.pause.set()
        return poll(lambda: all(w.paused.is_set() or not w.is_alive() for w in self.all), 3000, 0.01)

    def resume(self):
        for w in self.all:
            w.paused.clear()
            w.pause.clear()

    def finish(self):
        """stopped; the rows they were told of, and the ids they touched"""
        for w in self.all:
            w.stop.set()
        for w in self.all:
            w.join()
        model, touched = {}, set()
        for w in self.all:
            model.update(w.rows)
            touched |= w.touched
        return model, touched

    def errors(self):
        return [str(w.error) for w in self.all if w.error is not None]


def during(counts, since):
    return ", ".join("%d %ss" % (counts[k] - since[k], k) for k in KINDS)


class Background(threading.Thread):
    """One SQL statement (or a program) in a thread of its own"""

    def __init__(self, sql=None, argv=None):
        super().__init__(daemon=True)
        self.sql, self.argv, self.error, self.output = sql, argv, None, ""
        self.pid = None

    def run(self):
        try:
            if self.argv:
                p = subprocess.run(self.argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                self.output = p.stdout
                if p.returncode != 0:
                    self.error = "exit %d" % p.returncode
            else:
                c = connect()
                cur = c.cursor()
                cur.execute("SELECT pg_backend_pid()")
                self.pid = cur.fetchone()[0]
                cur.execute(self.sql)
                c.close()
        except psycopg2.Error as e:
            self.error = e


def rows(cur, table):
    cur.execute("SELECT %s FROM %s" % (COLUMNS, table))
    return cur.fetchall()


def compare(name, got, model):
    """got (a list of rows) holds exactly the rows of model, every column"""
    have = {r[0]: tuple(r[1:]) for r in got}
    missing = [i for i in model if i not in have]
    extra = [i for i in have if i not in model]
    differ = [i for i in model if i in have and have[i] != model[i]]
    return check(name, len(got) == len(have) and not missing and not extra and not differ,
                 "%d rows (%d distinct ids), %d expected: %d missing, %d not expected, %d different (%s)"
                 % (len(got), len(have), len(model), len(missing), len(extra), len(differ),
                    (missing + extra + differ)[:3]))


def open_tx(sql):
    """a session whose transaction ran sql and stays open"""
    c = connect()
    c.autocommit = False
    c.cursor().execute(sql)
    return c


def end_tx(c):
    c.commit()
    c.close()


def completed(job, ws):
    """job ended; the writers made DURING more statements of each kind"""
    job.join()
    ws.wait_for(ws.counts())
    return job, ws


def scalar(cur, sql, args=None):
    cur.execute(sql, args)
    return cur.fetchone()[0]


def held_in_phase(cur, job, phase):
    """job's statement is in that phase of pg_stat_progress_create_index
    (whose relid may be the table's TOAST table)"""
    return job.pid is not None and scalar(cur, "SELECT count(*) FROM pg_stat_progress_create_index "
                                          "WHERE pid = %s AND phase = %s", (job.pid, phase)) > 0


def repack(cur, table, coltype, model):
    """pg_repack under the writers, held while it replays its log"""
    oid = scalar(cur, "SELECT %s::regclass::oid", (table,))
    # an open transaction that pg_repack waits for before its swap
    blocker = open_tx("SELECT 1")
    ws = Writers(table, coltype, model)
    ws.wait_for(collections.Counter())
    job = Background(argv=[os.path.join(os.environ["PG_BIN"], "pg_repack"), "-h", os.environ["PGHOST"],
                           "-p", os.environ["PGPORT"], "-U", "postgres", "-d", "postgres", "-t", table])
    job.start()
    copy, log = "repack.table_%d" % oid, "repack.log_%d" % oid
    # its copy exists: it has begun, and replays its log until blocker ends
    held = poll(lambda: scalar(cur, "SELECT to_regclass(%s) IS NOT NULL", (copy,)) or not job.is_alive(), 3000, 0.02)
    held = held and job.is_alive()
    c0 = ws.counts()
    ws.wait_for(c0)
    c1 = ws.counts()
    paused = ws.pause()
    # what the writers were told so far, and the last change logged
    now = {}
    for w in ws.all:
        now.update(w.rows)
    last = scalar(cur, "SELECT last_value FROM %s_id_seq" % log) if held else 0
    drained = held and poll(lambda: not scalar(cur, "SELECT EXISTS (SELECT FROM %s WHERE id <= %%s)" % log, (last,))
                            or not job.is_alive(), 3000, 0.02) and job.is_alive()
    check("pg_repack of %s: held while it replays its log, the writers made %s; paused"
          % (table, during(c1, c0)), held and paused and all(c1[k] - c0[k] >= DURING for k in KINDS))
    check("pg_repack of %s: it replayed and removed from its log every change so far (%d logged)" % (table, last),
          drained)
    if drained:
        compare("pg_repack of %s: its copy %s holds the rows the writers were told, every column" % (table, copy),
                rows(cur, copy), now)
        # statistics reach the view within a second or so of a statement
        want_upd, want_del = c1["update"] + c1["update key"] - c0["update"] - c0["update key"], c1["delete"] - c0["delete"]
        stats = poll(lambda: (cur.execute("SELECT pg_stat_clear_snapshot()") or
                              scalar(cur, "SELECT n_tup_upd >= %s AND n_tup_del >= %s FROM pg_stat_user_tables "
                                     "WHERE relid = %s::regclass", (want_upd, want_del, copy))), 150, 0.2)
        cur.execute("SELECT n_tup_ins, n_tup_upd, n_tup_del FROM pg_stat_user_tables WHERE relid = %s::regclass",
                    (copy,))
        got = cur.fetchone()
        check("pg_repack of %s: its copy's statistics count the replayed UPDATEs and DELETEs "
              "(inserted %s, updated %s, deleted %s; at least %d and %d made since the copy existed)"
              % ((table,) + tuple(got) + (want_upd, want_del)), stats)
    ws.resume()
    ws.wait_for(ws.counts())
    end_tx(blocker)
    return completed(job, ws)


def reindex(cur, table, coltype, model):
    """REINDEX TABLE CONCURRENTLY under the writers, held twice"""
    # a snapshot older than the REINDEX, which it waits for after validation
    snapshot_tx = open_tx("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ; SELECT 1")
    # a writer's lock, which it waits for before it builds
    writer_tx = open_tx("LOCK TABLE %s IN ROW EXCLUSIVE MODE" % table)
    ws = Writers(table, coltype, model)
    ws.wait_for(collections.Counter())
    job = Background(sql="REINDEX TABLE CONCURRENTLY %s" % table)
    job.start()
    for tx, phase in ((writer_tx, "waiting for writers before build"), (snapshot_tx, "waiting for old snapshots")):
        held = poll(lambda: held_in_phase(cur, job, phase) or not job.is_alive(), 3000, 0.02) and job.is_alive()
        c0 = ws.counts()
        ws.wait_for(c0)
        c1 = ws.counts()
        still = held_in_phase(cur, job, phase)
        check("REINDEX CONCURRENTLY of %s: held in phase '%s' while the writers made %s"
              % (table, phase, during(c1, c0)), held and still and all(c1[k] - c0[k] >= DURING for k in KINDS))
        end_tx(tx)
    return completed(job, ws)


def cluster(cur, table, coltype, model):
    """CLUSTER, with a statement of each writer waiting behind its lock"""
    blocker = open_tx("SELECT count(*) FROM %s" % table)
    ws = Writers(table, coltype, model)
    ws.wait_for(collections.Counter())
    job = Background(sql="CLUSTER %s USING %s_pkey" % (table, table))
    job.start()
    pids = [w.pid for w in ws.all]
    held = poll(lambda: scalar(cur, "SELECT count(DISTINCT pid) FROM pg_locks WHERE relation = %s::regclass "
                               "AND pid = ANY (%s) AND NOT granted", (table, pids)) == len(pids)
                or not job.is_alive(), 3000, 0.02) and job.is_alive()
    c0 = ws.counts()
    end_tx(blocker)
    job.join()
    ws.wait_for(c0)
    c1 = ws.counts()
    check("CLUSTER of %s: it waited for a lock with a statement of each writer queued behind it; "
          "afterwards the writers made %s" % (table, during(c1, c0)),
          held and all(c1[k] - c0[k] >= DURING for k in KINDS))
    return job, ws


def ids(cur, table, seqscan=False, order=True):
    """the ids, read through the id index (a sequential scan, sorted when
    order, with seqscan)"""
    if seqscan:
        cur.execute("SET enable_indexscan = off; SET enable_indexonlyscan = off; SET enable_bitmapscan = off")
    else:
        cur.execute("SET enable_seqscan = off; SET enable_sort = off; SET enable_bitmapscan = off")
    # AS t: ORDER BY id is the column, not the text
    cur.execute("SELECT id::text AS t FROM %s%s" % (table, " ORDER BY id" if order else ""))
    out = [r[0] for r in cur.fetchall()]
    cur.execute("RESET ALL")
    return out


def amcheck(cur, op, table):
    cur.execute("SELECT indexrelid::regclass::text FROM pg_index WHERE indrelid = %s::regclass ORDER BY 1",
                (table,))
    indexes = [r[0] for r in cur.fetchall()]
    check("%s of %s: its two indexes are there" % (op, table), len(indexes) == 2, indexes)
    calls = ["bt_index_parent_check(%s::regclass, heapallindexed => true, rootdescend => true)"]
    # checkunique: amcheck 1.4, PostgreSQL 17
    if int(scalar(cur, "SHOW server_version_num")) >= 170000:
        calls += ["bt_index_check(%s::regclass, heapallindexed => true, checkunique => true)",
                  "bt_index_parent_check(%s::regclass, heapallindexed => true, rootdescend => true, checkunique => true)"]
    for index in indexes:
        for call in calls:
            try:
                cur.execute("SELECT " + call, (index,))
                error = None
            except psycopg2.Error as e:
                error = e
            check("%s of %s: %s passes" % (op, table, call.replace("%s::regclass", index)), error is None, error)


def verify(cur, table, codec, op, model, touched):
    got = rows(cur, table)
    compare("%s of %s: the table holds exactly the rows the writers were told (%d), every column"
            % (op, table, len(model)), got, model)
    check("%s of %s: count(*) = count(DISTINCT id)" % (op, table),
          scalar(cur, "SELECT count(*) = count(DISTINCT id) FROM %s" % table))
    amcheck(cur, op, table)
    after = ids(cur, table)
    seq = ids(cur, table, seqscan=True)
    decoded = sorted(after, key=lambda s: codec.parse(s))
    check("%s of %s: ORDER BY id through the index, through a sort, and by the decoded ids agree"
          % (op, table), after == seq == decoded and len(after) == len(model))
    if op == "CLUSTER":
        kept = [x for x in ids(cur, table, seqscan=True, order=False) if x not in touched]
        check("CLUSTER of %s: a sequential scan returns the %d rows no writer touched since it began in id order"
              % (table, len(kept)), kept == [x for x in after if x not in touched] and len(kept) > 0)


def main():
    conn = connect()
    cur = conn.cursor()
    cur.execute("CREATE EXTENSION idgen")
    cur.execute("CREATE EXTENSION amcheck")
    ops = [("REINDEX CONCURRENTLY", reindex), ("CLUSTER", cluster)]
    if os.environ.get("MAINT_REPACK") == "1":
        cur.execute("CREATE EXTENSION pg_repack")
        ops.insert(0, ("pg_repack", repack))
    else:
        print("# no pg_repack for this server (Debian packages it for 15 only): REINDEX CONCURRENTLY and CLUSTER")
    for table, coltype, default, codec in TABLES:
        cur.execute("CREATE TABLE %s (id %s PRIMARY KEY DEFAULT %s, w int NOT NULL, n int NOT NULL, note text, pad text)"
                    % (table, coltype, default))
        cur.execute("CREATE INDEX ON %s (n)" % table)
        # rows, then holes for the operations to close
        for g in range(1, ROWS + 1):
            cur.execute("INSERT INTO %s (w, n, pad) VALUES (%%s, %%s, %%s)" % table, (g % WRITERS, g, pad()))
        cur.execute("DELETE FROM %s WHERE n %% 3 = 0" % table)
        model = {r[0]: tuple(r[1:]) for r in rows(cur, table)}
        for op, run in ops:
            job, ws = run(cur, table, coltype, model)
            model, touched = ws.finish()
            check("%s of %s completes" % (op, table), job.error is None, "%s\n%s" % (job.error, job.output))
            check("%s of %s: every writer's statement succeeded (%s)" % (op, table, during(ws.counts(), collections.Counter())),
                  not ws.errors(), ws.errors())
            verify(cur, table, codec, op, model, touched)
    conn.close()
    print("maintenance: %d passed, %d failed" % (cdc.PASSED, cdc.FAILED))
    return 0 if cdc.FAILED == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
