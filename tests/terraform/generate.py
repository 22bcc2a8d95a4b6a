"""Seeded, deterministic HCL files for the parser oracle: generated from a
small grammar of the constructs real modules use (and those issue 13 found
misread), and mutations of corpus files. Every file carries the names of
the constructs it holds, so a known divergence can be listed once by
construct (divergences.tsv) instead of once per file."""

import random
import re

IDENTS = ["name", "tags", "id", "enabled", "count_x", "for_each_x", "vpc-id", "_x", "a1", "values", "in_x", "if_x"]
TYPES = ["resource", "data", "module", "variable", "output", "locals", "provider", "terraform", "check", "moved"]
UNICODE = ["héllo", "日本語", "emoji 🚀", "ß∂ƒ", "tab\\tsep", "quote \\\" inside", "back\\\\slash", "\\u00e9"]
FUNCS = ["lower", "merge", "lookup", "jsonencode", "try", "coalesce", "provider::aws::arn_parse", "format"]


# Rarer expression forms, each named for divergences.tsv.
ODDITIES = [
    ("escapes", '"tab\\t nl\\n \\u00e9 \\U0001F600 dollar $ percent % $$ %% $${x} %%{y}"'),
    ("template-strip", '"${~ var.x ~} %{~ if var.a ~} y %{~ endif ~}"'),
    ("template-multiline-interpolation", '"${\n  var.x\n}"'),
    ("heredoc-in-interpolation", '"${<<EOT\ninner\nEOT\n}"'),
    ("trailing-comma-call", "format(\n  \"%s\",\n  var.x,\n)"),
    ("expansion-call", "concat(var.lists...)"),
    ("keyword-keys", "{ if = 1, in = 2, null_x = 3, true_x = 4 }"),
    ("legacy-index", "var.list.0.name"),
    ("splat-then-index", "aws_instance.x[*].id[0]"),
    ("nested-for", "{ for k, v in var.m : k => [for x in v : x if x != null] if v != null }"),
    ("for-grouping", "{ for x in var.l : x.k => x... if x != null }"),
    ("for-object-multiline", "{ for x in var.l : x => var.a &&\n  var.b\n  if x != null ||\n  var.c\n}"),
    ("conditional-multiline", "(\n  var.a\n  ? 1\n  : 2\n)"),
    ("unicode-string", '"Grüße, 世界, 🚀"'),
    ("empty-template", '""'),
    ("tuple-trailing-comma", "[\n  1,\n  2,\n]"),
    ("object-trailing-comma", "{ a = 1, b = 2, }"),
    ("object-newline-commas", "{\n  a = 1,\n  b = 2,\n}"),
    ("index-expression-key", "{ (var.k) = 1, \"${var.p}-x\" = 2 }"),
    ("heredoc-crlf-indented", "<<-EOT\r\n    crlf\r\n    EOT\r\n"),
    ("number-forms", "[0, 1.5, 1e3, 1E-3, 12345678901234567890]"),
]


