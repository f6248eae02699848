//! Builds the example shaders with the typed builders, compiles each with
//! the backend and prints its IR and listing.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    for (target, gen_, ir) in driver_example::shaders()? {
        println!("; {target} (generation {gen_}), built with isa_specs::{target}::build\n{ir}");
        let out = driver_example::compile(target, gen_, &ir)?;
        println!("{}", backend::emit::listing_text(&out.listing));
    }
    Ok(())
}
