#!/usr/bin/python3
"""idgen from psycopg 3: every idgen type in text mode, binary mode and binary COPY;
Python's own values (uuid.UUID, int, Decimal) as parameters, with the index.

Connects with libpq's environment (PGHOST, PGPORT, PGUSER, PGDATABASE) to a
server with idgen installed, preloaded and idgen.worker_id set.  Prints one
line per check and "psycopg: N passed, M failed"; exits 1 on any failure.
The regions between "README begin/end" lines are quoted verbatim in doc/clients.md.
"""
import datetime
import decimal
import os
import re
import sys
import time
import uuid

import psycopg

# checks also puts clients/python on the path
from checks import check, check_not_installed, guarded, summary
from idgen_adapters.psycopg import Base36id, Distid, Flaxid, Iuid, register_idgen




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


def plan_uses_index(conn, query, params):
    """EXPLAIN of the same query, bound the same way, names an index scan."""
    conn.execute("SET enable_seqscan = off")  # the test tables are small
    try:
        plan = "\n".join(r[0] for r in conn.execute("EXPLAIN (COSTS OFF) " + query, params))
    finally:
        conn.execute("RESET enable_seqscan")
    return "Index Scan" in plan or "Index Only Scan" in plan, plan


def readme_example():
    # README begin: psycopg-usage
    from decimal import Decimal
    from uuid import UUID

    import psycopg
    from idgen_adapters.psycopg import register_idgen

    with psycopg.connect(autocommit=True) as conn:  # PGHOST, PGDATABASE ... or a conninfo
        register_idgen(conn)
        conn.execute("CREATE TEMP TABLE orders (id iuid PRIMARY KEY DEFAULT iuid_generate(42, 5),"
                     " d distid UNIQUE DEFAULT distid_generate(), item text)")
        order_id, d = conn.execute("INSERT INTO orders (item) VALUES (%s) RETURNING id, d",
                                   ["tea"]).fetchone()   # a UUID (Iuid) and an int (Distid)
        as_uuid = UUID(str(order_id))                   # a plain UUID, as from a request
        by_uuid = conn.execute("SELECT item FROM orders WHERE id = %s", [as_uuid]).fetchone()
        by_list = conn.execute("SELECT item FROM orders WHERE id = ANY(%s)", [[as_uuid]]).fetchall()
        by_int = conn.execute("SELECT item FROM orders WHERE d = %s", [int(d)]).fetchone()
        by_decimal = conn.execute("SELECT item FROM orders WHERE d = %s", [Decimal(d)]).fetchone()
        ids = conn.execute("SELECT array_agg(id), array_agg(d) FROM orders").fetchone()
        # ([Iuid('...')], [Distid(...)]): lists of UUIDs and ints
    # README end: psycopg-usage
    check("README example: RETURNING gives a uuid.UUID and an int",
          isinstance(order_id, uuid.UUID) and isinstance(d, int) and d > 10**26, repr((order_id, d)))
    check("README example: a plain uuid.UUID finds the row", by_uuid == ("tea",), repr(by_uuid))
    check("README example: a list of uuid.UUID (= ANY) finds the row", by_list == [("tea",)],
          repr(by_list))
    check("README example: an int finds the row", by_int == ("tea",), repr(by_int))
    check("README example: a Decimal finds the row", by_decimal == ("tea",), repr(by_decimal))
    check("README example: arrays load as lists of UUIDs and ints",
          ids == ([order_id], [d]) and all(isinstance(i, uuid.UUID) for i in ids[0])
          and all(isinstance(i, int) for i in ids[1]), repr(ids))


