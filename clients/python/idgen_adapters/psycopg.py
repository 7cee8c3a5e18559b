"""idgen's types with psycopg 3.

    register_idgen(conn)                                  # per connection
    psycopg_pool.ConnectionPool(conninfo, configure=register_idgen)   # per pool

iuid loads as Iuid (a uuid.UUID), distid as Distid (an int), base36id and
flaxid as Base36id and Flaxid (str); arrays as lists of them; text and binary
results.  Values of these classes are sent as their idgen type (%s as text, %b
binary; also COPY ... set_types([...])).  A plain uuid.UUID is sent as uuid,
an int as smallint/integer/bigint/numeric, a Decimal as numeric: each compares
with an idgen column as it is.
"""
import psycopg
from psycopg.adapt import Dumper, Loader
from psycopg.pq import Format, TransactionStatus
from psycopg.types import TypeInfo

from .ids import IDGEN_TYPES, Base36id, Distid, Flaxid, Iuid, not_installed

__all__ = ["register_idgen", "Iuid", "Distid", "Base36id", "Flaxid"]


def _register_type(context, info, cls, to_binary, from_binary):
    info.register(context)  # arrays (name[]) load and dump too

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

    context.adapters.register_loader(info.oid, TextLoader)
    context.adapters.register_loader(info.oid, BinaryLoader)
    context.adapters.register_dumper(cls, BinaryDumper)
    context.adapters.register_dumper(cls, TextDumper)  # the last one is used for %s


def register_idgen(conn: psycopg.Connection) -> None:
    """Load and send idgen's types on this connection (the oids are this database's)."""
    idle = conn.info.transaction_status == TransactionStatus.IDLE
    try:
        for name, (cls, to_binary, from_binary) in IDGEN_TYPES.items():
            info = TypeInfo.fetch(conn, name)
            if info is None:
                raise not_installed(name)
            _register_type(conn, info, cls, to_binary, from_binary)
    finally:
        if idle and conn.info.transaction_status != TransactionStatus.IDLE:
            # the lookup opened a transaction: leave the connection idle, as
            # it was (a pool requires that of configure=)
            conn.rollback()
