#!/usr/bin/python3
"""idgen from psycopg2 (the driver of Debian's Django 3.2 and SQLAlchemy 1.4):
Python's own values (uuid.UUID, int, Decimal) as parameters, with the index;
results as uuid.UUID and int, arrays included.

Connects with libpq's environment (PGHOST, PGPORT, PGUSER, PGDATABASE) to a
server with idgen installed.  Prints one line per check and
"psycopg2: N passed, M failed"; exits 1 on any failure.  The regions between
"README begin/end" lines are quoted verbatim in doc/clients.md.
"""
import decimal
import sys
import uuid

import psycopg2
import psycopg2.extensions

# checks also puts clients/python on the path
from checks import check, check_not_installed, guarded, summary
from idgen_adapters.psycopg2 import register_idgen





def without_adapters():
    conn = psycopg2.connect("")
    try:
        cur = conn.cursor()
        cur.execute("SELECT '017f22e2-79b0-802a-8141-23456789abcd'::iuid, 42::numeric::distid")
        got = cur.fetchone()
        check("without adapters: iuid and distid load as str",
              got == ("017f22e2-79b0-802a-8141-23456789abcd", "42"), repr(got))
    finally:
        conn.close()


def readme_example():
    # README begin: psycopg2-usage
    from decimal import Decimal
    from uuid import UUID

    import psycopg2
    from idgen_adapters.psycopg2 import register_idgen

    conn = psycopg2.connect("")  # PGHOST, PGDATABASE ... or a DSN
    register_idgen(conn)
    with conn, conn.cursor() as cur:
        cur.execute("CREATE TEMP TABLE orders (id iuid PRIMARY KEY DEFAULT iuid_generate(42, 5),"
                    " d distid UNIQUE DEFAULT distid_generate(), item text)")
        cur.execute("INSERT INTO orders (item) VALUES (%s) RETURNING id, d", ["tea"])
        order_id, d = cur.fetchone()                    # a UUID (Iuid) and an int (Distid)
        cur.execute("SELECT item FROM orders WHERE id = %s", [UUID(str(order_id))])
        by_uuid = cur.fetchone()
        cur.execute("SELECT item FROM orders WHERE id = ANY(%s)", [[UUID(str(order_id))]])
        by_list = cur.fetchall()
        cur.execute("SELECT item FROM orders WHERE d = %s", [Decimal(d)])  # or int(d)
        by_decimal = cur.fetchone()
        cur.execute("SELECT array_agg(id), array_agg(d) FROM orders")
        ids = cur.fetchone()                            # ([Iuid(...)], [Distid(...)])
    # README end: psycopg2-usage
    conn.close()
    check("README example: RETURNING gives a uuid.UUID and an int",
          isinstance(order_id, uuid.UUID) and isinstance(d, int) and d > 10**26, repr((order_id, d)))
    check("README example: a uuid.UUID finds the row", by_uuid == ("tea",), repr(by_uuid))
    check("README example: a list of uuid.UUID (= ANY) finds the row", by_list == [("tea",)],
          repr(by_list))
    check("README example: a Decimal finds the row", by_decimal == ("tea",), repr(by_decimal))
    check("README example: arrays load as lists of UUIDs and ints",
          ids == ([order_id], [d]) and isinstance(ids[0][0], uuid.UUID)
          and isinstance(ids[1][0], int), repr(ids))


def native_values():
    conn = psycopg2.connect("")
    conn.autocommit = True
    register_idgen(conn)
    cur = conn.cursor()
    cur.execute("CREATE TEMP TABLE native (id iuid PRIMARY KEY DEFAULT iuid_generate(42, 5),"
                " d distid UNIQUE DEFAULT distid_generate(), n int)")
    cur.execute("INSERT INTO native (n) SELECT g FROM generate_series(1, 200) g")
    cur.execute("INSERT INTO native (id, d, n) VALUES ('017f22e2-79b0-802a-8141-23456789abcd',"
                " 42::numeric, 0)")
    cur.execute("ANALYZE native")
    cur.execute("SELECT id, d FROM native WHERE n = 100")
    row_id, row_d = cur.fetchone()
    for what, query, params, want in [
            ("uuid.UUID", "SELECT n FROM native WHERE id = %s", [uuid.UUID(str(row_id))], [(100,)]),
            ("int", "SELECT n FROM native WHERE d = %s", [int(row_d)], [(100,)]),
            ("small int", "SELECT n FROM native WHERE d = %s", [42], [(0,)]),
            ("decimal.Decimal", "SELECT n FROM native WHERE d = %s", [decimal.Decimal(int(row_d))],
             [(100,)]),
            ("list of uuid.UUID", "SELECT n FROM native WHERE id = ANY(%s) ORDER BY n",
             [[uuid.UUID(str(row_id)), uuid.UUID("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11")]], [(100,)]),
            ("list of int", "SELECT n FROM native WHERE d = ANY(%s) ORDER BY n",
             [[int(row_d), 42]], [(0,), (100,)])]:
        cur.execute(query, params)
        got = cur.fetchall()
        check(f"{what} parameter finds the row", got == want, repr(got))
        cur.execute("SET enable_seqscan = off")
        cur.execute("EXPLAIN (COSTS OFF) " + query, params)
        plan = "\n".join(r[0] for r in cur.fetchall())
        cur.execute("RESET enable_seqscan")
        check(f"{what} parameter: EXPLAIN shows the index",
              "Index Scan" in plan or "Index Only Scan" in plan, plan)
    cur.execute("SELECT id, d, ARRAY[id], ARRAY[d], base36id_generate(), ARRAY[NULL::iuid]"
                " FROM native WHERE n = 100")
    got = cur.fetchone()
    check("results are uuid.UUID and int, arrays lists of them",
          got[:4] == (row_id, row_d, [row_id], [row_d]) and isinstance(got[0], uuid.UUID)
          and isinstance(got[1], int) and isinstance(got[2][0], uuid.UUID)
          and isinstance(got[3][0], int) and isinstance(got[4], str) and got[5] == [None],
          repr(got))
    conn.close()


def idle_after_register():
    conn = psycopg2.connect("")
    try:
        register_idgen(conn)
        check("register_idgen leaves no transaction open",
              conn.get_transaction_status() == psycopg2.extensions.TRANSACTION_STATUS_IDLE)
    finally:
        conn.close()


def not_installed():
    conn = psycopg2.connect(dbname="template1")
    try:
        check_not_installed(register_idgen, conn)
    finally:
        conn.close()


def main():
    guarded("not installed", not_installed)
    guarded("without adapters", without_adapters)
    guarded("README example", readme_example)
    guarded("native values", native_values)
    guarded("idle after register", idle_after_register)
    return summary("psycopg2")


if __name__ == "__main__":
    sys.exit(main())
