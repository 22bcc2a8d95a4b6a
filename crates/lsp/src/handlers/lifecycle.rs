//! `initialize` (what the client can do, what the server offers), `initialized` (file watching, settings), `shutdown`.

use super::prelude::*;
use analysis::sync::Locked;

pub(crate) async fn initialize(b: &Backend, params: InitializeParams) -> Result<InitializeResult> {
    let offered = params.capabilities.general.as_ref().and_then(|g| g.position_encodings.clone()).unwrap_or_default();
    let encoding = if offered.contains(&PositionEncodingKind::UTF8) { Encoding::Utf8 } else { Encoding::Utf16 };
    let pull;
    let watch_dynamic = params
        .capabilities
        .workspace
        .as_ref()
        .and_then(|w| w.did_change_watched_files.as_ref())
        .and_then(|d| d.dynamic_registration)
        .unwrap_or(false);
    {
        let mut st = b.state.locked();
        st.encoding = encoding;
        st.caps = caps(&params.capabilities);
        st.watch_dynamic = watch_dynamic;
        st.hint_refresh = params
            .capabilities
            .workspace
            .as_ref()
            .and_then(|w| w.inlay_hint.as_ref())
            .and_then(|h| h.refresh_support)
            .unwrap_or(false);
        st.pull_config = params.capabilities.workspace.as_ref().and_then(|w| w.configuration).unwrap_or(false);
        // Pulled only by a client that can be told to pull again when
        // a document's diagnostics change without an edit of its own
        // (VS Code; Neovim 0.11 pulls but cannot, so it is pushed to).
        st.pull = params.capabilities.text_document.as_ref().is_some_and(|t| t.diagnostic.is_some())
            && params
                .capabilities
                .workspace
                .as_ref()
                .and_then(|w| w.diagnostics.as_ref())
                .and_then(|d| d.refresh_support)
                .unwrap_or(false);
        pull = st.pull;
        let roots = pull::roots(&params);
        let opts = params.initialization_options.clone().unwrap_or_default();
        let session = Arc::new(Session::from_init(&opts, roots.clone()));
        st.documents.set_settings(Settings { session, ..Settings::from_json(&opts) });
        b.settings_logged(&st.documents.settings);
        b.service.set_roots(roots);
    }
    let snippet_triggers = [".", "(", "\"", " ", "{", ",", "["].map(String::from).to_vec();
    Ok(InitializeResult {
        offset_encoding: None,
        server_info: Some(ServerInfo { name: "hcl-types".into(), version: Some(env!("CARGO_PKG_VERSION").into()) }),
        capabilities: ServerCapabilities {
            position_encoding: Some(if encoding == Encoding::Utf8 {
                PositionEncodingKind::UTF8
            } else {
                PositionEncodingKind::UTF16
            }),
            text_document_sync: Some(TextDocumentSyncCapability::Options(TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::INCREMENTAL),
                save: Some(TextDocumentSyncSaveOptions::Supported(true)),
                ..Default::default()
            })),
            hover_provider: Some(HoverProviderCapability::Simple(true)),
            completion_provider: Some(CompletionOptions {
                trigger_characters: Some(snippet_triggers),
                ..Default::default()
            }),
            signature_help_provider: Some(SignatureHelpOptions {
                trigger_characters: Some(vec!["(".into(), ",".into()]),
                ..Default::default()
            }),
            inlay_hint_provider: Some(OneOf::Left(true)),
            semantic_tokens_provider: Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
                SemanticTokensOptions {
                    legend: SemanticTokensLegend {
                        token_types: TOKEN_TYPES.to_vec(),
                        token_modifiers: to_proto::TOKEN_MODIFIERS.to_vec(),
                    },
                    full: Some(SemanticTokensFullOptions::Delta { delta: Some(true) }),
                    range: Some(true),
                    ..Default::default()
                },
            )),
            definition_provider: Some(OneOf::Left(true)),
            declaration_provider: Some(DeclarationCapability::Simple(true)),
            references_provider: Some(OneOf::Left(true)),
            document_highlight_provider: Some(OneOf::Left(true)),
            rename_provider: Some(OneOf::Right(RenameOptions {
                prepare_provider: Some(true),
                work_done_progress_options: Default::default(),
            })),
            document_symbol_provider: Some(OneOf::Left(true)),
            workspace_symbol_provider: Some(OneOf::Left(true)),
            document_link_provider: Some(DocumentLinkOptions {
                resolve_provider: Some(false),
                work_done_progress_options: Default::default(),
            }),
            code_lens_provider: Some(CodeLensOptions { resolve_provider: Some(false) }),
            folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
            selection_range_provider: Some(SelectionRangeProviderCapability::Simple(true)),
            code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
            document_formatting_provider: Some(OneOf::Left(true)),
            document_range_formatting_provider: Some(OneOf::Left(true)),
            document_on_type_formatting_provider: Some(DocumentOnTypeFormattingOptions {
                first_trigger_character: "}".into(),
                more_trigger_character: Some(vec!["\n".into()]),
            }),
            execute_command_provider: Some(ExecuteCommandOptions {
                commands: super::execute_command::commands(),
                work_done_progress_options: Default::default(),
            }),
            diagnostic_provider: pull.then(|| {
                DiagnosticServerCapabilities::Options(DiagnosticOptions {
                    identifier: Some("hcl-types".into()),
                    inter_file_dependencies: true,
                    workspace_diagnostics: true,
                    work_done_progress_options: Default::default(),
                })
            }),
            ..Default::default()
        },
    })
}

