#!/usr/bin/env python3
"""Deterministic generator of Terraform-style HCL for benchmarks and fuzz seeds.

    tools/gen-hcl.py --size 1MB --seed 1 -o big.tf

Output is a sequence of "chunks" (variables, one locals block, resources,
outputs, sometimes data/module blocks) repeated until --size bytes are
reached; it always ends on a block boundary, so the file is a little larger
than --size. Same seed + same size + same script = byte-identical output.
Some strings and comments contain non-ASCII text (UTF-16 conversion paths).

    tools/gen-hcl.py --worst list-int --size 10MB -o huge.tf

--worst CASE writes one pathological construct of about --size bytes instead: the
memory-per-source-byte worst cases of BENCHMARKS.md ("Memory per source byte").
`--worst list` names them. A tfvars case writes the variable it targets to
OUT's directory as variables.tf unless OUT is stdout.
"""
import argparse
import os
import random
import sys

PRIMS = ["string", "number", "bool"]
WORDS = ["app", "web", "db", "cache", "queue", "edge", "api", "auth", "logs", "vpc",
         "subnet", "zone", "node", "pool", "bucket", "key", "role", "tier", "port", "team"]
UNICODE = ["café", "Zürich", "日本語", "naïve", "Ωmega", "🚀 launch", "東京", "straße"]
RES_TYPES = ["aws_instance", "aws_s3_bucket", "aws_security_group", "google_compute_instance",
             "azurerm_virtual_network", "kubernetes_deployment", "aws_iam_role"]
FUNCS1 = ["upper", "lower", "length", "keys", "values", "tostring", "jsonencode", "trimspace"]


