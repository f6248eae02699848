//! ABI layouts in YAML (see the ABI issue); nothing generated yet.
