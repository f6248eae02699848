//! examples/rv32i/sum.ir, written with the typed builders of `rv32i::build`.
use isa_specs::runtime::imm;
use isa_specs::rv32i::build::{Base, Gpr, Shader};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut b = Shader::<Base>::new();
    let p = b.input::<Gpr, 1>("a0");
    let a = b.lw(imm!(0), p);
    let c = b.lw(imm!(4), p);
    let d = b.lw(imm!(8), p);
    let e = b.lw(imm!(12), p);
    let ac = b.add(a, c);
    let de = b.add(d, e);
    let s = b.add(ac, de);
    b.sw(s, imm!(16), p);
    let out = driver_example::compile("rv32i", 0, &b.to_ir()?)?;
    print!("{}", backend::emit::listing_text(&out.listing));
    Ok(())
}
