//! The `moved` block that keeps state when a resource or module call is
//! renamed (Terraform's refactoring, `docs/language/modules/develop/
//! refactoring`: "moved { from = … to = … }"): offered with a rename of
//! its name, to be confirmed (lsp.md, rename). Data sources have no state
//! to keep: none for them.

use std::ops::Range;
use std::path::PathBuf;

use crate::actions::appended;
use crate::references::{occurrences, symbol_at, Found, Module, Symbol};

/// The `moved` block a rename of the resource or module call under the
/// cursor to `new_name` would want: the file that declares it, the range
/// (its end) and the text to insert there. `None` for anything else, or
/// an unchanged name.
pub fn moved_block(
    mods: &[Module],
    m: usize,
    doc: usize,
    offset: usize,
    new_name: &str,
) -> Option<(PathBuf, Range<usize>, String)> {
    let offset = mods.get(m)?.docs.get(doc)?.offset_from_shown(offset);
    let Found::Symbol(owner, s, _) = symbol_at(mods, m, doc, offset)? else { return None };
    let (from, to) = match &s {
        Symbol::Resource(t, n) if n != new_name => (format!("{t}.{n}"), format!("{t}.{new_name}")),
        Symbol::Module(n) if n != new_name => (format!("module.{n}"), format!("module.{new_name}")),
        _ => return None,
    };
    let declared = occurrences(mods, owner, &s).into_iter().find(|r| r.declaration)?;
    let d = mods[owner].docs.iter().find(|d| d.file.path == declared.path)?;
    let end = d.file.text.len();
    let block = format!("moved {{\n  from = {from}\n  to   = {to}\n}}\n");
    Some((declared.path, end..end, appended(&d.file.text, &block)))
}
