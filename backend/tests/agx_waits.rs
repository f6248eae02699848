//! Scoreboard waits (a slot sync, `machine: syncs:` of the AGX spec): each
//! asynchronous instruction gets one of two slots (the first with nothing
//! outstanding, else the least busy), a slot holds at most eight results, and
//! a reader of a pending result is preceded by a `wait` on its slot — the
//! algorithm of Mesa's agx_insert_waits.c (research agx.md §7). The hazard
//! checker, which reads the slots back out of the encoded bits, agrees; and
//! with the waits taken out, it finds each broken rule. Memory instructions
//! keep their order (`order:`), so the stores below stay in program order.

mod common;

use backend::check;
use backend::code::{MInst, Origin};

fn texts(t: &backend::Target, code: &[MInst]) -> Vec<String> {
    code.iter().filter(|m| m.origin != Origin::End).map(|m| t.isa.print(&m.inst, t.gen_)).collect()
}

#[test]
fn loads_take_free_slots_and_readers_wait_for_them() {
    let t = common::target("agx", None);
    let c = common::compile_checked(&t, &common::example("agx/memory.ir"));
    let got = texts(&t, &c.code);
    let words: Vec<&str> = got.iter().map(|s| s.split_whitespace().next().unwrap_or("")).collect();
    assert_eq!(words, ["imul", "load", "load", "wait", "wait", "fadd", "fmul", "store"], "{got:#?}");
    // The two loads are outstanding together, in slots a and b; the store
    // finds both slots free again and takes a.
    assert!(got[1].ends_with(", a") && got[2].ends_with(", b"), "{got:#?}");
    assert_eq!([got[3].as_str(), got[4].as_str()], ["wait a", "wait b"]);
    assert!(got[7].ends_with(", a"), "{got:#?}");
}

/// Seventeen stores (results nobody reads): eight fill slot a, eight slot b,
/// and the seventeenth waits for slot a first.
fn many_stores() -> String {
    let mut ir = String::from("abi vertex hw-compute n=1\nentry:\n    %id:full = input abi vertex_id_zero_based\n");
    for i in 0..17 {
        ir.push_str(&format!("    store %id, du4, {}, i32, x, a\n", i * 4));
    }
    ir
}

#[test]
fn a_full_slot_is_waited_for_before_it_takes_another_message() {
    let t = common::target("agx", None);
    let c = common::compile_checked(&t, &many_stores());
    let got = texts(&t, &c.code);
    assert_eq!(got.len(), 18, "{got:#?}");
    assert_eq!(got.iter().filter(|s| s.starts_with("wait")).count(), 1, "{got:#?}");
    assert_eq!(got[..16].iter().filter(|s| s.starts_with("store") && s.ends_with(", a")).count(), 8, "{got:#?}");
    assert_eq!(got[..16].iter().filter(|s| s.starts_with("store") && s.ends_with(", b")).count(), 8, "{got:#?}");
    assert_eq!(got[16], "wait a");
    assert!(got[17].starts_with("store") && got[17].ends_with(", a"), "{got:#?}");
}

#[test]
fn the_checker_finds_missing_waits_and_overfull_slots() {
    let t = common::target("agx", None);
    let c = common::compile_checked(&t, &common::example("agx/memory.ir"));
    let without: Vec<MInst> = c.code.iter().filter(|m| m.origin != Origin::Wait).cloned().collect();
    let v = check::check(&t, &without);
    assert!(v.iter().any(|v| v.message.contains("is waited for with scoreboard")), "{v:#?}");

    let c = common::compile_checked(&t, &many_stores());
    let without: Vec<MInst> = c.code.iter().filter(|m| m.origin != Origin::Wait).cloned().collect();
    let v = check::check(&t, &without);
    assert!(v.iter().any(|v| v.message.contains("already holds 8 results (at most 8)")), "{v:#?}");
}
