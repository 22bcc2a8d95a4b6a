"""Seeded random module calls for the differential test of issue 14
(test_module_calls.py): child modules whose variables have random types,
defaults and `nullable`, and calls that pass them constants right and wrong
for the type, references to typed root variables, locals and other calls'
outputs, leave required arguments out, misspell names and add
meta-arguments.

A batch is one root module (`main.tf`) with one child directory per call
(`c<i>/main.tf`). Every argument, variable block and meta-argument knows its
line span, so a batch can be written again with some of them commented out
(same lines, `# ` in front) when Terraform's loader must be silenced to reach
its evaluation (see test_module_calls.py).
"""

import random
import re

from hcltext import split_top

PRIMITIVES = ["string", "number", "bool"]
VAR_NAMES = [
    "name", "region", "instance_count", "tags", "subnets", "enabled", "vpc_id", "cidr_blocks",
    "settings", "ports", "labels", "zone", "image", "replicas", "policy", "rules", "owner",
    "retention_days", "environment", "network", "disk_size", "features", "users", "endpoint",
]
ATTR_NAMES = ["id", "cidr", "public", "size", "kind", "items", "port", "opts", "note", "weight"]
META = ["source", "version", "count", "for_each", "providers", "depends_on"]

# Root variables: always unknown while Terraform validates, so only their
# types decide. Locals are known constants, so their values decide.
ROOT_VARIABLES = {
    "rv_string": "string",
    "rv_number": "number",
    "rv_bool": "bool",
    "rv_list_string": "list(string)",
    "rv_set_number": "set(number)",
    "rv_map_number": "map(number)",
    "rv_object": "object({id = string, size = number})",
    "rv_tuple": "tuple([string, bool])",
    "rv_untyped": None,
}
LOCALS = {
    "l_word": '"hello"',
    "l_numeric": '"5"',
    "l_truthy": '"true"',
    "l_number": "3",
    "l_bool": "false",
    "l_list": '["a", "b"]',
    "l_numbers": "[1, 2]",
    "l_object": '{ id = "x", size = 2 }',
    "l_map": '{ a = "1", b = "2" }',
    "l_null": "null",
}
# for_each values, with the first instance's each.key and each.value (every
# instance's would convert the same way).
FOR_EACH = [
    ('{ a = "x", b = "y" }', ('"a"', '"x"')),
    ("{ one = 1 }", ('"one"', "1")),
    ('toset(["p", "q"])', ('"p"', '"p"')),
    ("{ on = true, off = false }", ('"off"', "false")),
]
# References whose values Terraform knows at plan: validate knows locals
# only, but the test shows it the others' values (Root.texts(inline)).
KNOWN = re.compile(r"\b(local|module\.dep|each)\.")
# The outputs of the module every root calls first (`module.dep`), read by
# other calls: a call of its own that never fails, since Terraform skips
# whatever depends on a call with an error, and constants, so the test can
# show Terraform their values.
OUTPUTS = {
    "word": '"out"',
    "numeric": '"8"',
    "number": "7",
    "flag": "true",
    "list": '["p", "q"]',
    "object": '{ id = "o", size = 1 }',
    "nothing": "null",
}


def random_type(r, depth=0):
    """A type as a tree: a primitive or "any" (str), or ("list"|"set"|"map",
    T), ("tuple", [T]), ("object", [(name, T, optional, default text or None)])."""
    k = r.randrange(12)
    if depth >= 3 or k < 4:
        return r.choice(PRIMITIVES)
    if k == 4:
        return "any"
    if k < 8:
        return (r.choice(["list", "list", "set", "map", "map"]), random_type(r, depth + 1))
    if k == 8:
        return ("tuple", [random_type(r, depth + 1) for _ in range(r.randrange(1, 4))])
    attrs = []
    for name in r.sample(ATTR_NAMES, r.randrange(1, 4)):
        t = random_type(r, depth + 1)
        # An `any` attribute is always optional: our types cannot tell `any`
        # from `optional(any)` (they normalise alike), so we cannot know that
        # an object lacking a required `any` attribute fails, as Terraform
        # says (test_any_in_collections avoids it too).
        opt = r.random() < 0.4 or t == "any"
        default = fitting(r, t, depth + 1) if opt and r.random() < 0.4 else None
        attrs.append((name, t, opt, default))
    return ("object", attrs)


