"""More change data capture cases (cdc.py runs these after its own).

- The core-type route (doc/cdc.md#debezium): a table whose ids are kept in
  core types (uuid, numeric(28,0), bigint, text) and filled by the C
  edition's generators.  A consumer that knows only core types reads it
  through pgoutput in text and binary mode: no Type message arrives for it,
  every column has a built-in type OID, and each value, decoded by its core
  type alone, is checked by the formats (cdc.py's codecs) and by idgen's C
  extractors on the publisher (the public id by public_id_to_distid).  A
  subscriber without idgen takes the table with binary = true.
- REPLICA IDENTITY USING INDEX (a unique distid, the key an iuid), a
  composite key (iuid, flaxid), a partitioned table published through its
  root (publish_via_partition_root), TRUNCATE.
- pgoutput protocol 2 with streaming on (and 4 with streaming = parallel
  where the server has it, 16 and later): a transaction larger than
  logical_decoding_work_mem (64kB in run.sh) arrives in Stream Start /
  Stream Stop blocks and is applied at its Stream Commit; one still open
  while the slot is read, then rolled back, arrives as a Stream Abort and
  none of its ids is applied; one rolled back before the slot is read is
  streamed and aborted likewise before PostgreSQL 18 and not sent from 18
  on.

A case the server cannot run prints "skip: N WHY" (run.sh counts it).
"""

import datetime
import struct
import uuid

import psycopg2
import psycopg2.extras

KEY = "k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc="   # SPEC.md's public id key
BIG = 3000                                              # rows of the large transactions

# built-in types (fixed OIDs, pg_type.dat): the only ones a core-type consumer knows
CORE_OIDS = {16: "bool", 20: "int8", 23: "int4", 25: "text", 1043: "varchar", 1700: "numeric", 2950: "uuid"}


def numeric_recv(raw):
    """numeric's binary form of a whole number, as its decimal text"""
    ndigits, weight, sign, dscale = struct.unpack_from(">hhHh", raw)
    if sign != 0 or dscale != 0 or len(raw) != 8 + 2 * ndigits:
        raise ValueError("not a non-negative whole numeric: %r" % raw)
    return str(sum(struct.unpack_from(">h", raw, 8 + 2 * i)[0] * 10000 ** (weight - i) for i in range(ndigits)))


def core_value(oid, form, raw):
    """A column value by its built-in type alone, text or binary form"""
    name = CORE_OIDS[oid]
    if form == "t":
        s = raw.decode()
        if name == "uuid":
            if str(uuid.UUID(s)) != s:
                raise ValueError("not a canonical uuid text: %r" % s)
            return s
        if name in ("int8", "int4"):
            return int(s)
        return s                # numeric's decimal text, text, varchar
    if name == "uuid":
        if len(raw) != 16:
            raise ValueError("uuid of %d bytes" % len(raw))
        return str(uuid.UUID(bytes=raw))
    if name == "numeric":
        return numeric_recv(raw)
    if name == "int8":
        return struct.unpack(">q", raw)[0]
    if name == "int4":
        return struct.unpack(">i", raw)[0]
    return raw.decode()


# ---- pgoutput's messages, shared with cdc.py's decoder ----

def pg_string(buf, pos):
    """a NUL-terminated string at pos, and the position after it"""
    end = buf.index(b"\0", pos)
    return buf[pos:end].decode(), end + 1


def read_type(buf, pos):
    """a Type message's body at pos: (oid, "schema.name")"""
    (oid,) = struct.unpack_from(">I", buf, pos)
    nsp, p = pg_string(buf, pos + 4)
    name, p = pg_string(buf, p)
    return oid, "%s.%s" % (nsp, name)


def read_relation(buf, pos):
    """a Relation message's body at pos: (relid, table name, [(column, type oid)])"""
    (relid,) = struct.unpack_from(">I", buf, pos)
    _nsp, p = pg_string(buf, pos + 4)
    name, p = pg_string(buf, p)
    p += 1                      # replica identity
    (natts,) = struct.unpack_from(">h", buf, p)
    p += 2
    cols = []
    for _ in range(natts):
        p += 1                  # flags
        col, p = pg_string(buf, p)
        typ, _typmod = struct.unpack_from(">Ii", buf, p)
        p += 8
        cols.append((col, typ))
    return relid, name, cols


