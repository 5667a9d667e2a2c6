//! An Inspect `.eval` log read as it arrives, in slices of any size ([`EvalStream`]), for the
//! web worker, which receives a dropped file as a stream and cannot seek in it.
//!
//! The zip's local file headers are read in order: each member's header gives its name,
//! method, CRC-32 and sizes, its bytes follow, and the member is decompressed (stored, deflate
//! by `flate2`, zstd by `ruzstd`), held to the size its header declares (reading stops one
//! byte past it) and checked against its CRC-32, parsed and dropped before the next one is
//! kept. The members may declare at most [`MAX_EVAL_INFLATED_BYTES`] in all. Memory holds the
//! records and one member (compressed, then decompressed and parsed): never the log. Reading
//! stops at the central directory.
//!
//! Inspect writes its logs with Python's `zipfile` on a seekable file, so the local headers
//! carry the sizes; a member written with a data descriptor and no sizes (a zip streamed out)
//! or a zip64 member is refused, naming the member: read such a log with
//! [`super::inspect::read_eval`], which reads the central directory.

use super::inspect::{from_header, inflate, make_lean, parse_member, sample, MAX_MEMBER_BYTES};
use super::{HarnessError, HarnessFile, HarnessFormat};
use crate::limits::MAX_EVAL_INFLATED_BYTES;
use crate::location::Location;

/// The room kept in the reader's buffer between members (bytes): a browser stream's slice is
/// 64 KiB.
const KEEP_BUF: usize = 64 * 1024;

/// Takes a sample's non-empty `output.completion` out of its JSON (leaving `""`), so that the
/// response is moved rather than copied; `None` when there is none (the sample is then read
/// as it is: `output.choices`, or no response).
fn take_completion(value: &mut serde_json::Value) -> Option<String> {
    match value.get_mut("output")?.get_mut("completion")? {
        serde_json::Value::String(s) if !s.is_empty() => Some(std::mem::take(s)),
        _ => None,
    }
}

/// Where the reader is in the archive.
#[derive(Debug)]
enum State {
    /// Expecting a local file header (or the central directory).
    Header,
    /// Inside a member's data.
    Member {
        name: String,
        method: u16,
        crc: u32,
        packed: usize,
        size: u64,
        descriptor: bool,
    },
    /// Past the last member.
    Done,
}

/// An `.eval` log read slice by slice: [`EvalStream::push`] each slice, then
/// [`EvalStream::finish`].
///
/// # Examples
/// ```no_run
/// use coglab_core::harness::eval_stream::EvalStream;
/// let bytes = std::fs::read("log.eval").unwrap();
/// let mut reader = EvalStream::new("log.eval", true);
/// for slice in bytes.chunks(1 << 20) {
///     reader.push(slice).unwrap();
/// }
/// let log = reader.finish().unwrap();
/// ```
#[derive(Debug)]
pub struct EvalStream {
    file: String,
    lean: bool,
    buf: Vec<u8>,
    /// Bytes of the archive consumed before `buf`.
    offset: u64,
    state: State,
    header: Option<HarnessFile>,
    records: Vec<super::Record>,
    /// Bytes the members so far declare (decompressed).
    declared: u64,
}

fn u16_at(b: &[u8], i: usize) -> u16 {
    u16::from_le_bytes([b[i], b[i + 1]])
}

fn u32_at(b: &[u8], i: usize) -> u32 {
    u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]])
}

impl EvalStream {
    /// A reader for the log named `file`. With `lean`, each response is reduced to its MM-IQ
    /// letter as it is read (as [`super::inspect::read_eval_lean`]).
    pub fn new(file: &str, lean: bool) -> Self {
        Self {
            file: file.to_string(),
            lean,
            buf: Vec::new(),
            offset: 0,
            state: State::Header,
            header: None,
            records: Vec::new(),
            declared: 0,
        }
    }

    fn error(&self, member: &str, message: impl Into<String>) -> HarnessError {
        HarnessError::Zip {
            file: if member.is_empty() {
                self.file.clone()
            } else {
                format!("{}: {member}", self.file)
            },
            message: message.into(),
        }
    }

    fn consume(&mut self, n: usize) {
        self.buf.drain(..n);
        self.offset += n as u64;
    }

