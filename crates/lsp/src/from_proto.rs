//! From LSP to the layers below: positions of the client's encoding to
//! byte offsets (through [`crate::text`]), URIs to the paths documents
//! are analysed under, content changes to byte edits.

use std::path::{Path, PathBuf};

use analysis::FileKind;
use project::documents::{Documents, Open};
use ropey::Rope;
use tower_lsp_server::ls_types::{Position, TextDocumentContentChangeEvent, Uri};

use crate::text;
use crate::Encoding;

/// The byte offset of `pos` in `rope`'s text (clamped to the text).
pub(crate) fn offset(rope: &Rope, pos: Position, enc: Encoding) -> usize {
    text::offset(rope, pos, enc)
}

/// The path of a `file:` URI with an absolute path; other URIs name no file.
fn file_path(uri: &Uri) -> Option<PathBuf> {
    if !uri.scheme().as_str().eq_ignore_ascii_case("file") {
        return None;
    }
    uri.to_file_path().map(|p| p.into_owned()).filter(|p| p.is_absolute())
}

/// The path a document is analysed under: its file's for a `file:` URI,
/// else the made-up one it got when opened ([`open_path`]).
pub(crate) fn doc_path(docs: &Documents, uri: &Uri) -> Option<PathBuf> {
    file_path(uri).or_else(|| docs.virtual_path(uri.as_str()))
}

/// [`doc_path`], making up a path for a new document that is not a file
/// ([`Documents::make_up`]), named like the URI's last segment so its kind
/// and dialect follow the name, or, for a name without a known extension
/// (`untitled:Untitled-1`), the editor's language id.
pub(crate) fn open_path(docs: &mut Documents, uri: &Uri, language: &str) -> PathBuf {
    if let Some(p) = doc_path(docs, uri) {
        return p;
    }
    let decoded = uri.path().decode().to_string_lossy().into_owned();
    let name = decoded.rsplit(['/', '\\']).find(|s| !s.is_empty() && *s != "." && *s != "..").unwrap_or("untitled");
    let mut name = name.to_owned();
    if FileKind::for_path(Path::new(&name)).is_none() {
        name.push_str(match language {
            "terraform" | "tf" => ".tf",
            "opentofu" | "tofu" => ".tofu",
            "terraform-vars" | "tfvars" => ".tfvars",
            "pulumi" | "pcl" => ".pp",
            _ => ".hcl",
        });
    }
    // A `git:` document (a diff view's old text) is read with the other
    // files of its file's directory.
    let home = Path::new(&decoded).parent().filter(|d| d.is_absolute());
    let home = home.filter(|_| uri.scheme().as_str().eq_ignore_ascii_case("git")).map(Path::to_path_buf);
    docs.make_up(uri.as_str(), &name, home)
}

/// Applies a content change to an open document.
pub(crate) fn apply(open: &mut Open, change: &TextDocumentContentChangeEvent, enc: Encoding) {
    open.apply(|rope| text::apply(rope, change, enc), &change.text);
}
