//! Builds the example shaders and prints their listings.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let ir = driver_example::gcn_compute()?;
    println!("; gcn gfx8 compute, built with isa_specs::gcn::build\n{ir}");
    let out = driver_example::compile("gcn", 8, &ir)?;
    print!("{}", backend::emit::listing_text(&out.listing));
    Ok(())
}
