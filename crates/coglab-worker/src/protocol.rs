//! Reading the user's files in the worker (as streams, with limits and progress), and the
//! progress updates the client hands to pages. The messages themselves are typed in
//! [`crate::api`].

use js_sys::{Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};

/// A progress update from a running operation.
#[derive(Debug, Clone, PartialEq)]
pub struct ProgressUpdate {
    /// Units done (bytes, rows, resamples).
    pub done: f64,
    /// Units in all (0 when unknown).
    pub total: f64,
    /// What is being worked on, e.g. a file name.
    pub label: String,
}

impl ProgressUpdate {
    /// Done as a fraction in [0, 1] (0 when the total is unknown).
    pub fn fraction(&self) -> f64 {
        if self.total > 0.0 {
            (self.done / self.total).clamp(0.0, 1.0)
        } else {
            0.0
        }
    }
}

/// The largest file the app reads in the browser (1 GiB). A wasm32 module addresses at most
/// 4 GiB, and the worker holds the file's bytes while the parser builds its records beside them
/// (MM-IQ JSONL over 64 MiB is read lean, about 0.3x the file; other formats keep more), so 1 GiB
/// leaves room for the parse. Larger files are refused with [`too_large`]'s message, which points
/// to the native command line (no size limit but the machine's memory).
pub const MAX_FILE_BYTES: f64 = (1u64 << 30) as f64;

/// The least a file's first slice holds when the worker reads it (64 KiB, or the whole file):
/// enough to tell its format from.
pub const HEAD_BYTES: f64 = SLICE as f64;

/// The most of a file [`read_files`] holds in wasm memory at once, and the length of the
/// slices it hands on (the last one of a file may be shorter): 64 KiB.
const SLICE: usize = 64 << 10;

/// Megabytes (10^6 bytes) with one decimal, for messages.
pub fn megabytes(bytes: f64) -> String {
    format!("{:.1} MB", bytes / 1e6)
}

/// The message refusing a file above [`MAX_FILE_BYTES`]: the file, its size, the limit and
/// the command-line alternative.
pub fn too_large(name: &str, size: f64) -> String {
    format!(
        "{name}: {} ({size:.0} bytes) is above the {} ({:.0} bytes) this page reads in the \
         browser. Score it with the command line instead, which reads files of any size: \
         coglab score mmiq --answers MMIQ_benchmark_answer_dict.jsonl \"{name}\" (or coglab \
         score kiva / mmopera; see coglab help)",
        megabytes(size),
        megabytes(MAX_FILE_BYTES),
        MAX_FILE_BYTES
    )
}

