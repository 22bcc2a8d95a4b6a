//! Pulumi's PCL programs (`.pp`). Its modules: `range.rs` (a
//! resource's `options { range }`).

pub mod range;

use super::{FileRule, Handler};
use crate::{Family, FileKind};
use syntax::Dialect;

pub struct Pcl;

const FILES: [FileRule; 1] = [FileRule::suffix(".pp", FileKind::Pcl, Family::Pcl, Dialect::Pcl)];

impl Handler for Pcl {
    fn name(&self) -> &'static str {
        "pcl"
    }
    fn files(&self) -> &'static [FileRule] {
        &FILES
    }
}