def render_type(t):
    if isinstance(t, str):
        return t
    kind = t[0]
    if kind in ("list", "set", "map"):
        return f"{kind}({render_type(t[1])})"
    if kind == "tuple":
        return "tuple([" + ", ".join(render_type(e) for e in t[1]) + "])"
    parts = []
    for name, at, opt, default in t[1]:
        s = render_type(at)
        if opt:
            s = f"optional({s}, {default})" if default is not None else f"optional({s})"
        parts.append(f"{name} = {s}")
    return "object({" + ", ".join(parts) + "})"


def primitive_value(r, t):
    return {
        "string": lambda: r.choice(['"a"', '"web"', '"10.0.0.0/16"']),
        "number": lambda: r.choice(["1", "0", "2.5", "443"]),
        "bool": lambda: r.choice(["true", "false"]),
    }[t]()


def fitting(r, t, depth=0):
    """A constant that converts to `t` for certain (defaults need one)."""
    if isinstance(t, str):
        if t == "any":
            # Deeper down it may be inside a collection, whose elements
            # must unify: always a string there.
            return r.choice(['"a"', "1", "true", '["a", "b"]', "{ k = 1 }"]) if depth == 0 else '"a"'
        return primitive_value(r, t)
    kind = t[0]
    # An empty collection with `any` inside may not unify with its siblings.
    least = 1 if has_any(t) else 0
    if kind in ("list", "set"):
        return "[" + ", ".join(fitting(r, t[1], depth + 1) for _ in range(r.randrange(least, 3))) + "]"
    if kind == "map":
        keys = r.sample(["a", "b", "c"], r.randrange(least, 3))
        return "{" + ", ".join(f"{k} = {fitting(r, t[1], depth + 1)}" for k in keys) + "}"
    if kind == "tuple":
        return "[" + ", ".join(fitting(r, e, depth + 1) for e in t[1]) + "]"
    # An absent `optional(any)` attribute is a null of no type, which does
    # not unify with a given one (in a set, say): those are always given.
    given = [(n, at) for n, at, opt, _ in t[1] if not opt or has_any(at) or r.random() < 0.5]
    parts = [f"{n} = {fitting(r, at, depth + 1)}" for n, at in given]
    return "{" + ", ".join(parts) + "}"


def has_any(t):
    if isinstance(t, str):
        return t == "any"
    if t[0] == "tuple":
        return any(has_any(e) for e in t[1])
    if t[0] == "object":
        return any(has_any(at) for _, at, _, _ in t[1])
    return has_any(t[1])


# Constants of the wrong kind (or convertible only sometimes) for each type.
WRONG = {
    "string": ["{}", "[]", '["a"]', "{ a = 1 }", "true", "12", "null"],
    "number": ['"abc"', '"5"', '"0x10"', "true", "[]", "{}", '"1e3"', "null"],
    "bool": ['"yes"', '"true"', '"1"', '"0"', "1", "0", "[]", '"False"', "null"],
}
ANY_VALUES = ['"a"', "1", "true", "null", '["a", 1]', "[1, {}]", "[]", "{}", '{ k = "v" }', "[[1], [\"a\"]]"]


