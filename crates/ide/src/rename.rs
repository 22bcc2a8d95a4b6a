//! Prepare rename and rename: the edits that give the symbol under the
//! cursor a new name everywhere [`crate::references`] finds it.

use std::ops::Range;
use std::path::PathBuf;

use crate::references::{occurrences, symbol_at, Found, Module};

/// The range of the name a rename at the cursor replaces, or why none can.
pub fn prepare_rename(mods: &[Module], m: usize, doc: usize, offset: usize) -> Result<Range<usize>, String> {
    // (In a JSON file, the offset is the JSON's: the answer is a refusal.)
    let offset = mods.get(m).and_then(|md| md.docs.get(doc)).map_or(offset, |d| d.offset_from_shown(offset));
    match symbol_at(mods, m, doc, offset) {
        Some(Found::Symbol(owner, s, range)) => {
            if !mods[owner].editable {
                return Err(
                    "the name is declared in a module outside the workspace folders or installed by `init`".into()
                );
            }
            // A name without a declaration (a provider alias `aws.east`
            // read as a resource, a misspelt reference): renaming its uses
            // alone would break them.
            let found = occurrences(mods, owner, &s);
            if !found.iter().any(|r| r.declaration) {
                return Err("the name has no declaration in the workspace".into());
            }
            // A JSON file is analysed as its lowering to native syntax;
            // its places map back exactly (analysis.md §7.1), but edits
            // written into JSON strings are not tested yet: left out.
            if let Some(r) = found.iter().find(|r| syntax::json::is_json_path(&r.path)) {
                let name = r.path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
                return Err(format!(
                    "the name is in a file of Terraform's JSON syntax (`{name}`), which rename does not edit"
                ));
            }
            Ok(range)
        }
        Some(Found::Refused(why)) => Err(why),
        None => Err("there is no symbol to rename here".into()),
    }
}

/// The edits (file, range, new text) that rename the symbol under the
/// cursor to `new_name`, or why it cannot be.
pub fn rename(
    mods: &[Module],
    m: usize,
    doc: usize,
    offset: usize,
    new_name: &str,
) -> Result<Vec<(PathBuf, Range<usize>, String)>, String> {
    prepare_rename(mods, m, doc, offset)?;
    if !is_identifier(new_name) {
        return Err(format!("`{new_name}` is not a valid identifier"));
    }
    let (edited, _) = split(mods, m, doc, offset).ok_or("there is no symbol to rename here")?;
    Ok(edited.into_iter().map(|r| (r.path, r.range, new_name.to_string())).collect())
}

/// The files where the symbol under the cursor occurs that a rename
/// leaves alone: in modules the user may not edit (installed by `init`,
/// outside the workspace folders), so the editor can say so.
pub fn left_out(mods: &[Module], m: usize, doc: usize, offset: usize) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = split(mods, m, doc, offset).map(|(_, left)| left).unwrap_or_default();
    out.sort();
    out.dedup();
    out
}

/// The occurrences of the symbol under the cursor in editable modules,
/// and the files of those elsewhere.
fn split(
    mods: &[Module],
    m: usize,
    doc: usize,
    offset: usize,
) -> Option<(Vec<crate::references::Reference>, Vec<PathBuf>)> {
    let offset = mods.get(m).and_then(|md| md.docs.get(doc)).map_or(offset, |d| d.offset_from_shown(offset));
    let Some(Found::Symbol(owner, s, _)) = symbol_at(mods, m, doc, offset) else { return None };
    let editable: Vec<&std::path::Path> =
        mods.iter().filter(|x| x.editable).flat_map(|x| x.docs.iter().map(|d| d.file.path.as_path())).collect();
    let (edited, left): (Vec<_>, Vec<_>) =
        occurrences(mods, owner, &s).into_iter().partition(|r| editable.contains(&r.path.as_path()));
    Some((edited, left.into_iter().map(|r| r.path).collect()))
}

/// An HCL identifier (hclsyntax: a letter or `_`, then letters, digits,
/// `_` and `-`).
pub fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}
