#!/usr/bin/python3
"""idgen from psycopg 3: every idgen type in text mode, binary mode and binary COPY.

Connects with libpq's environment (PGHOST, PGPORT, PGUSER, PGDATABASE) to a
server with idgen installed, preloaded and idgen.worker_id set.  Prints one
line per check and "psycopg: N passed, M failed"; exits 1 on any failure.
The regions between "README begin/end" lines are quoted verbatim in doc/clients.md.
"""
import datetime
import sys

# README begin: psycopg-adapters
import uuid

import psycopg
from psycopg.adapt import Dumper, Loader
from psycopg.pq import Format
from psycopg.types import TypeInfo


class Iuid(uuid.UUID):
    """An iuid, sent to the server as iuid (a plain UUID is sent as uuid)."""
    __slots__ = ()


class Distid(int):
    """A distid: a 93-bit integer (0 .. 10**28 - 1)."""


class Base36id(str):
    """A base36id: 9 characters of 0-9A-Z."""


class Flaxid(str):
    """A flaxid: 16 characters of FLAX_DIGITS."""


B36_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
FLAX_DIGITS = "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz"


def _digits_to_int(text, digits, length):
    if len(text) != length or any(c not in digits for c in text):
        raise ValueError(f"invalid id {text!r}")
    n = 0
    for c in text:
        n = n * len(digits) + digits.index(c)
    return n


def _int_to_digits(n, digits, length):
    out = []
    for _ in range(length):
        n, r = divmod(n, len(digits))
        out.append(digits[r])
    return "".join(reversed(out))


# binary wire forms (big-endian): iuid 16 bytes, distid 12, base36id int8, flaxid 12
IDGEN_TYPES = {
    "iuid": (Iuid, lambda v: v.bytes, lambda b: Iuid(bytes=b)),
    "distid": (Distid, lambda v: v.to_bytes(12, "big"),
               lambda b: Distid(int.from_bytes(b, "big"))),
    "base36id": (Base36id, lambda v: _digits_to_int(v, B36_DIGITS, 9).to_bytes(8, "big"),
                 lambda b: Base36id(_int_to_digits(int.from_bytes(b, "big"), B36_DIGITS, 9))),
    "flaxid": (Flaxid, lambda v: _digits_to_int(v, FLAX_DIGITS, 16).to_bytes(12, "big"),
               lambda b: Flaxid(_int_to_digits(int.from_bytes(b, "big"), FLAX_DIGITS, 16))),
}


def _register_type(conn, name, cls, to_binary, from_binary):
    info = TypeInfo.fetch(conn, name)
    if info is None:
        raise LookupError(f"type {name} not found: CREATE EXTENSION idgen in this database")
    info.register(conn)  # arrays (name[]) load and dump too

    class TextLoader(Loader):
        def load(self, data):
            return cls(bytes(data).decode())

    class BinaryLoader(Loader):
        format = Format.BINARY

        def load(self, data):
            return from_binary(bytes(data))

    # a dumper with the type's oid also serves COPY ... set_types([name])
    class TextDumper(Dumper):
        oid = info.oid

        def dump(self, obj):
            return str(obj if isinstance(obj, cls) else cls(obj)).encode()

    class BinaryDumper(Dumper):
        oid = info.oid
        format = Format.BINARY

        def dump(self, obj):
            return to_binary(obj if isinstance(obj, cls) else cls(obj))

    conn.adapters.register_loader(info.oid, TextLoader)
    conn.adapters.register_loader(info.oid, BinaryLoader)
    conn.adapters.register_dumper(cls, BinaryDumper)
    conn.adapters.register_dumper(cls, TextDumper)  # the last one is used for %s


def register_idgen(conn):
    """Load idgen's types as Iuid/Distid/Base36id/Flaxid and send those as idgen types."""
    for name, (cls, to_binary, from_binary) in IDGEN_TYPES.items():
        _register_type(conn, name, cls, to_binary, from_binary)
# README end: psycopg-adapters


PASSED = FAILED = 0


def check(name, ok, detail=""):
    global PASSED, FAILED
    if ok:
        PASSED += 1
        print(f"ok - {name}")
    else:
        FAILED += 1
        print(f"not ok - {name} {detail}")


