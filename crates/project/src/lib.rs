//! The project layer: everything that touches the disk or runs a process —
//! reading files safely ([`fsread`]), schema files and the module's own
//! schema ([`schemas`]), child processes ([`child`]) — and the state both
//! front ends analyse from: `check`'s run over the files under some paths
//! ([`check`], [`files`]), and an editor's open documents over the disk
//! ([`documents`], [`disk`], [`watch`]) with the module graph that tells
//! which open module calls which ([`graph`]); both analyse a module through
//! one module service ([`service`]). The layers below see only
//! bytes and plain data; the language server above only converts.

pub mod callers;
pub mod check;
pub mod child;
pub mod config;
pub mod confine;
pub mod disk;
pub mod documents;
pub mod exclude;
pub mod files;
pub mod fsread;
pub mod generate;
pub mod graph;
pub mod index;
pub mod nearest;
pub mod passed;
pub mod phases;
pub mod pulumi;
pub mod schemas;
pub mod scratch;
pub mod service;
pub mod settings;
pub mod threads;
pub mod walk;
pub mod watch;
