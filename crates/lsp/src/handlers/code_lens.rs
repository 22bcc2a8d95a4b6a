//! `textDocument/codeLens`: "N references" over variables and outputs,
//! only when `hclTypes.codeLens.references` is on (an empty list
//! otherwise). Outputs count the reads of `module.CALL.NAME` in the callers
//! the server knows (the module set references and rename search), and
//! each document of a module with known callers gets "N module calls" on
//! its first item.

use super::prelude::*;
use super::references::ModuleSet;

pub(crate) async fn code_lens(b: &Backend, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
    let Some(snap) = b.snapshot(&params.text_document.uri).await else { return Ok(None) };
    if !snap.settings.code_lens_references {
        return Ok(Some(Vec::new()));
    }
    let (rope, enc) = (snap.rope.clone(), snap.enc);
    let counts = blocking(move || {
        let analysis = snap.analysis();
        let set = ModuleSet::gather(&snap);
        let here = &set.mods[0].0;
        let callers: Vec<ide::Caller> = set.mods[1..]
            .iter()
            .map(|(dir, docs, _)| ide::Caller { docs, calls: ide::calls_to(dir, docs, here) })
            .filter(|c| !c.calls.is_empty())
            .collect();
        let counts = ide::reference_counts(&analysis.symbols, &snap.docs, snap.index, &callers);
        let calls = ide::caller_count(&snap.docs, snap.index, &callers);
        (counts, calls)
    })
    .await?;
    let (counts, calls) = counts;
    let titled = calls
        .map(|c| {
            let title = match c.count {
                1 => "1 module call".to_string(),
                n => format!("{n} module calls"),
            };
            (c, title)
        })
        .into_iter()
        .chain(counts.into_iter().map(|c| {
            let title = match c.count {
                1 => "1 reference".to_string(),
                n => format!("{n} references"),
            };
            (c, title)
        }));
    Ok(Some(
        titled
            .map(|(c, title)| CodeLens {
                range: to_proto::range(&rope, &c.range, enc),
                command: Some(Command {
                    title,
                    // Shown, not run: no client command is assumed.
                    command: String::new(),
                    arguments: None,
                }),
                data: None,
            })
            .collect(),
    ))
}