# type, DEFAULT generator, a doc/formats.md vector, an extractor and what it gives for the vector
CASES = [
    ("iuid", Iuid, "iuid_generate(42, 5)", "017f22e2-79b0-802a-8141-23456789abcd",
     "iuid_country(%s)", 42),
    ("distid", Distid, "distid_generate()", "1088824355131185736905670087",
     "distid_to_alphanumeric(%s)", "3zfAkCP7ZtzfeQYp"),
    ("base36id", Base36id, "base36id_generate()", "0ITS0030Z",
     "base36id_counter(%s)", 35),
    ("flaxid", Flaxid, "flaxid_generate()", "0RdKJcxqVBiAiQr0",
     "flaxid_timestamp(%s)",
     datetime.datetime(2015, 10, 15, 20, 10, 25, 807000, tzinfo=datetime.timezone.utc)),
]


def guarded(what, fn, *args):
    """Run fn; an exception counts as one failure and the next part still runs."""
    try:
        fn(*args)
    except Exception as e:  # noqa: BLE001 - any error is a failed check
        check(what, False, f"raised {type(e).__name__}: {e}")


def per_type(conn, binary, name, cls, default, vector, extractor, expected):
    mode = "binary" if binary else "text"
    p = "%b" if binary else "%t"  # placeholder forcing the parameter format
    t = f"clients_{name}"
    conn.execute(f"DROP TABLE IF EXISTS {t}")
    conn.execute(f"CREATE TEMP TABLE {t} (id {name} PRIMARY KEY DEFAULT {default}, n int)")
    cur = conn.cursor(binary=binary)
    ids = [cur.execute(f"INSERT INTO {t} (n) VALUES ({p}) RETURNING id", [n]).fetchone()[0]
           for n in range(3)]
    check(f"{mode} {name}: DEFAULT ids load as {cls.__name__}",
          all(type(i) is cls for i in ids), repr(ids))
    check(f"{mode} {name}: ids increase", ids == sorted(ids) and len(set(ids)) == 3, repr(ids))
    row = cur.execute(f"SELECT n FROM {t} WHERE id = {p}", [ids[1]]).fetchall()
    check(f"{mode} {name}: select by id as a bound parameter", row == [(1,)], repr(row))
    got = cur.execute(f"SELECT array_agg(id ORDER BY id) FROM {t}").fetchone()[0]
    check(f"{mode} {name}: {name}[] loads as a list", got == ids
          and all(type(i) is cls for i in got), repr(got))
    got = cur.execute(f"SELECT count(*) FROM {t} WHERE id = ANY({p})", [ids[::2]]).fetchone()[0]
    check(f"{mode} {name}: a list binds as {name}[]", got == 2, repr(got))
    got = cur.execute(f"SELECT id::text FROM {t} ORDER BY id").fetchall()
    check(f"{mode} {name}: Python text form is the server's",
          [r[0] for r in got] == [str(i) for i in ids], repr(got))
    # round trip of a doc/formats.md vector: Python -> server -> Python
    v = cls(vector)
    got = cur.execute(f"SELECT {p}::text, {extractor.replace('%s', p)}, {p}",
                      [v, v, v]).fetchone()
    check(f"{mode} {name}: vector round-trips", got == (vector, expected, v), repr(got))
    conn.execute(f"DROP TABLE {t}")


def binary_copy(conn, name, cls, default, vector, *_):
    t = f"clients_copy_{name}"
    conn.execute(f"DROP TABLE IF EXISTS {t}")
    conn.execute(f"CREATE TEMP TABLE {t} (id {name} PRIMARY KEY DEFAULT {default}, n int)")
    made = [r[0] for r in conn.execute(f"INSERT INTO {t} (n) SELECT g FROM generate_series(1, 3) g"
                                       " RETURNING id").fetchall()]
    with conn.cursor() as cur:
        with cur.copy(f"COPY {t} (id, n) TO STDOUT (FORMAT BINARY)") as copy:
            copy.set_types([name, "int4"])
            rows = list(copy.rows())
        check(f"binary COPY TO: {name} rows load as {cls.__name__}",
              sorted(rows) == [(i, n) for n, i in enumerate(made, 1)]
              and all(type(r[0]) is cls for r in rows), repr(rows))
        conn.execute(f"DELETE FROM {t}")
        # both a typed value and its plain text form are accepted
        with cur.copy(f"COPY {t} (id, n) FROM STDIN (FORMAT BINARY)") as copy:
            copy.set_types([name, "int4"])
            copy.write_row((cls(vector), 1))
            for n, i in enumerate(made, 2):
                copy.write_row((str(i), n))
        got = conn.execute(f"SELECT id::text, n FROM {t} ORDER BY n").fetchall()
        check(f"binary COPY FROM: {name}",
              got == [(vector, 1)] + [(str(i), n) for n, i in enumerate(made, 2)], repr(got))
    conn.execute(f"DROP TABLE {t}")