class Gen:
    def __init__(self, rng: random.Random):
        self.r = rng
        self.tags = set()
        self.indent_step = "  "

    def tag(self, *names):
        self.tags.update(names)

    def ident(self):
        return self.r.choice(IDENTS)

    def string(self):
        r = self.r
        kind = r.randrange(7)
        if kind == 0:
            self.tag("unicode")
            return '"' + r.choice(UNICODE) + '"'
        if kind == 1:
            self.tag("template")
            return '"${var.' + self.ident() + '}-x-%{ if var.a }yes%{ else }no%{ endif }"'
        if kind == 2:
            self.tag("template-escape")
            return '"$${literal} %%{literal} ${"nested ${local.x}"}"'
        if kind == 3:
            self.tag("long-string")
            return '"' + "long-" * r.randrange(50, 400) + '"'
        if kind == 4:
            self.tag("template-for")
            return '"%{ for k, v in var.m ~}${k}=${v},%{ endfor ~}"'
        return '"' + self.ident() + '"'

    def heredoc(self, depth):
        r = self.r
        dash = r.random() < 0.5
        marker = r.choice(["EOT", "EOF", "POLICY", "END_OF_TEXT"])
        pad = self.indent_step * depth
        close_indent = r.choice(["", pad, pad + "  ", "\t"]) if dash or r.random() < 0.6 else ""
        empty = r.random() < 0.3
        lines = []
        if not empty:
            for _ in range(r.randrange(1, 5)):
                line = r.choice(["plain text", "${var.x}", "%{ if true }y%{ endif }", "a = { b }", "  indented", "EOT2", '"quoted"', "$${not}"])
                lines.append((pad + "  " if dash else "") + line)
        form = "heredoc-dash" if dash else "heredoc"
        self.tag(form)
        if empty:
            self.tag(form + "-empty")
        if close_indent:
            self.tag(form + "-indented-close")
        if empty and close_indent:
            self.tag(form + "-empty-indented-close")
        body = "".join(line + "\n" for line in lines)
        # The closing marker must end its line.
        return f"<<{'-' if dash else ''}{marker}\n{body}{close_indent}{marker}\n{pad}"

    def obj(self, depth):
        r = self.r
        pad = self.indent_step * (depth + 1)
        keys = []
        for _ in range(r.randrange(0, 6)):
            k = r.randrange(5)
            if k == 0:
                keys.append(self.ident())
            elif k == 1:
                self.tag("object-quoted-key")
                keys.append('"' + self.ident() + '"')
            elif k == 2:
                self.tag("object-dotted-key")
                keys.append('"' + self.ident() + "." + self.ident() + "-" + self.ident() + '"')
            elif k == 3:
                self.tag("object-expr-key")
                keys.append("(var." + self.ident() + ")")
            else:
                keys.append(self.ident())
        if keys and r.random() < 0.3:
            self.tag("object-repeated-key")
            for _ in range(r.randrange(1, 4)):
                keys.insert(r.randrange(len(keys) + 1), r.choice(keys))
        counts = {k: keys.count(k) for k in keys}
        most = max(counts.values(), default=0)
        if most >= 4:
            self.tag("object-key-4-repeats")
        elif most == 3:
            self.tag("object-key-3-repeats")
        if any(n >= 3 and k.lstrip('"(').startswith(("_", "var._")) for k, n in counts.items()):
            self.tag("object-key-underscore-3-repeats")
        if r.random() < 0.2:
            self.tag("object-one-line")
            return "{ " + ", ".join(f"{k} = {self.atom()}" for k in keys) + " }"
        sep = r.choice([" = ", ": ", "="])
        if sep != " = ":
            self.tag("object-colon" if ":" in sep else "object-tight")
        items = "".join(f"{pad}{k}{sep}{self.value(depth + 1)}\n" for k in keys)
        return "{\n" + items + self.indent_step * depth + "}"

    def atom(self):
        r = self.r
        return r.choice(["1", "-2.5e3", "true", "null", "var.x", "local.y[0]", "module.m.out", self.string()])

    def value(self, depth=1):
        r = self.r
        if depth > 4:
            return self.atom()
        k = r.randrange(14)
        if k == 0:
            return self.heredoc(depth)
        if k in (9, 10):
            name, text = r.choice(ODDITIES)
            self.tag(name)
            return text.replace("\n", "\n" + self.indent_step * depth)
        if k == 1:
            return self.obj(depth)
        if k == 2:
            self.tag("tuple")
            return "[" + ", ".join(self.value(depth + 1) for _ in range(r.randrange(4))) + "]"
        if k == 3:
            self.tag("for")
            return r.choice(
                [
                    "[for x in var.l : upper(x) if x != \"\"]",
                    "{for k, v in var.m : k => v...}",
                    "{ for i, s in var.l : s => i }",
                    "[for x in var.l : { a = x, b = [for y in x : y] }]",
                ]
            )
        if k == 4:
            self.tag("operators")
            return "var.a + 2 * -var.b >= 3 && !var.c || var.d % 2 == 0"
        if k == 5:
            self.tag("conditional")
            return f"var.a ? {self.atom()} : {self.atom()}"
        if k == 6:
            self.tag("function")
            return f"{r.choice(FUNCS)}({', '.join(self.value(depth + 1) for _ in range(r.randrange(3)))})"
        if k == 7:
            self.tag("splat")
            return r.choice(["aws_instance.x[*].id", "var.l.*.name", "var.m[\"k\"].x[0]"])
        if k == 8:
            self.tag("multiline-parens")
            return "(\n" + self.indent_step * (depth + 1) + "var.a\n" + self.indent_step * (depth + 1) + "+ var.b\n" + self.indent_step * depth + ")"
        return self.atom()

    def comment(self, pad):
        self.tag("comment")
        return pad + self.r.choice(["# a comment", "// another", "/* block */", "/* multi\n   line */"]) + "\n"

    def body(self, depth, kind):
        r = self.r
        pad = self.indent_step * depth
        out = []
        names = r.sample(IDENTS, r.randrange(0, 5))
        for name in names:
            if r.random() < 0.2:
                out.append(self.comment(pad))
            if r.random() < 0.15:
                self.tag("attribute-trailing-comment")
                out.append(f"{pad}{name} = {self.value(depth)} # trailing\n")
            else:
                out.append(f"{pad}{name} = {self.value(depth)}\n")
        if kind != "tfvars" and depth < 3:
            for _ in range(r.randrange(0, 3 - depth)):
                out.append(self.block(depth, nested=True))
        r.shuffle(out)
        return "".join(out)

    def labels(self, n):
        r = self.r
        out = []
        for _ in range(n):
            if r.random() < 0.2:
                self.tag("bare-label")
                out.append(self.ident())
            else:
                out.append('"' + r.choice(["aws_s3_bucket", "this", "lbl-1", "a b", "é"]) + '"')
        return out

    def block(self, depth, nested=False, kind="tf"):
        r = self.r
        pad = self.indent_step * depth
        if nested:
            btype = r.choice(["ingress", "lifecycle", "dynamic", "setting", "rule"])
            labels = self.labels(1 if btype == "dynamic" else r.choice([0, 0, 1]))
            self.tag("nested-block")
        elif kind == "tftest":
            btype = r.choice(["run", "variables", "provider", "mock_provider", "override_resource"])
            labels = self.labels({"run": 1, "provider": 1, "mock_provider": 1}.get(btype, 0))
        else:
            btype = r.choice(TYPES)
            labels = self.labels({"resource": 2, "data": 2, "module": 1, "variable": 1, "output": 1, "provider": 1, "check": 1}.get(btype, 0))
        head = " ".join([btype, *labels])
        if labels and r.random() < 0.05:
            self.tag("comment-in-header")
            head = " ".join([btype, "/* c */", *labels])
        if r.random() < 0.05:
            self.tag("one-line-block")
            return f"{pad}{head} {{ {self.ident()} = {self.atom()} }}\n"
        if r.random() < 0.1:
            self.tag("empty-block-one-line")
            return f"{pad}{head} {{}}\n"
        return f"{pad}{head} {{\n{self.body(depth + 1, kind)}{pad}}}\n"