pub(crate) async fn initialized(b: &Backend, _params: InitializedParams) {
    let (watch, pull) = {
        let st = b.state.locked();
        (st.watch_dynamic, st.pull_config)
    };
    if watch {
        let options = DidChangeWatchedFilesRegistrationOptions {
            // `*.tf` matches neither OpenTofu's files nor the JSON syntax's.
            watchers: [
                "**/*.tf",
                "**/*.tofu",
                "**/*.tf.json",
                "**/*.tofu.json",
                "**/*.tfvars",
                "**/*.hcl",
                "**/*.pp",
                "**/Pulumi.yaml",
                "**/Pulumi.yml",
            ]
            .iter()
            .map(|g| FileSystemWatcher { glob_pattern: GlobPattern::String((*g).into()), kind: None })
            .collect(),
        };
        let registration = Registration {
            id: "hcl-types-watch".into(),
            method: "workspace/didChangeWatchedFiles".into(),
            register_options: serde_json::to_value(options).ok(),
        };
        // Not awaited here: tower-lsp-server waits for every handler
        // before it ends the session, so a client that never answers
        // would keep the server alive after `exit` or end of input.
        let (client, state) = (b.client.clone(), b.state.clone());
        tokio::spawn(async move {
            if client.register_capability(vec![registration]).await.is_ok() {
                state.locked().watching = true;
            }
        });
    }
    if pull {
        b.pull_configuration();
    }
    b.config_loads();
    b.watch_disk();
    b.index_workspace();
    b.check_in_background(crate::background::Scope::Workspace);
}

pub(crate) async fn shutdown(b: &Backend) -> Result<()> {
    b.closing.send_replace(true);
    Ok(())
}

/// What the client can show. A client that names no hover formats gets
/// Markdown (LSP's default is plain text, but every client that leaves the
/// list out renders Markdown); one that names formats without Markdown gets
/// plain text.
fn caps(c: &ClientCapabilities) -> crate::Caps {
    let text = c.text_document.as_ref();
    let formats = text.and_then(|t| t.hover.as_ref()).and_then(|h| h.content_format.clone());
    let markdown = formats.is_none_or(|f| f.contains(&MarkupKind::Markdown));
    let snippets = text
        .and_then(|t| t.completion.as_ref())
        .and_then(|c| c.completion_item.as_ref())
        .and_then(|i| i.snippet_support)
        .unwrap_or(false);
    let document_changes =
        c.workspace.as_ref().and_then(|w| w.workspace_edit.as_ref()).and_then(|e| e.document_changes).unwrap_or(false);
    let create_files = c
        .workspace
        .as_ref()
        .and_then(|w| w.workspace_edit.as_ref())
        .and_then(|e| e.resource_operations.as_ref())
        .is_some_and(|ops| ops.contains(&ResourceOperationKind::Create));
    let change_annotations = c
        .workspace
        .as_ref()
        .and_then(|w| w.workspace_edit.as_ref())
        .is_some_and(|e| e.change_annotation_support.is_some());
    let line_folding_only =
        text.and_then(|t| t.folding_range.as_ref()).and_then(|f| f.line_folding_only).unwrap_or(false);
    let hierarchical_symbols = text
        .and_then(|t| t.document_symbol.as_ref())
        .and_then(|d| d.hierarchical_document_symbol_support)
        .unwrap_or(false);
    let work_done_progress = c.window.as_ref().and_then(|w| w.work_done_progress).unwrap_or(false);
    crate::Caps {
        markdown,
        snippets,
        document_changes,
        create_files,
        change_annotations,
        line_folding_only,
        hierarchical_symbols,
        work_done_progress,
    }
}
