"""What the documentation checks share: the user pages, and the tally every check prints."""
import glob
import os


def user_pages(root, contributing=True):
    """README.md, CHANGELOG.md (CONTRIBUTING.md) and doc/*.md, relative to root."""
    pages = ["README.md", "CHANGELOG.md"] + (["CONTRIBUTING.md"] if contributing else [])
    return pages + sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "doc", "*.md")))


class Tally:
    """Counts checks, prints one line per failure (and per pass when asked)
    and the closing "NAME: N passed, M failed" line tools/test.sh reads."""

    def __init__(self, name):
        self.name, self.passed, self.failed = name, 0, 0

    def check(self, what, ok, quiet=False):
        self.passed, self.failed = self.passed + bool(ok), self.failed + (not ok)
        if not ok or not quiet:
            print(f"{'ok' if ok else 'not ok'} - {what}")
        return ok

    def findings(self, found, ok_what):
        """One failure per finding, or one pass saying ok_what when there is none."""
        for what in found:
            self.check(what, False)
        if not found:
            self.check(ok_what, True)

    def done(self, need_pass=True):
        print(f"{self.name}: {self.passed} passed, {self.failed} failed")
        return 1 if self.failed or (need_pass and not self.passed) else 0
