#!/usr/bin/python3
"""Change data capture of idgen's ids (test/cdc/run.sh runs this).

A table keyed by each idgen type, and by each core-type column of the SQL
edition (idgen_portable), takes inserts, an update of the key, an update of
another column and a delete, under REPLICA IDENTITY DEFAULT and then FULL.
Logical replication slots stream those changes to this program through
psycopg2's replication protocol support, as a CDC tool reads them: wal2json
(format-version 1 and 2, where the server has it) and pgoutput in text and
in binary mode.  Every id the stream carries is decoded here from its
documented form (doc/formats.md) by this file's own codecs, never by
idgen: the text forms, and the big-endian binary forms of binary pgoutput;
the fields are compared with the ones this program chose for the ids it
inserted, and checked for the generated ones (iuid's country and entity,
base36id's worker, distid's range and time).

Then a subscriber without idgen (CDC_SUB_*): a subscription in text mode
fills uuid, numeric and text columns with the ids' text forms; one in
binary mode, per table, is what PostgreSQL does with idgen's binary forms
there (run.sh's header says what each type gives).

Prints "ok - ..." / "not ok - ..." lines and ends with "cdc: N passed, M
failed".  Waits are polls with a bounded count, never timings.
"""

import datetime
import json
import os
import random
import re
import select
import struct
import sys
import uuid

import psycopg2
import psycopg2.extras

import cases

PASSED = 0
FAILED = 0


def check(name, cond, detail=""):
    global PASSED, FAILED
    if cond:
        PASSED += 1
        print("ok - " + name)
    else:
        FAILED += 1
        print("not ok - " + name)
        if detail:
            for line in str(detail).splitlines():
                print("#   " + line)
    return cond


RNG = random.SystemRandom()
UTC = datetime.timezone.utc


def ms_since(epoch, when):
    return int((when - epoch).total_seconds() * 1000)


# ---- the formats, from doc/formats.md (SPEC.md), independent of idgen ----

def uuid_text(s):
    """the 128-bit number of a canonical lower-case uuid text"""
    if not re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", s):
        raise ValueError("not a canonical lower-case uuid: %r" % s)
    return int(s.replace("-", ""), 16)


class Iuid:
    """UUIDv8: ms 48 | ver 8 | format 4 | country 8 | var 10 | entity 8 | random 54."""
    name = "iuid"
    nbytes = 16

    @staticmethod
    def make(country, entity):
        ms = ms_since(datetime.datetime(1970, 1, 1, tzinfo=UTC), datetime.datetime.now(UTC))
        return ((ms << 80) | (8 << 76) | (0 << 72) | (country << 64) | (0b10 << 62)
                | (entity << 54) | RNG.getrandbits(54))

    @staticmethod
    def text(v):
        return str(uuid.UUID(int=v))

    @staticmethod
    def parse(s):
        v = uuid_text(s)
        if (v >> 76) & 0xF != 8 or (v >> 62) & 0x3 != 0b10:
            raise ValueError("version or variant: %r" % s)
        return v

    @staticmethod
    def fields(v):
        return {"country": (v >> 64) & 0xFF, "entity": (v >> 54) & 0xFF, "format": (v >> 72) & 0xF,
                "time": datetime.datetime(1970, 1, 1, tzinfo=UTC) + datetime.timedelta(milliseconds=v >> 80)}


class TimeRandom:
    """(ms since epoch << shift) | a random field of shift bits"""

    @classmethod
    def make(cls):
        return (ms_since(cls.epoch, datetime.datetime.now(UTC)) << cls.shift) | RNG.getrandbits(cls.shift)

    @classmethod
    def fields(cls, v):
        return {"time": cls.epoch + datetime.timedelta(milliseconds=v >> cls.shift)}