class Gen:
    def __init__(self, seed, ts_compat=False):
        self.r = random.Random(seed)
        self.ts_compat = ts_compat
        self.vars = []    # (name, type-kind) already emitted
        self.locals = []
        self.res = []     # (type, name, has_count)
        self.n = 0

    def uid(self, prefix):
        self.n += 1
        return "%s_%s_%d" % (prefix, self.r.choice(WORDS), self.n)

    # ---- type expressions and matching values ----
    def typ(self, depth):
        r = self.r
        if depth <= 0 or r.random() < 0.25:
            return "any" if r.random() < 0.04 else r.choice(PRIMS)
        k = r.choice(["list", "set", "map", "object", "object", "tuple"])
        if k in ("list", "set", "map"):
            return (k, self.typ(depth - 1))
        if k == "tuple":
            return ("tuple", [self.typ(depth - 1) for _ in range(r.randint(1, 3))])
        attrs = []
        for i in range(r.randint(1, 5)):
            name = "%s%d" % (r.choice(WORDS), i)
            t = self.typ(depth - 1)
            opt = r.random() < 0.3
            dflt = self.value(t, 0, inline=True) if opt and r.random() < 0.5 else None
            attrs.append((name, t, opt, dflt))
        return ("object", attrs)

    def tstr(self, t, multiline=False):
        if isinstance(t, str):
            return t
        k, a = t
        if k in ("list", "set", "map"):
            return "%s(%s)" % (k, self.tstr(a))
        if k == "tuple":
            return "tuple([%s])" % ", ".join(self.tstr(x) for x in a)
        parts = []
        for name, at, opt, dflt in a:
            s = self.tstr(at)
            if opt:
                s = "optional(%s, %s)" % (s, dflt) if dflt is not None else "optional(%s)" % s
            parts.append("%s = %s" % (name, s))
        if multiline:  # top-level object type written one attribute per line
            return "object({\n%s\n  })" % "\n".join("    " + p for p in parts)
        return "object({%s})" % ", ".join(parts)

    def number(self):
        r = self.r
        c = r.random()
        if c < 0.5:
            return str(r.randint(0, 65535))
        if c < 0.7:
            return "%d.%d" % (r.randint(0, 999), r.randint(0, 99))
        if c < 0.8:  # "1e6" is valid HCL but tree-sitter-hcl 1.1.0 rejects it
            return ("%d.0e%d" if self.ts_compat else "%de%d") % (r.randint(1, 9), r.randint(1, 12))
        if c < 0.9:
            return str(r.randint(0, 10**6))
        return str(r.randint(10**19, 10**40))  # beyond u64: big integers

    def string(self):
        r = self.r
        s = "-".join(r.choice(WORDS) for _ in range(r.randint(1, 4)))
        if r.random() < 0.1:
            s += " " + r.choice(UNICODE)
        if r.random() < 0.05:
            s += "\\n\\t\\\"q\\\""
        return '"%s"' % s

    def value(self, t, ind, inline=False):
        r = self.r
        pad = "  " * ind
        if t == "number":
            return self.number()
        if t == "bool":
            return r.choice(["true", "false"])
        if t in ("string", "any"):
            return self.string() if t == "string" or r.random() < 0.5 else self.number()
        k, a = t
        if k in ("list", "set"):
            return "[%s]" % ", ".join(self.value(a, ind + 1, inline) for _ in range(r.randint(0, 4)))
        if k == "tuple":
            return "[%s]" % ", ".join(self.value(x, ind + 1, inline) for x in a)
        if k == "map":
            items = ["%s%s = %s" % (pad + "  ", self.r.choice(WORDS) + str(i), self.value(a, ind + 1, inline))
                     for i in range(r.randint(0, 3))]
        else:
            items = ["%s%s = %s" % (pad + "  ", n, self.value(at, ind + 1, inline))
                     for n, at, opt, _ in a if not opt or r.random() < 0.5]
        if not items:
            return "{}"
        if inline:
            return "{ %s }" % ", ".join(i.strip() for i in items)
        return "{\n%s\n%s}" % ("\n".join(items), pad)

    # ---- expressions that reference earlier declarations ----
    def ref(self):
        r = self.r
        c = r.random()
        if c < 0.5 and self.vars:
            return "var." + r.choice(self.vars[-40:])[0]
        if c < 0.8 and self.locals:
            return "local." + r.choice(self.locals[-40:])
        if self.res and c >= 0.8:
            rt, rn, cnt = r.choice(self.res[-20:])
            return "%s.%s%s.id" % (rt, rn, "[0]" if cnt else "")
        return "var." + self.vars[-1][0] if self.vars else '"literal"'

    def expr(self, depth=2):
        r = self.r
        c = r.random()
        a = self.ref()
        if depth <= 0 or c < 0.15:
            return a
        b = self.expr(depth - 1)
        if c < 0.3:
            return "%s != null ? %s : %s" % (a, b, self.string())
        if c < 0.42:
            return "[for x in %s : upper(x) if x != \"\"]" % a
        if c < 0.52:
            return "{ for k, v in %s : k => v if v != null }" % a
        if c < 0.64:
            return '"${%s}-%s-${%s}"' % (a, r.choice(WORDS), b)
        if c < 0.74:
            return "%s(%s)" % (r.choice(FUNCS1), a)
        if c < 0.82:
            return "merge(%s, { Name = \"%s\", Env = %s })" % (a, r.choice(WORDS), b)
        if c < 0.88:
            return "coalesce(%s, %s, %s)" % (a, b, self.number())
        if c < 0.94:
            return "(%s + %s) * %s >= 10 && !%s" % (self.number(), self.number(), self.number(),
                                                    "var.enabled")
        return "%s[*].%s" % (a, r.choice(WORDS))

    # ---- blocks ----
    def variable(self):
        r = self.r
        name = self.uid("var")
        t = self.typ(r.choice([0, 1, 1, 2, 2, 3, 3, 4, 5]))
        out = ['variable "%s" {' % name]
        if r.random() < 0.7:
            out.append('  description = "The %s for %s"' % (r.choice(WORDS), r.choice(WORDS + UNICODE)))
        out.append("  type        = %s" % self.tstr(t, multiline=r.random() < 0.3))
        if r.random() < 0.75:
            out.append("  default     = %s" % (self.value(t, 1) if r.random() < 0.9 else "null"))
        if r.random() < 0.15:
            out.append("  nullable    = %s" % r.choice(["true", "false"]))
        if r.random() < 0.1:
            out.append("  sensitive   = true")
        if r.random() < 0.2:
            out += ["  validation {",
                    "    condition     = length(var.%s) > 0 && can(regex(\"^[a-z]\", \"x\"))" % name,
                    '    error_message = "The %s must not be empty."' % name,
                    "  }"]
        out.append("}")
        self.vars.append((name, t))
        return "\n".join(out)

    def locals_block(self):
        r = self.r
        out = ["locals {"]
        for _ in range(r.randint(3, 10)):
            name = self.uid("l")
            c = r.random()
            if c < 0.12:
                v = "<<-EOT\n    Hello ${%s}!\n    %%{ for i, x in %s ~}\n    item ${i}: ${x}\n    %%{ endfor ~}\n    %%{ if %s }on%%{ else }off%%{ endif }\n  EOT" % (
                    self.ref(), self.ref(), self.ref())
            elif c < 0.2:
                v = "{\n    %s\n  }" % "\n    ".join(
                    "%s = %s" % (w, self.expr(1)) for w in r.sample(WORDS, r.randint(1, 4)))
            else:
                v = self.expr(r.randint(0, 3))
            out.append("  %s = %s" % (name, v))
            self.locals.append(name)
        out.append("}")
        return "\n".join(out)

    def resource(self):
        r = self.r
        rt, rn = r.choice(RES_TYPES), self.uid("r")
        cnt = r.random() < 0.3
        out = ['resource "%s" "%s" {' % (rt, rn)]
        if cnt:
            out.append("  count = var.enabled ? %d : 0" % r.randint(1, 5))
        elif r.random() < 0.2:
            out.append("  for_each = toset(%s)" % self.ref())
        for w in r.sample(WORDS, r.randint(2, 6)):
            out.append("  %s = %s" % (w, self.expr(r.randint(0, 2))))
        out.append("  tags = merge(local.%s, {\n    Name = \"%s-${%s}\"\n  })" % (
            r.choice(self.locals) if self.locals else "x", rn, "count.index" if cnt else "terraform.workspace"))
        if r.random() < 0.3:
            out += ['  dynamic "ingress" {', "    for_each = %s" % self.ref(), "    content {",
                    "      from_port = ingress.value.port", "      to_port   = ingress.value.port + 1",
                    '      protocol  = "tcp"', "    }", "  }"]
        if r.random() < 0.3:
            out += ["  lifecycle {", "    create_before_destroy = true",
                    "    ignore_changes        = [tags, %s]" % r.choice(WORDS), "  }"]
        out.append("}")
        self.res.append((rt, rn, cnt))
        return "\n".join(out)

    def output(self):
        r = self.r
        out = ['output "%s" {' % self.uid("o"), "  value       = %s" % self.expr(r.randint(0, 2))]
        if r.random() < 0.5:
            out.append('  description = "Output of %s"' % r.choice(WORDS))
        if r.random() < 0.1:
            out.append("  sensitive   = true")
        out.append("}")
        return "\n".join(out)

    def misc(self):
        r = self.r
        if r.random() < 0.5:
            return ('data "aws_ami" "%s" {\n  most_recent = true\n  owners      = ["099720109477"]\n'
                    '  filter {\n    name   = "name"\n    values = ["ubuntu/images/*"]\n  }\n}') % self.uid("d")
        return ('module "%s" {\n  source  = "./modules/%s"\n  version = "~> %d.%d"\n  input   = %s\n}') % (
            self.uid("m"), r.choice(WORDS), r.randint(1, 5), r.randint(0, 9), self.expr(1))

    def chunk(self):
        r = self.r
        blocks = [self.variable() for _ in range(r.randint(4, 8))]
        blocks.append(self.locals_block())
        blocks += [self.resource() for _ in range(r.randint(1, 4))]
        blocks += [self.output() for _ in range(r.randint(1, 3))]
        if r.random() < 0.3:
            blocks.append(self.misc())
        com = r.random()
        if com < 0.3:
            blocks[0] = "# section %d — %s\n%s" % (self.n, r.choice(UNICODE), blocks[0])
        elif com < 0.4:
            blocks[0] = "/* multi-line\n   comment %d */\n%s" % (self.n, blocks[0])
        elif com < 0.5:
            blocks[0] = "// c-style comment %d\n%s" % (self.n, blocks[0])
        return "\n\n".join(blocks) + "\n\n"


