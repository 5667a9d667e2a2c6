//! Criterion benchmark placeholder: replaced by the sem scoring work.
fn main() {}