def near(r, t, p, depth=0):
    """A constant shaped like `t`, each part replaced by something wrong for
    it with probability `p` (wrong elements may sit deep inside)."""
    if depth > 5:
        return r.choice(WRONG["string"])
    if isinstance(t, str):
        if t == "any":
            return r.choice(ANY_VALUES)
        if r.random() < p:
            return r.choice(WRONG[t])
        return primitive_value(r, t)
    kind = t[0]
    if r.random() < p / 3:  # the whole collection of the wrong kind
        return r.choice(['"x"', "1", "[]", "{}", "true", "null", '{ a = "b" }', '["a"]'])
    if kind in ("list", "set"):
        elems = [near(r, t[1], p, depth + 1) for _ in range(r.randrange(0, 4))]
        return "[" + ", ".join(elems) + "]"
    if kind == "map":
        keys = r.sample(["a", "b", "c", "d"], r.randrange(0, 4))
        return "{" + ", ".join(f"{k} = {near(r, t[1], p, depth + 1)}" for k in keys) + "}"
    if kind == "tuple":
        elems = list(t[1])
        if r.random() < p / 2:
            elems = elems[:-1] if len(elems) > 1 and r.random() < 0.5 else elems + ["any"]
        return "[" + ", ".join(near(r, e, p, depth + 1) for e in elems) + "]"
    parts = []
    for name, at, opt, _ in t[1]:
        if r.random() < (0.4 if opt else p / 2):
            continue  # an optional attribute left out, or a required one missing
        value = "null" if r.random() < p / 3 else near(r, at, p, depth + 1)
        parts.append(f"{name} = {value}")
    if r.random() < p / 2:
        parts.append(f"{r.choice(['extra', 'idd', 'sizes'])} = {r.choice(['1', 'true', chr(34) + 'z' + chr(34)])}")
    return "{" + ", ".join(parts) + "}"


# Expressions of unknown values (root variables) whose types Terraform
# still knows while validating: traversals, function calls, templates,
# conditionals. (Not for expressions, concat() or tolist(): of an unknown
# collection their result has no type until plan.)
EXPRESSIONS = [
    "var.rv_object.id",
    "var.rv_object.size",
    'var.rv_map_number["a"]',
    "var.rv_tuple[1]",
    "var.rv_list_string[0]",
    "length(var.rv_list_string)",
    "tostring(var.rv_number)",
    'lookup(var.rv_map_number, "a", 0)',
    'coalesce(var.rv_string, "x")',
    '"${var.rv_string}-x"',
    "var.rv_bool ? var.rv_number : 0",
    'var.rv_bool ? "a" : 1',
    "var.rv_bool ? var.rv_list_string : []",
    "!var.rv_bool",
    "var.rv_number + 1",
    'var.rv_string == "a"',
    'merge(var.rv_map_number, { z = 1 })',
    'keys(var.rv_map_number)',
    "var.rv_untyped",
]


def reference(r, t, call):
    """An expression that reads something typed: a root variable (alone or
    in an EXPRESSIONS form), a local, `module.dep`'s output, count.index or
    each.*, alone or inside a collection shaped like `t`."""
    options = [f"var.{n}" for n in ROOT_VARIABLES] + [f"local.{n}" for n in LOCALS]
    options += [f"module.dep.{n}" for n in OUTPUTS] + EXPRESSIONS
    if call.count:
        options += ["count.index"] * 3
    if call.for_each:
        options += ["each.key", "each.value", "each.value"]
    ref = r.choice(options)
    if not isinstance(t, str) and r.random() < 0.4:
        kind = t[0]
        if kind in ("list", "set"):
            return f"[{ref}]"
        if kind == "map":
            return f"{{ a = {ref} }}"
        if kind == "tuple":
            return "[" + ", ".join([ref] + [fitting(r, e) for e in t[1][1:]]) + "]"
        attrs = [f"{n} = {ref if i == 0 else fitting(r, at)}" for i, (n, at, _, _) in enumerate(t[1])]
        return "{" + ", ".join(attrs) + "}"
    return ref