def worst(case, target):
    """One huge construct of about `target` bytes: (main text, companion variables.tf or None)."""
    body = []
    n = 0

    def fill(item, sep=", "):
        nonlocal n
        i = 0
        while n < target:
            t = item(i) + sep
            body.append(t)
            n += len(t)
            i += 1
        return "".join(body)

    prims = lambda i: ("%d" % i, '"s%d"' % i, "true", "%d.5" % i, "null")[i % 5]
    if case == "list-int":
        return "locals {\n  l = [%s0]\n}\n" % fill(lambda i: "%d" % i), None
    if case == "list-tight":
        # The fewest bytes per element: one digit and a comma.
        return "locals {\n  l = [%s0]\n}\n" % fill(lambda i: "%d" % (i % 10), ","), None
    if case == "list-empty":
        return "locals {\n  l = [%s[]]\n}\n" % fill(lambda i: ("[]", "{}")[i % 2], ","), None
    if case == "list-refs":
        return "locals {\n  a = 1\n  l = [%slocal.a]\n}\n" % fill(lambda i: "local.a", ","), None
    if case == "list-str":
        return "locals {\n  l = [%s\"\"]\n}\n" % fill(lambda i: '"item-%d"' % i), None
    if case == "list-mixed":
        return "locals {\n  l = [%s0]\n}\n" % fill(prims), None
    if case == "list-nested":
        return "locals {\n  l = [%s[0]]\n}\n" % fill(lambda i: "[%d, [%d, \"x\"]]" % (i, i)), None
    if case == "list-objects":
        return "locals {\n  l = [%s{}]\n}\n" % fill(lambda i: "{a = %d, b%d = \"x\"}" % (i, i % 7)), None
    if case == "object":
        return "locals {\n  o = {\n%s  }\n}\n" % fill(lambda i: "    k%d = %s" % (i, prims(i)), "\n"), None
    if case == "var-tuple":
        # A tuple type as long as its default, element for element.
        tys, vals = [], []
        while n < target:
            i = len(tys)
            tys.append(("number", "string", "bool")[i % 3])
            vals.append(("%d" % i, '"s%d"' % i, "true")[i % 3])
            n += len(tys[-1]) + len(vals[-1]) + 4
        return ('variable "v" {\n  type    = tuple([%s])\n  default = [%s]\n}\n'
                % (", ".join(tys), ", ".join(vals))), None
    if case == "var-list":
        return ('variable "v" {\n  type    = list(number)\n  default = [%s0]\n}\n'
                % fill(lambda i: ('%d' % i, '"%d"' % i)[i % 2])), None
    if case == "template":
        return ('variable "x" {}\nlocals {\n  t = "%s"\n}\n'
                % fill(lambda i: "w%d ${var.x}" % i, " ")), None
    if case == "heredoc":
        return ('variable "x" {}\nlocals {\n  t = <<EOT\n%sEOT\n}\n'
                % fill(lambda i: "line %d ${var.x}" % i, "\n")), None
    if case == "tfvars-list":
        return ("l = [%s0]\n" % fill(lambda i: ('%d' % i, '"%d"' % i)[i % 2]),
                'variable "l" {\n  type = list(number)\n}\n')
    if case == "for":
        return "locals {\n  f = [for x in [%s0] : x]\n}\n" % fill(prims), None
    if case == "blocks":
        return fill(lambda i: 'resource "null_resource" "r%d" {}' % i, "\n"), None
    if case == "locals":
        return "locals {\n%s}\n" % fill(lambda i: "  a%d = %s" % (i, prims(i)), "\n"), None
    if case == "refs":
        return "locals {\n  a0 = 1\n%s}\n" % fill(lambda i: "  a%d = [local.a%d]" % (i + 1, i), "\n"), None
    raise SystemExit("unknown --worst case %r; one of: %s" % (case, " ".join(WORST)))


