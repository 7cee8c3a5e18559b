#!/usr/bin/python3
"""The mutants of tools/mutate.sh: the standard mutations of C source, one
change each.

Usage:
  mutants.py list FILE...          one line per mutant: ID<TAB>FILE<TAB>LINE<TAB>FUNCTION<TAB>KIND<TAB>DESCRIPTION
                                   (ID: its number in its file)
  mutants.py apply ID FILE         writes FILE with mutant ID (as list numbered it) applied
  mutants.py plan CONTRIBUTING N SEED FILE...
                                   the mutants to run: list's lines with a last field 1 for
                                   those CONTRIBUTING.md lists as equivalent (0 otherwise);
                                   all of them, or with N > 0 N of those not listed, drawn
                                   with random.Random(SEED)
  mutants.py tally RESULTS SECONDS the counts of tools/mutate.sh's results, per file, per
                                   folder and in all, with the scores

The mutations (in code and #define bodies; never in comments, strings,
#include or #if lines, nor in a block compiled only with a *_MUTANT_*
macro defined, which test/sim/mutants.sh plants and the extension never
compiles):
  ror     each relational or equality operator flipped: < to <=, <= to <,
          > to >=, >= to >, == to !=, != to ==
  const   each integer constant +1 and -1 (0 becomes 1 and (-1))
  logic   each && to || and || to &&
  stmt    each expression statement in a function body deleted (not a
          declaration, return, break, continue or goto; not a (void) cast)
  ret     each return value negated, by the function's type: !(x) for
          bool, -(x) for an integer type (not a literal 0, whose negation is
          itself; pointers, enums, structs and void are left alone)

A mutant's DESCRIPTION is "`before` -> `after` in `the line`", the line's
text with its whitespace collapsed ("`before` (2 of 3) -> ..." when the
line has that text more than once): with FILE and FUNCTION, the key
CONTRIBUTING.md's list of equivalent mutants uses, which survives edits
elsewhere in the file.
"""
import os
import random
import re
import sys

TOKEN = re.compile(r"""
    (?P<ws>[ \t\r\n]+|\\\n)
  | (?P<comment>/\*.*?\*/|//[^\n]*)
  | (?P<str>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')
  | (?P<num>(?:0[xX][0-9a-fA-F]+|\d+)(?:[uU]|[lL]|[uU][lL]{1,2}|[lL]{1,2}[uU])?(?![\w.]))
  | (?P<float>\d+\.\d*(?:[eE][-+]?\d+)?[fFlL]?|\d+[eE][-+]?\d+[fFlL]?|\.\d+(?:[eE][-+]?\d+)?[fFlL]?)
  | (?P<ident>[A-Za-z_]\w*)
  | (?P<op><<=|>>=|\.\.\.|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^!~<>=?:;,.(){}\[\]#])
""", re.X | re.S)

ROR = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}
LOGIC = {"&&": "||", "||": "&&"}
INT_TYPES = {"int", "long", "short", "unsigned", "signed", "char", "size_t", "ssize_t", "int8_t", "int16_t",
             "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "int8", "int16", "int32",
             "int64", "uint8", "uint16", "uint32", "uint64", "Size", "intptr_t", "uintptr_t"}
TYPE_WORDS = INT_TYPES | {"bool", "void", "const", "static", "struct", "union", "enum", "double", "float",
                          "volatile", "register", "extern", "inline", "typedef"}
NOT_STATEMENTS = {"return", "break", "continue", "goto", "case", "default", "if", "for", "while", "do",
                  "switch", "else"}


class Tok:
    __slots__ = ("kind", "text", "start", "end", "line", "pp")

    def __init__(self, kind, text, start, end, line, pp):
        self.kind, self.text, self.start, self.end, self.line, self.pp = kind, text, start, end, line, pp