OPENER = re.compile(r"<<(-?)([A-Za-z_][A-Za-z0-9_-]*)\r?$")


def text_constructs(text: str):
    """Constructs found in a file's text, whoever wrote it: an empty heredoc
    (its closing marker on the line after the opener), and one whose marker
    closes another heredoc later in the file."""
    lines = text.split("\n")
    found = set()
    for i, line in enumerate(lines[:-1]):
        m = OPENER.search(line)
        if not m or lines[i + 1].strip() != m.group(2):
            continue
        found.add("empty-heredoc")
        if any(later.strip() == m.group(2) for later in lines[i + 2 :]):
            found.add("empty-heredoc-then-same-marker")
    return sorted(found)


# Hand-written files: the constructs of issue 13 as its text gives them.
FIXED = [
    (
        "issue13-heredoc.tf",
        "locals {\n  a = <<EOT\n  EOT\n  b = 1\n  c = <<EOT\ny\nEOT\n}\n",
    ),
    (
        "issue13-helm-values.tf",
        'locals {\n  values = {\n    "image.tag" = "v1"\n'
        '    "extraArgs.balancing-ignore-label" = "a"\n    "extraArgs.skip-nodes" = "false"\n'
        '    "extraArgs.balancing-ignore-label" = "b"\n    "rbac.create" = true\n'
        '    "extraArgs.balancing-ignore-label" = "c"\n  }\n  after = 1\n}\n',
    ),
    (
        "heredoc-forms.tf",
        "locals {\n  a = <<-EOT\n    x\n    EOT\n  b = <<EOT\nx\n    EOT\n  c = <<-EOT\n\tEOT\n"
        '  d = "${<<EOT\ninner\nEOT\n}"\n  e = 1\n}\n',
    ),
    (
        # Unformatted: nested blocks at column 0 (the scanner once cut items there).
        "unindented-nested-blocks.tf",
        'resource "aws_instance" "x" {\nami = "a"\nlifecycle {\nignore_changes = [ami]\n}\n'
        'dynamic "ebs" {\nfor_each = []\ncontent {\nsize = 1\n}\n}\n}\n'
        'check "c" {\ndata "http" "h" {\nurl = "u"\n}\nassert {\ncondition = true\nerror_message = "m"\n}\n}\n',
    ),
    (
        "provider-function.tf",
        'output "arn" {\n  value = provider::aws::arn_parse("arn:aws:iam::123:role/x").account_id\n}\n',
    ),
]


