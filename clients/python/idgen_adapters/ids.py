"""The Python classes of idgen's values and their binary wire forms."""
import uuid


class Iuid(uuid.UUID):
    """An iuid: a uuid.UUID that is sent to the server as iuid (a plain UUID is sent as uuid)."""
    __slots__ = ()


class Distid(int):
    """A distid: an int from 0 to 10**28 - 1, sent to the server as distid."""


class Base36id(str):
    """A base36id: 9 characters of 0-9A-Z."""


class Flaxid(str):
    """A flaxid: 16 characters of FLAX_DIGITS."""


B36_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
FLAX_DIGITS = "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz"


def _digits_to_int(text, digits, length):
    if len(text) != length or any(c not in digits for c in text):
        raise ValueError(f"invalid id {text!r}")
    n = 0
    for c in text:
        n = n * len(digits) + digits.index(c)
    return n


def _int_to_digits(n, digits, length):
    out = []
    for _ in range(length):
        n, r = divmod(n, len(digits))
        out.append(digits[r])
    return "".join(reversed(out))


# name: (class, value -> binary wire form, binary wire form -> value); all big-endian:
# iuid 16 bytes, distid 12, base36id an int8, flaxid 12
IDGEN_TYPES = {
    "iuid": (Iuid, lambda v: v.bytes, lambda b: Iuid(bytes=b)),
    "distid": (Distid, lambda v: v.to_bytes(12, "big"),
               lambda b: Distid(int.from_bytes(b, "big"))),
    "base36id": (Base36id, lambda v: _digits_to_int(v, B36_DIGITS, 9).to_bytes(8, "big"),
                 lambda b: Base36id(_int_to_digits(int.from_bytes(b, "big"), B36_DIGITS, 9))),
    "flaxid": (Flaxid, lambda v: _digits_to_int(v, FLAX_DIGITS, 16).to_bytes(12, "big"),
               lambda b: Flaxid(_int_to_digits(int.from_bytes(b, "big"), FLAX_DIGITS, 16))),
}


def not_installed(name):
    return LookupError(f"type {name} not found: CREATE EXTENSION idgen in this database")
