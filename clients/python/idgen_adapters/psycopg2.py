"""idgen's types with psycopg2 (which Debian's Django 3.2 and SQLAlchemy 1.4 use).

    register_idgen(conn)      # or a cursor; or globally=True for every connection

iuid loads as Iuid (a uuid.UUID), distid as Distid (an int), base36id and
flaxid as str; arrays as lists of them.  psycopg2 interpolates parameters on
the client: a uuid.UUID (Iuid included) is sent as '...'::uuid, an int or a
Decimal as a number, and each compares with an idgen column as it is.
register_idgen also makes uuid.UUID adaptable (psycopg2.extras.register_uuid;
psycopg2's adapters are always global).
"""
import psycopg2
import psycopg2.extensions
import psycopg2.extras

from .ids import Base36id, Distid, Flaxid, Iuid, not_installed

__all__ = ["register_idgen", "Iuid", "Distid", "Base36id", "Flaxid"]

_CLASSES = {"iuid": Iuid, "distid": Distid, "base36id": Base36id, "flaxid": Flaxid}


def register_idgen(conn_or_curs, globally=False):
    """Typecast idgen's types (oids looked up in this connection's database).

    The casters apply to conn_or_curs only, or to every connection with
    globally=True (then all databases must have the same oids: one database).
    """
    conn = getattr(conn_or_curs, "connection", conn_or_curs)
    idle = conn.get_transaction_status() == psycopg2.extensions.TRANSACTION_STATUS_IDLE
    curs = conn_or_curs if hasattr(conn_or_curs, "execute") else conn_or_curs.cursor()
    curs.execute("SELECT t.typname, t.oid, t.typarray FROM pg_type t"
                 " WHERE t.oid = ANY(ARRAY[to_regtype('iuid'), to_regtype('distid'),"
                 " to_regtype('base36id'), to_regtype('flaxid')]::oid[])")
    found = {name: (oid, array_oid) for name, oid, array_oid in curs.fetchall()}
    if curs is not conn_or_curs:
        curs.close()
    if idle and conn.get_transaction_status() != psycopg2.extensions.TRANSACTION_STATUS_IDLE:
        conn.rollback()  # the lookup opened a transaction: leave none open
    scope = None if globally else conn_or_curs
    for name, cls in _CLASSES.items():
        if name not in found:
            raise not_installed(name)
        oid, array_oid = found[name]
        caster = psycopg2.extensions.new_type(
            (oid,), name.upper(), lambda value, _curs, cls=cls: None if value is None else cls(value))
        psycopg2.extensions.register_type(caster, scope)
        psycopg2.extensions.register_type(
            psycopg2.extensions.new_array_type((array_oid,), name.upper() + "ARRAY", caster), scope)
    psycopg2.extras.register_uuid()