class Distid(TimeRandom):
    """A whole number 0 .. 10^28-1: ms since 1900 << 48 | random 48; text: decimal."""
    name = "distid"
    nbytes = 12
    epoch = datetime.datetime(1900, 1, 1, tzinfo=UTC)
    shift = 48

    @staticmethod
    def text(v):
        return str(v)

    @staticmethod
    def parse(s):
        if not re.fullmatch(r"[0-9]{1,28}", s) or (len(s) > 1 and s[0] == "0"):
            raise ValueError("not a plain decimal of up to 28 digits: %r" % s)
        v = int(s)
        if v > 10**28 - 1:
            raise ValueError("above 10^28-1: %r" % s)
        return v


class Distid128:
    """A uuid: ms since 1700 << 80 | 7 << 76 | (R >> 63) << 64 | R & (2^63-1)."""
    name = "distid128"
    nbytes = 16
    epoch = datetime.datetime(1700, 1, 1, tzinfo=UTC)

    @classmethod
    def make(cls):
        r = RNG.getrandbits(75)
        return ((ms_since(cls.epoch, datetime.datetime.now(UTC)) << 80) | (7 << 76)
                | ((r >> 63) << 64) | (r & (2**63 - 1)))

    text = Iuid.text

    @staticmethod
    def parse(s):
        v = uuid_text(s)
        if (v >> 76) & 0xF != 7 or (v >> 63) & 1 != 0:
            raise ValueError("nibble 7 and bit 64 = 0 expected: %r" % s)
        return v

    @classmethod
    def fields(cls, v):
        return {"time": cls.epoch + datetime.timedelta(milliseconds=v >> 80)}


B36 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


