//! Terragrunt's own functions, as `createTerragruntEvalContext` registers them
//! (gruntwork-io/terragrunt `pkg/config/config_helpers.go`, with the
//! signatures of the wrappers in `pkg/config/cty_helpers.go`).
//!
//! They belong to plain HCL rather than to a dialect of their own because
//! Terragrunt reads files of any name: `terragrunt.hcl` and `root.hcl`, but
//! also whatever `include` and `read_terragrunt_config` name (`env.hcl`,
//! `service.hcl`, …), so no file name tells a Terragrunt file from another.
//! `startswith`, `endswith`, `strcontains` and `timecmp` are Terragrunt's too,
//! with Terraform's signatures, and come from Terraform's table.

use types::Type;

use crate::functions::Function;

/// Terragrunt's functions. A `wrapStringSliceToString…` function takes any
/// number of strings (each checks its own count when it runs, so a count is
/// not ours to judge); a `wrapVoid…` one takes none.
pub(crate) fn terragrunt() -> Vec<Function> {
    let (s, a) = (Type::string, Type::any);
    let f = Function::new;
    let strings = |name, summary| f(name, s(), summary).rest("args", s(), 0);
    let void = |name, summary| f(name, s(), summary);
    let commands = |name, summary| f(name, Type::list(s()), summary);
    vec![
        strings(
            "find_in_parent_folders",
            "The path of the nearest parent folder's file of this name (default: terragrunt.hcl).",
        ),
        strings("path_relative_to_include", "The path from the included configuration to this one."),
        strings("path_relative_from_include", "The path from this configuration to the included one."),
        strings("get_env", "An environment variable's value, or the default given second."),
        strings("run_cmd", "The standard output of a command run at parse time."),
        strings("get_parent_terragrunt_dir", "The directory of the included (parent) configuration."),
        strings("sops_decrypt_file", "A sops-encrypted file's decrypted content."),
        strings("read_tfvars_file", "A tfvars file's values, as JSON."),
        strings("mark_as_read", "The path, marked as read for --queue-include-units-reading."),
        f("mark_glob_as_read", Type::list(s()), "The files matching a glob, marked as read.").rest("args", s(), 0),
        f("constraint_check", Type::bool(), "Whether a version satisfies a constraint.").rest("args", s(), 0),
        f("read_terragrunt_config", a(), "Another Terragrunt configuration's blocks and attributes, as an object.")
            .arg("config_path", s())
            .opt("default", a()),
        f("deep_merge", a(), "The maps or objects merged recursively, later ones winning.").rest("values", a(), 0),
        void("get_platform", "The operating system Terragrunt runs on."),
        void("get_repo_root", "The absolute path of the Git repository's root."),
        void("get_path_from_repo_root", "The path from the repository's root to this configuration."),
        void("get_path_to_repo_root", "The path from this configuration to the repository's root."),
        void("get_terragrunt_dir", "The directory of the configuration being evaluated."),
        void("get_original_terragrunt_dir", "The directory of the configuration Terragrunt was run on."),
        void("get_terraform_command", "The Terraform or OpenTofu command being run."),
        f("get_terraform_cli_args", Type::list(s()), "The arguments of the command being run."),
        void("get_aws_account_alias", "The AWS account's alias."),
        void("get_aws_account_id", "The AWS account's id."),
        void("get_aws_caller_identity_arn", "The ARN of the AWS caller's identity."),
        void("get_aws_caller_identity_user_id", "The user id of the AWS caller's identity."),
        commands("get_terraform_commands_that_need_vars", "The commands that accept -var and -var-file."),
        commands("get_terraform_commands_that_need_locking", "The commands that accept -lock-timeout."),
        commands("get_terraform_commands_that_need_input", "The commands that accept -input."),
        commands("get_terraform_commands_that_need_parallelism", "The commands that accept -parallelism."),
        void("get_terragrunt_source_cli_flag", "The value of --source, or an empty string."),
        f("get_default_retryable_errors", Type::list(s()), "Terragrunt's default retryable error patterns."),
        void("get_working_dir", "The directory Terragrunt runs Terraform in."),
    ]
}
