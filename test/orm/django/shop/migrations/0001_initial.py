import django.db.models.deletion
from django.db import migrations, models

import shop.fields


# README begin: django-migration
class Migration(migrations.Migration):
    initial = True
    dependencies = []
    operations = [
        migrations.CreateModel(
            name="Order",
            fields=[("id", shop.fields.IuidAutoField(primary_key=True, serialize=False)),
                    ("item", models.TextField())],
        ),
        migrations.CreateModel(
            name="Line",
            fields=[("id", shop.fields.DistidAutoField(primary_key=True, serialize=False)),
                    ("qty", models.IntegerField()),
                    ("order", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE,
                                                related_name="lines", to="shop.order"))],
        ),
        # Django 3.2 cannot declare a column's DEFAULT: the database's own, in SQL
        migrations.RunSQL(
            ["ALTER TABLE shop_order ALTER COLUMN id SET DEFAULT iuid_generate(42, 1)",
             "ALTER TABLE shop_line ALTER COLUMN id SET DEFAULT distid_generate()"],
            ["ALTER TABLE shop_order ALTER COLUMN id DROP DEFAULT",
             "ALTER TABLE shop_line ALTER COLUMN id DROP DEFAULT"],
        ),
        # nor a partitioned table: SQL, and an unmanaged model
        migrations.RunSQL(
            ["""CREATE TABLE shop_event (id iuid PRIMARY KEY DEFAULT iuid_generate(42, 2),
                                         payload text NOT NULL) PARTITION BY RANGE (id)""",
             # this month and the next two; a scheduled job keeps them ahead
             """SELECT idgen_create_partitions('shop_event',
                       date_trunc('month', now(), 'UTC'),
                       date_trunc('month', now(), 'UTC') + interval '3 months', '1 month')"""],
            ["DROP TABLE shop_event"],
        ),
        migrations.CreateModel(
            name="Event",
            fields=[("id", shop.fields.IuidAutoField(primary_key=True, serialize=False)),
                    ("payload", models.TextField())],
            options={"managed": False, "db_table": "shop_event"},
        ),
    ]
# README end: django-migration