def read_tuple_data(buf, pos):
    """a TupleData at pos: [(kind, bytes)] (kind 't' text, 'b' binary, with
    the value's bytes; 'n' null, 'u' unchanged TOAST, with None), and the
    position after it"""
    (n,) = struct.unpack_from(">h", buf, pos)
    pos += 2
    out = []
    for _ in range(n):
        kind = chr(buf[pos])
        pos += 1
        raw = None
        if kind in "tb":
            (ln,) = struct.unpack_from(">i", buf, pos)
            raw = bytes(buf[pos + 4:pos + 4 + ln])
            pos += 4 + ln
        out.append((kind, raw))
    return out, pos


def read_change(t, buf, pos, rels, read_tuple):
    """an Insert, Update or Delete message's body at pos: (table, kind, new,
    old); read_tuple(table, cols, buf, pos) reads one TupleData"""
    (relid,) = struct.unpack_from(">I", buf, pos)
    table, cols = rels[relid]
    pos += 4
    old = new = None
    if t in "UD" and chr(buf[pos]) in "KO":
        old, pos = read_tuple(table, cols, buf, pos + 1)
    if t in "IU":
        new, pos = read_tuple(table, cols, buf, pos + 1)
    return (table, {"I": "insert", "U": "update", "D": "delete"}[t], new, old)


class Pgoutput:
    """pgoutput, protocol 1 to 4: Begin, Commit, Relation, Type, Insert,
    Update, Delete, Truncate, and the streaming messages (Stream Start, Stop,
    Commit, Abort) whose changes are held per transaction until their
    commit.  Values: the built-in types by core_value; idgen's types, named
    by their Type message, by cdc.py's codecs (their text form)."""

    def __init__(self, codecs, proto):
        self.codecs = codecs    # "public.iuid" -> codec
        self.proto = proto
        self.rels = {}          # relid -> (name, [(column, oid)])
        self.types = {}         # oid -> "schema.name", from Type messages
        self.type_msgs = []     # (oid, "schema.name") in arrival order
        self.problems = []
        self.changes = []       # (table, kind, new, old), committed ones
        self.truncates = []     # ([tables], options)
        self.streams = {"start": 0, "stop": 0, "commit": 0, "abort": 0}
        self.streamed = {}      # xid -> [(subxid, change)], until Stream Commit/Abort
        self.stream_xid = None  # the transaction of the open Stream Start block
        self.aborted = []       # the changes of aborted streamed transactions

    def value(self, table, oid, form, raw):
        try:
            if oid in CORE_OIDS:
                return core_value(oid, form, raw)
            name = self.types.get(oid)
            codec = self.codecs.get(name)
            if codec is None:
                raise ValueError("type oid %d (%s) unknown to this consumer" % (oid, name))
            if form == "b":
                return int.from_bytes(raw, "big")
            v = codec.parse(raw.decode())
            if codec.text(v) != raw.decode():
                raise ValueError("not the canonical text %r" % raw)
            return v
        except ValueError as e:
            self.problems.append("%s: %s" % (table, e))
            return None

    def tuple(self, table, cols, buf, pos):
        values, pos = read_tuple_data(buf, pos)
        out = {}
        for (col, oid), (kind, raw) in zip(cols, values):
            if kind in "tb":
                out[col] = self.value(table, oid, kind, raw)
            elif kind == "n":
                out[col] = None
            # 'u': an unchanged TOAST value, left out
        return out, pos

    def emit(self, xid, change):
        if self.stream_xid is not None:
            self.streamed.setdefault(self.stream_xid, []).append((xid, change))
        else:
            self.changes.append(change)

    def __call__(self, payload):
        buf = bytes(payload)
        t = chr(buf[0])
        pos = 1
        if t == "S":
            self.stream_xid = struct.unpack_from(">I", buf, 1)[0]
            self.streams["start"] += 1
            return []
        if t == "E":
            self.stream_xid = None
            self.streams["stop"] += 1
            return []
        if t == "c":
            (xid,) = struct.unpack_from(">I", buf, 1)
            self.streams["commit"] += 1
            out = [c for _, c in self.streamed.pop(xid, [])]
            self.changes.extend(out)
            return out
        if t == "A":
            xid, subxid = struct.unpack_from(">II", buf, 1)
            self.streams["abort"] += 1
            held = self.streamed.get(xid, [])
            if subxid == xid:
                self.aborted.extend(c for _, c in held)
                self.streamed.pop(xid, None)
            else:
                self.aborted.extend(c for x, c in held if x == subxid)
                self.streamed[xid] = [(x, c) for x, c in held if x != subxid]
            return []
        if t in "BCO":
            return []
        # in a Stream Start block every other message begins with its xid
        xid = None
        if self.stream_xid is not None:
            (xid,) = struct.unpack_from(">I", buf, pos)
            pos += 4
        if t == "Y":
            oid, name = read_type(buf, pos)
            self.types[oid] = name
            self.type_msgs.append((oid, name))
            return []
        if t == "R":
            relid, name, cols = read_relation(buf, pos)
            self.rels[relid] = (name, cols)
            return []
        if t == "T":
            nrels, options = struct.unpack_from(">iB", buf, pos)
            relids = struct.unpack_from(">%dI" % nrels, buf, pos + 5)
            tables = sorted(self.rels[r][0] for r in relids)
            self.truncates.append((tables, options))
            self.emit(xid, (tables[0], "truncate", None, None))
            return []
        if t not in "IUD":
            self.problems.append("unexpected message %r" % t)
            return []
        change = read_change(t, buf, pos, self.rels, self.tuple)
        streamed = self.stream_xid is not None
        self.emit(xid, change)
        return [] if streamed else [change]


