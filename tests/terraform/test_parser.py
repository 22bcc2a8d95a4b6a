"""Parser fidelity against Terraform (issue 13, point 1).

Every `.tf`, `.tfvars` and `.tftest.hcl` file of the corpus's eight Terraform
module repositories (`corpus/terraform` of the shared directory), plus seeded
generated files and mutations of corpus files, is read by Terraform 1.15's
parser and by ours. For each file Terraform accepts, ours must report no
`syntax` diagnostic, and both must see the same top-level attributes and
the same blocks (type, labels, attribute names, nested blocks) in order.

Known divergences are listed in divergences.tsv, one per line:
`KEY<TAB>reason`, where KEY is a file (`corpus/…`, `gen/…`, `mut/…`) or
`construct:NAME` for every generated or mutated file holding that
construct (generate.py names them). The test fails on a divergence not
listed, and on a listed one that no longer occurs: fixing the parser
shrinks the list.
"""

import functools
import glob
import os
import tempfile

import generate
import oracle
import pytest
from conftest import CORPUS, NO_CORPUS, SUMMARY

SUFFIXES = (".tftest.hcl", ".tfvars", ".tf")
SEED = 13
GENERATED = int(os.environ.get("ORACLE_GENERATED", "2500"))
MUTATED = int(os.environ.get("ORACLE_MUTATED", "1000"))
LIST = os.path.join(os.path.dirname(__file__), "divergences.tsv")


def suffix_of(path):
    return next(s for s in SUFFIXES if path.endswith(s))


def corpus_files():
    """The corpus's files: (`corpus/terraform/PATH`, suffix, bytes, tags);
    none when the corpus is absent."""
    found = []
    if CORPUS is None:
        return found
    for path in sorted(glob.glob(os.path.join(CORPUS, "**", "*"), recursive=True)):
        if os.path.isfile(path) and path.endswith(SUFFIXES):
            with open(path, "rb") as f:
                rel = os.path.relpath(path, CORPUS).replace(os.sep, "/")
                found.append(("corpus/terraform/" + rel, suffix_of(path), f.read(), []))
    return found


def read_list():
    entries = {}
    with open(LIST, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            key, _, reason = line.partition("\t")
            assert reason.strip(), f"divergences.tsv:{n}: expected KEY<TAB>reason"
            entries[key] = reason
    return entries


@functools.lru_cache(maxsize=None)
def compared(set_name, binary, terraform):
    """Compares one set of files: {name: divergence} for the divergent ones,
    the files' tags, and counts."""
    files = {
        "corpus": corpus_files,
        "generated": lambda: generate.generated(SEED, GENERATED),
        "mutated": lambda: generate.mutated(SEED, [(n, s, d) for n, s, d, _ in corpus_files()], MUTATED),
    }[set_name]()
    with tempfile.TemporaryDirectory(prefix=f"oracle-{set_name}-") as work:
        paths = {}
        for i, (name, suffix, data, _) in enumerate(files):
            path = os.path.join(work, f"{i:05d}{suffix}")
            with open(path, "wb") as f:
                f.write(data)
            paths[name] = path
        outlines = oracle.ours(binary, paths.values())
    ours = {name: outlines[path] for name, path in paths.items()}
    divergent, tags = {}, {}
    counts = {"files": len(files), "rejected": 0, "rejected by Terraform only": 0, "no outline": 0}
    for name, suffix, data, file_tags in files:
        tags[name] = file_tags
        mine = ours[name]
        accepted, error = terraform.verdict(data, suffix)
        if not accepted:
            counts["rejected"] += 1
            if not mine["syntax"]:
                counts["rejected by Terraform only"] += 1
            continue
        if mine["syntax"]:
            first = mine["syntax"][0]
            divergent[name] = f"syntax diagnostic at {first['line']}:{first['column']}: {first['message']}"
            continue
        theirs, _ = terraform.outline(data.decode("utf-8"))
        if theirs is None:
            counts["no outline"] += 1
            continue
        difference = oracle.first_difference(theirs, oracle.normalised(mine))
        if difference:
            divergent[name] = difference
    counts["divergent"] = len(divergent)
    SUMMARY.append(f"terraform oracle, {set_name}: " + ", ".join(f"{v} {k}" for k, v in counts.items()))
    return divergent, tags, counts


def unexplained(divergent, tags, listed):
    out = []
    for name, why in sorted(divergent.items()):
        if name in listed or any("construct:" + t in listed for t in tags[name]):
            continue
        out.append(f"{name}: {why}")
    return out


@pytest.mark.parametrize("set_name", ["corpus", "generated", "mutated"])
def test_terraform_accepts_we_agree(set_name, binary, terraform):
    if set_name != "generated" and CORPUS is None:
        pytest.skip(f"skipped the Terraform oracle's {set_name} set: {NO_CORPUS}")
    divergent, tags, counts = compared(set_name, binary, terraform)
    missing = unexplained(divergent, tags, read_list())
    assert not missing, f"{len(missing)} divergences not in divergences.tsv:\n" + "\n".join(missing[:40])
    # The outline must be available for nearly every accepted file, or the
    # comparison would be hollow.
    accepted = counts["files"] - counts["rejected"]
    assert counts["no outline"] <= accepted // 50, counts


def test_listed_divergences_still_occur(binary, terraform):
    if CORPUS is None:
        pytest.skip(f"skipped the check that listed divergences still occur: {NO_CORPUS}")
    listed = read_list()
    seen_names, seen_tags = set(), set()
    for set_name in ("corpus", "generated", "mutated"):
        divergent, tags, _ = compared(set_name, binary, terraform)
        seen_names.update(divergent)
        for name in divergent:
            seen_tags.update("construct:" + t for t in tags[name])
    stale = [k for k in listed if k not in seen_names and k not in seen_tags]
    assert not stale, "no longer divergent, remove from divergences.tsv:\n" + "\n".join(stale)
