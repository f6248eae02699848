//! The example shaders, built with the typed builders, go through the whole
//! backend (scheduling, allocation, hazards, encoding, the independent
//! checkers) for each target.

fn listing(target: &str) -> Vec<String> {
    let shaders = driver_example::shaders().expect("the shaders build");
    let (t, g, ir) = shaders.into_iter().find(|(t, _, _)| *t == target).expect("a shader for the target");
    let out = driver_example::compile(t, g, &ir).unwrap_or_else(|e| panic!("{t}: {e}\n{ir}"));
    out.listing.iter().map(|l| l.text.clone()).collect()
}

#[test]
fn ir3_dp3_schedules_as_the_notes_say() {
    // Mesa's ir3 notes: mul.f, then two mad.f32 filling each other's delay
    // slots, (nop1), (nop1), (nop3) on a6xx.
    let l = listing("ir3");
    assert!(l[0].starts_with("(nop1) mul.f "), "{l:?}");
    assert!(l[1].starts_with("(nop1) mad.f32 "), "{l:?}");
    assert!(l[2].starts_with("(nop3) mad.f32 "), "{l:?}");
    assert_eq!(l.last().map(String::as_str), Some("end"));
}

#[test]
fn gcn_compute_waits_for_its_loads() {
    let l = listing("gcn");
    let load = l.iter().position(|t| t.starts_with("buffer_load_dword")).expect("the load");
    let mul = l.iter().position(|t| t.starts_with("v_mul_f32")).expect("the multiply");
    assert!(l[load + 1..mul].iter().any(|t| t == "s_waitcnt vmcnt(0)"), "{l:?}");
    assert_eq!(l.last().map(String::as_str), Some("s_endpgm"));
}

#[test]
fn agx_vertex_uses_a_uniform_and_ends() {
    let l = listing("agx");
    assert!(l.iter().any(|t| t.starts_with("ffma ") && t.ends_with(", u6")), "{l:?}");
    assert_eq!(l.last().map(String::as_str), Some("stop"));
}
