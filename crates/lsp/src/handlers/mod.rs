//! One handler per request or notification, run by the dispatcher
//! (`crate::dispatch`). A request's is a plain async function of the
//! [`Backend`](crate::Backend): read the request (`from_proto`), ask the
//! project or the ide layer off the message loop, answer (`to_proto`). A
//! notification that changes documents is a `SyncNotification` (`text_sync`,
//! watched files in `configuration`).

pub(crate) mod code_action;
pub(crate) mod code_lens;
pub(crate) mod completion;
pub(crate) mod configuration;
pub(crate) mod definition;
pub(crate) mod diagnostic;
pub(crate) mod document_highlight;
pub(crate) mod document_link;
pub(crate) mod document_symbol;
pub(crate) mod execute_command;
pub(crate) mod folding_range;
pub(crate) mod formatting;
pub(crate) mod hover;
pub(crate) mod inlay_hint;
pub(crate) mod lifecycle;
pub(crate) mod on_type_formatting;
pub(crate) mod prepare_rename;
pub(crate) mod references;
pub(crate) mod rename;
pub(crate) mod selection_range;
pub(crate) mod semantic_tokens;
pub(crate) mod signature_help;
pub(crate) mod text_sync;
pub(crate) mod workspace_symbol;

/// What every handler uses.
pub(crate) mod prelude {
    pub(crate) use std::path::PathBuf;
    pub(crate) use std::sync::atomic::Ordering;
    pub(crate) use std::sync::Arc;

    pub(crate) use analysis::sync::Locked;
    pub(crate) use ropey::Rope;
    pub(crate) use tower_lsp_server::jsonrpc::Result;
    pub(crate) use tower_lsp_server::ls_types::*;

    pub(crate) use project::documents::{module_key, Open, Session, Settings};
    pub(crate) use project::{graph, phases};

    pub(crate) use crate::{blocking, from_proto, publish, pull, to_proto, Backend, Encoding, TOKEN_TYPES};
}
