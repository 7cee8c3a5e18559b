#!/usr/bin/python3
"""idgen from SQLAlchemy 1.4 (Debian's python3-sqlalchemy) with psycopg2.

Models whose primary keys are iuid and distid columns filled by the
database's DEFAULT; the ids read back through RETURNING; lookups with
uuid.UUID, int and Decimal; a foreign key and a join; a bulk insert; a table
range-partitioned by its iuid key (partitions by idgen_create_partitions).
Connects through the PG* environment variables.  Prints "sqlalchemy: N
passed, M failed" and exits 1 on a failure.
"""
import os
import re
import sys
import uuid
from decimal import Decimal

from sqlalchemy import (Column, ForeignKey, Integer, Text, create_engine, event, func,
                        insert, select, text)
from sqlalchemy.orm import Session, declarative_base, relationship
from sqlalchemy.types import UserDefinedType

# the client programs' checks, which also put clients/python (the adapters) on the path
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "clients", "python"))
from checks import check, guarded, summary  # noqa: E402

# README begin: sqlalchemy-types
from idgen_adapters.psycopg2 import register_idgen  # noqa: E402 (clients/python)


class IuidType(UserDefinedType):
    """An iuid column: values are uuid.UUIDs (the adapter's Iuid when read)."""
    cache_ok = True

    def get_col_spec(self, **kw):
        return "iuid"


class DistidType(UserDefinedType):
    """A distid column: values are ints (the adapter's Distid when read)."""
    cache_ok = True

    def get_col_spec(self, **kw):
        return "distid"


engine = create_engine("postgresql+psycopg2://", future=True)  # PGHOST, PGDATABASE ...


@event.listens_for(engine, "connect")
def on_connect(dbapi_connection, connection_record):
    register_idgen(dbapi_connection)  # on every new connection of the pool
# README end: sqlalchemy-types


Base = declarative_base()


# README begin: sqlalchemy-models
class Order(Base):
    __tablename__ = "orders"
    id = Column(IuidType, primary_key=True, server_default=text("iuid_generate(42, 1)"))
    item = Column(Text, nullable=False)
    lines = relationship("Line", back_populates="order")


class Line(Base):
    __tablename__ = "order_lines"
    id = Column(DistidType, primary_key=True, server_default=text("distid_generate()"))
    order_id = Column(IuidType, ForeignKey("orders.id"), nullable=False)
    qty = Column(Integer, nullable=False)
    order = relationship("Order", back_populates="lines")


class Event(Base):
    """Range-partitioned by its key: ids sort by time."""
    __tablename__ = "events"
    __table_args__ = {"postgresql_partition_by": "RANGE (id)"}
    id = Column(IuidType, primary_key=True, server_default=text("iuid_generate(42, 2)"))
    payload = Column(Text)
# README end: sqlalchemy-models


def run():
    # README begin: sqlalchemy-schema
    Base.metadata.create_all(engine)
    with engine.begin() as conn:  # this month and the next two, from a scheduled job in production
        conn.execute(select(func.idgen_create_partitions(
            "events", func.date_trunc("month", func.now(), "UTC"),
            func.date_trunc("month", func.now(), "UTC") + text("interval '3 months'"),
            text("interval '1 month'"))).subquery().select()).all()
    # README end: sqlalchemy-schema
    with engine.connect() as conn:
        parts = conn.execute(text(
            "SELECT count(*) FROM pg_inherits WHERE inhparent = 'events'::regclass")).scalar()
        check("idgen_create_partitions made 3 partitions of events", parts == 3, parts)

    with Session(engine) as session:
        # README begin: sqlalchemy-use
        order = Order(item="tea")
        session.add(order)
        session.flush()                   # INSERT ... RETURNING orders.id
        order_id = order.id               # a uuid.UUID made by iuid_generate(42, 1)
        order.lines += [Line(qty=2), Line(qty=3)]        # order_id set from the relationship
        session.commit()

        found = session.get(Order, order_id)                 # WHERE id = '...'::uuid
        line_id = found.lines[0].id                          # an int
        same = session.scalars(select(Line).where(Line.id == Decimal(line_id))).one()
        rows = session.execute(
            select(Order.item, Line.qty, func.iuid_country(Order.id))
            .join(Line.order).where(Order.id == order_id).order_by(Line.qty)).all()
        # bulk: one INSERT ... VALUES (...), (...) ... RETURNING id
        new_ids = session.scalars(
            insert(Line).values([{"order_id": order_id, "qty": q} for q in range(100)])
            .returning(Line.id)).all()
        session.commit()
        # README end: sqlalchemy-use
        check("RETURNING gives the id as uuid.UUID", isinstance(order_id, uuid.UUID), type(order_id))
        check("the id is an iuid of country 42, entity 1",
              session.scalar(select(func.iuid_country(Order.id), func.iuid_entity(Order.id))
                             .where(Order.id == order_id)) == 42, order_id)
        check("lookup by uuid.UUID finds the order", found is not None and found.item == "tea")
        check("distid key arrives as int", isinstance(line_id, int) and line_id > 10**20, line_id)
        check("lookup by Decimal finds the line", same.id == line_id and same.qty in (2, 3))
        same = session.scalars(select(Line).where(Line.id == line_id)).one()
        check("lookup by int finds the line", same.id == line_id)
        check("join orders-lines with iuid_country", rows == [("tea", 2, 42), ("tea", 3, 42)], rows)
        check("bulk insert returns 100 distinct int ids",
              len(set(new_ids)) == 100 and all(isinstance(i, int) for i in new_ids), new_ids[:3])
        check("bulk ids increase", new_ids == sorted(new_ids), new_ids[:3])
        check("relationship loads the 102 lines of the order",
              session.scalar(select(func.count()).select_from(Line)
                             .where(Line.order_id == order_id)) == 102)
        many = session.scalars(select(Order).where(Order.id.in_([order_id, uuid.uuid4()]))).all()
        check("IN with uuid.UUIDs", [o.id for o in many] == [order_id], many)

        # README begin: sqlalchemy-partitioned
        event = Event(payload="signed up")
        session.add(event)
        session.commit()
        partition = session.scalar(select(text("tableoid::regclass::text")).select_from(Event)
                                   .where(Event.id == event.id))    # events_YYYYMM01
        # README end: sqlalchemy-partitioned
        check("partitioned insert returns uuid.UUID", isinstance(event.id, uuid.UUID), event.id)
        check("the event is in this month's partition",
              partition is not None and partition.startswith("events_2"), partition)
        pruned = "\n".join(session.execute(text(
            "EXPLAIN SELECT * FROM events WHERE id = :id"), {"id": event.id}).scalars())
        check("a lookup by uuid.UUID prunes to one partition's index",
              len(set(re.findall(r"events_\d{8}", pruned))) == 1 and "Index Cond" in pruned, pruned)


def main():
    guarded("the program ran", run)  # an exception is one failure; the summary still comes
    return summary("sqlalchemy")


if __name__ == "__main__":
    sys.exit(main())
