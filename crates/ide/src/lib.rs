//! Editor features as plain data with byte offsets (rust-analyzer's "IDE
//! API" idea): the server only converts positions and wraps these in LSP
//! types. One file per feature; what several share is here.

mod actions;
mod add_argument;
mod code_lens;
mod completion;
mod count_to_for_each;
mod cursor;
mod declare_variable;
mod definition;
mod document_links;
mod document_symbols;
mod extract_local;
mod folding;
mod hover;
mod inlay_hints;
mod move_blocks;
mod moved;
mod nodes;
mod quick_fix;
mod references;
mod remove_unused;
mod rename;
mod resources;
mod selection;
mod semantic_tokens;
mod signature;
pub mod workspace_symbols;

pub use actions::{Action, ActionKind, FileEdit};
pub use add_argument::{add_arguments, mark_sensitive};
pub use code_lens::{caller_count, reference_counts, Caller, ReferenceCount};
pub use completion::{completion, Completion, CompletionKind, CompletionList, NAME_LIMIT};
pub use count_to_for_each::count_to_for_each;
pub use declare_variable::declare_variable;
pub use definition::{definition, definition_with};
pub use document_links::{document_links, Link, LinkTarget};
pub use document_symbols::{document_symbols, OutlineKind, OutlineSymbol};
pub use extract_local::extract_local;
pub use folding::{folding_ranges, Fold, FoldKind};
pub use hover::{hover, hover_in, hover_with, HoverInfo};
pub use inlay_hints::inlay_hints;
pub use move_blocks::move_blocks;
pub use moved::moved_block;
pub use quick_fix::{quick_fix, type_fix, QuickFix};
pub use references::{callees, calls_to, document_highlight, references, Module, Reference};
pub use remove_unused::remove_unused;
pub use rename::{is_identifier, left_out, prepare_rename, rename};
pub use selection::selection_ranges;
pub use semantic_tokens::{modifier, semantic_tokens, semantic_tokens_in, SemanticToken, TokenCache, TokenKind};
pub use signature::{signature_help, signature_help_with, SignatureInfo};

use analysis::Document;

fn file_name(docs: &[Document], path: Option<&std::path::Path>, doc: usize) -> String {
    let p = path.map(|p| p.to_path_buf()).unwrap_or_else(|| docs[doc].file.path.clone());
    p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}
