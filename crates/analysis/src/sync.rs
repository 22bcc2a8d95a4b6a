//! The one way every layer takes a lock: [`Locked::locked`]. A mutex whose
//! holder panicked stays usable (its data is whole: every panic here is
//! caught at a request's boundary), so one failed request never takes the
//! server down with a poisoned lock.

use std::sync::{Mutex, MutexGuard};

pub trait Locked<T: ?Sized> {
    /// The guard, also when a holder panicked.
    fn locked(&self) -> MutexGuard<'_, T>;
}

impl<T: ?Sized> Locked<T> for Mutex<T> {
    fn locked(&self) -> MutexGuard<'_, T> {
        self.lock().unwrap_or_else(|e| e.into_inner())
    }
}
