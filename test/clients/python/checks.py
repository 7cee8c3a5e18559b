"""What the Python client programs share: their checks and their output
(one line per check, then "NAME: N passed, M failed"), and the adapters from
clients/python of this repository, importable as a user installs them."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                                "clients", "python"))

COUNTS = {"passed": 0, "failed": 0}


def check(name, ok, detail=""):
    COUNTS["passed" if ok else "failed"] += 1
    print(f"ok - {name}" if ok else f"not ok - {name} {detail}")


def guarded(what, fn, *args):
    """Run fn; an exception counts as one failure and the next part still runs."""
    try:
        fn(*args)
    except Exception as e:  # noqa: BLE001 - any error is a failed check
        check(what, False, f"raised {type(e).__name__}: {e}")


def check_not_installed(register_idgen, conn):
    """register_idgen on a database without idgen names the fix (the scratch
    cluster has idgen in its database postgres only)."""
    what = "register_idgen where idgen is not installed raises LookupError"
    try:
        register_idgen(conn)
        check(what, False)
    except LookupError as e:
        check(what, "CREATE EXTENSION idgen" in str(e), str(e))


def summary(name):
    """Print the summary line; the exit status: 1 on any failure (or no check)."""
    print(f"{name}: {COUNTS['passed']} passed, {COUNTS['failed']} failed")
    return 1 if COUNTS["failed"] or not COUNTS["passed"] else 0
