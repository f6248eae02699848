//! What the engine works out once per target and keeps: the assembler's
//! mnemonics index, the bounds on ignorable bits.
//!
//! Targets are few and live for the whole program, so each thing, once
//! built, is kept (leaked) for good. It is found by the target's address and
//! its leaves' (a target is static, or leaked by the generator's tests) and
//! a small number of the caller's (a syntax).

use std::sync::{OnceLock, RwLock};

use crate::tables::Isa;

type Key = (usize, usize, u16);

/// Things of type `T` built per target, in a `static`.
pub(crate) struct Kept<T: 'static> {
    built: OnceLock<RwLock<Vec<(Key, &'static T)>>>,
}

impl<T: Sync + 'static> Kept<T> {
    pub(crate) const fn new() -> Kept<T> {
        Kept { built: OnceLock::new() }
    }

    /// The thing kept for `isa` and `extra`, built by `build` on first use.
    pub(crate) fn get(&self, isa: &Isa, extra: u16, build: impl FnOnce() -> T) -> &'static T {
        let key = (isa as *const Isa as usize, isa.leaves.as_ptr() as usize, extra);
        let built = self.built.get_or_init(RwLock::default);
        let found = |v: &[(Key, &'static T)]| v.iter().find(|e| e.0 == key).map(|e| e.1);
        if let Some(t) = found(&built.read().unwrap_or_else(|e| e.into_inner())) {
            return t;
        }
        let mut w = built.write().unwrap_or_else(|e| e.into_inner());
        if let Some(t) = found(&w) {
            return t;
        }
        let t: &'static T = Box::leak(Box::new(build()));
        w.push((key, t));
        t
    }
}
