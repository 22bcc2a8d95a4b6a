//! The project layer: everything that touches the disk or runs a process —
//! reading files safely ([`fsread`]), schema files and the module's own
//! schema ([`schemas`]), child processes ([`child`]) and the files a
//! module analysis reads ([`files`]). The layers below see only bytes and
//! plain data.

pub mod callers;
pub mod check;
pub mod child;
pub mod files;
pub mod fsread;
pub mod schemas;
