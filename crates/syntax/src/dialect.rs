//! Which rules a file follows (type-expressions.md §1).

use std::fmt;
use std::path::Path;
use std::str::FromStr;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dialect {
    Terraform,
    Pcl,
    Hcl,
}

impl Dialect {
    /// The dialect a file name implies; anything unknown is plain HCL.
    pub fn for_path(path: &Path) -> Dialect {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        const TERRAFORM: [&str; 5] = [".tf", ".tfvars", ".tftest.hcl", ".pkr.hcl", ".pkrvars.hcl"];
        if TERRAFORM.iter().any(|ext| name.ends_with(ext)) {
            Dialect::Terraform
        } else if name.ends_with(".pp") {
            Dialect::Pcl
        } else {
            Dialect::Hcl
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::Terraform => "terraform",
            Dialect::Pcl => "pcl",
            Dialect::Hcl => "hcl",
        }
    }
}

impl FromStr for Dialect {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "terraform" => Ok(Dialect::Terraform),
            "pcl" => Ok(Dialect::Pcl),
            "hcl" => Ok(Dialect::Hcl),
            _ => Err(format!("unknown dialect `{s}` (expected terraform, pcl or hcl)")),
        }
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