class Base36id:
    """9 upper-case base-36 characters: seconds since 2024 (6), worker (1), counter (2)."""
    name = "base36id"
    nbytes = 8
    epoch = datetime.datetime(2024, 1, 1, tzinfo=UTC)

    @classmethod
    def make(cls, worker):
        secs = int((datetime.datetime.now(UTC) - cls.epoch).total_seconds()) - RNG.randrange(10**6)
        return (secs * 36 + worker) * 1296 + RNG.randrange(1296)

    @staticmethod
    def text(v):
        s = ""
        for _ in range(9):
            v, d = divmod(v, 36)
            s = B36[d] + s
        return s

    @staticmethod
    def parse(s):
        if not re.fullmatch(r"[0-9A-Z]{9}", s):
            raise ValueError("not 9 upper-case base-36 characters: %r" % s)
        v = 0
        for c in s:
            v = v * 36 + B36.index(c)
        return v

    @classmethod
    def fields(cls, v):
        return {"worker": (v // 1296) % 36, "counter": v % 1296,
                "time": cls.epoch + datetime.timedelta(seconds=v // (36 * 1296))}


FLAX = "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz"


class Flaxid(TimeRandom):
    """96 bits: ms since 2015 << 56 | random 56; text: 16 characters of 6 bits."""
    name = "flaxid"
    nbytes = 12
    epoch = datetime.datetime(2015, 1, 1, tzinfo=UTC)
    shift = 56

    @staticmethod
    def text(v):
        return "".join(FLAX[(v >> (6 * (15 - i))) & 63] for i in range(16))

    @staticmethod
    def parse(s):
        if len(s) != 16 or any(c not in FLAX for c in s):
            raise ValueError("not 16 characters of the flaxid alphabet: %r" % s)
        v = 0
        for c in s:
            v = (v << 6) | FLAX.index(c)
        return v


# name, column type, codec, the DEFAULT, make(), the fields a generated id must have
TABLES = [
    ("cdc_iuid", "iuid", Iuid, "iuid_generate(42, 5)", lambda: Iuid.make(42, 5),
     {"country": 42, "entity": 5, "format": 0}),
    ("cdc_distid", "distid", Distid, "distid_generate()", Distid.make, {}),
    ("cdc_distid128", "uuid", Distid128, "distid128_generate()", Distid128.make, {}),
    ("cdc_base36id", "base36id", Base36id, "base36id_generate()", lambda: Base36id.make(1),
     {"worker": 1}),
    ("cdc_flaxid", "flaxid", Flaxid, "flaxid_generate()", Flaxid.make, {}),
    # the SQL edition's core-type columns
    ("cdc_p_iuid", "uuid", Iuid, "idgen_portable.iuid_generate(42, 5)", lambda: Iuid.make(42, 5),
     {"country": 42, "entity": 5, "format": 0}),
    ("cdc_p_distid", "numeric(28,0)", Distid, "idgen_portable.distid_generate()", Distid.make, {}),
    ("cdc_p_distid128", "uuid", Distid128, "idgen_portable.distid128_generate()", Distid128.make, {}),
    ("cdc_p_flaxid", 'text COLLATE "C"', Flaxid, "idgen_portable.flaxid_generate()", Flaxid.make, {}),
]
CODEC = {t[0]: t[2] for t in TABLES}
# the binary form of a core-type column that is not an id's own bytes
BINARY_FORM = {"cdc_p_distid": "numeric", "cdc_p_flaxid": "text"}
WANT_FIELDS = {t[0]: t[5] for t in TABLES}
PHASES = ["DEFAULT", "FULL"]


def connect(**kw):
    return psycopg2.connect(host=os.environ["PGHOST"], port=os.environ["PGPORT"],
                            user="postgres", dbname="postgres", **kw)


# ---- the workload; its expected changes ----

def workload(conn, phase, expect):
    """For each table: three ids made here, one by the DEFAULT, the key of
    the first updated to a fourth, another column of the second updated,
    the third deleted; then a marker row.  Appends the expected changes
    (table, kind, new, old) to expect, values {id, n, note}; a generated
    id is None (unknown here)."""
    cur = conn.cursor()
    for table, _, codec, _, make, _ in TABLES:
        a, b, c, d = (make() for _ in range(4))
        row = lambda v, n, note: {"id": v, "n": n, "note": note}
        for n, v in ((1, a), (2, b), (3, c)):
            cur.execute("INSERT INTO %s (id, n, note) VALUES (%%s, %%s, %%s)" % table,
                        (codec.text(v), n, "%s-%d" % (phase, n)))
            expect.append((table, "insert", row(v, n, "%s-%d" % (phase, n)), None))
        cur.execute("INSERT INTO %s (n, note) VALUES (4, %%s)" % table, ("%s-4" % phase,))
        expect.append((table, "insert", row(None, 4, "%s-4" % phase), None))
        cur.execute("UPDATE %s SET id = %%s WHERE id = %%s" % table, (codec.text(d), codec.text(a)))
        expect.append((table, "update", row(d, 1, "%s-1" % phase),
                       row(a, 1, "%s-1" % phase) if phase == "FULL" else {"id": a}))
        cur.execute("UPDATE %s SET note = 'changed' WHERE id = %%s" % table, (codec.text(b),))
        # DEFAULT: the key did not change, so no old key is sent
        expect.append((table, "update", row(b, 2, "changed"),
                       row(b, 2, "%s-2" % phase) if phase == "FULL" else None))
        cur.execute("DELETE FROM %s WHERE id = %%s" % table, (codec.text(c),))
        expect.append((table, "delete", None,
                       row(c, 3, "%s-3" % phase) if phase == "FULL" else {"id": c}))
    cur.execute("INSERT INTO cdc_mark VALUES (%s)", (phase,))


# ---- decoding a stream into (table, kind, new, old) ----

# numeric's binary form (ndigits, weight, sign, dscale, base-10000 digits)
# of a whole number, as decimal text
numeric_recv = cases.numeric_recv


def decode_id(table, form, raw, problems):
    """An id from the stream: its text form (checked to be the canonical one)
    or its big-endian binary form, to the number it is."""
    codec = CODEC[table]
    try:
        if form == "text":
            v = codec.parse(raw)
            if codec.text(v) != raw:
                raise ValueError("not the canonical text %r" % codec.text(v))
        elif BINARY_FORM.get(table) == "numeric":
            v = codec.parse(numeric_recv(raw))
        elif BINARY_FORM.get(table) == "text":
            v = codec.parse(raw.decode())
        else:
            if len(raw) != codec.nbytes:
                raise ValueError("%d bytes, %d expected" % (len(raw), codec.nbytes))
            v = int.from_bytes(raw, "big")
        return v
    except ValueError as e:
        problems.append("%s: %s" % (table, e))
        return None


def row_of(table, cols, problems, seen_forms):
    """cols: [(name, form, value)] -> {id, n, note} with the id decoded"""
    out = {}
    for name, form, value in cols:
        if value is None:
            continue
        if name == "id":
            seen_forms.add((table, form, type(value).__name__))
            if form == "json-number":
                # wal2json writes a numeric as a JSON number: read it as a
                # whole number (a double would lose digits), then as text
                value, form = str(value), "text"
            out["id"] = decode_id(table, form, value, problems)
        elif name == "n":
            out["n"] = int(value) if form != "binary" else struct.unpack(">i", value)[0]
        elif name == "note":
            out["note"] = value if form != "binary" else value.decode()
    return out


def read_slot(conn, slot, options, decode_message, phases=PHASES, mark="cdc_mark", cur=None):
    """Stream slot until the last phase's marker row (a row of the table
    mark); the changes of each phase, split at the markers.  Bounded by a
    count of empty polls.  With cur, a replication cursor already streaming
    the slot, go on reading it and leave it open."""
    close = cur is None
    if close:
        cur = conn.cursor()
        cur.start_replication(slot_name=slot, decode=False, options=options)
    changes = {p: [] for p in phases}
    phase = 0
    idle = 0
    while phase < len(phases) and idle < 120:
        msg = cur.read_message()
        if msg is None:
            idle += 1
            select.select([cur], [], [], 0.5)
            continue
        idle = 0
        for change in decode_message(msg.payload):
            if phase >= len(phases):
                break
            if change[0] == mark:
                if change[2].get("phase") == phases[phase]:
                    phase += 1
            else:
                changes[phases[phase]].append(change)
        cur.send_feedback(flush_lsn=msg.data_start)
    if close:
        conn.close()
    return changes, phase == len(phases)


def wal2json_values(names, values):
    """(name, form, value) of wal2json's columns: an id in a JSON number
    (numeric) apart from one in a JSON string"""
    return [(name, "json-number" if isinstance(value, int) and name == "id" else "text", value)
            for name, value in zip(names, values)]


class Wal2json1:
    def __init__(self):
        self.problems, self.forms, self.types = [], set(), {}

    def __call__(self, payload):
        out = []
        for ch in json.loads(payload)["change"]:
            table = ch["table"]
            if table == "cdc_mark":
                out.append((table, "insert", {"phase": ch["columnvalues"][0]}, None))
                continue
            new = old = None
            if "columnnames" in ch:
                self.types[table] = dict(zip(ch["columnnames"], ch["columntypes"]))["id"]
                new = row_of(table, wal2json_values(ch["columnnames"], ch["columnvalues"]),
                             self.problems, self.forms)
            if "oldkeys" in ch:
                k = ch["oldkeys"]
                old = row_of(table, wal2json_values(k["keynames"], k["keyvalues"]),
                             self.problems, self.forms)
            out.append((table, ch["kind"], new, old))
        return out


class Wal2json2:
    def __init__(self):
        self.problems, self.forms, self.types = [], set(), {}

    def __call__(self, payload):
        ch = json.loads(payload)
        action = ch["action"]
        if action not in "IUD":
            return []
        table = ch["table"]
        kind = {"I": "insert", "U": "update", "D": "delete"}[action]

        def cols(key):
            if key not in ch:
                return None
            c = ch[key]
            for x in c:
                if x["name"] == "id":
                    self.types[table] = x["type"]
            return row_of(table, wal2json_values([x["name"] for x in c], [x["value"] for x in c]),
                          self.problems, self.forms)
        if table == "cdc_mark":
            return [(table, kind, {"phase": ch["columns"][0]["value"]}, None)]
        return [(table, kind, cols("columns"), cols("identity"))]


class Pgoutput:
    """pgoutput's protocol (version 1): Begin, Commit, Type, Relation,
    Insert, Update, Delete."""

    def __init__(self):
        self.problems, self.forms, self.types = [], set(), {}
        self.rels = {}          # relid -> (name, [(column, type oid)])
        self.typenames = {}     # type oid -> "schema.name", from Type messages

    def tuple(self, table, cols, buf, pos):
        values, pos = cases.read_tuple_data(buf, pos)
        out = []
        for (col, _), (kind, raw) in zip(cols, values):
            if kind in "tb":
                out.append((col, "text" if kind == "t" else "binary", raw.decode() if kind == "t" else raw))
            else:               # 'n' null, 'u' unchanged TOAST
                out.append((col, kind, None))
        if table == "cdc_mark":
            return {"phase": out[0][2] if out[0][1] == "text" else out[0][2].decode()}, pos
        return row_of(table, out, self.problems, self.forms), pos

    def __call__(self, payload):
        buf = bytes(payload)
        t = chr(buf[0])
        if t == "Y":
            oid, name = cases.read_type(buf, 1)
            self.typenames[oid] = name
            return []
        if t == "R":
            relid, name, cols = cases.read_relation(buf, 1)
            for col, typ in cols:
                if col == "id":
                    self.types[name] = self.typenames.get(typ, "oid %d" % typ)
            self.rels[relid] = (name, cols)
            return []
        if t not in "IUD":
            return []           # Begin, Commit, Origin, Truncate...
        return [cases.read_change(t, buf, 1, self.rels, self.tuple)]


# ---- comparing a stream with the workload ----

def compare(label, expect, got, generated):
    """Each table's changes in order; a generated id is checked by its fields
    and must be the same id in every stream."""
    by_table = {}
    for e in expect:
        by_table.setdefault(e[0], []).append(e)
    got_by_table = {}
    for g in got:
        got_by_table.setdefault(g[0], []).append(g)
    for table, codec, *_ in TABLES:
        want, have = by_table.get(table, []), got_by_table.get(table, [])
        problems = []
        if len(want) != len(have):
            problems.append("%d changes, %d expected" % (len(have), len(want)))
        for i, (w, h) in enumerate(zip(want, have)):
            if w[1] != h[1]:
                problems.append("change %d: %s, %s expected" % (i, h[1], w[1]))
                continue
            for part, wv, hv in (("new", w[2], h[2]), ("old", w[3], h[3])):
                if wv is None:
                    if hv is not None:
                        problems.append("change %d: an %s tuple %r, none expected" % (i, part, hv))
                    continue
                if hv is None:
                    problems.append("change %d: no %s tuple" % (i, part))
                    continue
                for k, v in wv.items():
                    if k == "id" and v is None:
                        # generated: its fields, and one id in every stream
                        gid = hv.get("id")
                        if gid is None:
                            problems.append("change %d: no generated id" % i)
                            continue
                        f = CODEC[table].fields(gid)
                        for fk, fv in WANT_FIELDS[table].items():
                            if f[fk] != fv:
                                problems.append("generated id %s: %s %r, %r expected"
                                                % (CODEC[table].text(gid), fk, f[fk], fv))
                        if not (datetime.datetime(2024, 1, 1, tzinfo=UTC) <= f["time"]
                                <= datetime.datetime(2100, 1, 1, tzinfo=UTC)):
                            problems.append("generated id %s: time %s" % (CODEC[table].text(gid), f["time"]))
                        key = (table, w[2]["note"])
                        if generated.setdefault(key, gid) != gid:
                            problems.append("generated id %s, another stream had %s"
                                            % (CODEC[table].text(gid), CODEC[table].text(generated[key])))
                    elif hv.get(k) != v:
                        show = lambda x: CODEC[table].text(x) if k == "id" and isinstance(x, int) else x
                        problems.append("change %d %s: %s = %r, %r expected" % (i, part, k, show(hv.get(k)), show(v)))
        check("%s: %s streams its %d changes, every id decoded to the one written"
              % (label, table, len(want)), not problems, "\n".join(problems))


def make_slots(have_wal2json):
    streams = []
    if have_wal2json:
        streams += [("wal2json format 1", "wal2json", {"format-version": "1", "include-types": "1"}, Wal2json1()),
                    ("wal2json format 2", "wal2json", {"format-version": "2", "include-types": "1"}, Wal2json2())]
    streams += [("pgoutput text", "pgoutput", {"proto_version": "1", "publication_names": "cdc_pub"}, Pgoutput()),
                ("pgoutput binary", "pgoutput", {"proto_version": "1", "publication_names": "cdc_pub",
                                                 "binary": "true"}, Pgoutput())]
    results = []
    for i, (label, plugin, options, decoder) in enumerate(streams):
        slot = "cdc_slot_%d" % i
        conn = connect(connection_factory=psycopg2.extras.LogicalReplicationConnection)
        conn.cursor().create_replication_slot(slot, output_plugin=plugin)
        conn.close()
        results.append((label, slot, options, decoder))
    return results


# ---- a subscriber without idgen ----

# the subscriber's columns: the core type each id maps to
SUB_TABLES = [("cdc_iuid", "uuid", Iuid), ("cdc_distid", "numeric(28,0)", Distid),
              ("cdc_base36id", "text", Base36id), ("cdc_flaxid", 'text COLLATE "C"', Flaxid)]


def poll(fn, count=120, interval=0.5):
    """fn() until it returns something true, at most count polls"""
    for _ in range(count):
        r = fn()
        if r:
            return r
        select.select([], [], [], interval)
    return None


def subscriber_checks(pub):
    cur = pub.cursor()
    sub = psycopg2.connect(host=os.environ["CDC_SUB_HOST"], port=os.environ["CDC_SUB_PORT"],
                           user="postgres", dbname="postgres")
    sub.autocommit = True
    scur = sub.cursor()
    conninfo = "host=%s port=%s user=postgres dbname=postgres" % (os.environ["PGHOST"], os.environ["PGPORT"])
    scur.execute("SELECT to_regtype('iuid') IS NULL AND to_regtype('distid') IS NULL")
    check("the subscriber has no idgen types", scur.fetchone()[0])
    for table, coltype, _ in SUB_TABLES:
        scur.execute("CREATE TABLE %s (id %s PRIMARY KEY, n int NOT NULL, note text)" % (table, coltype))

    # text mode: the rows so far (the initial copy), then a new one
    names = ", ".join(t[0] for t in SUB_TABLES)
    cur.execute("CREATE PUBLICATION cdc_sub_text FOR TABLE %s" % names)
    scur.execute("CREATE SUBSCRIPTION cdc_text CONNECTION %s PUBLICATION cdc_sub_text WITH (binary = false)",
                 (conninfo,))
    for table, _, _ in SUB_TABLES:
        cur.execute("INSERT INTO %s (n, note) VALUES (5, 'subscribed')" % table)

    def pub_ids(table):
        cur.execute("SELECT id::text AS t FROM %s ORDER BY id" % table)
        return [r[0] for r in cur.fetchall()]

    def sub_ids(table):
        scur.execute("SELECT id::text AS t FROM %s ORDER BY id" % table)
        return [r[0] for r in scur.fetchall()]

    for table, coltype, codec in SUB_TABLES:
        want = pub_ids(table)
        got = poll(lambda: sub_ids(table) if sub_ids(table) == want else None)
        check("text subscription: %s's %d ids reach the subscriber's %s column as they are"
              % (table, len(want), coltype), got == want, "got %s\nexpected %s" % (sub_ids(table), want))
        bad = []
        for s in sub_ids(table):
            try:
                if codec.text(codec.parse(s)) != s:
                    bad.append(s)
            except ValueError as e:
                bad.append(str(e))
        check("text subscription: %s's ids parse back as %s" % (table, codec.name), not bad, bad)
    scur.execute("DROP SUBSCRIPTION cdc_text")
    for table, _, _ in SUB_TABLES:
        scur.execute("TRUNCATE %s" % table)

    # binary mode, one subscription per table (an error stops a
    # subscription): the ids' binary forms meet the core types' binary
    # input functions.  The flaxids are chosen: one whose 12 bytes are no
    # UTF-8 (0xff), one whose bytes are all ASCII letters.
    flax_bad = (Flaxid.make() & ~(0xFF << 48)) | (0xFF << 48)
    flax_ascii = int.from_bytes(b"Waaaagarbage", "big")
    cur.execute("CREATE TABLE cdc_flaxid_ascii (id flaxid PRIMARY KEY, n int NOT NULL, note text)")
    scur.execute('CREATE TABLE cdc_flaxid_ascii (id text COLLATE "C" PRIMARY KEY, n int NOT NULL, note text)')
    bin_cases = [("cdc_iuid", Iuid, Iuid.make(42, 5), ("row", None)),
             ("cdc_distid", Distid, Distid.make(),
              ("error", r'external "numeric" value|insufficient data left in message')),
             ("cdc_base36id", Base36id, Base36id.make(1), ("error", r'invalid byte sequence for encoding "UTF8": 0x00')),
             ("cdc_flaxid", Flaxid, flax_bad, ("error", r'invalid byte sequence for encoding "UTF8"')),
             ("cdc_flaxid_ascii", Flaxid, flax_ascii, ("row", "Waaaagarbage"))]
    for table, _, _, _ in bin_cases:
        cur.execute("CREATE PUBLICATION cdc_bin_%s FOR TABLE %s" % (table, table))
        scur.execute("CREATE SUBSCRIPTION cdc_bin_%s CONNECTION %%s PUBLICATION cdc_bin_%s "
                     "WITH (binary = true, copy_data = false)" % (table, table), (conninfo,))
    for table, codec, v, _ in bin_cases:
        cur.execute("INSERT INTO %s (id, n, note) VALUES (%%s, 6, 'binary')" % table, (codec.text(v),))

    def outcome(table):
        scur.execute("SELECT id::text FROM %s" % table)
        rows = scur.fetchall()
        if rows:
            return ("row", rows[0][0])
        with open(os.environ["CDC_SUB_LOG"]) as f:
            lines = f.read().splitlines()
        # the error, logged with the table and column; twice: retried
        errors = [lines[i - 1].split("ERROR:", 1)[1].strip() for i, line in enumerate(lines)
                  if 'replication target relation "public.%s" column "id"' % table in line and i > 0
                  and "ERROR:" in lines[i - 1]]
        if len(errors) >= 2:
            return ("error", errors[0])
        return None

    for table, codec, v, (want, what) in bin_cases:
        coltype = scur.execute("SELECT format_type(atttypid, atttypmod) FROM pg_attribute "
                               "WHERE attrelid = %s::regclass AND attname = 'id'", (table,)) or scur.fetchone()[0]
        r = poll(lambda: outcome(table))
        print("# binary subscription, %s %s into %s: %r" % (codec.name, codec.text(v), coltype, r))
        if want == "row":
            what = what or codec.text(v)
            check("binary subscription: %s %s reaches a %s column as %s" % (codec.name, codec.text(v), coltype, what),
                  r == ("row", what), r)
        else:
            check("binary subscription: %s into %s stops on an error naming the table and column, retried (%s)"
                  % (codec.name, coltype, what), r is not None and r[0] == "error" and re.search(what, r[1]), r)
    for table, _, _, _ in bin_cases:
        scur.execute("DROP SUBSCRIPTION cdc_bin_%s" % table)
    sub.close()


def main():
    have_wal2json = os.environ.get("CDC_WAL2JSON") == "1"
    pub = connect()
    pub.autocommit = True
    cur = pub.cursor()
    cur.execute("CREATE EXTENSION idgen")
    cur.execute("CREATE EXTENSION idgen_portable CASCADE")
    for table, coltype, _, default, _, _ in TABLES:
        cur.execute("CREATE TABLE %s (id %s PRIMARY KEY DEFAULT %s, n int NOT NULL, note text)"
                    % (table, coltype, default))
    cur.execute("CREATE TABLE cdc_mark (phase text PRIMARY KEY)")
    cur.execute("CREATE PUBLICATION cdc_pub FOR TABLE %s, cdc_mark" % ", ".join(t[0] for t in TABLES))

    # the slots exist before the first change
    streams = make_slots(have_wal2json)
    if not have_wal2json:
        # the checks of the two wal2json streams below: 3 per stream, 2 per
        # table, 1 per table and phase
        print("skip: %d no wal2json for PostgreSQL %s (Debian packages it for 15 only: postgresql-15-wal2json)"
              % (2 * (3 + len(TABLES) * (2 + len(PHASES))), os.environ.get("CDC_PG_LABEL", "?")))
    expect = {}
    for phase in PHASES:
        for t in TABLES:
            cur.execute("ALTER TABLE %s REPLICA IDENTITY %s" % (t[0], phase))
        expect[phase] = []
        workload(pub, phase, expect[phase])

    generated = {}
    for label, slot, options, decoder in streams:
        conn = connect(connection_factory=psycopg2.extras.LogicalReplicationConnection)
        got, done = read_slot(conn, slot, options, decoder)
        check("%s: the stream reaches the last change" % label, done)
        check("%s: every id is in its documented form" % label, not decoder.problems,
              "\n".join(decoder.problems))
        # the form each id column arrives in: JSON strings (a JSON number
        # for numeric), text, or binary
        print("# %s: the id columns arrive as %s" % (label, ", ".join(
            "%s %s (%s)" % (t, decoder.types.get(t, "?"),
                            "/".join(sorted("%s %s" % (f, k) for tt, f, k in decoder.forms if tt == t)))
            for t in CODEC)))
        want_form = "binary" if "binary" in label else "text"
        for t, coltype, *_ in TABLES:
            forms = {f for tt, f, _ in decoder.forms if tt == t}
            if label.startswith("wal2json"):
                # a numeric column is a JSON number, every other id a JSON string
                want = {"json-number"} if coltype.startswith("numeric") else {"text"}
            else:
                want = {want_form}
            check("%s: %s's ids arrive as %s" % (label, t, "/".join(sorted(want))), forms == want,
                  "got %s" % sorted(forms))
            # the type each stream names: wal2json by its SQL name; pgoutput
            # by OID, idgen's (not built in) with a Type message naming it
            sqltype = coltype.split(" COLLATE")[0]
            if label.startswith("wal2json"):
                want = sqltype
            elif sqltype in ("iuid", "distid", "base36id", "flaxid"):
                want = "public." + sqltype
            else:
                want = "oid %d" % {"uuid": 2950, "numeric(28,0)": 1700, "text": 25}[sqltype]
            check("%s: %s's id column is typed %s" % (label, t, want), decoder.types.get(t) == want,
                  "got %s" % decoder.types.get(t))
        for phase in PHASES:
            want = expect[phase]
            if label.startswith("wal2json"):
                # wal2json sends the key with every update, from the new
                # row when the key did not change (pgoutput sends nothing)
                want = [(t, k, n, {"id": n["id"]} if k == "update" and o is None else o) for t, k, n, o in want]
            compare("%s, REPLICA IDENTITY %s" % (label, phase), want, got[phase], generated)
        # the walsender lets go of the slot once it sees the client gone
        def dropped():
            cur.execute("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots "
                        "WHERE slot_name = %s AND NOT active", (slot,))
            return cur.rowcount == 1
        check("%s: the slot is dropped" % label, poll(dropped))

    subscriber_checks(pub)
    # the core-type route, the other replica identities and keys, partitions,
    # TRUNCATE, pgoutput's streaming protocols (test/cdc/cases.py)
    cases.run(sys.modules[__name__], pub)
    pub.close()
    print("cdc: %d passed, %d failed" % (PASSED, FAILED))
    return 0 if FAILED == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
