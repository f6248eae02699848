// A wait names one of the scoreboard slots the encoding has (`a`, `b`).
use isa_specs::agx::build::*;

fn main() {
    let mut b = Shader::<Base>::new();
    b.wait(values::Slot::C);
}