def bad_values(conn):
    try:
        conn.execute("SELECT %b", [Base36id("0its0030z")])
        check("a lower-case base36id is refused before sending", False)
    except ValueError:
        check("a lower-case base36id is refused before sending", True)
    try:
        conn.execute("SELECT %b", [Distid(10**28)])
        check("the server validates binary input (distid 10**28)", False)
    except psycopg.errors.InvalidBinaryRepresentation:
        check("the server validates binary input (distid 10**28)", True)


def readme_example():
    # README begin: psycopg-usage
    with psycopg.connect(autocommit=True) as conn:  # PGHOST, PGDATABASE ... or a conninfo
        register_idgen(conn)
        conn.execute("CREATE TEMP TABLE orders (id iuid PRIMARY KEY DEFAULT iuid_generate(42, 5),"
                     " item text)")
        order_id = conn.execute("INSERT INTO orders (item) VALUES (%s) RETURNING id",
                                ["tea"]).fetchone()[0]                # an Iuid
        item = conn.execute("SELECT item FROM orders WHERE id = %s", [order_id]).fetchone()[0]
        ids = conn.execute("SELECT array_agg(id) FROM orders").fetchone()[0]   # [Iuid(...)]
        with conn.cursor(binary=True) as cur:                         # binary results too
            same = cur.execute("SELECT id FROM orders WHERE id = %b", [order_id]).fetchone()[0]
        with conn.cursor().copy("COPY orders (id, item) FROM STDIN (FORMAT BINARY)") as copy:
            copy.set_types(["iuid", "text"])
            copy.write_row((Iuid("017f22e2-79b0-802a-8141-23456789abcd"), "coffee"))
        # README end: psycopg-usage
        rows = conn.execute("SELECT count(*) FROM orders").fetchone()[0]
    check("README example: insert, select by id, arrays, binary, COPY",
          type(order_id) is Iuid and item == "tea" and ids == [order_id] and same == order_id
          and rows == 2)


def without_adapters():
    with psycopg.connect() as conn:
        got = conn.execute("SELECT iuid_country(%s), %s::iuid",
                           ["017f22e2-79b0-802a-8141-23456789abcd"] * 2).fetchone()
        check("without adapters: a str parameter binds (sent untyped), values load as str",
              got == (42, "017f22e2-79b0-802a-8141-23456789abcd"), repr(got))
        got = conn.cursor(binary=True).execute("SELECT '017f22e2-79b0-802a-8141-23456789abcd'::iuid")
        got = got.fetchone()[0]
        check("without adapters: binary mode gives raw bytes",
              got == bytes.fromhex("017f22e279b0802a814123456789abcd"), repr(got))


def not_installed():
    # the scratch cluster has idgen in its database postgres only
    with psycopg.connect(dbname="template1") as conn:
        try:
            register_idgen(conn)
            check("register_idgen where idgen is not installed raises LookupError", False)
        except LookupError as e:
            check("register_idgen where idgen is not installed raises LookupError",
                  "CREATE EXTENSION idgen" in str(e), str(e))


def main():
    guarded("not installed", not_installed)
    guarded("without adapters", without_adapters)
    guarded("README example", readme_example)
    with psycopg.connect(autocommit=True) as conn:
        register_idgen(conn)
        for binary in (False, True):
            for case in CASES:
                guarded(f"{'binary' if binary else 'text'} {case[0]}", per_type, conn, binary, *case)
        for case in CASES:
            guarded(f"binary COPY {case[0]}", binary_copy, conn, *case)
        guarded("bad values", bad_values, conn)
    print(f"psycopg: {PASSED} passed, {FAILED} failed")
    return 1 if FAILED or not PASSED else 0


if __name__ == "__main__":
    sys.exit(main())
