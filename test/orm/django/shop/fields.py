"""idgen keys for Django 3.2: primary keys the database fills by its DEFAULT.

Django 3.2 leaves a primary key out of the INSERT and reads it back with
RETURNING only for an AutoField (its bulk_create checks isinstance AutoField),
so the fields are AutoFields of another column type.  It does not convert a
RETURNING value (from_db_value is not called), so the driver must return the
Python type itself: see register_idgen in the program.
"""
import uuid

from django.db import models
from django.utils.functional import cached_property


# README begin: django-fields
class IuidAutoField(models.AutoField):
    """iuid key filled by DEFAULT iuid_generate(...); a uuid.UUID in Python."""

    def db_type(self, connection):
        return "iuid"

    def rel_db_type(self, connection):
        return "iuid"  # a ForeignKey to it

    @cached_property
    def validators(self):
        return []  # not an integer's range

    def to_python(self, value):
        return value if value is None or isinstance(value, uuid.UUID) else uuid.UUID(str(value))

    def get_prep_value(self, value):  # sent as uuid.UUID: '...'::uuid, iuid = uuid compares
        return self.to_python(value)

    def from_db_value(self, value, expression, connection):
        return self.to_python(value)


class DistidAutoField(models.AutoField):
    """distid key filled by DEFAULT distid_generate(); an int in Python."""

    def db_type(self, connection):
        return "distid"

    def rel_db_type(self, connection):
        return "distid"

    @cached_property
    def validators(self):
        return []  # up to 94 bits, not an integer's range

    def from_db_value(self, value, expression, connection):
        return value if value is None else int(value)
# README end: django-fields
