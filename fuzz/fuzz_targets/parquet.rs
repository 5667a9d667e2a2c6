#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| coglab_fuzz::run("parquet", data));
