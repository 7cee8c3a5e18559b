#!/usr/bin/python3
"""idgen from Django 3.2 (Debian's python3-django) with psycopg2.

The app shop/ has models whose primary keys are iuid and distid columns
filled by the database's DEFAULT (set by its migration), a foreign key, and
an unmanaged model over a table range-partitioned by its iuid key.  The
program migrates, then inserts (the ids come back through RETURNING), looks
up with uuid.UUID, int and Decimal, joins, bulk-inserts.  Connects through
the PG* environment variables.  Prints "django: N passed, M failed" and
exits 1 on a failure.
"""
import os
import re
import sys
import uuid
from decimal import Decimal

import django
from django.conf import settings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
# the client programs' checks, which also put clients/python (the adapters) on the path
sys.path.insert(0, os.path.join(HERE, "..", "..", "clients", "python"))
from checks import check, guarded, summary  # noqa: E402
settings.configure(
    DATABASES={"default": {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": os.environ.get("PGDATABASE", "postgres"),
        "HOST": os.environ.get("PGHOST", ""), "PORT": os.environ.get("PGPORT", ""),
        "USER": os.environ.get("PGUSER", ""),
    }},
    INSTALLED_APPS=["shop"],
    USE_TZ=True,
)
django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.db.backends.signals import connection_created  # noqa: E402
from django.db.models import F, Func, IntegerField  # noqa: E402
from django.db.models.expressions import RawSQL  # noqa: E402
from django.dispatch import receiver  # noqa: E402

from shop.models import Event, Line, Order  # noqa: E402

# README begin: django-connection
from idgen_adapters.psycopg2 import register_idgen  # noqa: E402 (clients/python)


@receiver(connection_created)
def on_connect(sender, connection, **kwargs):  # in an AppConfig.ready() of a project
    register_idgen(connection.connection)  # iuid as uuid.UUID, distid as int, RETURNING too
# README end: django-connection


class IuidCountry(Func):
    function = "iuid_country"
    output_field = IntegerField()


def run():
    call_command("migrate", "shop", verbosity=0)
    with connection.cursor() as cur:
        cur.execute("SELECT count(*) FROM pg_inherits WHERE inhparent = 'shop_event'::regclass")
        parts = cur.fetchone()[0]
    check("the migration made 3 partitions of shop_event", parts == 3, parts)

    # README begin: django-use
    order = Order.objects.create(item="tea")    # INSERT ... RETURNING id: a uuid.UUID
    Line.objects.create(order=order, qty=2)
    Line.objects.create(order=order, qty=3)
    found = Order.objects.get(pk=order.pk)       # WHERE id = '...'::uuid
    line_id = found.lines.order_by("qty")[0].id  # an int
    same = Line.objects.get(pk=Decimal(line_id))
    rows = list(Line.objects.filter(order_id=order.pk).order_by("qty")
                .values_list("order__item", "qty", IuidCountry(F("order_id"))))
    new_lines = Line.objects.bulk_create([Line(order=order, qty=q) for q in range(100)])
    new_ids = [line.id for line in new_lines]    # filled from RETURNING id
    # README end: django-use
    check("RETURNING gives the id as uuid.UUID", isinstance(order.pk, uuid.UUID), repr(order.pk))
    check("lookup by uuid.UUID finds the order", found.item == "tea")
    check("the id is an iuid of country 42",
          Order.objects.filter(pk=order.pk).values_list(IuidCountry(F("id")), flat=True)[0] == 42)
    check("distid key arrives as int", isinstance(line_id, int) and line_id > 10**20, repr(line_id))
    check("lookup by Decimal finds the line", same.qty == 2, same.qty)
    check("lookup by int finds the line", Line.objects.get(pk=line_id).qty == 2)
    check("join orders-lines with iuid_country", rows == [("tea", 2, 42), ("tea", 3, 42)], rows)
    check("bulk_create returns 100 distinct int ids",
          len(set(new_ids)) == 100 and all(isinstance(i, int) for i in new_ids), new_ids[:3])
    check("bulk ids increase", new_ids == sorted(new_ids), new_ids[:3])
    check("the order has 102 lines", order.lines.count() == 102)
    check("pk__in with uuid.UUIDs",
          list(Order.objects.filter(pk__in=[order.pk, uuid.uuid4()])) == [order])
    check("select_related joins on the iuid foreign key",
          Line.objects.select_related("order").get(pk=line_id).order.item == "tea")

    # README begin: django-partitioned
    event = Event.objects.create(payload="signed up")
    partition = (Event.objects.filter(pk=event.pk)
                 .annotate(part=RawSQL("tableoid::regclass::text", []))
                 .values_list("part", flat=True)[0])          # shop_event_YYYYMM01
    # README end: django-partitioned
    check("partitioned insert returns uuid.UUID", isinstance(event.pk, uuid.UUID), repr(event.pk))
    check("the event is in this month's partition", partition.startswith("shop_event_2"), partition)
    plan = Event.objects.filter(pk=event.pk).explain()
    check("a lookup by uuid.UUID prunes to one partition's index",
          len(set(re.findall(r"shop_event_\d{8}", plan))) == 1 and "Index Cond" in plan, plan)


def main():
    guarded("the program ran", run)  # an exception is one failure; the summary still comes
    return summary("django")


if __name__ == "__main__":
    sys.exit(main())
