//! Each scanned token classified by where it stands: a stack of frames
//! (block bodies, and the brackets and templates of expressions) read
//! left to right, one token of look-ahead. A body's statement is a name
//! then `=` (an argument) or labels then `{` (a block); an expression's
//! name is a function before `(`, a namespace before `::`, else a
//! reference whose root decides what its next steps are (`var.x`: an
//! input variable; `aws_instance.web`: a resource type and its name).

use analysis::FileKind;
use syntax::Dialect;

use super::lex::{lex_into, Lex, L};
use super::modifier::{DECLARATION, DEFAULT_LIBRARY, READONLY};
use super::{SemanticToken, TokenKind as K};

/// What a block's body holds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Body {
    /// The file itself.
    File,
    /// A top-level `locals` block: its arguments declare locals.
    Locals,
    /// A top-level block: its labels say what it declares.
    Top,
    Nested,
}

#[derive(Clone, Copy)]
enum Stmt {
    Start,
    /// A name that is an argument's or a block's, by what follows.
    Head(usize),
    /// After a block's type (the token at the index): its labels.
    Labels(usize, usize),
    Expr,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum For {
    No,
    Vars,
    Body,
}

enum Frame {
    Body(Body, Stmt),
    /// An expression's bracket, `${` or `%{` (closed by `close`).
    Expr {
        close: L,
        object: bool,
        directive: bool,
        first: bool,
        item_start: bool,
        for_: For,
    },
}

/// What a reference's root makes of its next steps.
#[derive(Clone, Copy)]
enum Root {
    Var,
    Local,
    Module,
    Data,
    Resource,
    /// `dependency.x`, `run.x`, `component.x`: a named thing, then its attributes.
    Named,
    /// `each`, `count`, `path`, …: attributes at once.
    Plain,
}

struct Classifier<'a> {
    src: &'a str,
    toks: Vec<Lex>,
    frames: Vec<Frame>,
    out: Vec<SemanticToken>,
    /// The reference being read and how many steps it has had.
    chain: Option<(Root, usize)>,
    prev: Option<L>,
    /// Names bound by the `for`s and `dynamic` blocks around, with the
    /// depth of the frame that binds them.
    bound: Vec<(usize, &'a str)>,
    tfvars: bool,
    resources: bool,
    pcl: bool,
}

/// Buffers one classification leaves for the next: a document of tens
/// of thousands of items is classified item by item without allocating
/// per item.
#[derive(Default)]
pub(super) struct Scratch {
    toks: Vec<Lex>,
    /// The tokens of the last [`classify_in`], sorted, in its text's offsets.
    pub out: Vec<SemanticToken>,
}

/// The tokens of `src`, sorted, into `s.out` (cleared first).
pub(super) fn classify_in(src: &str, kind: FileKind, dialect: Dialect, s: &mut Scratch) {
    let mut toks = std::mem::take(&mut s.toks);
    lex_into(src, &mut toks);
    let mut out = std::mem::take(&mut s.out);
    out.clear();
    let mut c = Classifier {
        src,
        out,
        toks,
        frames: vec![Frame::Body(Body::File, Stmt::Start)],
        chain: None,
        prev: None,
        bound: Vec::new(),
        tfvars: kind == FileKind::Tfvars,
        resources: matches!(kind, FileKind::Terraform | FileKind::TfTest) && dialect != Dialect::Hcl,
        pcl: kind == FileKind::Pcl,
    };
    for i in 0..c.toks.len() {
        c.token(i);
        let k = c.toks[i].kind;
        if k != L::Comment && k != L::Newline {
            c.prev = Some(k);
        }
    }
    let mut out = c.out;
    if !out.is_sorted_by(|a, b| a.range.start <= b.range.start) {
        out.sort_by_key(|t| t.range.start);
    }
    s.out = out;
    s.toks = c.toks;
}

impl<'a> Classifier<'a> {
    fn text(&self, i: usize) -> &'a str {
        let t = self.toks[i];
        &self.src[t.start as usize..t.end as usize]
    }

