//! Criterion benchmark placeholder: replaced by the mmiq scoring work.
fn main() {}