    /// Takes the next slice of the log.
    ///
    /// # Errors
    /// [`HarnessError::Zip`] naming the member (or the byte offset) for a malformed archive, a
    /// member that cannot be streamed, an unknown compression method, a bad deflate or zstd
    /// stream, or a CRC-32 or size mismatch; the sample's and header's parse errors.
    pub fn push(&mut self, bytes: &[u8]) -> Result<(), HarnessError> {
        if matches!(self.state, State::Done) {
            return Ok(());
        }
        self.buf.extend_from_slice(bytes);
        loop {
            match &self.state {
                State::Done => {
                    self.buf = Vec::new();
                    return Ok(());
                }
                State::Header => {
                    if self.buf.len() < 4 {
                        return Ok(());
                    }
                    match &self.buf[..4] {
                        b"PK\x03\x04" => {}
                        b"PK\x01\x02" | b"PK\x05\x06" | b"PK\x06\x06" => {
                            self.state = State::Done;
                            continue;
                        }
                        _ => {
                            return Err(self.error(
                                "",
                                format!(
                                    "byte {}: expected a zip local file header (PK\\x03\\x04), \
                                     found {:02x?}",
                                    self.offset,
                                    &self.buf[..4]
                                ),
                            ))
                        }
                    }
                    if self.buf.len() < 30 {
                        return Ok(());
                    }
                    let b = &self.buf;
                    let (flags, method) = (u16_at(b, 6), u16_at(b, 8));
                    let (crc, packed, size) = (u32_at(b, 14), u32_at(b, 18), u32_at(b, 22));
                    let (n, e) = (usize::from(u16_at(b, 26)), usize::from(u16_at(b, 28)));
                    if self.buf.len() < 30 + n + e {
                        return Ok(());
                    }
                    let name = String::from_utf8_lossy(&self.buf[30..30 + n]).into_owned();
                    let descriptor = flags & 8 != 0;
                    if descriptor && packed == 0 {
                        return Err(self.error(
                            &name,
                            "written with a data descriptor and no sizes (a streamed zip): \
                             this reader needs the sizes in the local header",
                        ));
                    }
                    if packed == u32::MAX || size == u32::MAX {
                        return Err(self.error(&name, "a zip64 member: not read as a stream"));
                    }
                    if u64::from(size) > MAX_MEMBER_BYTES {
                        return Err(self.error(
                            &name,
                            format!(
                                "{size} bytes decompressed, more than the {MAX_MEMBER_BYTES} \
                                 read from one member (limits::MAX_EVAL_MEMBER_BYTES)"
                            ),
                        ));
                    }
                    self.declared = self.declared.saturating_add(u64::from(size));
                    if self.declared > MAX_EVAL_INFLATED_BYTES {
                        return Err(self.error(
                            &name,
                            format!(
                                "with it the members so far declare {} bytes decompressed, more \
                                 than the {MAX_EVAL_INFLATED_BYTES} (16 GiB) read from one log \
                                 (limits::MAX_EVAL_INFLATED_BYTES)",
                                self.declared
                            ),
                        ));
                    }
                    self.consume(30 + n + e);
                    self.state = State::Member {
                        name,
                        method,
                        crc,
                        packed: packed as usize,
                        size: u64::from(size),
                        descriptor,
                    };
                }
                State::Member {
                    packed, descriptor, ..
                } => {
                    // With a data descriptor (sizes also in the header), 12 more bytes follow.
                    let need = packed + if *descriptor { 12 } else { 0 };
                    if self.buf.len() < need {
                        return Ok(());
                    }
                    let State::Member {
                        name,
                        method,
                        crc,
                        packed,
                        size,
                        ..
                    } = std::mem::replace(&mut self.state, State::Header)
                    else {
                        unreachable!("matched State::Member above")
                    };
                    let data = inflate(&self.buf[..packed], method, size, crc)
                        .map_err(|m| self.error(&name, m))?;
                    let desc = need - packed;
                    self.consume(packed + desc);
                    // The compressed member is no longer needed: give its room back before the
                    // member is parsed (what is left is at most the rest of the last slice).
                    self.buf.shrink_to(KEEP_BUF);
                    self.member(&name, data)?;
                }
            }
        }
    }