    fn emit(&mut self, i: usize, kind: K, modifiers: u8) {
        let t = self.toks[i];
        self.out.push(SemanticToken { range: t.start as usize..t.end as usize, kind, modifiers });
    }

    /// The kind of the next token that is not a comment.
    fn next(&self, i: usize) -> Option<L> {
        self.toks[i + 1..].iter().map(|t| t.kind).find(|k| *k != L::Comment)
    }

    fn token(&mut self, i: usize) {
        if self.toks[i].kind == L::Comment {
            self.emit(i, K::Comment, 0);
            return;
        }
        match self.frames.last() {
            Some(&Frame::Body(body, stmt)) => self.statement(i, body, stmt),
            _ => self.expr(i),
        }
    }

    fn set_stmt(&mut self, stmt: Stmt) {
        if let Some(Frame::Body(_, s)) = self.frames.last_mut() {
            *s = stmt;
        }
    }

    /// A token in a body: part of a statement's head, or of its value.
    fn statement(&mut self, i: usize, body: Body, stmt: Stmt) {
        let kind = self.toks[i].kind;
        match stmt {
            Stmt::Start => match kind {
                L::Newline => {}
                L::Ident => self.set_stmt(Stmt::Head(i)),
                L::CBrace => self.close_body(),
                _ => {
                    self.set_stmt(Stmt::Expr);
                    self.expr(i);
                }
            },
            Stmt::Head(h) => match kind {
                L::Equal => {
                    let (k, m) = self.argument(body);
                    self.emit(h, k, m);
                    self.set_stmt(Stmt::Expr);
                }
                L::Ident | L::OQuote | L::OBrace => {
                    self.emit(h, K::Type, 0);
                    self.set_stmt(Stmt::Labels(h, 0));
                    self.statement(i, body, Stmt::Labels(h, 0));
                }
                _ => {
                    self.emit(h, K::Property, 0);
                    self.set_stmt(Stmt::Expr);
                    self.statement(i, body, Stmt::Expr);
                }
            },
            Stmt::Labels(h, n) => match kind {
                L::Ident => {
                    let (k, m) = self.label(body, h, n);
                    self.emit(i, k, m);
                    self.set_stmt(Stmt::Labels(h, n + 1));
                }
                L::OQuote => {
                    // A quoted label is one token, quotes included.
                    let close = (i + 1..self.toks.len()).find(|&j| self.toks[j].kind != L::Lit);
                    match close {
                        Some(j) if self.toks[j].kind == L::CQuote => {
                            let (k, m) = self.label(body, h, n);
                            let range = self.toks[i].start as usize..self.toks[j].end as usize;
                            self.out.push(SemanticToken { range, kind: k, modifiers: m });
                            // The rest of the label is spoken for.
                            for t in &mut self.toks[i + 1..=j] {
                                t.kind = L::Other;
                            }
                            self.set_stmt(Stmt::Labels(h, n + 1));
                        }
                        _ => {
                            self.set_stmt(Stmt::Expr);
                            self.expr(i);
                        }
                    }
                }
                L::OBrace => {
                    let inner = match (body, self.text(h)) {
                        (Body::File, "locals") => Body::Locals,
                        (Body::File, _) => Body::Top,
                        _ => Body::Nested,
                    };
                    self.set_stmt(Stmt::Start);
                    self.frames.push(Frame::Body(inner, Stmt::Start));
                    // A dynamic block's iterator is named by its label.
                    if self.text(h) == "dynamic" {
                        if let Some(label) = self.out.last().filter(|_| n == 1) {
                            let name = self.src[label.range.clone()].trim_matches('"');
                            self.bound.push((self.frames.len(), name));
                        }
                    }
                }
                L::Other => {}
                L::Newline => self.set_stmt(Stmt::Start),
                _ => {
                    self.set_stmt(Stmt::Expr);
                    self.expr(i);
                }
            },
            Stmt::Expr => match kind {
                L::Newline => self.set_stmt(Stmt::Start),
                L::CBrace => self.close_body(),
                _ => self.expr(i),
            },
        }
    }

