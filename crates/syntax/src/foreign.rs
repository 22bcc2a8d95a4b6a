//! Files with an HCL name that are not HCL: encrypted blobs (ansible-vault,
//! PGP, age, PEM), YAML or JSON. Such a file is not read as HCL at all
//! (analysis.md §5, `not-hcl`): parsed, it would cost one syntax error per
//! line, and what it declares (nothing) would only mislead.
//!
//! Two kinds of evidence. A *sealed* file says what it is in its first
//! line (`$ANSIBLE_VAULT;1.1;AES256`, `-----BEGIN PGP MESSAGE-----`):
//! no HCL file starts so, so it is not parsed at all. A file that only
//! *looks like* YAML or JSON (`key: value`, `{"a": 1}`) is judged so only
//! when it also does not parse as HCL (the caller's part), so a valid
//! HCL file is never left out.

/// Only the head of a file is looked at: recognising costs the same for
/// any size, and an editor's keystroke can ask again.
const HEAD: usize = 4096;

/// What a file is when its first line says it is not HCL, in words for a
/// diagnostic ("an ansible-vault encrypted file"); `None` for anything else.
pub fn sealed(text: &str) -> Option<&'static str> {
    let first = first_line(text);
    const SEALS: &[(&str, &str)] = &[
        // https://docs.ansible.com/ansible/latest/vault_guide/vault_using_encrypted_content.html
        // ("$ANSIBLE_VAULT;1.1;AES256" / ";1.2;AES256;LABEL").
        ("$ANSIBLE_VAULT;", "an ansible-vault encrypted file"),
        ("-----BEGIN PGP MESSAGE-----", "a PGP encrypted message"),
        ("-----BEGIN AGE ENCRYPTED FILE-----", "an age encrypted file (armored)"),
        // https://age-encryption.org/v1: the binary format's first line.
        ("age-encryption.org/", "an age encrypted file"),
        ("-----BEGIN ", "a PEM file (a key or certificate)"),
    ];
    if let Some((_, what)) = SEALS.iter().find(|(seal, _)| first.starts_with(seal)) {
        return Some(what);
    }
    // sops keeps a file's structure and encrypts its values:
    // `ENC[AES256_GCM,data:…]` beside a `sops` key (getsops/sops, `aes/cipher.go`).
    let head = head(text);
    (head.contains("ENC[AES256_GCM,") && head.contains("sops")).then_some("a sops encrypted file")
}

/// What a file that does not parse as HCL looks like instead ("a YAML
/// file", "a JSON file"), judged by its first significant line; `None`
/// when it looks like nothing else (then it is broken HCL).
pub fn looks_like(text: &str) -> Option<&'static str> {
    let line = head(text)
        .trim_start_matches('\u{feff}')
        .lines()
        .map(str::trim_end)
        .find(|l| !l.trim_start().is_empty() && !l.trim_start().starts_with('#'))?;
    if let Some(rest) = line.strip_prefix('{').or_else(|| line.strip_prefix('[')) {
        // An HCL body never opens with a bracket; JSON's top level does
        // (and an INI section, `[name]`, does not go on with a value).
        let next = rest.trim_start().chars().next();
        if next.is_none_or(|c| matches!(c, '"' | '{' | '[' | ']' | '}' | '-') || c.is_ascii_digit()) {
            return Some("a JSON file");
        }
    }
    if line == "---" || line.starts_with("--- ") || line.starts_with("%YAML") || line.starts_with("- ") {
        return Some("a YAML file");
    }
    // `key: value` or `key:` at the top level: YAML's mapping. HCL's
    // top-level items are `name = value` and `name … {`.
    let key_end = line.find(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '"' | '\'')));
    match key_end.map(|at| (at, &line[at..])) {
        Some((at, rest)) if at > 0 && (rest == ":" || rest.starts_with(": ")) => Some("a YAML file"),
        _ => None,
    }
}

fn head(text: &str) -> &str {
    let mut end = text.len().min(HEAD);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

fn first_line(text: &str) -> &str {
    let head = head(text);
    head.trim_start_matches('\u{feff}').split('\n').next().unwrap_or("").trim_end_matches('\r')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sealed_files_say_so_in_their_first_line() {
        let vault = "$ANSIBLE_VAULT;1.1;AES256\n6338376338653965383230376537346537653966\n";
        assert_eq!(sealed(vault), Some("an ansible-vault encrypted file"));
        assert_eq!(sealed("$ANSIBLE_VAULT;1.2;AES256;prod\r\n3031\r\n"), Some("an ansible-vault encrypted file"));
        assert_eq!(sealed("-----BEGIN PGP MESSAGE-----\n\nhQEMA\n"), Some("a PGP encrypted message"));
        assert_eq!(sealed("age-encryption.org/v1\n-> X25519 abc\n"), Some("an age encrypted file"));
        let sops = "{\n  \"data\": \"ENC[AES256_GCM,data:abc,iv:x,tag:y,type:str]\",\n  \"sops\": {}\n}\n";
        assert_eq!(sealed(sops), Some("a sops encrypted file"));
        // HCL, even one that mentions a seal later, is not sealed.
        assert_eq!(sealed("variable \"a\" {}\n# $ANSIBLE_VAULT;1.1;AES256\n"), None);
        assert_eq!(sealed(""), None);
    }

    #[test]
    fn yaml_and_json_are_told_by_their_first_significant_line() {
        assert_eq!(looks_like("# vars\n---\nregion: eu\n"), Some("a YAML file"));
        assert_eq!(looks_like("region: eu-west-1\nzones:\n  - a\n"), Some("a YAML file"));
        assert_eq!(looks_like("zones:\n  - a\n"), Some("a YAML file"));
        assert_eq!(looks_like("- a\n- b\n"), Some("a YAML file"));
        assert_eq!(looks_like("{\"variable\": {}}\n"), Some("a JSON file"));
        assert_eq!(looks_like("{\n  \"a\": 1\n}\n"), Some("a JSON file"));
        assert_eq!(looks_like("[defaults]\nregion = eu\n"), None);
        // Broken HCL looks like nothing else.
        assert_eq!(looks_like("variable \"a\" {\n  type = \n}\n"), None);
        assert_eq!(looks_like("a = b ? c : d\n"), None);
        assert_eq!(looks_like("name::x\n"), None);
        assert_eq!(looks_like(""), None);
    }
}
