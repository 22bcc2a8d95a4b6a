//! Issue 31.3's spike: would salsa (rust-analyzer's and nil's incremental
//! engine) serve a keystroke in one large module within the targets (5 ms
//! p50, 16 ms p99 of server time at 10 MB), before any real analysis work?
//!
//! The model keeps the shape of hcl-types' analysis and salsa's idiomatic
//! granularity, with trivial work per query, so what is measured is
//! salsa's own bookkeeping: one input per top-level item (hcl-types already
//! splits a file into items and re-parses only the edited ones), a tracked
//! declaration per item, the module's name table built from them, one
//! interned lookup per name read (so a check re-runs only when a type it
//! read changed: salsa's backdating), a check per item, and the module's
//! diagnostics gathered from every check (what a publication needs).
//!
//! Per keystroke: the edited item's text is set (a new revision) and the
//! module's diagnostics are asked for. Two kinds: a value edit that keeps
//! every declared type (most keystrokes), and one that changes the type
//! of a name others read.
//!
//! `cargo run --release` (sizes as item counts: `SPIKE_ITEMS=20000,100000`).

use salsa::Setter;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

#[salsa::db]
#[derive(Default, Clone)]
struct Db {
    storage: salsa::Storage<Self>,
}

#[salsa::db]
impl salsa::Database for Db {}

#[salsa::input]
struct Module {
    #[returns(ref)]
    items: Vec<Item>,
}

#[salsa::input]
struct Item {
    module: Module,
    #[returns(ref)]
    text: String,
}

#[salsa::interned]
struct Name<'db> {
    module: Module,
    #[returns(ref)]
    name: String,
}

/// A type, as the model infers one from a literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, salsa::Update)]
enum Ty {
    Number,
    String,
    Bool,
}

fn literal(v: &str) -> Ty {
    if v.starts_with('"') {
        Ty::String
    } else if v == "true" || v == "false" {
        Ty::Bool
    } else {
        Ty::Number
    }
}

/// `name = value ; reads a b c`: the item declares `name` with the type of
/// `value`, and reads the names after `reads`.
fn split(text: &str) -> (&str, &str, Vec<&str>) {
    let (decl, reads) = text.split_once(" ; reads ").unwrap_or((text, ""));
    let (name, value) = decl.split_once(" = ").unwrap_or((decl, ""));
    (name.trim(), value.trim(), reads.split_whitespace().collect())
}

#[salsa::tracked]
fn decl(db: &dyn salsa::Database, item: Item) -> (String, Ty) {
    let (name, value, _) = split(item.text(db));
    (name.to_string(), literal(value))
}

#[salsa::tracked(returns(ref))]
fn names(db: &dyn salsa::Database, module: Module) -> Arc<HashMap<String, Ty>> {
    Arc::new(module.items(db).iter().map(|&i| decl(db, i)).collect())
}

#[salsa::tracked]
fn lookup<'db>(db: &'db dyn salsa::Database, name: Name<'db>) -> Option<Ty> {
    names(db, name.module(db)).get(name.name(db).as_str()).copied()
}

#[salsa::tracked(returns(ref))]
fn check(db: &dyn salsa::Database, item: Item) -> Vec<String> {
    let (_, value, reads) = split(item.text(db));
    let mut out = Vec::new();
    let want = literal(value);
    for r in reads {
        match lookup(db, Name::new(db, item.module(db), r.to_string())) {
            None => out.push(format!("undefined {r}")),
            Some(t) if t != want => out.push(format!("{r} is {t:?}, not {want:?}")),
            Some(_) => {}
        }
    }
    out
}

#[salsa::tracked(returns(ref))]
fn diagnostics(db: &dyn salsa::Database, module: Module) -> Vec<(usize, Vec<String>)> {
    let items = module.items(db);
    items.iter().enumerate().filter_map(|(k, &i)| Some((k, check(db, i).clone())).filter(|d| !d.1.is_empty())).collect()
}

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

fn item_text(k: usize, value: &str, rng: &mut Rng, n: usize) -> String {
    // Each item reads three earlier names, as locals and resources do.
    let reads: Vec<String> = (0..3).map(|_| format!("n{}", rng.below(k.max(1)))).collect();
    format!("n{k} = {value} ; reads {}", reads.join(" ")).replace(&format!("n{n}"), "n0")
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn run(n: usize, edits: usize) {
    let mut rng = Rng(0x9e3779b97f4a7c15);
    let mut db = Db::default();
    let module = Module::new(&db, Vec::new());
    let texts: Vec<String> = (0..n).map(|k| item_text(k, "1", &mut rng, n)).collect();
    let items: Vec<Item> = texts.into_iter().map(|t| Item::new(&db, module, t)).collect();
    module.set_items(&mut db).to(items.clone());
    let start = Instant::now();
    let first = diagnostics(&db, module).len();
    let full = start.elapsed().as_secs_f64() * 1e3;
    let mut times = [Vec::new(), Vec::new()];
    for e in 0..edits {
        let k = rng.below(n);
        // Even edits keep the type (`1` → `12`), odd ones change it (a
        // number becomes a string, and back).
        let kind = e % 2;
        let old = items[k].text(&db).clone();
        let value = match kind {
            0 => format!("{}", rng.below(1000)),
            _ if old.contains("= \"") => "1".to_string(),
            _ => "\"s\"".to_string(),
        };
        let (_, _, reads) = split(&old);
        let text = format!("n{k} = {value} ; reads {}", reads.join(" "));
        let t = Instant::now();
        items[k].set_text(&mut db).to(text);
        let d = diagnostics(&db, module).len();
        times[kind].push(t.elapsed().as_secs_f64() * 1e3);
        std::hint::black_box(d);
    }
    for (kind, name) in [(0, "value edit, types kept"), (1, "a declared type changes")] {
        let t = &mut times[kind];
        t.sort_by(f64::total_cmp);
        println!(
            "{n:>7} items | {name:<24} | p50 {:>8.3} ms | p99 {:>8.3} ms | first run {full:>8.1} ms ({first} items with diagnostics)",
            percentile(t, 0.5),
            percentile(t, 0.99)
        );
    }
}

fn main() {
    let sizes = std::env::var("SPIKE_ITEMS").unwrap_or_else(|_| "1000,20000,100000".into());
    let edits = std::env::var("SPIKE_EDITS").ok().and_then(|e| e.parse().ok()).unwrap_or(200);
    for n in sizes.split(',').filter_map(|s| s.trim().parse().ok()) {
        run(n, edits);
    }
}