    fn close_body(&mut self) {
        if self.frames.len() > 1 {
            self.frames.pop();
            self.unbind();
        }
    }

    /// Forgets the names bound by frames that closed.
    fn unbind(&mut self) {
        let depth = self.frames.len();
        while self.bound.last().is_some_and(|(d, _)| *d > depth) {
            self.bound.pop();
        }
    }

    /// An argument's name in a body.
    fn argument(&self, body: Body) -> (K, u8) {
        match body {
            Body::Locals => (K::Variable, DECLARATION | READONLY),
            Body::File if self.tfvars => (K::Parameter, 0),
            _ => (K::Property, 0),
        }
    }

    /// Label `n` of the block whose type is token `h`, in `body`.
    fn label(&self, body: Body, h: usize, n: usize) -> (K, u8) {
        if body != Body::File {
            return (K::EnumMember, 0);
        }
        match (self.text(h), n) {
            ("variable" | "config", 0) => (K::Parameter, DECLARATION),
            ("output", 0) => (K::Property, DECLARATION),
            ("resource" | "data" | "ephemeral" | "list" | "action", 0) if self.pcl => (K::Variable, DECLARATION),
            ("resource" | "data" | "ephemeral" | "list" | "action", 0) => (K::Type, 0),
            ("resource" | "data" | "ephemeral" | "list" | "action", 1) if self.pcl => (K::Type, 0),
            ("resource" | "data" | "ephemeral" | "list" | "action", 1) => (K::Variable, DECLARATION),
            ("source", 0) => (K::Type, 0),
            ("source", 1) => (K::Variable, DECLARATION),
            ("module" | "stack", 0) => (K::Namespace, DECLARATION),
            ("provider", 0) => (K::Namespace, 0),
            ("run" | "component" | "dependency" | "include" | "unit" | "check", 0) => (K::Variable, DECLARATION),
            _ => (K::EnumMember, 0),
        }
    }

    /// A token of an expression.
    fn expr(&mut self, i: usize) {
        let kind = self.toks[i].kind;
        let after_dot = self.prev == Some(L::Dot);
        if kind != L::Ident && kind != L::Dot {
            self.chain = None;
        }
        let depth = self.frames.len();
        let mut item_start = false;
        match kind {
            L::Ident => self.ident(i, after_dot),
            L::Number => self.emit(i, K::Number, 0),
            L::OQuote | L::CQuote | L::Lit | L::OHeredoc | L::CHeredoc => self.emit(i, K::String, 0),
            L::Interp | L::Control => {
                self.emit(i, K::Operator, 0);
                self.push(L::TemplateEnd, false, kind == L::Control);
            }
            L::OBrace => self.push(L::CBrace, true, false),
            L::OBrack => self.push(L::CBrack, false, false),
            L::OParen => self.push(L::CParen, false, false),
            L::TemplateEnd | L::CBrace | L::CBrack | L::CParen => {
                if kind == L::TemplateEnd {
                    self.emit(i, K::Operator, 0);
                }
                self.close(kind);
            }
            L::Op | L::Question | L::Colon => self.emit(i, K::Operator, 0),
            L::Comma | L::Newline => item_start = true,
            _ => {}
        }
        // The token was an item of the frame it stood in: the outer one
        // of a bracket it opened or closed.
        let at = depth.min(self.frames.len()).saturating_sub(1);
        if let Some(Frame::Expr { first, item_start: s, .. }) = self.frames.get_mut(at) {
            *s = item_start || (kind == L::Newline && *s);
            *first &= kind == L::Newline;
        }
    }

    fn push(&mut self, close: L, object: bool, directive: bool) {
        self.frames.push(Frame::Expr { close, object, directive, first: true, item_start: true, for_: For::No });
    }