def native_values(conn):
    """Python's own values as parameters: each finds the row, EXPLAIN shows the index."""
    conn.execute("CREATE TEMP TABLE native (id iuid PRIMARY KEY DEFAULT iuid_generate(42, 5),"
                 " d distid UNIQUE DEFAULT distid_generate(), n int)")
    conn.execute("INSERT INTO native (n) SELECT g FROM generate_series(1, 200) g")
    conn.execute("INSERT INTO native (id, d, n) VALUES ('017f22e2-79b0-802a-8141-23456789abcd',"
                 " 42::numeric, 0)")
    conn.execute("ANALYZE native")
    row_id, row_d = conn.execute("SELECT id, d FROM native WHERE n = 100").fetchone()
    for binary in (False, True):
        mode = "binary" if binary else "text"
        cur = conn.cursor(binary=binary)
        for what, col, value in [
                ("uuid.UUID", "id", uuid.UUID(str(row_id))),
                ("int (numeric on the wire)", "d", int(row_d)),
                ("decimal.Decimal", "d", decimal.Decimal(int(row_d))),
                ("small int (int2 on the wire)", "d", 42),
                ("int (int8 on the wire)", "d", 2**40)]:
            query = f"SELECT n FROM native WHERE {col} = %s"
            got = cur.execute(query, [value]).fetchall()
            want = [(0,)] if value == 42 else [] if value == 2**40 else [(100,)]
            check(f"{mode}: {what} parameter finds the row", got == want, repr(got))
            ok, plan = plan_uses_index(conn, query, [value])
            check(f"{mode}: {what} parameter: EXPLAIN shows the index", ok, plan)
        for what, col, values in [
                ("list of uuid.UUID", "id", [uuid.UUID(str(row_id)),
                                             uuid.UUID("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11")]),
                ("list of int", "d", [int(row_d), 42]),
                ("list of Decimal", "d", [decimal.Decimal(int(row_d)), decimal.Decimal(42)])]:
            query = f"SELECT n FROM native WHERE {col} = ANY(%s) ORDER BY n"
            got = cur.execute(query, [values]).fetchall()
            want = [(100,)] if col == "id" else [(0,), (100,)]
            check(f"{mode}: {what} (= ANY) finds the rows", got == want, repr(got))
            ok, plan = plan_uses_index(conn, query, [values])
            check(f"{mode}: {what} (= ANY): EXPLAIN shows the index", ok, plan)
        try:
            cur.execute("SELECT iuid_country(%s)", [uuid.UUID(str(row_id))])
            check(f"{mode}: a plain uuid.UUID as a function's iuid argument is refused", False)
        except psycopg.errors.UndefinedFunction:
            check(f"{mode}: a plain uuid.UUID as a function's iuid argument is refused", True)
        got = cur.execute("SELECT iuid_country(%s), iuid_country(%s::iuid)",
                          [row_id, uuid.UUID(str(row_id))]).fetchone()
        check(f"{mode}: an Iuid, or a uuid.UUID cast with ::iuid, is a function's argument",
              got == (42, 42), repr(got))
        got = cur.execute("SELECT id, d, ARRAY[id], ARRAY[d] FROM native WHERE n = 100").fetchone()
        check(f"{mode}: results are uuid.UUID and int, arrays lists of them",
              isinstance(got[0], uuid.UUID) and isinstance(got[1], int)
              and isinstance(got[2][0], uuid.UUID) and isinstance(got[3][0], int)
              and got == (row_id, row_d, [row_id], [row_d]), repr(got))
    conn.execute("DROP TABLE native")


def pool():
    try:
        import psycopg_pool
    except ImportError as e:
        check("psycopg_pool: ConnectionPool(configure=register_idgen)", False, str(e))
        return
    # README begin: psycopg-pool
    from psycopg_pool import ConnectionPool

    with ConnectionPool("", configure=register_idgen, min_size=2) as pool:  # PG* variables
        with pool.connection() as conn:
            made = conn.execute("SELECT iuid_generate(42, 5), distid_generate()").fetchone()
    # README end: psycopg-pool
    check("psycopg_pool: ConnectionPool(configure=register_idgen) loads UUID and int",
          isinstance(made[0], uuid.UUID) and isinstance(made[1], int), repr(made))
    del psycopg_pool


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
    with psycopg.connect(dbname="template1") as conn:
        check_not_installed(register_idgen, conn)


