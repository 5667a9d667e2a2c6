//! The heap an Inspect `.eval` log needs when read as a stream ([`EvalStream`], what the web
//! worker runs), measured natively with a counting allocator: the log is pushed in 64 KiB
//! slices (the size of a browser stream's chunks) and the peak of live heap bytes is printed
//! with the largest member's decompressed size, so the worker's bound (issue 24: memory at
//! most 2x the largest sample) can be checked without a browser:
//!
//! ```text
//! python3 scripts/eval_bench_gen.py
//! cargo run --release -p coglab-core --example eval_stream_peak -- /tmp/evalbench/big.eval
//! ```
//!
//! The browser figure (wasm linear memory, which also holds the allocator's slack) is
//! `tests/e2e/evalbench.test.mjs`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Read;
use std::sync::atomic::{AtomicUsize, Ordering};

use coglab_core::harness::eval_stream::EvalStream;

/// The system allocator, counting live bytes and their peak.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is passed on to the system allocator unchanged; only counters are added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                let now = LIVE.fetch_add(new_size - layout.size(), Ordering::Relaxed)
                    + (new_size - layout.size());
                PEAK.fetch_max(now, Ordering::Relaxed);
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        p
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The largest member's decompressed size, from the zip's central directory (its last
/// entries: each `PK\x01\x02` record's uncompressed size at offset 24).
fn largest_member(bytes: &[u8]) -> u64 {
    let mut largest = 0;
    let mut i = 0;
    while let Some(at) = memchr::memmem::find(&bytes[i..], b"PK\x01\x02") {
        let p = i + at;
        if p + 28 > bytes.len() {
            break;
        }
        let size = u32::from_le_bytes([bytes[p + 24], bytes[p + 25], bytes[p + 26], bytes[p + 27]]);
        largest = largest.max(u64::from(size));
        i = p + 4;
    }
    largest
}

fn fail(message: String) -> ! {
    eprintln!("{message}");
    std::process::exit(1);
}

fn main() {
    use std::io::{Seek, SeekFrom};
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: eval_stream_peak LOG.eval");
        std::process::exit(2);
    };
    let mut file = std::fs::File::open(&path).unwrap_or_else(|e| fail(format!("{path}: {e}")));
    // The central directory is at the end: the last MiB names every member's size.
    let len = file.metadata().map_or(0, |m| m.len());
    let mut tail = Vec::new();
    file.seek(SeekFrom::Start(len.saturating_sub(1 << 20)))
        .and_then(|_| file.read_to_end(&mut tail))
        .and_then(|_| file.seek(SeekFrom::Start(0)))
        .unwrap_or_else(|e| fail(format!("{path}: {e}")));
    let largest = largest_member(&tail);
    drop(tail);
    let mut slice = vec![0u8; 64 * 1024];
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let mut reader = EvalStream::new(&path, true);
    let mut total = 0usize;
    loop {
        let n = match file.read(&mut slice) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) => fail(format!("{path}: {e}")),
        };
        total += n;
        if let Err(e) = reader.push(&slice[..n]) {
            fail(e.to_string());
        }
    }
    let peak = PEAK.load(Ordering::Relaxed) - before;
    let samples = reader.samples();
    let log = reader.finish();
    let after = LIVE.load(Ordering::Relaxed) - before;
    println!(
        "{path}: {total} bytes, {samples} samples, largest member {largest} bytes decompressed; \
         peak heap while reading {peak} bytes ({:.2}x the largest member); live after finish \
         {after} bytes (the records; {})",
        peak as f64 / largest.max(1) as f64,
        if log.is_ok() { "read" } else { "failed" }
    );
}