    /// Parses one decompressed member. Memory at its peak holds the member's bytes and its
    /// parsed JSON (the bytes are dropped once parsed); in lean mode the response is moved out
    /// of the JSON, not copied, before it is reduced to its letter.
    fn member(&mut self, name: &str, data: Vec<u8>) -> Result<(), HarnessError> {
        if name == "header.json" {
            let header = parse_member(&self.file, name, &data)?;
            self.header = Some(from_header(
                &self.file,
                HarnessFormat::InspectEval,
                &header,
                name,
            )?);
        } else if name.starts_with("samples/") && name.ends_with(".json") {
            let mut value = parse_member(&self.file, name, &data)?;
            drop(data);
            let completion = if self.lean {
                take_completion(&mut value)
            } else {
                None
            };
            let position = self.records.len() + 1;
            let mut record = sample(&format!("{}: {name}", self.file), position, &value)?;
            drop(value);
            if self.lean {
                if let Some(text) = completion {
                    // The sample's response is its completion when that is not empty (as
                    // `sample` reads it); taken out above, it goes back here.
                    record.response = Some(super::capped_response(text));
                }
                make_lean(&mut record);
            }
            self.records.push(record);
        }
        Ok(())
    }

    /// Samples read so far.
    pub fn samples(&self) -> usize {
        self.records.len()
    }

    /// The log read.
    ///
    /// # Errors
    /// [`HarnessError::Zip`] when the archive ends inside a member;
    /// [`HarnessError::Missing`] without `header.json`; [`HarnessError::Empty`] without
    /// samples.
    pub fn finish(self) -> Result<HarnessFile, HarnessError> {
        if let State::Member { name, .. } = &self.state {
            return Err(self.error(name, "the archive ends inside this member (cut short?)"));
        }
        if matches!(self.state, State::Header) && !self.buf.is_empty() {
            return Err(self.error(
                "",
                format!(
                    "the archive ends inside a local file header at byte {}",
                    self.offset
                ),
            ));
        }
        let Some(mut out) = self.header else {
            return Err(HarnessError::Missing {
                location: Location::file(&self.file).in_field("header.json"),
                expected: "the log's header.json member (an Inspect .eval zip)",
            });
        };
        if self.records.is_empty() {
            return Err(HarnessError::Empty {
                file: self.file,
                expected: "samples/{id}_epoch_{n}.json members",
            });
        }
        out.records = self.records;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A local header for a stored member `name` declaring `size` bytes.
    fn local_header(name: &str, size: u32) -> Vec<u8> {
        let mut b = b"PK\x03\x04".to_vec();
        b.extend_from_slice(&[20, 0, 0, 0, 0, 0, 0, 0, 0, 0]); // version, flags, stored, time, date
        b.extend_from_slice(&0u32.to_le_bytes()); // CRC-32
        b.extend_from_slice(&size.to_le_bytes()); // compressed
        b.extend_from_slice(&size.to_le_bytes()); // decompressed
        b.extend_from_slice(&(name.len() as u16).to_le_bytes());
        b.extend_from_slice(&0u16.to_le_bytes());
        b.extend_from_slice(name.as_bytes());
        b
    }

    /// The members' declared sizes are bounded in all: a member that takes the total past
    /// [`MAX_EVAL_INFLATED_BYTES`] is refused from its header (as if the members before it had
    /// declared all but 100 bytes of the bound: 17,179,869,084 + 101 = 17,179,869,185).
    #[test]
    fn the_members_declared_sizes_are_bounded_in_all() {
        let mut s = EvalStream::new("s.eval", false);
        s.declared = MAX_EVAL_INFLATED_BYTES - 100;
        s.push(&local_header("a.json", 100)).unwrap();
        let mut s = EvalStream::new("s.eval", false);
        s.declared = MAX_EVAL_INFLATED_BYTES - 100;
        let e = s
            .push(&local_header("a.json", 101))
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "s.eval: a.json: with it the members so far declare 17179869185 bytes decompressed, \
             more than the 17179869184 (16 GiB) read from one log (limits::MAX_EVAL_INFLATED_BYTES)"
        );
    }
}
