//! Locals and PCL attributes in dependency order, cycles found.

use super::*;

/// Strongly connected components of the computed names' dependency graph,
/// dependencies first (Tarjan's algorithm, iterative: a chain of 10,000
/// locals must not overflow the stack).
pub(super) fn dependency_order(computed: &[ComputedRef]) -> Vec<Vec<Vec<usize>>> {
    let mut index_of: HashMap<(Space, &str), usize> = HashMap::default();
    for (i, c) in computed.iter().enumerate() {
        index_of.entry((c.decl.space, c.decl.name.as_str())).or_insert(i);
    }
    let edges: Vec<Vec<usize>> = computed
        .iter()
        .map(|c| {
            let mut e: Vec<usize> =
                c.decl.refs.iter().filter_map(|(s, n)| index_of.get(&(*s, n.as_str())).copied()).collect();
            e.sort_unstable();
            e.dedup();
            e
        })
        .collect();
    let n = computed.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut next = 0;
    let mut out = Vec::new();
    let mut component_of = vec![usize::MAX; n];
    let mut level_of: Vec<usize> = Vec::new();
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        // (node, next edge to visit)
        let mut work = vec![(root, 0usize)];
        while let Some(&mut (v, ref mut ei)) = work.last_mut() {
            if *ei == 0 && index[v] == usize::MAX {
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&w) = edges[v].get(*ei) {
                *ei += 1;
                if index[w] == usize::MAX {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut component = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                // Components come after those they depend on: one level
                // above the highest of them.
                let id = out.len();
                for &w in &component {
                    component_of[w] = id;
                }
                let level = component
                    .iter()
                    .flat_map(|&w| &edges[w])
                    .filter(|&&x| component_of[x] != id)
                    .map(|&x| level_of[component_of[x]] + 1)
                    .max()
                    .unwrap_or(0);
                level_of.push(level);
                out.push(component);
            }
        }
    }
    let mut levels: Vec<Vec<Vec<usize>>> = Vec::new();
    for (component, level) in out.into_iter().zip(level_of) {
        if levels.len() <= level {
            levels.resize_with(level + 1, Vec::new);
        }
        levels[level].push(component);
    }
    levels
}
