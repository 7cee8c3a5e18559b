from django.db import models

from .fields import DistidAutoField, IuidAutoField


# README begin: django-models
class Order(models.Model):
    id = IuidAutoField(primary_key=True)      # DEFAULT iuid_generate(42, 1): see the migration
    item = models.TextField()


class Line(models.Model):
    id = DistidAutoField(primary_key=True)    # DEFAULT distid_generate()
    order = models.ForeignKey(Order, on_delete=models.CASCADE, related_name="lines")
    qty = models.IntegerField()


class Event(models.Model):
    """Range-partitioned by its key: the table is made by the migration's SQL."""
    id = IuidAutoField(primary_key=True)
    payload = models.TextField()

    class Meta:
        managed = False
        db_table = "shop_event"
# README end: django-models
