//! What assemblers working side by side teach one another.
//!
//! An [`crate::Assembler`] learns operand texts as it goes
//! ([`crate::recall`]): the first time a text is met in its context it is
//! read the long way and its line printed back, some 8,000 machine
//! instructions on GCN where a line read by remembered texts alone costs
//! 2,000 to 3,000. Workers of a batch each keep an assembler, and each
//! learned every text for itself: two workers assembling the bench-peer
//! stream ran 5.7% more machine instructions than one.
//!
//! Assemblers made from one [`Lessons`] number operand contexts alike (the
//! numbering is the pool's, under a lock taken when a case is first
//! resolved) and hand one another what they learned: each keeps what it
//! learns in an outbox and, every [`EVERY`] lines it keeps, puts it in the
//! pool's log and takes what the others put there since it last looked. A
//! reading or shape taken so is what the taker would have learned from the
//! same text: it was read the long way in the same context, by the same
//! tables, and proven (if at all) by a printer of the same target,
//! generation and syntax, which prints the same text for the same bits.
//! The answers are the same as without sharing; only the cost differs.
//!
//! The log holds each lesson once, put there by the assembler that learned
//! it, and an assembler learns at most what it may remember (see
//! `recall::CAPACITY`), so the log is bounded by that times the number of
//! assemblers.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError, TryLockError};

use crate::recall::{Context, Learned, Text};
use crate::shape::{Shape, Shaped};
use crate::short_text::TextHasher;
use crate::tables::Isa;

/// Lines an assembler keeps between two looks at the pool: a look takes a
/// lock, so not every line; an assembler that waits longer reads more
/// texts the long way that another has learned.
pub(crate) const EVERY: u32 = 16;

/// What the assemblers of one target, generation and syntax share (see the
/// module documentation); [`Lessons::assembler`] makes one that takes part.
pub struct Lessons<'a> {
    pub(crate) isa: &'a Isa,
    pub(crate) gen_: u32,
    pub(crate) syntax: u16,
    contexts: Mutex<Contexts>,
    log: Mutex<Log>,
    /// The lessons in the log, texts and shapes: an assembler with nothing
    /// to give looks at the log only when it grew.
    len: AtomicUsize,
}

/// Operand contexts by value, numbered in the order they were met.
#[derive(Default)]
pub(crate) struct Contexts {
    index: HashMap<Context, u32, BuildHasherDefault<TextHasher>>,
    list: Vec<Context>,
}

impl Contexts {
    /// The number of context `c`, given it now if it has none.
    pub fn number(&mut self, c: Context) -> u32 {
        let n = self.list.len() as u32;
        let at = *self.index.entry(c).or_insert(n);
        if at == n {
            self.list.push(c);
        }
        at
    }

    /// The contexts from number `from` on.
    pub fn from(&self, from: usize) -> &[Context] {
        self.list.get(from..).unwrap_or(&[])
    }
}

/// The lessons given so far, in the order given: readings of operand texts
/// and shapes, each by its context's number.
#[derive(Default)]
pub(crate) struct Log {
    pub texts: Vec<(u32, Text, Learned)>,
    pub shapes: Vec<(u32, Shape, Shaped)>,
}

/// An assembler's side of the exchange: what it learned and has not given
/// yet, and how far into the log it has read.
#[derive(Default)]
pub(crate) struct Outbox {
    pub log: Log,
    pub heard: (usize, usize),
    /// Lines kept since the last look.
    pub since: u32,
}

impl Isa {
    /// A pool for assemblers of generation `gen_` in syntax `syntax` to
    /// share what they learn (see [`Lessons::assembler`]).
    pub fn lessons(&self, gen_: u32, syntax: u16) -> Lessons<'_> {
        Lessons { isa: self, gen_, syntax, contexts: Mutex::default(), log: Mutex::default(), len: AtomicUsize::new(0) }
    }
}

impl Lessons<'_> {
    /// The contexts, locked (a panic elsewhere while they were held left
    /// them whole: each change is one push).
    pub(crate) fn contexts(&self) -> MutexGuard<'_, Contexts> {
        self.contexts.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Puts `outbox`'s lessons in the log and copies to `news` those the
    /// others put there since it last looked; false, doing nothing, when
    /// another assembler holds the log (it will look again after its next
    /// line) or there is nothing to give or take.
    pub(crate) fn exchange(&self, outbox: &mut Outbox, news: &mut Log) -> bool {
        let given = outbox.log.texts.len() + outbox.log.shapes.len();
        if given == 0 && self.len.load(Ordering::Relaxed) == outbox.heard.0 + outbox.heard.1 {
            return false;
        }
        let mut log = match self.log.try_lock() {
            Ok(log) => log,
            Err(TryLockError::Poisoned(p)) => p.into_inner(),
            Err(TryLockError::WouldBlock) => return false,
        };
        news.texts.extend_from_slice(log.texts.get(outbox.heard.0..).unwrap_or(&[]));
        news.shapes.extend_from_slice(log.shapes.get(outbox.heard.1..).unwrap_or(&[]));
        log.texts.append(&mut outbox.log.texts);
        log.shapes.append(&mut outbox.log.shapes);
        outbox.heard = (log.texts.len(), log.shapes.len());
        self.len.store(log.texts.len() + log.shapes.len(), Ordering::Relaxed);
        true
    }
}
