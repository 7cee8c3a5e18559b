#!/usr/bin/python3
"""Check a META.json against the PGXN Meta Spec 1.0.0 and against the tree.

The rules are the spec's (https://pgxn.org/meta/spec.txt, v1.0.0): required
keys, Terms, SemVer versions, the license strings, provides entries, prereq
phases and relations, Version Ranges, resources, tags, release_status, and
no keys outside the spec but "x_" ones.  On top, what idgen's packaging
promises: provides.idgen.version and the distribution version equal
idgen.control's default_version (as SemVer), provides.idgen.file is that
version's install script, every file named exists, and resources name a
repository and a bug tracker.

Usage: meta_check.py DIR-OR-ZIP   (a source tree, or the zip of `make dist`,
whose files must all lie under one top directory NAME-VERSION/).
Prints one line per check and "meta: N passed, M failed"; exits 1 on failure.
"""
import json
import os
import re
import sys
import zipfile

# SemVer 1.0.0/2.0.0 as the spec's Version: MAJOR.MINOR.PATCH, no leading
# zeros, optional prerelease and build
SEMVER = (r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
          r"(?:-(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*)?"
          r"(?:\+[0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*)?")
VERSION_RANGE_PART = r"(?:(?:[=!]=|[<>]=?)\s*)?" + SEMVER
VERSION_RANGE = re.compile(rf"^(?:0|{VERSION_RANGE_PART}(?:,\s*{VERSION_RANGE_PART})*)$")
SEMVER_RE = re.compile(rf"^{SEMVER}$")
# a Term: at least two characters, no slash, backslash, space or control
TERM = re.compile(r"^[^/\\\s\x00-\x1f\x7f]{2,}$")
URI = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:[^\s]+$")
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+$")
CUSTOM = re.compile(r"^[xX]_.")
LICENSES = {"agpl_3", "apache_1_1", "apache_2_0", "artistic_1", "artistic_2", "bsd", "freebsd",
            "gfdl_1_2", "gfdl_1_3", "gpl_1", "gpl_2", "gpl_3", "lgpl_2_1", "lgpl_3_0", "mit",
            "mozilla_1_0", "mozilla_1_1", "openssl", "perl_5", "postgresql", "qpl_1_0", "ssleay",
            "sun", "zlib", "open_source", "restricted", "unrestricted", "unknown"}
REQUIRED = ["name", "version", "abstract", "maintainer", "license", "provides", "meta-spec"]
OPTIONAL = ["description", "generated_by", "tags", "no_index", "prereqs", "release_status",
            "resources"]
PHASES = {"configure", "build", "test", "runtime", "develop"}
RELATIONS = {"requires", "recommends", "suggests", "conflicts"}
SPEC_URLS = {"https://pgxn.org/meta/spec.txt", "http://pgxn.org/meta/spec.txt"}


class Tree:
    """The files of a directory, or of the one top directory of a zip."""

    def __init__(self, path):
        if os.path.isdir(path):
            self.root, self.zip = path, None
            self.top = None
        else:
            self.zip = zipfile.ZipFile(path)
            names = self.zip.namelist()
            tops = {n.split("/", 1)[0] for n in names}
            self.top = tops.pop() if len(tops) == 1 else None
            self.names = set(names)

    def read(self, name):
        if self.zip is None:
            with open(os.path.join(self.root, name), encoding="utf-8") as f:
                return f.read()
        return self.zip.read(f"{self.top}/{name}").decode("utf-8")

    def exists(self, name):
        if self.zip is None:
            return os.path.isfile(os.path.join(self.root, name))
        return f"{self.top}/{name}" in self.names