def tokenize(src):
    """Tokens of src (no whitespace or comments); pp: the directive of the
    preprocessor line a token is on (define, include, if, ...) or None."""
    toks, i, line, pp, at_line_start = [], 0, 1, None, True
    while i < len(src):
        m = TOKEN.match(src, i)
        if not m:
            sys.exit(f"mutants: cannot read at line {line}: {src[i:i+30]!r}")
        kind, text = m.lastgroup, m.group(0)
        if kind in ("ws", "comment"):
            nl = text.count("\n") - text.count("\\\n")
            if nl and not text.endswith("\\\n"):
                # a line ends (not continued): a preprocessor line ends with it
                if "\n" in text.replace("\\\n", ""):
                    pp, at_line_start = None, True
            line += text.count("\n")
            i = m.end()
            continue
        if at_line_start and text == "#":
            # the directive is the next identifier
            m2 = re.compile(r"[ \t]*(\w+)").match(src, m.end())
            pp = m2.group(1) if m2 else "null"
        at_line_start = False
        toks.append(Tok(kind, text, m.start(), m.end(), line, pp))
        i = m.end()
    return toks


def functions(toks):
    """For each token index inside a function body: (function name, return
    type words).  A body: a { at depth 0 after ) whose ( follows a name."""
    owner = [None] * len(toks)
    depth, i = 0, 0
    while i < len(toks):
        t = toks[i]
        if t.pp:
            i += 1
            continue
        if t.text == "{" and depth == 0 and i > 0 and toks[i - 1].text == ")":
            # find the matching ( and the name before it
            j, d = i - 1, 0
            while j >= 0:
                if toks[j].text == ")":
                    d += 1
                elif toks[j].text == "(":
                    d -= 1
                    if d == 0:
                        break
                j -= 1
            name = toks[j - 1].text if j > 0 and toks[j - 1].kind == "ident" else None
            k = j - 2
            rtype = []
            while k >= 0 and toks[k].text not in (";", "}", "{") and not toks[k].pp:
                rtype.insert(0, toks[k].text)
                k -= 1
            # the body up to its closing }
            d, e = 0, i
            while e < len(toks):
                if toks[e].pp:
                    e += 1
                    continue
                if toks[e].text == "{":
                    d += 1
                elif toks[e].text == "}":
                    d -= 1
                    if d == 0:
                        break
                e += 1
            for x in range(i, e + 1):
                owner[x] = (name, rtype)
            i = e + 1
            continue
        if t.text == "{":
            depth += 1
        elif t.text == "}":
            depth -= 1
        i += 1
    return owner


def const_variants(text):
    m = re.match(r"(0[xX][0-9a-fA-F]+|\d+)([uUlL]*)$", text)
    digits, suffix = m.group(1), m.group(2)
    value = int(digits, 16) if digits.lower().startswith("0x") else int(digits, 8 if len(digits) > 1 and
                                                                         digits.startswith("0") else 10)
    out = []
    for v in (value + 1, value - 1):
        if v < 0:
            out.append(f"(-{-v}{suffix})")
        elif digits.lower().startswith("0x"):
            out.append(f"0x{v:X}{suffix}")
        else:
            out.append(f"{v}{suffix}")
    return out


def paren_depths(toks):
    """Each token's depth in ( ) and [ ] (preprocessor lines apart)."""
    out, d = [], 0
    for t in toks:
        if not t.pp and t.text in (")", "]"):
            d -= 1
        out.append(d)
        if not t.pp and t.text in ("(", "["):
            d += 1
    return out