def key_in_log():
    """doc/security.md: a key sent as a bind parameter is written to the server
    log by two settings that any role may set, log_parameter_max_length_on_error
    (the parameters on the CONTEXT line of what the query logs) and
    debug_print_plan (the plan, where the key is a constant); another role of a
    session that roles share may have left them on, for the session or as the
    login role's default, to which RESET ALL returns.  Both set back by SET
    LOCAL in the key's transaction keep the key out."""
    log = os.environ.get("IDGEN_SERVER_LOG", "")
    if not os.path.isfile(log):
        check("key in the log: the server's log file (IDGEN_SERVER_LOG)", False, repr(log))
        return

    def logged(conn, key):
        # the log up to a line the server writes after the calls, without
        # white space (a plan's lines are wrapped at a column, within a
        # number or between two): whether it has the key in hexadecimal (a
        # parameter's text) and as a constant's bytes (in decimal, signed
        # or unsigned chars: sixteen random ones match nothing else)
        marker = "key-in-log-" + os.urandom(8).hex()
        conn.execute(f"DO $$ BEGIN RAISE LOG '{marker}'; END $$")
        for _ in range(100):
            with open(log, encoding="utf-8", errors="replace") as f:
                text = f.read()
            if marker in text:
                break
            time.sleep(0.1)
        else:
            check("key in the log: the server's log is written", False, marker)
        text = re.sub(r"\s", "", text)
        signed = "".join(str(b - 256 if b > 127 else b) for b in key)
        unsigned = "".join(str(b) for b in key)
        return key.hex() in text, signed in text or unsigned in text

    def leave(conn, settings):
        # what another role leaves behind in the session
        conn.execute("SET ROLE regress_mallory")
        for setting in settings:
            conn.execute(f"SET {setting}")
        conn.execute("RESET ROLE")

    def calls(conn, key):
        # a call, and one that fails (no public id of a negative id), whose
        # error is a message of the query with its CONTEXT line
        conn.execute("SELECT public_id(g, %s) FROM generate_series(1, 2) AS g", (key,))
        try:
            with conn.transaction():
                conn.execute("SELECT public_id(g, %s) FROM generate_series(-1, -1) AS g", (key,))
            check("key in the log: public_id() of -1 fails", False)
        except psycopg.Error:
            pass

    def set_back(conn, key):
        # the key's transaction, both set back first
        with conn.transaction():
            conn.execute("SET LOCAL log_parameter_max_length_on_error = 0")
            conn.execute("SET LOCAL debug_print_plan = off")
            calls(conn, key)

    both = ("debug_print_plan = on", "log_parameter_max_length_on_error = -1")

    def after(settings, send, reset_first=False):
        # another role leaves SETTINGS in the session, the app sends a new
        # key by SEND: what of it the log has
        key = os.urandom(16)
        leave(conn, settings)
        if reset_first:
            conn.execute("RESET ALL")
        conn.execute("SET ROLE regress_app")
        send(conn, key)
        conn.execute("RESET ALL")
        return logged(conn, key)

    with psycopg.connect(autocommit=True) as conn:
        conn.execute("CREATE ROLE regress_mallory")
        conn.execute("CREATE ROLE regress_app")
        conn.execute("CREATE ROLE regress_pool LOGIN")
        conn.execute("GRANT regress_mallory TO regress_pool")
        try:
            # each setting alone, as another role left it; both, set back
            # in the key's transaction; both, undone by RESET ALL first
            check("key in the log: debug_print_plan writes it in the plan",
                  after(both[:1], calls) == (False, True))
            check("key in the log: log_parameter_max_length_on_error writes it with the error",
                  after(both[1:], calls) == (True, False))
            check("key in the log: not with both set back by SET LOCAL in the key's transaction",
                  after(both, set_back) == (False, False))
            check("key in the log: not after RESET ALL of what another role set in the session",
                  after(both, calls, reset_first=True) == (False, False))
            # but not what a role made the login role's default: the pool's
            # login role, back by RESET ROLE, sets its own defaults
            with psycopg.connect(user="regress_pool", autocommit=True) as pool:
                pool.execute("SET ROLE regress_mallory")
                pool.execute("RESET ROLE")
                for setting in both:
                    pool.execute(f"ALTER ROLE CURRENT_USER SET {setting}")
            with psycopg.connect(user="regress_pool", autocommit=True) as pool:
                key = os.urandom(16)
                pool.execute("RESET ALL")
                calls(pool, key)
                check("key in the log: after RESET ALL, from the login role's defaults",
                      logged(conn, key) == (True, True))
                key = os.urandom(16)
                set_back(pool, key)
                check("key in the log: not with both set back by SET LOCAL, whatever the defaults",
                      logged(conn, key) == (False, False))
        finally:
            conn.execute("RESET ALL")
            conn.execute("RESET ROLE")
            conn.execute("DROP ROLE regress_pool")
            conn.execute("DROP ROLE regress_mallory")
            conn.execute("DROP ROLE regress_app")


def main():
    guarded("not installed", not_installed)
    guarded("without adapters", without_adapters)
    guarded("README example", readme_example)
    guarded("psycopg_pool", pool)
    guarded("key in the log", key_in_log)
    with psycopg.connect(autocommit=True) as conn:
        register_idgen(conn)
        for binary in (False, True):
            for case in CASES:
                guarded(f"{'binary' if binary else 'text'} {case[0]}", per_type, conn, binary, *case)
        for case in CASES:
            guarded(f"binary COPY {case[0]}", binary_copy, conn, *case)
        guarded("bad values", bad_values, conn)
        guarded("native values", native_values, conn)
    return summary("psycopg")


if __name__ == "__main__":
    sys.exit(main())
