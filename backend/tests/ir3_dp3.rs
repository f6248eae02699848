//! The acceptance test of Mesa's ir3 notes example: the dot product of
//! IN[0].xyz and IN[1].xyz moved to all of OUT[0] schedules as mul.f, mad.f32,
//! mad.f32, then the moves, with exactly the nops the ir3 delay rules require
//! (research ir3.md §6: ALU to ALU 3 slots on a6xx, 2 on a7xx; the third
//! source of mad is read 2 (a7xx: 1) cycles late; delay.c counts nops as
//! `(nopN)` fields plus nop repeats).

mod common;

use backend::code::Origin;

/// The mnemonic of a printed instruction: flags like `(nop1) ` stripped.
fn mnemonic(text: &str) -> String {
    let mut s = text.trim_start();
    while s.starts_with('(') {
        s = s[s.find(')').map_or(s.len(), |i| i + 1)..].trim_start();
    }
    s.split_whitespace().next().unwrap_or("").to_string()
}

/// Mnemonics of the source instructions in order, and the delay slots filled
/// after each (folded `(nopN)` plus nop instructions that follow it).
fn shape(gen_: u32) -> (Vec<String>, Vec<u32>) {
    let t = common::target("ir3", Some(gen_));
    let c = common::compile_checked(&t, &common::example("ir3/dp3.ir"));
    let mut names = Vec::new();
    let mut nops: Vec<u32> = Vec::new();
    for m in &c.code {
        let fold = t.isa.field(&m.inst, gen_, "NOP").unwrap_or(0) as u32;
        match m.origin {
            Origin::Source(_) => {
                names.push(mnemonic(&t.isa.print(&m.inst, gen_)));
                nops.push(if gen_ >= 600 { fold } else { 0 });
            }
            Origin::Nop => {
                let rpt = t.isa.field(&m.inst, gen_, "REPEAT").unwrap_or(0) as u32;
                *nops.last_mut().expect("a nop follows an instruction") += rpt + 1;
            }
            Origin::Wait => panic!("dp3 needs no sync"),
            Origin::End => {}
        }
    }
    (names, nops)
}

#[test]
fn dp3_schedules_as_mesa_describes_a6xx() {
    let (names, nops) = shape(600);
    assert_eq!(names, ["mul.f", "mad.f32", "mad.f32", "mov.f32f32", "mov.f32f32", "mov.f32f32"]);
    // mul -> mad (third source): 3 - 2 = 1; mad -> mad (third source): 1;
    // mad -> mov: 3; the moves are independent.
    assert_eq!(nops, [1, 1, 3, 0, 0, 0]);
}

#[test]
fn dp3_schedules_as_mesa_describes_a7xx() {
    let (names, nops) = shape(700);
    assert_eq!(names, ["mul.f", "mad.f32", "mad.f32", "mov.f32f32", "mov.f32f32", "mov.f32f32"]);
    assert_eq!(nops, [1, 1, 2, 0, 0, 0]);
}

#[test]
fn dp3_without_nop_folding_uses_nop_instructions_a5xx() {
    // (nopN) is only folded from a6xx on: before, the same slots are nops.
    let (names, nops) = shape(500);
    assert_eq!(names, ["mul.f", "mad.f32", "mad.f32", "mov.f32f32", "mov.f32f32", "mov.f32f32"]);
    assert_eq!(nops, [1, 1, 3, 0, 0, 0]);
}

#[test]
fn dp3_listing() {
    let t = common::target("ir3", Some(600));
    let c = common::compile_checked(&t, &common::example("ir3/dp3.ir"));
    let text: Vec<&str> = c.listing.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(
        text,
        [
            "(nop1) mul.f r2.x, r0.x, r1.x",
            "(nop1) mad.f32 r2.x, r0.y, r1.y, r2.x",
            "(nop3) mad.f32 r0.w, r0.z, r1.z, r2.x",
            "mov.f32f32 r0.x, r0.w",
            "mov.f32f32 r0.y, r0.w",
            "mov.f32f32 r0.z, r0.w",
            "end",
        ]
    );
}