def run(m, pub):
    """m: the cdc module (check, connect, poll, the codecs); pub: an
    autocommit connection to the publisher"""
    cur = pub.cursor()
    cur.execute("SELECT current_setting('server_version_num')::int")
    version = cur.fetchone()[0]
    key = "decode('%s', 'base64')" % KEY
    codecs = {"public.iuid": m.Iuid, "public.distid": m.Distid, "public.base36id": m.Base36id,
              "public.flaxid": m.Flaxid}

    # ---- the tables ----
    cur.execute("""CREATE TABLE cdc_core (
        iuid_col uuid PRIMARY KEY DEFAULT iuid_generate(42, 5),
        distid_col numeric(28,0) NOT NULL DEFAULT distid_generate(),
        distid128_col uuid NOT NULL DEFAULT distid128_generate(),
        base36_bigint bigint NOT NULL DEFAULT base36id_generate(),
        base36_text text COLLATE "C" NOT NULL DEFAULT base36id_generate(),
        flaxid_col text COLLATE "C" NOT NULL DEFAULT flaxid_generate(),
        public_col uuid,
        n int NOT NULL, note text)""")
    # the public id of the row's distid, as an application would store it
    cur.execute("""CREATE FUNCTION cdc_core_public() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN NEW.public_col := public.public_id(NEW.distid_col::public.distid, %s); RETURN NEW; END $$""" % key)
    cur.execute("CREATE TRIGGER cdc_core_public BEFORE INSERT OR UPDATE ON cdc_core "
                "FOR EACH ROW EXECUTE FUNCTION cdc_core_public()")
    cur.execute("CREATE TABLE cdc_ri_index (id iuid PRIMARY KEY DEFAULT iuid_generate(7, 9), "
                "alt distid NOT NULL DEFAULT distid_generate(), n int NOT NULL, note text)")
    cur.execute("CREATE UNIQUE INDEX cdc_ri_index_alt ON cdc_ri_index (alt)")
    cur.execute("ALTER TABLE cdc_ri_index REPLICA IDENTITY USING INDEX cdc_ri_index_alt")
    cur.execute("CREATE TABLE cdc_composite (a iuid DEFAULT iuid_generate(1, 2), b flaxid DEFAULT flaxid_generate(), "
                "n int NOT NULL, note text, PRIMARY KEY (a, b))")
    cur.execute("CREATE TABLE cdc_part (id iuid PRIMARY KEY, n int NOT NULL, note text) PARTITION BY RANGE (id)")
    cur.execute("SELECT count(*) FROM idgen_create_partitions('cdc_part', '2025-01-01', '2025-01-03', '1 day')")
    cur.execute("CREATE TABLE cdc_trunc (id base36id PRIMARY KEY DEFAULT base36id_generate(), n int NOT NULL)")
    cur.execute("CREATE TABLE cdc_big (id flaxid PRIMARY KEY DEFAULT flaxid_generate(), n int NOT NULL, pad text)")
    cur.execute("CREATE TABLE cdc_mark2 (phase text PRIMARY KEY)")
    tables = ["cdc_core", "cdc_ri_index", "cdc_composite", "cdc_part", "cdc_trunc", "cdc_big", "cdc_mark2"]
    cur.execute("CREATE PUBLICATION cdc_pub2 FOR TABLE %s WITH (publish_via_partition_root = true)" % ", ".join(tables))

    # ---- the slots, before the first change ----
    streams = [("pgoutput text, protocol 1", {"proto_version": "1"}),
               ("pgoutput binary, protocol 1", {"proto_version": "1", "binary": "true"}),
               ("pgoutput protocol 2, streaming on", {"proto_version": "2", "streaming": "on"})]
    if version >= 160000:
        streams.append(("pgoutput protocol 4, streaming parallel", {"proto_version": "4", "streaming": "parallel"}))
    else:
        # the checks of one streaming stream below
        print("skip: 14 pgoutput protocol 4 (streaming = parallel) needs PostgreSQL 16 or later, "
              "this is %d" % (version // 10000))
    slots = []
    for i, (label, options) in enumerate(streams):
        slot = "cdc_case_%d" % i
        conn = m.connect(connection_factory=psycopg2.extras.LogicalReplicationConnection)
        conn.cursor().create_replication_slot(slot, output_plugin="pgoutput")
        conn.close()
        options = dict(options, publication_names="cdc_pub2")
        slots.append((label, slot, options))

    # ---- the workload ----
    cur.execute("INSERT INTO cdc_core (n, note) SELECT g, 'row ' || g FROM generate_series(1, 20) g")
    cur.execute("UPDATE cdc_core SET note = 'changed' WHERE n = 2")
    cur.execute("DELETE FROM cdc_core WHERE n = 3")

    cur.execute("INSERT INTO cdc_ri_index (n, note) SELECT g, 'ri' FROM generate_series(1, 3) g")
    cur.execute("SELECT id::text, alt::text FROM cdc_ri_index ORDER BY n")
    ri = cur.fetchall()
    ri_new_id = m.Iuid.text(m.Iuid.make(7, 9))
    ri_new_alt = str(m.Distid.make())
    cur.execute("UPDATE cdc_ri_index SET id = %s WHERE n = 1", (ri_new_id,))     # identity unchanged
    cur.execute("UPDATE cdc_ri_index SET alt = %s WHERE n = 2", (ri_new_alt,))   # identity changed
    cur.execute("DELETE FROM cdc_ri_index WHERE n = 3")

    cur.execute("INSERT INTO cdc_composite (n, note) SELECT g, 'c' FROM generate_series(1, 3) g")
    cur.execute("SELECT a::text, b::text FROM cdc_composite ORDER BY n")
    comp = cur.fetchall()
    comp_new_b = m.Flaxid.text(m.Flaxid.make())
    cur.execute("UPDATE cdc_composite SET b = %s WHERE n = 1", (comp_new_b,))
    cur.execute("DELETE FROM cdc_composite WHERE n = 2")

    day1, day2 = (datetime.datetime(2025, 1, d, 12, tzinfo=m.UTC) for d in (1, 2))
    cur.execute("INSERT INTO cdc_part SELECT iuid_generate(3, 3, %s), 1, 'day 1'", (day1,))
    cur.execute("INSERT INTO cdc_part SELECT iuid_generate(3, 3, %s), 2, 'day 2'", (day2,))
    cur.execute("SELECT id::text, tableoid::regclass::text FROM cdc_part ORDER BY n")
    part = cur.fetchall()
    cur.execute("SELECT iuid_generate(3, 3, %s)::text", (day2 + datetime.timedelta(minutes=1),))
    part_moved = cur.fetchone()[0]
    cur.execute("UPDATE cdc_part SET note = 'same partition' WHERE n = 2")
    cur.execute("UPDATE cdc_part SET id = %s WHERE n = 1", (part_moved,))   # day 1 -> day 2's partition
    cur.execute("SELECT tableoid::regclass::text FROM cdc_part WHERE n = 1")
    part_moved_to = cur.fetchone()[0]

    cur.execute("INSERT INTO cdc_trunc (n) VALUES (1), (2)")
    cur.execute("TRUNCATE cdc_trunc")
    cur.execute("INSERT INTO cdc_trunc (n) VALUES (3)")
    cur.execute("SELECT id::text FROM cdc_trunc")
    trunc_after = cur.fetchone()[0]

    # larger than logical_decoding_work_mem: one committed; one rolled back
    # before any slot is read (n from -1); one still open while every slot
    # reads past it, rolled back then (n from -100001)
    pub.autocommit = False
    cur.execute("INSERT INTO cdc_big (n, pad) SELECT g, repeat('x', 100) FROM generate_series(1, %s) g", (BIG,))
    pub.commit()
    cur.execute("INSERT INTO cdc_big (n, pad) SELECT -g, repeat('y', 100) FROM generate_series(1, %s) g", (BIG,))
    pub.rollback()
    pub.autocommit = True
    open_txn = m.connect()
    open_txn.cursor().execute("INSERT INTO cdc_big (n, pad) SELECT -100000 - g, repeat('z', 100) "
                              "FROM generate_series(1, %s) g", (BIG,))
    cur.execute("INSERT INTO cdc_mark2 VALUES ('OPEN')")

    cur.execute("SELECT iuid_col::text, distid_col::text, distid128_col::text, base36_bigint, base36_text, "
                "flaxid_col, public_col::text, n, note FROM cdc_core ORDER BY n")
    core_rows = {r[0]: r for r in cur.fetchall()}
    cur.execute("SELECT id::text FROM cdc_big")
    big_ids = {r[0] for r in cur.fetchall()}

    # ---- each stream: up to OPEN, with the third transaction open; then the rest ----
    readers = []
    for label, slot, options in slots:
        dec = Pgoutput(codecs, int(options["proto_version"]))
        conn = m.connect(connection_factory=psycopg2.extras.LogicalReplicationConnection)
        rcur = conn.cursor()
        rcur.start_replication(slot_name=slot, decode=False, options=options)
        _, done = m.read_slot(conn, slot, options, dec, phases=["OPEN"], mark="cdc_mark2", cur=rcur)
        m.check("%s: the stream reaches the open transaction's marker" % label, done)
        readers.append((conn, rcur, dec))
    open_txn.rollback()
    open_txn.close()
    cur.execute("INSERT INTO cdc_mark2 VALUES ('END')")

    for (label, slot, options), (conn, rcur, dec) in zip(slots, readers):
        _, done = m.read_slot(conn, slot, options, dec, phases=["END"], mark="cdc_mark2", cur=rcur)
        conn.close()
        m.check("%s: the stream reaches the last change" % label, done)
        m.check("%s: every value decodes" % label, not dec.problems, "\n".join(dec.problems[:20]))
        by = {}
        for ch in dec.changes:
            by.setdefault(ch[0], []).append(ch)
        check_core(m, pub, label, dec, by.get("cdc_core", []), core_rows)
        check_ri_index(m, label, by.get("cdc_ri_index", []), ri, ri_new_id, ri_new_alt)
        check_composite(m, label, by.get("cdc_composite", []), comp, comp_new_b)
        check_part(m, label, dec, by, part, part_moved, part_moved_to)
        check_trunc(m, label, dec, by.get("cdc_trunc", []), trunc_after)
        check_big(m, label, dec, by.get("cdc_big", []), big_ids, version)

        def dropped():
            cur.execute("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots "
                        "WHERE slot_name = %s AND NOT active", (slot,))
            return cur.rowcount == 1
        m.check("%s: the slot is dropped" % label, m.poll(dropped))

    core_subscriber(m, pub, core_rows)


def check_core(m, pub, label, dec, changes, rows):
    """the core-typed table: only built-in types, no Type message for it, every
    value by the formats and by idgen's extractors on the publisher"""
    name = [r for r in dec.rels.values() if r[0] == "cdc_core"]
    oids = [c[1] for c in name[0][1]] if name else []
    m.check("%s: cdc_core's columns all have built-in type OIDs (%s)" % (label, ", ".join(sorted({CORE_OIDS.get(o, str(o)) for o in oids}))),
            oids and all(o in CORE_OIDS for o in oids), oids)
    m.check("%s: no Type message for a built-in type (Type messages: %s)"
            % (label, ", ".join(sorted({n for _, n in dec.type_msgs})) or "none"),
            not any(o in CORE_OIDS for o, _ in dec.type_msgs), dec.type_msgs)
    inserts = [c[2] for c in changes if c[1] == "insert"]
    problems = []
    if len(inserts) != 20:
        problems.append("%d inserts, 20 expected" % len(inserts))
    cur = pub.cursor()
    for row in inserts:
        want = rows.get(row.get("iuid_col"))
        got = (row.get("iuid_col"), row.get("distid_col"), row.get("distid128_col"), row.get("base36_bigint"),
               row.get("base36_text"), row.get("flaxid_col"), row.get("public_col"), row.get("n"))
        if row.get("n") != 3 and (want is None or tuple(want[:8]) != got):
            problems.append("row %r is not the table's %r" % (got, want))
            continue
        try:
            # the formats: each value parses as its id, with the fields it was made with
            i = m.Iuid.parse(row["iuid_col"])
            d = m.Distid.parse(row["distid_col"])
            d128 = m.Distid128.parse(row["distid128_col"])
            b_num = m.Base36id.parse(m.Base36id.text(row["base36_bigint"]))
            b_txt = m.Base36id.parse(row["base36_text"])
            f = m.Flaxid.parse(row["flaxid_col"])
        except (ValueError, KeyError, TypeError) as e:
            problems.append("row %r: %s" % (got, e))
            continue
        fi = m.Iuid.fields(i)
        if (fi["country"], fi["entity"]) != (42, 5) or m.Base36id.fields(b_num)["worker"] != 1 \
                or m.Base36id.fields(b_txt)["worker"] != 1:
            problems.append("row %r: fields %r" % (got, fi))
        # idgen's C extractors on the values as the consumer decoded them
        cur.execute("SELECT iuid_country(%s::uuid::iuid), iuid_entity(%s::uuid::iuid), iuid_timestamp(%s::uuid::iuid), "
                    "distid_timestamp(%s::numeric::distid), distid128_timestamp(%s::uuid), "
                    "base36id_worker(%s::bigint::base36id), base36id_timestamp(%s::bigint::base36id), "
                    "base36id_worker(%s::text::base36id), flaxid_timestamp(%s::text::flaxid), "
                    "public_id_to_distid(%s::uuid, decode(%s, 'base64'))::numeric::text",
                    (row["iuid_col"],) * 3 + (row["distid_col"], row["distid128_col"]) + (row["base36_bigint"],) * 2
                    + (row["base36_text"], row["flaxid_col"], row["public_col"], KEY))
        sql = cur.fetchone()
        mine = (42, 5, fi["time"], m.Distid.fields(d)["time"], m.Distid128.fields(d128)["time"], 1,
                m.Base36id.fields(b_num)["time"], 1, m.Flaxid.fields(f)["time"], row["distid_col"])
        if tuple(sql) != mine:
            problems.append("row %r: the extractors say %r, the formats %r" % (got, sql, mine))
    upd = [c for c in changes if c[1] == "update"]
    dele = [c for c in changes if c[1] == "delete"]
    if len(upd) != 1 or upd[0][2].get("note") != "changed" or upd[0][2].get("n") != 2:
        problems.append("update: %r" % upd)
    gone = [r["iuid_col"] for r in inserts if r.get("n") == 3]
    if len(dele) != 1 or dele[0][3] is None or [dele[0][3].get("iuid_col")] != gone:
        problems.append("delete: %r (the row inserted with n = 3: %r)" % (dele, gone))
    m.check("%s: cdc_core's 20 rows, decoded as core types only, are the ids written, by the formats and by "
            "idgen's extractors (public id by public_id_to_distid)" % label, not problems, "\n".join(problems[:10]))


def check_ri_index(m, label, changes, ri, new_id, new_alt):
    """REPLICA IDENTITY USING INDEX on alt: an update of the key (not the
    identity) sends no old tuple; one of alt sends the old alt; a delete
    sends the old alt; the other columns of an old tuple are null"""
    kinds = [c[1] for c in changes]
    problems = []
    if kinds != ["insert"] * 3 + ["update", "update", "delete"]:
        problems.append("changes %r" % kinds)
    else:
        u1, u2, d = changes[3:]
        if u1[3] is not None or m.Iuid.text(u1[2]["id"]) != new_id:
            problems.append("update of the key: %r" % (u1,))
        if u2[3] is None or m.Distid.text(u2[3].get("alt")) != ri[1][1] or u2[3].get("id") is not None \
                or m.Distid.text(u2[2]["alt"]) != new_alt:
            problems.append("update of the identity: %r" % (u2,))
        if d[3] is None or m.Distid.text(d[3].get("alt")) != ri[2][1] or d[3].get("id") is not None:
            problems.append("delete: %r" % (d,))
    m.check("%s: REPLICA IDENTITY USING INDEX (a distid): the old distid with an update of it and a delete, "
            "none with an update of the iuid key" % label, not problems, "\n".join(problems))


def check_composite(m, label, changes, comp, new_b):
    kinds = [c[1] for c in changes]
    problems = []
    if kinds != ["insert"] * 3 + ["update", "delete"]:
        problems.append("changes %r" % kinds)
    else:
        u, d = changes[3:]
        if u[3] is None or (m.Iuid.text(u[3]["a"]), m.Flaxid.text(u[3]["b"])) != comp[0] \
                or m.Flaxid.text(u[2]["b"]) != new_b:
            problems.append("update: %r" % (u,))
        if d[3] is None or (m.Iuid.text(d[3]["a"]), m.Flaxid.text(d[3]["b"])) != comp[1]:
            problems.append("delete: %r" % (d,))
    m.check("%s: a composite key (iuid, flaxid): both old key columns with an update of one and a delete"
            % label, not problems, "\n".join(problems))


def check_part(m, label, dec, by, part, moved, moved_to):
    """publish_via_partition_root: every change under the root's name (pgoutput
    describes the partitions too, in Relation messages no change refers to);
    a row moved to another partition by an update of its key arrives as a
    delete and an insert"""
    leaves = {p[1] for p in part} | {moved_to}
    changes = by.get("cdc_part", [])
    kinds = [c[1] for c in changes]
    problems = []
    if set(by) & leaves:
        problems.append("changes of partitions: %r" % {t: len(by[t]) for t in set(by) & leaves})
    if kinds != ["insert", "insert", "update", "delete", "insert"]:
        problems.append("changes %r" % kinds)
    else:
        ids = [m.Iuid.text((c[2] or c[3])["id"]) for c in changes]
        if ids != [part[0][0], part[1][0], part[1][0], part[0][0], moved]:
            problems.append("ids %r" % ids)
    m.check("%s: a partitioned table published through its root: every change named cdc_part (partitions %s), "
            "the move from %s to %s a delete and an insert" % (label, ", ".join(sorted(leaves)), part[0][1], moved_to),
            not problems, "\n".join(problems))


def check_trunc(m, label, dec, changes, after):
    kinds = [c[1] for c in changes]
    ok = kinds == ["insert", "insert", "truncate", "insert"] and dec.truncates == [(["cdc_trunc"], 0)] \
        and m.Base36id.text(changes[3][2]["id"]) == after
    m.check("%s: TRUNCATE arrives as a Truncate message naming the table, between the rows" % label, ok,
            "%r %r" % (kinds, dec.truncates))


def check_big(m, label, dec, changes, big_ids, version):
    """the large transactions: the committed one whole, the rolled-back ones
    nowhere.  Protocol 1: at commit, no Stream message.  Streaming: in
    Stream Start/Stop blocks, one Stream Commit; the transaction open while
    the slot was read streamed, then dropped at its Stream Abort; the one
    rolled back before the slot was read streamed and aborted likewise
    before PostgreSQL 18, from 18 on not sent at all (the walsender drops a
    transaction it finds aborted instead of streaming it)"""
    ids = [m.Flaxid.text(c[2]["id"]) for c in changes if c[1] == "insert"]
    m.check("%s: the %d-row transaction arrives whole, each id once, the rolled-back ones not at all"
            % (label, BIG), len(ids) == BIG and set(ids) == big_ids and not any(c[2]["n"] < 0 for c in changes),
            "%d ids, %d distinct, %d in the table" % (len(ids), len(set(ids)), len(big_ids)))
    s = dec.streams
    if "streaming" in label:
        before = version < 180000
        m.check("%s: the large transactions were streamed: %d Stream Start, %d Stream Stop, %d Stream Commit, "
                "%d Stream Abort (%d expected on PostgreSQL %d)" % (label, s["start"], s["stop"], s["commit"],
                                                                    s["abort"], 2 if before else 1, version // 10000),
                s["start"] >= 2 and s["start"] == s["stop"] and s["commit"] == 1 and s["abort"] == (2 if before else 1), s)
        was_open = [c for c in dec.aborted if c[2]["n"] <= -100000]
        before_read = [c for c in dec.aborted if -100000 < c[2]["n"] < 0]
        m.check("%s: the open transaction's changes came, held, and went with its Stream Abort (%d); the one "
                "rolled back before the slot was read: %d held and dropped" % (label, len(was_open), len(before_read)),
                0 < len(was_open) <= BIG and len(dec.aborted) == len(was_open) + len(before_read)
                and (0 < len(before_read) <= BIG if before else not before_read) and not dec.streamed,
                "%d held then aborted" % len(dec.aborted))
    else:
        m.check("%s: protocol 1 streams nothing (no Stream messages)" % label, s == dict.fromkeys(s, 0), s)


def core_subscriber(m, pub, rows):
    """a subscriber without idgen, binary = true: the core-typed table arrives
    as it is (unlike idgen's own types in cdc.py's binary subscriptions)"""
    sub = psycopg2.connect(host=m.os.environ["CDC_SUB_HOST"], port=m.os.environ["CDC_SUB_PORT"],
                           user="postgres", dbname="postgres")
    sub.autocommit = True
    scur = sub.cursor()
    cur = pub.cursor()
    scur.execute("""CREATE TABLE cdc_core (iuid_col uuid PRIMARY KEY, distid_col numeric(28,0) NOT NULL,
        distid128_col uuid NOT NULL, base36_bigint bigint NOT NULL, base36_text text COLLATE "C" NOT NULL,
        flaxid_col text COLLATE "C" NOT NULL, public_col uuid, n int NOT NULL, note text)""")
    cur.execute("CREATE PUBLICATION cdc_core_pub FOR TABLE cdc_core")
    conninfo = "host=%s port=%s user=postgres dbname=postgres" % (m.os.environ["PGHOST"], m.os.environ["PGPORT"])
    scur.execute("CREATE SUBSCRIPTION cdc_core_bin CONNECTION %s PUBLICATION cdc_core_pub WITH (binary = true)",
                 (conninfo,))
    cur.execute("INSERT INTO cdc_core (n, note) VALUES (21, 'binary subscription')")
    q = ("SELECT iuid_col::text, distid_col::text, distid128_col::text, base36_bigint, base36_text, flaxid_col, "
         "public_col::text, n, note FROM cdc_core ORDER BY n")
    cur.execute(q)
    want = cur.fetchall()

    def same():
        scur.execute(q)
        return scur.fetchall() == want
    m.check("binary subscription without idgen: cdc_core's %d rows (initial copy and a new one) arrive as they are"
            % len(want), m.poll(same), want[-1])
    scur.execute("DROP SUBSCRIPTION cdc_core_bin")
    sub.close()