def main(path):
    results = []

    def check(what, ok):
        results.append(bool(ok))
        print(f"{'ok' if ok else 'not ok'} - {what}")
        return bool(ok)

    def nonempty_string(v):
        return isinstance(v, str) and len(v) > 0

    def only_keys(what, obj, allowed):
        extra = sorted(k for k in obj if k not in allowed and not CUSTOM.match(k))
        check(f"{what} has no keys outside the spec{': ' + ', '.join(extra) if extra else ''}",
              not extra)

    tree = Tree(path)
    if tree.zip is not None:
        check("the zip holds one top directory", tree.top is not None)
        if tree.top is None:
            return finish(results)
    try:
        meta = json.loads(tree.read("META.json"))
    except (OSError, KeyError, ValueError) as e:
        check(f"META.json is readable JSON ({e})", False)
        return finish(results)
    if not check("META.json is an object", isinstance(meta, dict)):
        return finish(results)

    for key in REQUIRED:
        check(f"required key {key}", key in meta)
    only_keys("META.json", meta, REQUIRED + OPTIONAL)

    spec = meta.get("meta-spec")
    if check("meta-spec is an object", isinstance(spec, dict)):
        check(f"meta-spec version {spec.get('version')!r} is 1.0.x",
              isinstance(spec.get("version"), str)
              and re.fullmatch(r"1\.0\.\d+", spec["version"]))
        if "url" in spec:
            check(f"meta-spec url {spec['url']!r} is the spec's", spec["url"] in SPEC_URLS)
        only_keys("meta-spec", spec, ["version", "url"])

    check(f"name {meta.get('name')!r} is a Term", isinstance(meta.get("name"), str)
          and TERM.match(meta["name"]))
    check(f"version {meta.get('version')!r} is SemVer", isinstance(meta.get("version"), str)
          and SEMVER_RE.match(meta["version"]))
    check("abstract is a non-empty string", nonempty_string(meta.get("abstract")))
    for key in ("description", "generated_by"):
        if key in meta:
            check(f"{key} is a non-empty string", nonempty_string(meta[key]))

    m = meta.get("maintainer")
    check("maintainer is a string or a non-empty list of strings",
          nonempty_string(m) or (isinstance(m, list) and m and all(map(nonempty_string, m))))

    lic = meta.get("license")
    check(f"license {lic!r} is one of the spec's license strings, a list of them, or names "
          "with URIs",
          (isinstance(lic, str) and lic in LICENSES)
          or (isinstance(lic, list) and lic and all(isinstance(x, str) and x in LICENSES
                                                    for x in lic))
          or (isinstance(lic, dict) and lic and all(isinstance(v, str) and URI.match(v)
                                                    for v in lic.values())))

    provides = meta.get("provides")
    if check("provides is a non-empty object", isinstance(provides, dict) and provides):
        for ext, entry in provides.items():
            check(f"provides {ext!r} is a Term", TERM.match(ext))
            if not check(f"provides {ext} is an object", isinstance(entry, dict)):
                continue
            check(f"provides {ext} has file and version", "file" in entry and "version" in entry)
            check(f"provides {ext} version {entry.get('version')!r} is SemVer",
                  isinstance(entry.get("version"), str) and SEMVER_RE.match(entry["version"]))
            for key in ("file", "docfile"):
                if key in entry:
                    check(f"provides {ext} {key} {entry[key]!r} exists",
                          isinstance(entry[key], str) and tree.exists(entry[key]))
            if "abstract" in entry:
                check(f"provides {ext} abstract is a non-empty string",
                      nonempty_string(entry["abstract"]))
            only_keys(f"provides {ext}", entry, ["file", "version", "abstract", "docfile"])

    prereqs = meta.get("prereqs", {})
    if check("prereqs is an object", isinstance(prereqs, dict)):
        for phase, rels in prereqs.items():
            check(f"prereqs phase {phase!r} is one of the spec's", phase in PHASES)
            if not check(f"prereqs {phase} is an object", isinstance(rels, dict)):
                continue
            for rel, reqs in rels.items():
                check(f"prereqs {phase} relation {rel!r} is one of the spec's", rel in RELATIONS)
                if not check(f"prereqs {phase} {rel} is a non-empty object",
                             isinstance(reqs, dict) and reqs):
                    continue
                for name, rng in reqs.items():
                    check(f"prereqs {phase} {rel} {name}: {rng!r} is a Version Range",
                          TERM.match(name) and (rng == 0 and not isinstance(rng, bool)
                                                or isinstance(rng, str)
                                                and VERSION_RANGE.match(rng)))

    if "release_status" in meta:
        check(f"release_status {meta['release_status']!r} is stable, testing or unstable",
              meta["release_status"] in ("stable", "testing", "unstable"))

    if "tags" in meta:
        tags = meta["tags"]
        check("tags is a non-empty list of strings of 1 to 255 characters",
              isinstance(tags, list) and tags
              and all(isinstance(t, str) and 0 < len(t) <= 255 for t in tags))

    if "no_index" in meta:
        ni = meta["no_index"]
        if check("no_index is an object", isinstance(ni, dict)):
            only_keys("no_index", ni, ["file", "directory"])
            for key, v in ni.items():
                check(f"no_index {key} is a string or list of strings",
                      nonempty_string(v) or isinstance(v, list) and all(map(nonempty_string, v)))

    res = meta.get("resources")
    if check("resources is an object (idgen: a repository and a bug tracker)",
             isinstance(res, dict)):
        only_keys("resources", res, ["homepage", "bugtracker", "repository"])
        if "homepage" in res:
            check("resources homepage is a URI", isinstance(res["homepage"], str)
                  and URI.match(res["homepage"]))
        bt = res.get("bugtracker")
        if check("resources bugtracker is an object", isinstance(bt, dict)):
            only_keys("resources bugtracker", bt, ["web", "mailto"])
            check("resources bugtracker has web (a URI) or mailto (an address)",
                  ("web" in bt or "mailto" in bt)
                  and ("web" not in bt or isinstance(bt["web"], str) and URI.match(bt["web"]))
                  and ("mailto" not in bt or isinstance(bt["mailto"], str)
                       and EMAIL.match(bt["mailto"])))
        repo = res.get("repository")
        if check("resources repository is an object", isinstance(repo, dict)):
            only_keys("resources repository", repo, ["url", "web", "type"])
            check("resources repository has url and type, or web",
                  ("url" in repo and "type" in repo) or "web" in repo)
            for key in ("url", "web"):
                if key in repo:
                    check(f"resources repository {key} is a URI",
                          isinstance(repo[key], str) and URI.match(repo[key]))
            if "type" in repo:
                check("resources repository type is lower case",
                      isinstance(repo["type"], str) and repo["type"] == repo["type"].lower())

    # idgen: the versions agree with the control file
    control = tree.read("idgen.control")
    found = re.search(r"^default_version\s*=\s*'([^']+)'", control, re.M)
    if check("idgen.control has a default_version", found):
        version = found.group(1)
        semver = ".".join((version.split(".") + ["0", "0"])[:3])
        check(f"version {meta.get('version')} is idgen.control's {version}",
              meta.get("version") == semver)
        entry = (provides or {}).get("idgen") if isinstance(provides, dict) else None
        if check("provides idgen", isinstance(entry, dict)):
            check(f"provides idgen version {entry.get('version')} is {semver}",
                  entry.get("version") == semver)
            check(f"provides idgen file {entry.get('file')} is sql/idgen--{version}.sql",
                  entry.get("file") == f"sql/idgen--{version}.sql")
        if tree.zip is not None:
            check(f"the zip's top directory {tree.top} is {meta.get('name')}-{semver}",
                  tree.top == f"{meta.get('name')}-{semver}")
    return finish(results)


def finish(results):
    passed = sum(results)
    failed = len(results) - passed
    print(f"meta: {passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    sys.exit(main(sys.argv[1]))