def statement_ends(toks, owner):
    """(first, last) token index of each expression statement in function bodies."""
    out = []
    prev_ok = {"{", "}", ";", ":"}
    depth = paren_depths(toks)
    i = 0
    n = len(toks)
    while i < n:
        t = toks[i]
        if owner[i] is None or t.pp or t.text in ("{", "}") or depth[i] != 0:
            i += 1
            continue
        p = toks[i - 1]
        starts = p.text in prev_ok or p.text == "else" or (p.text == ")" and closes_control(toks, i - 1))
        if p.text == ":" and not label_colon(toks, i - 1):
            starts = False
        if not starts:
            i += 1
            continue
        # its end: ; at paren depth 0
        j, d = i, 0
        while j < n and not (toks[j].text == ";" and d == 0):
            if toks[j].text in ("(", "["):
                d += 1
            elif toks[j].text in (")", "]"):
                d -= 1
            elif toks[j].text in ("{", "}") and d == 0:
                break
            j += 1
        if j < n and toks[j].text == ";" and j > i and is_expression_statement(toks, i, j):
            out.append((i, j))
        i += 1
    return out


def closes_control(toks, k):
    """toks[k] is ) closing the header of if/while/for/switch."""
    d = 0
    while k >= 0:
        if toks[k].text == ")":
            d += 1
        elif toks[k].text == "(":
            d -= 1
            if d == 0:
                return k > 0 and toks[k - 1].text in ("if", "while", "for", "switch")
        k -= 1
    return False


def label_colon(toks, k):
    """toks[k] is : ending a label: case, default or a goto's (not ?: )."""
    if k >= 2 and toks[k - 1].kind == "ident" and toks[k - 2].text in (";", "{", "}"):
        return True
    j = k - 1
    while j >= 0 and toks[j].text not in (";", "{", "}", "case", "default", "?"):
        j -= 1
    return j >= 0 and toks[j].text in ("case", "default")


def is_expression_statement(toks, i, j):
    first = toks[i]
    if first.text in NOT_STATEMENTS or first.text in TYPE_WORDS:
        return False
    if i + 1 < j and first.kind == "ident" and toks[i + 1].text == ":":
        return False	# a label: its statement starts after it
    if first.text == "(" and i + 1 < j and toks[i + 1].text == "void":
        return False
    # a declaration: NAME NAME, NAME * NAME, NAME NAME[ ...
    if first.kind == "ident" and i + 1 < j:
        second = toks[i + 1]
        if second.kind == "ident":
            return False
        if second.text == "*" and i + 2 < j and toks[i + 2].kind == "ident" and \
                i + 3 <= j and toks[i + 3].text in ("=", ";", "[", ","):
            # x * y; is an expression only in nonsense code
            return False
    return True


PLANTED = re.compile(r"\b\w+_MUTANT_\w+\b")
CONDITIONAL = re.compile(r"\s*#\s*(ifdef|ifndef|if|elif|else|endif)\b(.*)")


def planted_lines(lines):
    """Numbers of the lines compiled only with a *_MUTANT_* macro defined:
    the mistakes test/sim/mutants.sh plants (#ifdef X_MUTANT_Y up to its
    #else, #elif or #endif, #ifndef X_MUTANT_Y from its #else or #elif;
    #if defined() and #if !defined() alike), never the
    extension's code, so never mutated."""
    out, stack = set(), []   # per open conditional: is the current branch planted
    for n, line in enumerate(lines, 1):
        m = CONDITIONAL.match(line)
        if m:
            d, rest = m.group(1), m.group(2)
            if d in ("ifdef", "ifndef", "if"):
                neg = d == "ifndef" or (d == "if" and "!" in rest)
                kind = ("neg" if neg else "pos") if PLANTED.search(rest) else None
                stack.append([kind, kind == "pos"])
            elif d in ("else", "elif") and stack:
                # past #ifdef X_MUTANT_Y's own branch: compiled without it;
                # past #ifndef's: only with it
                stack[-1][1] = stack[-1][0] == "neg"
            elif d == "endif" and stack:
                stack.pop()
            continue
        if any(planted for _, planted in stack):
            out.add(n)
    return out


