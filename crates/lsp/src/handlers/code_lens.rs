//! `textDocument/codeLens`: "N references" over variables and outputs,
//! only when `hclTypes.codeLens.references` is on (an empty list
//! otherwise). Outputs count their module's callers' reads only once the
//! server knows callers here; until then, reads in the module (none, for
//! an output), as the ide function is given no callers.

use super::prelude::*;

pub(crate) async fn code_lens(b: &Backend, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
    let Some(snap) = b.snapshot(&params.text_document.uri).await else { return Ok(None) };
    if !snap.settings.code_lens_references {
        return Ok(Some(Vec::new()));
    }
    let (rope, enc) = (snap.rope.clone(), snap.enc);
    let counts = blocking(move || {
        let analysis = snap.analysis();
        ide::reference_counts(&analysis.symbols, &snap.docs, snap.index, &[])
    })
    .await?;
    Ok(Some(
        counts
            .iter()
            .map(|c| CodeLens {
                range: to_proto::range(&rope, &c.range, enc),
                command: Some(Command {
                    title: match c.count {
                        1 => "1 reference".into(),
                        n => format!("{n} references"),
                    },
                    // Shown, not run: no client command is assumed.
                    command: String::new(),
                    arguments: None,
                }),
                data: None,
            })
            .collect(),
    ))
}
