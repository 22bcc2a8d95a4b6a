//! What the server tells the client about itself: `window/logMessage`s at
//! the level `hclTypes.trace` or `$/setTrace` chose (the later wins;
//! `info` until either says), never blocking the caller.

use std::sync::atomic::{AtomicU8, Ordering};

use analysis::sync::Locked;
use project::settings::LogLevel;
use tower_lsp_server::ls_types::{MessageType, NumberOrString, SetTraceParams, TraceValue};

use crate::Backend;

/// The level as the atomic holds it.
fn to_u8(l: LogLevel) -> u8 {
    l as u8
}

/// The level a session starts with.
pub(crate) fn initial() -> AtomicU8 {
    AtomicU8::new(to_u8(LogLevel::Info))
}

impl Backend {
    /// Sends `message` when the level lets `level` through.
    pub(crate) fn log(&self, level: LogLevel, message: impl Into<String>) {
        if level == LogLevel::Off || to_u8(level) > self.log_level.load(Ordering::Relaxed) {
            return;
        }
        let typ = match level {
            LogLevel::Error => MessageType::ERROR,
            LogLevel::Info => MessageType::INFO,
            _ => MessageType::LOG,
        };
        let (client, message) = (self.client.clone(), message.into());
        tokio::spawn(async move { client.log_message(typ, message).await });
    }

    /// Says, once each, the paths the session did not follow out of its
    /// workspace folders (a link such as `x.auto.tfvars ->
    /// ~/.aws/credentials`, an include of `/dev/zero`: `project::confine`),
    /// by name only, as a warning.
    pub(crate) fn say_refused(&self) {
        let tree = self.state.locked().documents.settings.session.tree.clone();
        for path in tree.take_refused() {
            if self.log_level.load(Ordering::Relaxed) >= to_u8(LogLevel::Error) {
                let message = format!("hcl-types: `{}` {}", path.display(), project::confine::message());
                let client = self.client.clone();
                tokio::spawn(async move { client.log_message(MessageType::WARNING, message).await });
            }
        }
    }

    /// Takes the settings' level, if they name one, and says what was
    /// read: the schema files loaded, and those named but left out.
    pub(crate) fn settings_logged(&self, s: &project::documents::Settings) {
        if let Some(l) = s.log_level {
            self.set_log_level(l);
        }
        let count = s.schemas.as_ref().map_or(0, |_| s.provider_files.len() + s.package_files.len());
        self.log(LogLevel::Info, format!("settings changed: {count} schema file(s) loaded"));
        for f in &s.provider_files {
            self.log(LogLevel::Debug, format!("provider schemas from {}", f.display()));
        }
    }

    /// For a client that takes `$/progress`, and settings that name schema
    /// files: reports "Loading schemas" until the returned sender is
    /// dropped. The token is created and the report sent on another task,
    /// so a client slow to answer `window/workDoneProgress/create` holds
    /// nothing up (its report then begins and ends at once).
    pub(crate) fn schema_progress(&self, v: &serde_json::Value) -> Option<tokio::sync::oneshot::Sender<()>> {
        let v = v.get("hclTypes").unwrap_or(v);
        let named = ["providerSchemas", "packageSchemas"]
            .iter()
            .any(|k| v.get(*k).and_then(|a| a.as_array()).is_some_and(|a| !a.is_empty()));
        if !named || !self.state.locked().caps.work_done_progress {
            return None;
        }
        let (done, wait) = tokio::sync::oneshot::channel::<()>();
        let client = self.client.clone();
        let token = NumberOrString::String(format!("hcl-types/schemas/{}", self.seq.fetch_add(1, Ordering::Relaxed)));
        tokio::spawn(async move {
            if client.create_work_done_progress(token.clone()).await.is_err() {
                return;
            }
            let p = client.progress(token, "Loading schemas").begin().await;
            let _ = wait.await;
            p.finish().await;
        });
        Some(done)
    }

    pub(crate) fn set_log_level(&self, level: LogLevel) {
        self.log_level.store(to_u8(level), Ordering::Relaxed);
    }

    /// `$/setTrace`: `off`, `messages` (info) or `verbose` (debug).
    pub async fn set_trace(&self, params: SetTraceParams) {
        let level = match params.value {
            TraceValue::Off => LogLevel::Off,
            TraceValue::Messages => LogLevel::Info,
            TraceValue::Verbose => LogLevel::Debug,
        };
        self.set_log_level(level);
    }
}