def mutants(path):
    with open(path, encoding="utf-8") as f:
        src = f.read()
    lines = src.split("\n")
    planted = planted_lines(lines)
    toks = tokenize(src)
    owner = functions(toks)
    depth = paren_depths(toks)
    out = []   # (start, end, replacement, line, function, before, after)

    def add(s, e, repl, i, kind, before=None):
        t = toks[i]
        fn = owner[i][0] if owner[i] else "-"
        line_no = t.line
        if line_no in planted:
            return
        orig = lines[line_no - 1]
        line_start = src.rfind("\n", 0, s) + 1
        if "\n" in src[s:e]:
            after_line = (src[line_start:s] + repl).strip()
        else:
            line_end = src.find("\n", e)
            after_line = src[line_start:s] + repl + src[e:line_end if line_end >= 0 else len(src)]
        norm = lambda x: " ".join(x.split())
        # the same text twice on the line: which one ("2 of 3")
        line_text = src[line_start:src.find("\n", s) if src.find("\n", s) >= 0 else len(src)]
        what = src[s:e]
        nth, total = line_text[:s - line_start].count(what) + 1, line_text.count(what)
        which = f" ({nth} of {total})" if total > 1 and "\n" not in what else ""
        desc = f"`{norm(before or what)}`{which} -> `{norm(repl)}` in `{norm(orig)}`"
        out.append((s, e, repl, line_no, fn, kind, desc, norm(after_line)))

    for i, t in enumerate(toks):
        if t.pp and t.pp != "define":
            continue
        if t.pp == "define":
            # the macro's name and parameters are not code
            j = i - 1
            while j >= 0 and toks[j].text != "define":
                j -= 1
            if j >= 0 and i == j + 1:
                continue
        if t.kind == "op" and t.text in ROR:
            # #define's operators mutate too; a < of #include never reaches here
            add(t.start, t.end, ROR[t.text], i, "ror")
        elif t.kind == "op" and t.text in LOGIC:
            add(t.start, t.end, LOGIC[t.text], i, "logic")
        elif t.kind == "num":
            if owner[i] is None and not t.pp and depth[i] > 0:
                continue	# an array bound in a parameter list or prototype: no value
            for v in const_variants(t.text):
                add(t.start, t.end, v, i, "const")
    for i, j in statement_ends(toks, owner):
        text = src[toks[i].start:toks[j].end]
        add(toks[i].start, toks[j].end, ";", i, "stmt", before=text)
    for i, t in enumerate(toks):
        if t.text != "return" or owner[i] is None or t.pp:
            continue
        j, d = i + 1, 0
        while j < len(toks) and not (toks[j].text == ";" and d == 0):
            d += toks[j].text in "([" and toks[j].kind == "op"
            d -= toks[j].text in ")]" and toks[j].kind == "op"
            j += 1
        if j == i + 1:
            continue
        rtype = [w for w in owner[i][1] if w not in ("static", "inline", "extern", "const", "pg_attribute_unused")]
        expr = src[toks[i + 1].start:toks[j - 1].end]
        if "*" in rtype or not rtype:
            continue
        if rtype == ["bool"]:
            if expr in ("true", "false"):
                repl = "false" if expr == "true" else "true"
            else:
                repl = f"!({expr})"
        elif all(w in INT_TYPES for w in rtype):
            if re.fullmatch(r"0[uUlL]*", expr):
                continue
            repl = f"-({expr})"
        else:
            continue
        add(toks[i + 1].start, toks[j - 1].end, repl, i, "ret")
    out.sort(key=lambda m: (m[0], m[1], m[2]))
    return src, out


def equivalent(contributing):
    """(file, function, description) of each mutant CONTRIBUTING.md lists as equivalent."""
    with open(contributing, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"^#### Equivalent mutants\n(.*?)(?=^#|\Z)", text, re.M | re.S)
    if not m:
        sys.exit("mutants: CONTRIBUTING.md has no section '#### Equivalent mutants'")
    # a | of the code is written \| in the table (a | ends a cell, even in backticks)
    return [(f, fn, desc.replace("\\|", "|")) for f, fn, desc in
            re.findall(r"^\| `([^`|]+)` \| `([^`|]+)` \| (`.*?`(?: \(\d+ of \d+\))? -> `.*?` in `.*?`) \|",
                       m.group(1), re.M)]


