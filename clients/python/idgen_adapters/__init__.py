"""Adapters for the idgen PostgreSQL extension's types.

idgen_adapters.psycopg: psycopg 3 (register_idgen(conn), also a pool's configure=)
idgen_adapters.psycopg2: psycopg2 (register_idgen(conn_or_cursor))

iuid loads as Iuid (a uuid.UUID), distid as Distid (an int), base36id and
flaxid as Base36id and Flaxid (str), arrays as lists.  A plain uuid.UUID,
int or Decimal parameter compares with an idgen column as it is (idgen 1.1
has iuid = uuid and distid = numeric/bigint/integer/smallint operators).
"""
from .ids import Base36id, Distid, Flaxid, Iuid

__all__ = ["Iuid", "Distid", "Base36id", "Flaxid"]