/// Reads `Blob`s (in a worker) as streams, one file after the other, handing them on in
/// slices of [`SLICE`] bytes as they arrive to `on_slice(file, slice, done, size)` (`file`
/// indexes `files`; `done` of the file's `size` bytes have been handed on with this slice). Every file's stream is opened at once, so the browser
/// reads ahead (off this thread) while `on_slice` works, also into the next file: a parser fed
/// this way runs while the files are still being read. The first slice of a file has at least
/// [`HEAD_BYTES`] (or the whole file), enough to tell its format. `on_slice` returns whether to
/// go on with that file (`false` skips the rest of it, e.g. after a parse error). Refuses a
/// blob above [`MAX_FILE_BYTES`] before reading anything.
///
/// # Errors
/// [`too_large`]'s message; a message naming the file when memory runs out or the browser
/// cannot read it (e.g. it was changed or deleted since it was picked).
pub async fn read_files(
    files: &[(&str, &web_sys::Blob)],
    mut on_slice: impl FnMut(usize, &[u8], f64, f64) -> bool,
) -> Result<(), String> {
    if let Some((name, blob)) = files.iter().find(|(_, b)| b.size() > MAX_FILE_BYTES) {
        return Err(too_large(name, blob.size()));
    }
    let readers: Vec<web_sys::ReadableStreamDefaultReader> = files
        .iter()
        .map(|(_, b)| b.stream().get_reader().unchecked_into())
        .collect();
    // One buffer of SLICE bytes for every file: what the browser hands over (pieces of up to
    // 2 MiB in Chromium) is copied into it a part at a time, so reading never holds more than
    // SLICE bytes of a file in wasm memory, which never shrinks (a streamed 500 MB `.eval`
    // grew it by 26x its largest sample when the buffer took each piece whole).
    let mut buf: Vec<u8> = Vec::new();
    buf.try_reserve_exact(SLICE)
        .map_err(|_| "not enough memory to read the files".to_string())?;
    buf.resize(SLICE, 0);
    for (i, reader) in readers.iter().enumerate() {
        let (name, size) = (files[i].0, files[i].1.size());
        let cant = |e: JsValue| format!("{name}: the browser could not read this file ({e:?})");
        let changed = |done: f64| {
            format!(
                "{name}: the file ended after {} of {}; was it changed while being read?",
                megabytes(done),
                megabytes(size)
            )
        };
        // Bytes in `buf` not handed on yet, and bytes of this file copied into it so far.
        let (mut held, mut done) = (0usize, 0.0);
        'file: loop {
            let result = wasm_bindgen_futures::JsFuture::from(reader.read())
                .await
                .map_err(cant)?;
            let chunk = Reflect::get(&result, &JsValue::from_str("value"))
                .ok()
                .and_then(|v| v.dyn_into::<Uint8Array>().ok());
            let Some(chunk) = chunk else {
                // The end of the stream.
                if done != size {
                    return Err(changed(done));
                }
                if held > 0 {
                    on_slice(i, &buf[..held], done, size);
                }
                break;
            };
            let n = chunk.length();
            if done + f64::from(n) > size {
                return Err(changed(done + f64::from(n)));
            }
            let mut at = 0u32;
            while at < n {
                // `held < SLICE` here, and SLICE fits a u32.
                let take = (n - at).min((SLICE - held) as u32);
                chunk
                    .subarray(at, at + take)
                    .copy_to(&mut buf[held..held + take as usize]);
                (at, held, done) = (at + take, held + take as usize, done + f64::from(take));
                // A full buffer is handed on; the first slice of a file is then at least
                // HEAD_BYTES (= SLICE) long, or the whole file.
                if held == SLICE {
                    let go_on = on_slice(i, &buf[..held], done, size);
                    held = 0;
                    if !go_on {
                        let _ = reader.cancel();
                        break 'file;
                    }
                }
            }
        }
    }
    Ok(())
}

/// Reads a whole `Blob` (in a worker) with [`read_files`], calling `on_chunk(done, total)`
/// after each slice.
///
/// # Errors
/// As [`read_files`].
pub async fn read_blob(
    name: &str,
    blob: &web_sys::Blob,
    mut on_chunk: impl FnMut(f64, f64),
) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    bytes
        .try_reserve_exact(blob.size().min(MAX_FILE_BYTES) as usize)
        .map_err(|_| {
            format!(
                "{name}: not enough memory to read its {}",
                megabytes(blob.size())
            )
        })?;
    read_files(&[(name, blob)], |_, slice, done, total| {
        bytes.extend_from_slice(slice);
        on_chunk(done, total);
        true
    })
    .await?;
    Ok(bytes)
}

/// The progress label while a file is read: "reading NAME: N of M MB".
pub fn reading_label(name: &str, done: f64, total: f64) -> String {
    format!("reading {name}: {:.0} of {:.0} MB", done / 1e6, total / 1e6)
}

/// One input file given to a worker operation, read.
#[derive(Debug, Clone)]
pub struct InputFile {
    /// The file name as the user chose it (used in error messages).
    pub name: String,
    /// The file's bytes.
    pub bytes: Vec<u8>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn too_large_names_file_size_limit_and_cli() {
        let m = too_large("big_output.jsonl", 2_147_483_648.0);
        assert!(m.starts_with("big_output.jsonl: 2147.5 MB (2147483648 bytes) is above the 1073.7 MB (1073741824 bytes)"), "{m}");
        assert!(
            m.contains(
                "coglab score mmiq --answers MMIQ_benchmark_answer_dict.jsonl \"big_output.jsonl\""
            ),
            "{m}"
        );
    }

    #[test]
    fn reading_labels_and_limits() {
        assert_eq!(
            reading_label("a.jsonl", 8_388_608.0, 20_000_000.0),
            "reading a.jsonl: 8 of 20 MB"
        );
        assert_eq!(megabytes(1_500_000.0), "1.5 MB");
        assert_eq!(MAX_FILE_BYTES, 1_073_741_824.0);
        assert_eq!(HEAD_BYTES, 65_536.0);
        let p = ProgressUpdate {
            done: 3.0,
            total: 4.0,
            label: String::new(),
        };
        assert_eq!(p.fraction(), 0.75);
    }
}