def tally(results, seconds):
    """Per file, per folder and in all: killed, survived, timed out, not
    built, equivalent, and the scores."""
    counts = {}
    with open(results, encoding="utf-8") as f:
        for row in f:
            verdict, _id, path, _line, _fn, _kind, _desc, eq = row.rstrip("\n").split("\t")
            kind = ("killed" if verdict.startswith("killed") else "timed out" if verdict.startswith("timed out")
                    else "equivalent" if verdict == "survived" and eq == "1" else verdict)
            for key in (path, path.rsplit("/", 1)[0] + "/", "all"):
                c = counts.setdefault(key, {"killed": 0, "survived": 0, "timed out": 0, "not built": 0,
                                            "equivalent": 0})
                c[kind] += 1

    def line(key):
        c = counts[key]
        built = c["killed"] + c["timed out"] + c["survived"] + c["equivalent"]
        dead = c["killed"] + c["timed out"]
        score = f"{100 * dead / built:.1f}%" if built else "-"
        score2 = f"{100 * dead / (built - c['equivalent']):.1f}%" if built - c["equivalent"] else "-"
        print(f"{key:30} {c['killed']:5} killed {c['survived']:4} survived {c['timed out']:3} timed out "
              f"{c['not built']:4} not built {c['equivalent']:4} equivalent   score {score} "
              f"({score2} of those not listed as equivalent)")
    print("== per file")
    for key in sorted(k for k in counts if not k.endswith("/") and k != "all"):
        line(key)
    print("== per folder")
    for key in sorted(k for k in counts if k.endswith("/")):
        line(key)
    if "all" in counts:
        line("all")
    print(f"mutate: the run took {seconds} s")
    return 0


def main(argv):
    if len(argv) >= 2 and argv[0] == "list":
        for path in argv[1:]:
            _src, ms = mutants(path)
            for n, m in enumerate(ms, 1):
                print(f"{n}\t{path}\t{m[3]}\t{m[4]}\t{m[5]}\t{m[6]}")
        return 0
    if len(argv) == 3 and argv[0] == "apply":
        want, path = int(argv[1]), argv[2]
        src, ms = mutants(path)
        s, e, repl = ms[want - 1][:3]
        with open(path, "w", encoding="utf-8") as f:
            f.write(src[:s] + repl + src[e:])
        return 0
    if len(argv) >= 4 and argv[0] == "plan":
        listed = set(equivalent(argv[1]))
        only = None
        if os.environ.get("IDGEN_MUTATE_ONLY"):
            # the survivors of earlier results (their descriptions may lack
            # the "(n of m)" of a text twice on a line: matched without it)
            only = set()
            with open(os.environ["IDGEN_MUTATE_ONLY"], encoding="utf-8") as f:
                for row in f:
                    v = row.rstrip("\n").split("\t")
                    if v[0] == "survived":
                        only.add((v[2], v[4], re.sub(r"` \(\d+ of \d+\) ->", "` ->", v[6])))
        rows = []
        for path in argv[4:]:
            _src, ms = mutants(path)
            for n, m in enumerate(ms, 1):
                eq = 1 if (path, m[4], m[6]) in listed else 0
                if only is not None and (path, m[4], re.sub(r"` \(\d+ of \d+\) ->", "` ->", m[6])) not in only:
                    continue
                rows.append(f"{n}\t{path}\t{m[3]}\t{m[4]}\t{m[5]}\t{m[6]}\t{eq}")
        if int(argv[2]) > 0:
            pool = [r for r in rows if r.endswith("\t0")]
            pick = set(random.Random(int(argv[3])).sample(range(len(pool)), min(int(argv[2]), len(pool))))
            rows = [r for i, r in enumerate(pool) if i in pick]
        print("\n".join(rows))
        return 0
    if len(argv) == 3 and argv[0] == "tally":
        return tally(argv[1], int(argv[2]))
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
