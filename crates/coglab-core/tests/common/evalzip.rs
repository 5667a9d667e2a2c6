//! Hand-written Inspect `.eval` archives for the hostile-input tests (issue 37): zip bytes per
//! APPNOTE 4.3 and zstd frames per RFC 8878 written field by field, so a test can make a member
//! lie about its size or CRC-32, point central-directory entries at the same bytes, or inflate a
//! few kilobytes to gigabytes (zstd RLE blocks: 4 bytes each for 128 KiB). Shared by the core's
//! tests and the CLI's (`#[path]`).
#![allow(dead_code)]

/// CRC-32 (IEEE), bit by bit (independent of the crates under test).
pub fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in data {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// A piece of a zstd frame's content.
pub enum Part<'a> {
    /// Bytes as they are (raw blocks).
    Raw(&'a [u8]),
    /// One byte repeated (RLE blocks: 4 bytes of frame per 128 KiB).
    Rle(u8, u64),
}

/// CRC-32 (IEEE) by a 256-entry table, fed in pieces (for the large RLE runs).
struct Crc {
    table: [u32; 256],
    value: u32,
}

impl Crc {
    fn new() -> Self {
        let mut table = [0u32; 256];
        for (i, t) in table.iter_mut().enumerate() {
            let mut c = i as u32;
            for _ in 0..8 {
                c = if c & 1 != 0 {
                    (c >> 1) ^ 0xEDB8_8320
                } else {
                    c >> 1
                };
            }
            *t = c;
        }
        Self { table, value: !0 }
    }
    fn feed(&mut self, data: &[u8]) {
        for &b in data {
            self.value =
                (self.value >> 8) ^ self.table[((self.value ^ u32::from(b)) & 0xFF) as usize];
        }
    }
}

/// The CRC-32 and length of what `parts` decompress to, without making it.
pub fn content_crc_len(parts: &[Part]) -> (u32, u64) {
    let mut crc = Crc::new();
    let mut len = 0u64;
    for p in parts {
        match p {
            Part::Raw(b) => {
                crc.feed(b);
                len += b.len() as u64;
            }
            Part::Rle(byte, n) => {
                let chunk = vec![*byte; 1 << 16];
                let mut left = *n;
                while left > 0 {
                    let k = left.min(1 << 16);
                    crc.feed(&chunk[..k as usize]);
                    left -= k;
                }
                len += n;
            }
        }
    }
    (!crc.value, len)
}

/// The length of what `parts` decompress to.
pub fn content_len(parts: &[Part]) -> u64 {
    parts
        .iter()
        .map(|p| match p {
            Part::Raw(b) => b.len() as u64,
            Part::Rle(_, n) => *n,
        })
        .sum()
}

/// A zstd frame (no content size, no checksum, 128 KiB window) of raw and RLE blocks.
pub fn zstd_frame(parts: &[Part]) -> Vec<u8> {
    const BLOCK: u64 = 128 * 1024;
    let mut blocks: Vec<(u32, u32, Option<&[u8]>, u8)> = Vec::new(); // type, size, raw, rle byte
    for p in parts {
        match p {
            Part::Raw(b) => {
                for c in b.chunks(BLOCK as usize) {
                    blocks.push((0, c.len() as u32, Some(c), 0));
                }
            }
            Part::Rle(byte, n) => {
                let mut left = *n;
                while left > 0 {
                    let k = left.min(BLOCK);
                    blocks.push((1, k as u32, None, *byte));
                    left -= k;
                }
            }
        }
    }
    let mut out = vec![0x28, 0xB5, 0x2F, 0xFD]; // magic 0xFD2FB528
    out.push(0x00); // frame header descriptor: no size, no checksum, no dictionary
    out.push(7 << 3); // window descriptor: 2^(10 + 7) = 128 KiB
    let last = blocks.len().saturating_sub(1);
    if blocks.is_empty() {
        out.extend_from_slice(&[1, 0, 0]); // one empty last raw block
    }
    for (i, (kind, size, raw, byte)) in blocks.into_iter().enumerate() {
        let header = u32::from(i == last) | (kind << 1) | (size << 3);
        out.extend_from_slice(&header.to_le_bytes()[..3]);
        match raw {
            Some(b) => out.extend_from_slice(b),
            None => out.push(byte),
        }
    }
    out
}

/// One local member: its name, method (0 stored, 8 deflate, 93 zstd), packed bytes and the
/// CRC-32 and size its headers declare.
#[derive(Clone)]
pub struct Member {
    pub name: String,
    pub method: u16,
    pub packed: Vec<u8>,
    pub crc: u32,
    pub size: u32,
}

impl Member {
    /// A zstd member declaring exactly what `parts` decompress to.
    pub fn zstd(name: &str, parts: &[Part]) -> Self {
        let (crc, len) = content_crc_len(parts);
        Self {
            name: name.into(),
            method: 93,
            packed: zstd_frame(parts),
            crc,
            size: u32::try_from(len).unwrap_or(u32::MAX - 1),
        }
    }

    /// A zstd member declaring the size `parts` decompress to and a CRC-32 of 0 (for a member
    /// refused before its CRC-32 is checked; computing a gigabyte's CRC-32 in a debug build
    /// takes long).
    pub fn zstd_sized(name: &str, parts: &[Part]) -> Self {
        Self {
            name: name.into(),
            method: 93,
            packed: zstd_frame(parts),
            crc: 0,
            size: u32::try_from(content_len(parts)).unwrap_or(u32::MAX - 1),
        }
    }

    /// A zstd member of `data`.
    pub fn zstd_of(name: &str, data: &[u8]) -> Self {
        Self::zstd(name, &[Part::Raw(data)])
    }
}

fn fields(v: &mut Vec<u8>, m: &Member, name: &str) {
    v.extend_from_slice(&20u16.to_le_bytes()); // version needed
    v.extend_from_slice(&0u16.to_le_bytes()); // flags
    v.extend_from_slice(&m.method.to_le_bytes());
    v.extend_from_slice(&0u32.to_le_bytes()); // time, date
    v.extend_from_slice(&m.crc.to_le_bytes());
    v.extend_from_slice(&(m.packed.len() as u32).to_le_bytes());
    v.extend_from_slice(&m.size.to_le_bytes());
    v.extend_from_slice(&(name.len() as u16).to_le_bytes());
    v.extend_from_slice(&0u16.to_le_bytes()); // extra
}

/// A zip of `members` (local headers in order) whose central directory lists `central`:
/// `(index into members, name written in the central entry)`; the central entry points at
/// that member's local header, so two entries with the same index overlap.
pub fn zip_with(members: &[Member], central: &[(usize, String)]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut offsets = Vec::new();
    for m in members {
        offsets.push(out.len() as u32);
        out.extend_from_slice(b"PK\x03\x04");
        fields(&mut out, m, &m.name);
        out.extend_from_slice(m.name.as_bytes());
        out.extend_from_slice(&m.packed);
    }
    let mut cd = Vec::new();
    for (i, name) in central {
        let m = &members[*i];
        cd.extend_from_slice(b"PK\x01\x02");
        cd.extend_from_slice(&20u16.to_le_bytes()); // version made by
        fields(&mut cd, m, name);
        cd.extend_from_slice(&[0; 6]); // comment len, disk, internal attrs
        cd.extend_from_slice(&0u32.to_le_bytes()); // external attrs
        cd.extend_from_slice(&offsets[*i].to_le_bytes());
        cd.extend_from_slice(name.as_bytes());
    }
    let cd_offset = out.len() as u32;
    out.extend_from_slice(&cd);
    out.extend_from_slice(b"PK\x05\x06\0\0\0\0");
    let n = central.len() as u16;
    out.extend_from_slice(&n.to_le_bytes());
    out.extend_from_slice(&n.to_le_bytes());
    out.extend_from_slice(&(cd.len() as u32).to_le_bytes());
    out.extend_from_slice(&cd_offset.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out
}

/// A zip listing each member once, under its own name.
pub fn zip(members: &[Member]) -> Vec<u8> {
    let central: Vec<(usize, String)> = members
        .iter()
        .enumerate()
        .map(|(i, m)| (i, m.name.clone()))
        .collect();
    zip_with(members, &central)
}

/// A minimal Inspect header (task mmiq, model `model`).
pub fn header(model: &str) -> Vec<u8> {
    format!(
        r#"{{"version": 2, "status": "success", "eval": {{"task": "mmiq", "model": {}}}}}"#,
        serde_json::Value::String(model.into())
    )
    .into_bytes()
}

/// A sample of MM-IQ item `id` answering `answer`.
pub fn sample(id: u64, answer: &str) -> Vec<u8> {
    format!(r#"{{"id": {id}, "epoch": 1, "output": {{"completion": "ANSWER: {answer}"}}}}"#)
        .into_bytes()
}