WORST = ["list-tight", "list-empty", "list-refs", "list-int", "list-str", "list-mixed", "list-nested", "list-objects", "object",
         "var-tuple", "var-list", "template", "heredoc", "tfvars-list", "for", "blocks",
         "locals", "refs"]


def parse_size(s):
    s = s.strip().upper()
    for suf, m in (("KB", 1000), ("MB", 1000**2), ("GB", 1000**3), ("K", 1000), ("M", 1000**2)):
        if s.endswith(suf):
            return int(float(s[: -len(suf)]) * m)
    return int(s)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", default="100KB", help="target size in bytes (suffix KB/MB = 10^3/10^6)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--out", default="-", help="output file (default stdout)")
    ap.add_argument("--ts-compat", action="store_true",
                    help="write exponents as 1.0e6, not 1e6 (tree-sitter-hcl rejects the latter)")
    ap.add_argument("--worst", metavar="CASE",
                    help="one pathological construct instead (`--worst list` names them)")
    a = ap.parse_args()
    target = parse_size(a.size)
    if a.worst == "list":
        print("\n".join(WORST))
        return
    if a.worst:
        text, companion = worst(a.worst, target)
        if a.out == "-":
            sys.stdout.write(text)
            return
        with open(a.out, "w") as f:
            f.write(text)
        if companion is not None:
            with open(os.path.join(os.path.dirname(os.path.abspath(a.out)), "variables.tf"), "w") as f:
                f.write(companion)
        return
    g = Gen(a.seed, a.ts_compat)
    parts, n = ["# generated by gen_hcl.py --size %s --seed %d%s\n\n" % (
        a.size, a.seed, " --ts-compat" if a.ts_compat else "")], 0
    while n < target:
        c = g.chunk()
        parts.append(c)
        n += len(c.encode("utf-8"))
    data = "".join(parts).encode("utf-8")
    if a.out == "-":
        sys.stdout.buffer.write(data)
    else:
        with open(a.out, "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