def generated(seed: int, count: int):
    """The hand-written files, then `count` generated ones: (name, suffix,
    bytes, tags)."""
    rng = random.Random(seed)
    files = [(f"gen/{name}", ".tf", text.encode("utf-8"), text_constructs(text)) for name, text in FIXED]
    for n in range(count):
        g = Gen(random.Random(rng.getrandbits(64)))
        suffix = rng.choice([".tf", ".tf", ".tf", ".tfvars", ".tftest.hcl"])
        kind = {".tf": "tf", ".tfvars": "tfvars", ".tftest.hcl": "tftest"}[suffix]
        if g.r.random() < 0.2:
            g.indent_step = "\t"
            g.tag("tab-indent")
        parts = []
        for _ in range(g.r.randrange(1, 3)):
            if g.r.random() < 0.2:
                parts.append(g.comment(""))
            if kind == "tfvars":
                if not parts:
                    parts.append(g.body(0, "tfvars"))
            else:
                parts.append(g.block(0, kind=kind))
            if g.r.random() < 0.3:
                parts.append("\n")
        text = "".join(parts)
        text = finish(g, text)
        tags = sorted(g.tags | set(text_constructs(text)))
        files.append((f"gen/{n:04d}{suffix}", suffix, text.encode("utf-8"), tags))
    return files


def finish(g, text):
    """Whole-file variations: CRLF line ends, a BOM, no final newline."""
    r = g.r
    if r.random() < 0.2:
        g.tag("crlf")
        text = text.replace("\n", "\r\n")
    if r.random() < 0.05:
        g.tag("bom")
        text = "\ufeff" + text
    if r.random() < 0.1:
        g.tag("no-final-newline")
        text = text.rstrip("\r\n")
    return text


MUTATIONS = ["crlf", "comment-lines", "indent-heredoc-close", "empty-heredoc", "repeat-key-line", "delete-char", "tabs"]


def mutated(seed: int, corpus_files, count: int):
    """`count` mutations of corpus files: (name, suffix, bytes, tags)."""
    rng = random.Random(seed)
    out = []
    with_heredocs = [f for f in corpus_files if b"<<" in f[2]]
    for n in range(count):
        how = rng.choice(MUTATIONS)
        path, suffix, data = rng.choice(with_heredocs if "heredoc" in how else corpus_files)
        text = data.decode("utf-8")
        lines = text.split("\n")
        tags = ["mutation-" + how]
        if how == "crlf":
            text = text.replace("\r\n", "\n").replace("\n", "\r\n")
        elif how == "comment-lines":
            for _ in range(rng.randrange(1, 6)):
                i = rng.randrange(len(lines) + 1)
                lines.insert(i, rng.choice(["# inserted", "  // inserted", "/* inserted */"]))
            text = "\n".join(lines)
        elif how == "indent-heredoc-close":
            text = _heredoc_closes(text, lambda line: "    " + line.strip())
        elif how == "empty-heredoc":
            text, emptied = _empty_heredoc(text, rng)
            if emptied:
                tags.append("mutation-empty-heredoc-indented-close" if emptied == "indented" else "mutation-empty-heredoc-at-margin")
        elif how == "repeat-key-line":
            # Repeat a `key = value` line that ends in a plain value, in place.
            candidates = [i for i, line in enumerate(lines) if " = " in line and line.rstrip().endswith(('"', "true", "false")) and not line.lstrip().startswith("#")]
            if candidates:
                i = rng.choice(candidates)
                extra = rng.choice([1, 3])
                lines[i + 1 : i + 1] = [lines[i]] * extra
                if extra == 3:
                    tags.append("object-key-4-repeats")
            text = "\n".join(lines)
        elif how == "delete-char":
            if text:
                i = rng.randrange(len(text))
                text = text[:i] + text[i + 1 :]
        elif how == "tabs":
            text = "\n".join(line.replace("  ", "\t") for line in lines)
        tags += text_constructs(text)
        out.append((f"mut/{n:04d}-{path.replace('/', '__')}", suffix, text.encode("utf-8"), tags))
    return out


def _heredoc_closes(text, change):
    out = []
    marker = None
    for line in text.split("\n"):
        if marker and line.strip() == marker:
            out.append(change(line))
            marker = None
            continue
        m = re.search(r"<<-?([A-Za-z_][A-Za-z0-9_-]*)\s*$", line)
        if not marker and m:
            marker = m.group(1)
        out.append(line)
    return "\n".join(out)


def _empty_heredoc(text, rng):
    """Removes the lines of one heredoc, keeping its (possibly indented) closing marker."""
    lines = text.split("\n")
    spans = []
    start = None
    marker = None
    for i, line in enumerate(lines):
        if marker is not None:
            if line.strip() == marker:
                spans.append((start, i))
                marker = None
            continue
        m = re.search(r"<<-?([A-Za-z_][A-Za-z0-9_-]*)\s*$", line)
        if m:
            marker, start = m.group(1), i
    if not spans:
        return text, None
    s, e = rng.choice(spans)
    close = lines[e]
    del lines[s + 1 : e]
    return "\n".join(lines), ("indented" if close[:1] in (" ", "\t") else "margin")