def near_miss(r, name, taken):
    """A misspelling of `name` that names nothing declared."""
    for _ in range(20):
        i = r.randrange(len(name))
        op = r.randrange(4)
        if op == 0 and len(name) > 2:
            s = name[:i] + name[i + 1 :]
        elif op == 1 and i + 1 < len(name):
            s = name[:i] + name[i + 1] + name[i] + name[i + 2 :]
        elif op == 2:
            s = name[:i] + r.choice("aeiostx") + name[i + 1 :]
        else:
            s = name[:i] + r.choice("aeiostx_") + name[i:]
        if s not in taken and s[0].isalpha():
            return s
    return name + "_x"


class Variable:
    def __init__(self, r, name):
        self.name = name
        k = r.random()
        self.type = None if k < 0.12 else "any" if k < 0.2 else random_type(r)
        k = r.random()
        self.nullable_false = r.random() < 0.15
        if k < 0.5:
            self.default = None  # required
        elif k < 0.62 and not self.nullable_false:
            self.default = "null"
        else:
            self.default = fitting(r, self.type if self.type is not None else "any")

    def lines(self):
        out = [f'variable "{self.name}" {{']
        if self.type is not None:
            out.append(f"  type = {render_type(self.type)}")
        if self.default is not None:
            out.append(f"  default = {self.default}")
        if self.nullable_false:
            out.append("  nullable = false")
        return out + ["}"]


class Call:
    """One `module "m<i>"` block and its child directory `c<i>`."""

    def __init__(self, r, index):
        self.index = index
        self.name = f"m{index}"
        self.dir = f"c{index}"
        self.variables = [Variable(r, n) for n in r.sample(VAR_NAMES, r.randrange(1, 6))]
        k = r.random()
        self.count = k < 0.1
        self.for_each = 0.1 <= k < 0.2
        meta = []
        if self.count:
            meta.append(("count", r.choice(["2", "0", "1"])))
        self.each = None
        if self.for_each:
            text, self.each = r.choice(FOR_EACH)
            meta.append(("for_each", text))
        if r.random() < 0.1:
            meta.append(("depends_on", "[module.dep]"))
        if r.random() < 0.06:
            meta.append(("providers", "{}"))
        if r.random() < 0.03:
            meta.append(("version", '"1.0.0"'))
        self.meta = meta
        args = []
        for v in self.variables:
            if r.random() < 0.15:
                continue  # left out: missing if required
            t = v.type if v.type is not None else "any"
            k = r.random()
            if k < 0.1:
                value = "null"
            elif k < 0.3:
                value = reference(r, t, self)
            elif k < 0.45:
                value = fitting(r, t)
            else:
                value = near(r, t, r.choice([0.1, 0.25, 0.5]))
            args.append((v.name, value))
        taken = {v.name for v in self.variables} | set(META)
        for _ in range(r.choice([0, 0, 0, 0, 0, 1, 1, 2])):
            if r.random() < 0.75:
                base = r.choice([v.name for v in self.variables] + ["count", "depends_on"])
                name = near_miss(r, base, taken)
            else:
                name = r.choice(["unrelated", "xyz", "something_else"])
                if name in taken:
                    continue
            taken.add(name)
            args.append((name, r.choice(['"v"', "1", "true", "[]"])))
        r.shuffle(args)
        self.args = args
        self.multiline = {name for name, value in args if value.startswith("{") and value.count("=") > 1 and r.random() < 0.4}

    def variable(self, name):
        return next((v for v in self.variables if v.name == name), None)


def generate(seed, count, per_root):
    """`count` calls in batches of `per_root` (one root each)."""
    r = random.Random(seed)
    batches = []
    for at in range(0, count, per_root):
        batches.append([Call(r, i) for i in range(min(per_root, count - at))])
    return batches


def split_object(value):
    """The top-level `name = value` parts of an object constant."""
    return split_top(value.strip()[1:-1])


