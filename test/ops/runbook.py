"""The runbooks of doc/runbooks.md, block by block, as the tests run them.

A runbook step is a ```sh block of the page after a marker line
    <!-- runbook: NAME on=ROLE [as=root] -->
NAME names the block, ROLE the server it runs on (the tests check they run
it there), as=root that it runs as root (else as the server's user,
postgres).  The block marked "settings" is the page's example settings: the
tests run none of it, but every variable a block uses must be exported
there, assigned in the block itself, or named in `backticks` in the prose
right before the block (a value the reader sets by hand, such as
OLD_CHECKPOINT).  A command line ending in "# expect: VALUE" must print
VALUE (expanded by the shell: "# expect: $WORKER_ID"); every command must
succeed (bash -e -u -o pipefail).

Used by runbooks_test.py (test/ops/runbooks.sh):

    rb = Runbook(path)
    out = rb.run("promote", "new-primary", env)     # the block's output; a failure raises
"""
import re
import subprocess

MARK = re.compile(r"^<!-- runbook: (\S+)((?: [a-z]+=\S+)*) -->\n```sh\n(.*?)^```$", re.M | re.S)
EXPECT = re.compile(r"^(.*?\S)\s+# expect: (.*)$")
VAR = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)")
# set by the shell or by every login, not by the reader
SHELL_VARS = {"HOME", "PWD", "USER"}


class BlockFailed(Exception):
    pass


class Runbook:
    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            self.text = f.read()
        self.blocks = {}
        self.order = []
        prev_end = 0
        for m in MARK.finditer(self.text):
            attrs = dict(a.split("=", 1) for a in m.group(2).split())
            prose = self.text[prev_end:m.start()]
            self.blocks[m.group(1)] = {"on": attrs.get("on"), "as": attrs.get("as", "postgres"),
                                       "script": m.group(3), "prose": prose}
            self.order.append(m.group(1))
            prev_end = m.end()
        settings = self.blocks.get("settings", {}).get("script", "")
        self.settings = set(re.findall(r"\b([A-Z_][A-Z0-9_]*)=", settings)) | {"PATH"}

    def undeclared(self):
        """(block, variable) of every variable a block uses that the page
        neither exports in its settings, assigns in the block nor names
        in the prose before it"""
        out = []
        for name in self.order:
            if name == "settings":
                continue
            b = self.blocks[name]
            assigned = set(re.findall(r"(?:^|[;\s(])([A-Za-z_][A-Za-z0-9_]*)=", b["script"]))
            named = set(re.findall(r"`([A-Z_][A-Z0-9_]*)`", b["prose"]))
            for v in sorted(set(VAR.findall(b["script"]))):
                if v not in self.settings | assigned | named | SHELL_VARS:
                    out.append((name, v))
        return out

    def script(self, name):
        """the block as a bash script: each "# expect:" line checked"""
        lines = ["set -euo pipefail"]
        for i, line in enumerate(self.blocks[name]["script"].splitlines()):
            m = EXPECT.match(line)
            if not m:
                lines.append(line)
                continue
            lines += [f"__got=$({m.group(1)})",
                      f"__want=\"{m.group(2)}\"",
                      'printf "%s\\n" "$__got"',
                      f'[ "$__got" = "$__want" ] || {{ echo "runbook {name}, line {i + 1}: printed '
                      '\'$__got\', expected \'$__want\'" >&2; exit 1; }']
        return "\n".join(lines) + "\n"

    def run(self, name, on, env, cwd="/", timeout=180):
        """run block NAME, which must be marked for ROLE on, with env (the
        settings of that server); its output, or BlockFailed"""
        if name not in self.blocks:
            raise BlockFailed(f"doc/runbooks.md has no block {name}")
        b = self.blocks[name]
        if b["on"] != on:
            raise BlockFailed(f"block {name} is for {b['on']}, the test runs it on {on}")
        user = ["runuser", "-u", "postgres", "--"] if b["as"] != "root" else []
        full = {"HOME": cwd, "LANG": "C.UTF-8"}
        full.update(env)
        cmd = user + ["env", "-i"] + [f"{k}={v}" for k, v in full.items()] + \
            ["/bin/bash", "-c", self.script(name)]
        try:
            p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired as e:
            raise BlockFailed(f"block {name} ran over {timeout} s: {e.stdout} {e.stderr}")
        if p.returncode != 0:
            raise BlockFailed(f"block {name} failed ({p.returncode}): {p.stdout.strip()[-600:]} "
                              f"{p.stderr.strip()[-600:]}")
        return p.stdout


class Tally:
    """ok / not ok lines and the closing count"""

    def __init__(self, name):
        self.name, self.passed, self.failed = name, 0, 0

    def check(self, what, ok, detail=None):
        self.passed, self.failed = self.passed + bool(ok), self.failed + (not ok)
        print(f"{'ok' if ok else 'not ok'} - {what}", flush=True)
        if not ok and detail is not None:
            print(f"#   {str(detail)[:1500]}", flush=True)
        return ok

    def step(self, rb, name, on, env, **kw):
        """run a block as one check; its output, or None when it failed"""
        try:
            out = rb.run(name, on, env, **kw)
        except BlockFailed as e:
            self.check(f"runbook step {name} on {on}", False, e)
            return None
        self.check(f"runbook step {name} on {on}", True)
        return out

    def done(self):
        print(f"{self.name}: {self.passed} passed, {self.failed} failed", flush=True)
        return 1 if self.failed or not self.passed else 0


def server_env(pg_bin, data, port, log, **more):
    """the settings of a server reached on loopback"""
    env = {"PATH": f"{pg_bin}:/usr/sbin:/usr/bin:/sbin:/bin", "PGDATA": data, "PGLOG": log,
           "PGHOST": "127.0.0.1", "PGPORT": str(port), "PGUSER": "postgres", "PGDATABASE": "postgres"}
    env.update({k: str(v) for k, v in more.items()})
    return env
