//! A large part of an analysis (a document's diagnostics or type nodes,
//! the module's symbols) shared by the analyses patched from it.
//!
//! A patch changes the last analysis in place, but a publication still
//! being rendered or an editor request (hover, semantic tokens) may hold
//! it: the patch then clones it. Whole, that was some 20 ms at 10 MB, paid
//! by a keystroke whenever it met such a reader. In shared parts, the
//! clone copies only the parts the patch writes to (the edited
//! document's), when it writes to them.

use std::ops::{Deref, DerefMut};
use std::sync::Arc;

/// Read as the `T` it holds; written to, it is copied first when another
/// analysis holds it too.
#[derive(Debug, Default, PartialEq)]
pub struct Shared<T>(Arc<T>);

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(self.0.clone())
    }
}

impl<T> From<T> for Shared<T> {
    fn from(x: T) -> Self {
        Shared(Arc::new(x))
    }
}

impl<T> Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: Clone> DerefMut for Shared<T> {
    fn deref_mut(&mut self) -> &mut T {
        Arc::make_mut(&mut self.0)
    }
}

impl<'a, T> IntoIterator for &'a Shared<Vec<T>> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A write copies a part another holds, and only that part.
    #[test]
    fn a_write_copies_only_a_held_part() {
        let parts: Vec<Shared<Vec<u32>>> = vec![vec![1, 2].into(), vec![3].into()];
        let mut next = parts.clone();
        next[1].push(4);
        assert_eq!((*parts[1]).clone(), vec![3]);
        assert_eq!((*next[1]).clone(), vec![3, 4]);
        assert!(Arc::ptr_eq(&parts[0].0, &next[0].0));
        assert!(!Arc::ptr_eq(&parts[1].0, &next[1].0));
        // Held by nobody else, written where it is.
        let before = Arc::as_ptr(&next[1].0);
        drop(parts);
        next[1].push(5);
        assert_eq!(before, Arc::as_ptr(&next[1].0));
    }
}