class Root:
    """A batch's text with the line span of everything in it.

    spans: ("arg", call, name) / ("meta", call, name) / ("header", call) /
    ("block", call) → (first line, last line) of main.tf;
    child_spans[call][name] → the variable block's lines in c<i>/main.tf."""

    def __init__(self, calls):
        self.calls = calls
        lines = []
        for name, t in ROOT_VARIABLES.items():
            lines.append(f'variable "{name}" {{ type = {t} }}' if t else f'variable "{name}" {{}}')
        lines.append("locals {")
        lines += [f"  {n} = {v}" for n, v in LOCALS.items()]
        lines.append("}")
        lines += ["", 'module "dep" {', '  source = "./dep"', "}"]
        self.dep = [f'output "{n}" {{ value = {v} }}' for n, v in OUTPUTS.items()]
        spans = {}
        for c in calls:
            lines.append("")
            start = len(lines) + 1
            lines.append(f'module "{c.name}" {{')
            spans[("header", c.index)] = (start, start)
            lines.append(f'  source = "./{c.dir}"')
            spans[("meta", c.index, "source")] = (len(lines), len(lines))
            for name, value in c.meta:
                lines.append(f"  {name} = {value}")
                spans[("meta", c.index, name)] = (len(lines), len(lines))
            for name, value in c.args:
                first = len(lines) + 1
                if name in c.multiline:
                    lines.append(f"  {name} = {{")
                    lines += [f"    {part}" for part in split_object(value)]
                    lines.append("  }")
                else:
                    lines.append(f"  {name} = {value}")
                spans[("arg", c.index, name)] = (first, len(lines))
            lines.append("}")
            spans[("block", c.index)] = (start, len(lines))
        self.lines = lines
        self.spans = spans
        self.child_lines, self.child_spans = [], []
        for c in calls:
            cl, cs = [], {}
            for v in c.variables:
                first = len(cl) + 1
                cl += v.lines()
                cs[v.name] = (first, len(cl))
            self.child_lines.append(cl)
            self.child_spans.append(cs)

    def texts(self, silenced=frozenset(), inline=False):
        """(main.tf, [c<i>/main.tf]) with the spans in `silenced` (keys of
        spans, or ("variable", call, name)) commented out line for line;
        with `inline`, `module.dep.*`, `each.key` and `each.value` replaced
        by their values (on the same lines): `terraform validate` takes
        them as unknown, `plan` would not."""
        root = list(self.lines)
        if inline:
            for c in self.calls:
                a, b = self.spans[("block", c.index)]
                for n in range(a - 1, b):
                    line = re.sub(r"module\.dep\.(\w+)", lambda m: OUTPUTS[m.group(1)], root[n])
                    if c.each:
                        line = line.replace("each.key", c.each[0]).replace("each.value", c.each[1])
                    root[n] = line
        children = [list(cl) for cl in self.child_lines]
        for key in silenced:
            if key[0] == "variable":
                a, b = self.child_spans[key[1]][key[2]]
                target = children[key[1]]
            else:
                a, b = self.spans[key]
                target = root
            for n in range(a - 1, b):
                target[n] = "# " + target[n]
        return "\n".join(root) + "\n", ["\n".join(cl) + "\n" for cl in children]

    def call_at(self, line):
        """The call whose block holds `line`, or None."""
        for c in self.calls:
            a, b = self.spans[("block", c.index)]
            if a <= line <= b:
                return c
        return None

    def known(self, key):
        """Whether the argument `key` reads a value Terraform knows (KNOWN)."""
        a, b = self.spans[key]
        return any(KNOWN.search(line) for line in self.lines[a - 1 : b])

    def arg_at(self, call, line):
        """The argument or meta-argument of `call` whose span holds `line`."""
        for key, (a, b) in self.spans.items():
            if key[0] in ("arg", "meta") and key[1] == call.index and a <= line <= b:
                return key
        return None

    def describe(self, call):
        """The call and its child's variables, as text for a report."""
        a, b = self.spans[("block", call.index)]
        child = "\n".join(self.child_lines[call.index])
        return f"# {call.dir}/main.tf\n{child}\n# main.tf (lines {a}-{b})\n" + "\n".join(self.lines[a - 1 : b])