    /// Closes the innermost bracket `kind` closes; a `}` with none open
    /// closes the body it stands in.
    fn close(&mut self, kind: L) {
        while let Some(Frame::Expr { close, .. }) = self.frames.last() {
            let matched = *close == kind;
            self.frames.pop();
            self.unbind();
            if matched {
                return;
            }
        }
        if kind == L::CBrace {
            self.close_body();
        }
    }

    fn ident(&mut self, i: usize, after_dot: bool) {
        if after_dot {
            let (k, m) = match &mut self.chain {
                Some((root, n)) => {
                    *n += 1;
                    step(*root, *n)
                }
                None => (K::Property, 0),
            };
            self.emit(i, k, m);
            return;
        }
        let next = self.next(i);
        // Keywords and object keys, by the bracket the name stands in.
        if let Some(&Frame::Expr { object, directive, first, item_start, for_, .. }) = self.frames.last() {
            let known = match (for_, self.text(i)) {
                (For::No, "for") if first => Some((K::Keyword, 0, For::Vars)),
                (For::No, _) if first && directive => Some((K::Keyword, 0, For::No)),
                (For::Vars, "in") => Some((K::Keyword, 0, For::Body)),
                (For::Vars, _) => Some((K::Variable, DECLARATION, For::Vars)),
                (For::Body, "if") => Some((K::Keyword, 0, For::Body)),
                _ if object && item_start && matches!(next, Some(L::Equal | L::Colon)) => Some((K::Property, 0, for_)),
                _ => None,
            };
            if let Some((kind, modifiers, then)) = known {
                if modifiers == DECLARATION {
                    self.bound.push((self.frames.len(), self.text(i)));
                }
                if let Some(Frame::Expr { for_, .. }) = self.frames.last_mut() {
                    *for_ = then;
                }
                self.emit(i, kind, modifiers);
                return;
            }
        }
        let text = self.text(i);
        if matches!(text, "true" | "false" | "null") {
            self.emit(i, K::Keyword, 0);
            return;
        }
        let namespaced = self.prev == Some(L::DoubleColon);
        match next {
            Some(L::OParen) => {
                let m = if namespaced { 0 } else { DEFAULT_LIBRARY };
                self.emit(i, K::Function, m);
            }
            Some(L::DoubleColon) => self.emit(i, K::Namespace, 0),
            Some(L::Dot) => {
                let (root, k, m) = match text {
                    "var" => (Root::Var, K::Namespace, DEFAULT_LIBRARY),
                    "local" => (Root::Local, K::Namespace, DEFAULT_LIBRARY),
                    "module" => (Root::Module, K::Namespace, DEFAULT_LIBRARY),
                    "data" | "ephemeral" => (Root::Data, K::Namespace, DEFAULT_LIBRARY),
                    "dependency" | "include" | "run" | "component" | "stack" | "source" | "build" | "provider" => {
                        (Root::Named, K::Namespace, DEFAULT_LIBRARY)
                    }
                    "each" | "count" | "self" | "path" | "terraform" | "values" | "feature" | "output" => {
                        (Root::Plain, K::Namespace, DEFAULT_LIBRARY)
                    }
                    _ if self.bound.iter().any(|(_, b)| *b == text) => (Root::Plain, K::Variable, 0),
                    _ if self.resources => (Root::Resource, K::Type, 0),
                    _ => (Root::Plain, K::Variable, 0),
                };
                self.chain = Some((root, 0));
                self.emit(i, k, m);
            }
            _ => self.emit(i, K::Variable, 0),
        }
    }
}

/// Step `n` (from 1) of a reference from `root`.
fn step(root: Root, n: usize) -> (K, u8) {
    match (root, n) {
        (Root::Var, 1) => (K::Parameter, 0),
        (Root::Local, 1) => (K::Variable, READONLY),
        (Root::Module, 1) => (K::Namespace, 0),
        (Root::Data, 1) => (K::Type, 0),
        (Root::Data, 2) | (Root::Resource, 1) | (Root::Named, 1) => (K::Variable, 0),
        _ => (K::Property, 0),
    }
}
