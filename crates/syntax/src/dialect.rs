//! Which rules a file follows (type-expressions.md §1).

use std::fmt;
use std::str::FromStr;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dialect {
    Terraform,
    Pcl,
    Hcl,
    /// The Terraform language as OpenTofu reads it: everything the
    /// terraform dialect accepts, and OpenTofu's own constructs (analysis.md
    /// §7). Selected by a `.tofu` or `.tofutest.hcl` file in the module.
    OpenTofu,
    /// Pulumi HCL (github.com/pulumi/pulumi-hcl): `.tf` files run by
    /// Pulumi's engine, the Terraform language plus a resource's `pulumi {}`
    /// options, `call` blocks and Pulumi's asset functions
    /// (docs/spec/pulumi-hcl.md). No file name implies it: the project's
    /// `Pulumi.yaml` (`runtime: hcl`) or a setting does.
    PulumiHcl,
}

impl Dialect {
    /// Every dialect, as `--dialect` and the settings name them.
    pub const ALL: [Dialect; 5] =
        [Dialect::Terraform, Dialect::OpenTofu, Dialect::PulumiHcl, Dialect::Pcl, Dialect::Hcl];

    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::Terraform => "terraform",
            Dialect::Pcl => "pcl",
            Dialect::Hcl => "hcl",
            Dialect::OpenTofu => "opentofu",
            Dialect::PulumiHcl => "pulumi-hcl",
        }
    }

    /// The Terraform language, as Terraform, OpenTofu or Pulumi HCL reads it.
    pub fn is_terraform(self) -> bool {
        matches!(self, Dialect::Terraform | Dialect::OpenTofu | Dialect::PulumiHcl)
    }

    /// The dialect of a file in a module whose files are in `module`'s: a
    /// Terraform file of a module that has an OpenTofu file is read as
    /// OpenTofu reads it (analysis.md §7).
    pub fn within(self, module: Dialect) -> Dialect {
        if self == Dialect::Terraform && module == Dialect::OpenTofu {
            Dialect::OpenTofu
        } else {
            self
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
            "opentofu" | "tofu" => Ok(Dialect::OpenTofu),
            "pulumi-hcl" => Ok(Dialect::PulumiHcl),
            _ => Err(format!("unknown dialect `{s}` (expected terraform, opentofu, pulumi-hcl, pcl or hcl)")),
        }
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
