//! The pages of one column chunk, read and decompressed here and decoded by the `parquet`
//! crate's column readers (a [`PageReader`]).
//!
//! Written here rather than taken from the crate's `SerializedPageReader` for two reasons,
//! both measured: that reader allocates a page's declared size before decompressing it (a
//! 1 KB page declaring 2 GB took 2 GB), and its zstd codec is the C library, which does not
//! build for the browser without clang (the crate's feature `zstd`). Here each page's declared
//! sizes are checked against [`MAX_PARQUET_PAGE_BYTES`] and the chunk first, and it is
//! decompressed with pure-Rust codecs held to the declared size: Snappy (`snap`), zstd
//! (`ruzstd`, already used for Inspect logs) and gzip (`flate2`, already used for zip members).

use super::thrift::{read_page_header, PageHeader};
use super::{At, ColumnarError};
use crate::limits::MAX_PARQUET_PAGE_BYTES;
use bytes::Bytes;
use parquet::basic::{Compression, Encoding, Type as PhysicalType};
use parquet::column::page::{Page, PageMetadata, PageReader};
use parquet::errors::ParquetError;
use std::io::Read;

/// Page types of parquet.thrift.
const DATA_PAGE: i64 = 0;
const INDEX_PAGE: i64 = 1;
const DICTIONARY_PAGE: i64 = 2;
const DATA_PAGE_V2: i64 = 3;

/// The codecs read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Codec {
    Uncompressed,
    Snappy,
    Zstd,
    Gzip,
}

impl Codec {
    /// The codec of a column chunk, or the error naming one that is not read.
    pub(super) fn of(c: Compression, at: &At) -> Result<Self, ColumnarError> {
        Ok(match c {
            Compression::UNCOMPRESSED => Codec::Uncompressed,
            Compression::SNAPPY => Codec::Snappy,
            Compression::ZSTD(_) => Codec::Zstd,
            Compression::GZIP(_) => Codec::Gzip,
            other => {
                return Err(ColumnarError::Unsupported {
                    at: Box::new(at.clone()),
                    what: format!("the {other} codec"),
                    advice: "write the file with Snappy, zstd or gzip compression (pyarrow: \
                             write_table(..., compression=\"zstd\"))",
                })
            }
        })
    }
}

/// A page header checked against the chunk and the limits: where its body is.
pub(super) struct Checked {
    pub header: PageHeader,
    /// Offset of the body in the chunk.
    pub body: usize,
    /// Offset just past the body.
    pub end: usize,
}

/// Reads and checks the page header at `pos` of `chunk` (`at` names the page).
pub(super) fn check_header(chunk: &[u8], pos: usize, at: &At) -> Result<Checked, ColumnarError> {
    let corrupt = |message: String| ColumnarError::Corrupt {
        at: Box::new(at.clone()),
        message,
    };
    let (header, len) =
        read_page_header(&chunk[pos..]).map_err(|m| corrupt(format!("{m} (page header)")))?;
    let too_large = |what, found: i64| ColumnarError::TooLarge {
        at: Box::new(at.clone()),
        what,
        found: found.max(0) as u64,
        max: MAX_PARQUET_PAGE_BYTES,
        limit: "limits::MAX_PARQUET_PAGE_BYTES",
    };
    if header.uncompressed < 0 || header.compressed < 0 {
        return Err(corrupt(format!(
            "the page header declares a negative size ({} compressed, {} uncompressed)",
            header.compressed, header.uncompressed
        )));
    }
    if header.uncompressed as u64 > MAX_PARQUET_PAGE_BYTES {
        return Err(too_large(
            "the page's uncompressed size",
            header.uncompressed,
        ));
    }
    if header.compressed as u64 > MAX_PARQUET_PAGE_BYTES {
        return Err(too_large("the page's compressed size", header.compressed));
    }
    let body = pos + len;
    let end = body + header.compressed as usize;
    if end > chunk.len() {
        return Err(ColumnarError::Truncated {
            at: Box::new(at.clone()),
            expected: "the page within its column chunk",
            found: format!(
                "the page's {} bytes run {} bytes past the end of the chunk",
                header.compressed,
                end - chunk.len()
            ),
        });
    }
    if !matches!(
        header.page_type,
        DATA_PAGE | INDEX_PAGE | DICTIONARY_PAGE | DATA_PAGE_V2
    ) {
        return Err(corrupt(format!("unknown page type {}", header.page_type)));
    }
    if header.page_type != INDEX_PAGE && !header.has_sub_header {
        return Err(corrupt(
            "the page header lacks its data or dictionary header".into(),
        ));
    }
    if header.num_values < 0 || header.num_values > i64::from(u32::MAX) {
        return Err(corrupt(format!(
            "the page declares {} values",
            header.num_values
        )));
    }
    Ok(Checked { header, body, end })
}

/// The most values a dictionary page of `bytes` bytes can hold in PLAIN encoding (so a
/// dictionary claiming billions of values in a few bytes is refused before the decoder sizes
/// its table by the claim).
pub(super) fn most_dictionary_values(bytes: i64, t: PhysicalType, type_len: i32) -> i64 {
    match t {
        PhysicalType::BOOLEAN => bytes.saturating_mul(8),
        PhysicalType::INT32 | PhysicalType::FLOAT | PhysicalType::BYTE_ARRAY => bytes / 4,
        PhysicalType::INT64 | PhysicalType::DOUBLE => bytes / 8,
        PhysicalType::INT96 => bytes / 12,
        PhysicalType::FIXED_LEN_BYTE_ARRAY => bytes / i64::from(type_len.max(1)),
    }
}

/// The bit width of levels up to `max`.
fn level_width(max: i16) -> u32 {
    16 - (max.max(0) as u16).leading_zeros()
}

/// How many of the first `n` levels of an RLE / bit-packed hybrid run equal `max`, how many
/// are 0, and the first level; `None` when the runs cannot be read, hold fewer than `n` levels or a level
/// above `max`.
fn count_level(data: &[u8], width: u32, n: usize, max: u64) -> Option<(usize, usize, u64)> {
    let (mut pos, mut seen, mut count, mut zeros) = (0usize, 0usize, 0usize, 0usize);
    let mut first = None;
    let value_bytes = width.div_ceil(8) as usize;
    while seen < n {
        // The run's header: an unsigned LEB128 varint.
        let mut header = 0u64;
        let mut shift = 0;
        loop {
            let b = *data.get(pos)?;
            pos += 1;
            header |= u64::from(b & 0x7F).checked_shl(shift)?;
            if b & 0x80 == 0 {
                break;
            }
            shift += 7;
            if shift > 63 {
                return None;
            }
        }
        let run = usize::try_from(header >> 1).ok()?;
        if run == 0 {
            return None;
        }
        if header & 1 == 0 {
            let bytes = data.get(pos..pos.checked_add(value_bytes)?)?;
            pos += value_bytes;
            let v = bytes
                .iter()
                .enumerate()
                .fold(0u64, |v, (i, b)| v | (u64::from(*b) << (8 * i)));
            let take = run.min(n - seen);
            if v > max {
                return None;
            }
            first.get_or_insert(v);
            if v == max {
                count += take;
            }
            if v == 0 {
                zeros += take;
            }
            seen += take;
        } else {
            let total = run.checked_mul(8)?;
            let bytes = run.checked_mul(width as usize)?;
            let packed = data.get(pos..pos.checked_add(bytes)?)?;
            pos += bytes;
            let take = total.min(n - seen);
            for i in 0..take {
                let bit = i * width as usize;
                let mut v = 0u64;
                for j in 0..width as usize {
                    let b = bit + j;
                    if packed[b / 8] >> (b % 8) & 1 == 1 {
                        v |= 1 << j;
                    }
                }
                if v > max {
                    return None;
                }
                first.get_or_insert(v);
                if v == max {
                    count += 1;
                }
                if v == 0 {
                    zeros += 1;
                }
            }
            seen += take;
        }
    }
    Some((count, zeros, first.unwrap_or(0)))
}

/// A value encoding from its thrift number.
fn encoding(n: i64) -> Option<Encoding> {
    #[allow(deprecated)]
    Some(match n {
        0 => Encoding::PLAIN,
        2 => Encoding::PLAIN_DICTIONARY,
        3 => Encoding::RLE,
        4 => Encoding::BIT_PACKED,
        5 => Encoding::DELTA_BINARY_PACKED,
        6 => Encoding::DELTA_LENGTH_BYTE_ARRAY,
        7 => Encoding::DELTA_BYTE_ARRAY,
        8 => Encoding::RLE_DICTIONARY,
        9 => Encoding::BYTE_STREAM_SPLIT,
        _ => return None,
    })
}

/// Decompresses `input` into exactly `size` bytes (the declared size), never producing more.
pub(super) fn decompress(codec: Codec, input: &[u8], size: usize) -> Result<Vec<u8>, String> {
    let held = |out: Vec<u8>| {
        if out.len() == size {
            Ok(out)
        } else if out.len() > size {
            Err(format!(
                "the page decompresses to more than the {size} bytes its header declares"
            ))
        } else {
            Err(format!(
                "the page decompresses to {} bytes, its header declares {size}",
                out.len()
            ))
        }
    };
    match codec {
        Codec::Uncompressed => held(input.to_vec()),
        Codec::Snappy => {
            let n = snap::raw::decompress_len(input).map_err(|e| format!("Snappy: {e}"))?;
            if n != size {
                return Err(format!(
                    "the Snappy page declares {n} bytes, its page header {size}"
                ));
            }
            let mut out = vec![0; size];
            snap::raw::Decoder::new()
                .decompress(input, &mut out)
                .map_err(|e| format!("Snappy: {e}"))?;
            Ok(out)
        }
        Codec::Zstd => {
            let decoder =
                ruzstd::decoding::StreamingDecoder::new(input).map_err(|e| format!("zstd: {e}"))?;
            read_held(decoder, size, "zstd").and_then(held)
        }
        Codec::Gzip => {
            read_held(flate2::read::MultiGzDecoder::new(input), size, "gzip").and_then(held)
        }
    }
}

/// Reads at most `size + 1` bytes (one more tells a page that inflates past its size).
fn read_held(r: impl Read, size: usize, codec: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(size);
    r.take(size as u64 + 1)
        .read_to_end(&mut out)
        .map_err(|e| format!("{codec}: {e}"))?;
    Ok(out)
}

/// The pages of one column chunk (its bytes in memory).
pub(super) struct ChunkPages {
    /// The chunk's bytes.
    pub chunk: Bytes,
    /// Offset of the next page header.
    pub pos: usize,
    /// 1-based number of the next page.
    pub page: usize,
    pub codec: Codec,
    pub physical: PhysicalType,
    pub type_len: i32,
    /// The column's highest definition and repetition levels.
    pub max_def: i16,
    pub max_rep: i16,
    /// Whether a dictionary page has been read.
    pub dictionary: bool,
    /// Whether a data page has been read.
    pub data_page: bool,
    /// The records the data pages read so far start (repetition levels of 0; `None` when a
    /// page's levels were not read).
    pub records: Option<u64>,
    /// File, row group and column (the page is set per page).
    pub at: At,
}

impl ChunkPages {
    fn at_page(&self) -> At {
        At {
            page: Some(self.page),
            ..self.at.clone()
        }
    }

    /// The next page's header, checked, skipping index pages; `None` at the end.
    fn next_header(&mut self) -> Result<Option<Checked>, ColumnarError> {
        while self.pos < self.chunk.len() {
            let checked = check_header(&self.chunk, self.pos, &self.at_page())?;
            if checked.header.page_type == INDEX_PAGE {
                self.pos = checked.end;
                self.page += 1;
                continue;
            }
            return Ok(Some(checked));
        }
        Ok(None)
    }

    /// The next page, decompressed and checked; `None` at the end.
    pub(super) fn page(&mut self) -> Result<Option<Page>, ColumnarError> {
        let Some(Checked {
            header: h,
            body,
            end,
        }) = self.next_header()?
        else {
            return Ok(None);
        };
        let at = self.at_page();
        let corrupt = |message: String| ColumnarError::Corrupt {
            at: Box::new(at.clone()),
            message,
        };
        let enc = |n: i64| encoding(n).ok_or_else(|| corrupt(format!("unknown encoding {n}")));
        let raw = self.chunk.slice(body..end);
        let size = h.uncompressed as usize;
        let num_values = h.num_values as u32;
        let page = match h.page_type {
            DICTIONARY_PAGE => {
                let most = most_dictionary_values(h.uncompressed, self.physical, self.type_len);
                if h.num_values > most {
                    return Err(ColumnarError::Mismatch {
                        at: Box::new(at),
                        expected: format!(
                            "at most {most} values in a {}-byte dictionary",
                            h.uncompressed
                        ),
                        found: format!("the dictionary page declares {} values", h.num_values),
                    });
                }
                Page::DictionaryPage {
                    buf: self.body(raw, size, 0, true)?,
                    num_values,
                    encoding: enc(h.encoding)?,
                    is_sorted: h.flag,
                }
            }
            DATA_PAGE => Page::DataPage {
                buf: self.body(raw, size, 0, true)?,
                num_values,
                encoding: enc(h.encoding)?,
                def_level_encoding: enc(h.def_level_encoding)?,
                rep_level_encoding: enc(h.rep_level_encoding)?,
                statistics: None,
            },
            _ => {
                let levels = h.def_levels_len.checked_add(h.rep_levels_len);
                let levels = match levels {
                    Some(l)
                        if h.def_levels_len >= 0
                            && h.rep_levels_len >= 0
                            && l <= h.uncompressed
                            && l <= h.compressed =>
                    {
                        l as usize
                    }
                    _ => {
                        return Err(corrupt(format!(
                            "the v2 page's level lengths ({} and {}) do not fit its sizes",
                            h.def_levels_len, h.rep_levels_len
                        )))
                    }
                };
                let count = |n: i64, what: &str| {
                    u32::try_from(n).map_err(|_| corrupt(format!("the page declares {n} {what}")))
                };
                Page::DataPageV2 {
                    buf: self.body(raw, size, levels, h.flag)?,
                    num_values,
                    encoding: enc(h.encoding)?,
                    num_nulls: count(h.num_nulls, "nulls")?,
                    num_rows: count(h.num_rows, "rows")?,
                    def_levels_byte_len: h.def_levels_len as u32,
                    rep_levels_byte_len: h.rep_levels_len as u32,
                    is_compressed: h.flag,
                    statistics: None,
                }
            }
        };
        // What the `parquet` crate's column reader assumes and panics on (found by
        // `kiva_parquet::mutated_pyarrow_files_never_panic`): a dictionary page before any
        // dictionary-encoded data page, RLE or BIT_PACKED levels.
        match &page {
            Page::DictionaryPage { .. } => self.dictionary = true,
            Page::DataPage { encoding, .. } | Page::DataPageV2 { encoding, .. }
                if matches!(
                    encoding,
                    Encoding::RLE_DICTIONARY | Encoding::PLAIN_DICTIONARY
                ) && !self.dictionary =>
            {
                return Err(corrupt(format!(
                    "a data page of {encoding} values with no dictionary page before it"
                )));
            }
            _ => {}
        }
        #[allow(deprecated)]
        if let Page::DataPage {
            def_level_encoding: d,
            rep_level_encoding: r,
            ..
        } = &page
        {
            for (e, what) in [(d, "definition"), (r, "repetition")] {
                if !matches!(e, Encoding::RLE | Encoding::BIT_PACKED) {
                    return Err(corrupt(format!(
                        "{what} levels encoded as {e}, expected RLE or BIT_PACKED"
                    )));
                }
            }
        }
        let levels = self.levels(&page).map_err(corrupt)?;
        if matches!(page, Page::DataPage { .. } | Page::DataPageV2 { .. }) {
            self.data_page = true;
        }
        if self.physical == PhysicalType::BYTE_ARRAY {
            self.check_plain_byte_arrays(&page, levels)
                .map_err(corrupt)?;
        }
        self.pos = end;
        self.page += 1;
        Ok(Some(page))
    }

    /// A data page's levels, checked to hold one repetition and one definition level per
    /// value it declares (the `parquet` crate's record reader indexes past the levels it got
    /// otherwise: `record::triplet`, found by `kiva_parquet::mutated_pyarrow_files_never_panic`):
    /// `Some((values present, where its values start))`, `None` for a page that is no data page
    /// or whose levels are in the deprecated BIT_PACKED encoding (left to the crate).
    ///
    /// # Errors
    /// What is wrong with the levels.
    fn levels(&mut self, page: &Page) -> Result<Option<(usize, usize)>, String> {
        let short = |what: &str, n: usize| {
            format!(
                "the page's {what} levels do not hold one level of at most the column's highest \
                 for each of its {n} values"
            )
        };
        let starts_inside = || {
            "the column chunk's first page starts inside a record (repetition level not 0)"
                .to_string()
        };
        match page {
            Page::DataPage {
                buf,
                num_values,
                def_level_encoding,
                rep_level_encoding,
                ..
            } => {
                let n = *num_values as usize;
                let mut pos = 0usize;
                let mut present = n;
                for (max, enc, what) in [
                    (self.max_rep, *rep_level_encoding, "repetition"),
                    (self.max_def, *def_level_encoding, "definition"),
                ] {
                    if max == 0 {
                        continue;
                    }
                    if enc != Encoding::RLE {
                        // Deprecated BIT_PACKED levels: not read here (nor counted).
                        self.records = None;
                        return Ok(None);
                    }
                    let len = buf
                        .get(pos..pos + 4)
                        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
                        .ok_or_else(|| short(what, n))?;
                    let levels = buf
                        .get(pos + 4..(pos + 4).saturating_add(len))
                        .ok_or_else(|| short(what, n))?;
                    let (c, zeros, first) = count_level(levels, level_width(max), n, max as u64)
                        .ok_or_else(|| short(what, n))?;
                    if what == "definition" {
                        present = c;
                    } else {
                        if first != 0 && !self.data_page {
                            return Err(starts_inside());
                        }
                        self.records = self.records.map(|r| r + zeros as u64);
                    }
                    pos += 4 + len;
                }
                Ok(Some((present, pos)))
            }
            Page::DataPageV2 {
                buf,
                num_values,
                def_levels_byte_len,
                rep_levels_byte_len,
                ..
            } => {
                let n = *num_values as usize;
                let rep = *rep_levels_byte_len as usize;
                let def = *def_levels_byte_len as usize;
                if self.max_rep > 0 {
                    let levels = buf.get(..rep).ok_or_else(|| short("repetition", n))?;
                    let (_, zeros, first) =
                        count_level(levels, level_width(self.max_rep), n, self.max_rep as u64)
                            .ok_or_else(|| short("repetition", n))?;
                    if first != 0 && !self.data_page {
                        return Err(starts_inside());
                    }
                    self.records = self.records.map(|r| r + zeros as u64);
                }
                let present = if self.max_def == 0 {
                    n
                } else {
                    let levels = buf
                        .get(rep..rep.saturating_add(def))
                        .ok_or_else(|| short("definition", n))?;
                    count_level(levels, level_width(self.max_def), n, self.max_def as u64)
                        .ok_or_else(|| short("definition", n))?
                        .0
                };
                Ok(Some((present, rep + def)))
            }
            _ => Ok(None),
        }
    }

    /// A PLAIN page of byte arrays must hold the values it is read for, each a 4-byte length
    /// and that many bytes: the `parquet` crate's decoder reads the next length without
    /// checking that 4 bytes are left and panics (`read_num_bytes`, found by
    /// `kiva_parquet::mutated_pyarrow_files_never_panic`). A dictionary page holds its
    /// `num_values`; a data page one per definition level at the column's highest.
    fn check_plain_byte_arrays(
        &self,
        page: &Page,
        levels: Option<(usize, usize)>,
    ) -> Result<(), String> {
        let (buf, values, start) = match (page, levels) {
            (
                Page::DictionaryPage {
                    buf,
                    num_values,
                    encoding: Encoding::PLAIN | Encoding::PLAIN_DICTIONARY,
                    ..
                },
                _,
            ) => (buf, *num_values as usize, 0),
            (
                Page::DataPage {
                    buf,
                    encoding: Encoding::PLAIN,
                    ..
                }
                | Page::DataPageV2 {
                    buf,
                    encoding: Encoding::PLAIN,
                    ..
                },
                Some((present, start)),
            ) => (buf, present, start),
            _ => return Ok(()),
        };
        let mut pos = start;
        for k in 0..values {
            let len = buf
                .get(pos..pos.saturating_add(4))
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize);
            match len {
                Some(len) if pos + 4 + len <= buf.len() => pos += 4 + len,
                _ => {
                    return Err(format!(
                        "the page's values end after {k} of the {values} byte arrays it holds                          ({} bytes, PLAIN: a 4-byte length, then the bytes, for each)",
                        buf.len().saturating_sub(start)
                    ))
                }
            }
        }
        Ok(())
    }

    /// A page's body, decompressed when `compressed` (its first `levels` bytes are never
    /// compressed: a v2 page's levels).
    fn body(
        &self,
        raw: Bytes,
        size: usize,
        levels: usize,
        compressed: bool,
    ) -> Result<Bytes, ColumnarError> {
        if self.codec == Codec::Uncompressed || !compressed {
            if raw.len() != size {
                return Err(ColumnarError::Corrupt {
                    at: Box::new(self.at_page()),
                    message: format!(
                        "the uncompressed page has {} bytes, its header declares {size}",
                        raw.len()
                    ),
                });
            }
            return Ok(raw);
        }
        let mut out = Vec::with_capacity(size);
        out.extend_from_slice(&raw[..levels]);
        let rest = decompress(self.codec, &raw[levels..], size - levels).map_err(|message| {
            ColumnarError::Corrupt {
                at: Box::new(self.at_page()),
                message,
            }
        })?;
        out.extend_from_slice(&rest);
        Ok(Bytes::from(out))
    }
}

/// A [`ColumnarError`] carried through the `parquet` crate's readers.
pub(super) fn external(e: ColumnarError) -> ParquetError {
    ParquetError::External(Box::new(e))
}

impl PageReader for ChunkPages {
    fn get_next_page(&mut self) -> parquet::errors::Result<Option<Page>> {
        self.page().map_err(external)
    }

    fn peek_next_page(&mut self) -> parquet::errors::Result<Option<PageMetadata>> {
        let pos = self.pos;
        let page = self.page;
        let next = self.next_header().map_err(external);
        // Peeking does not move.
        self.pos = pos;
        self.page = page;
        Ok(next?.map(|c| PageMetadata {
            num_rows: (c.header.page_type == DATA_PAGE_V2).then_some(c.header.num_rows as usize),
            num_levels: Some(c.header.num_values as usize),
            is_dict: c.header.page_type == DICTIONARY_PAGE,
        }))
    }

    fn skip_next_page(&mut self) -> parquet::errors::Result<()> {
        if let Some(c) = self.next_header().map_err(external)? {
            self.pos = c.end;
            self.page += 1;
        }
        Ok(())
    }
}

impl Iterator for ChunkPages {
    type Item = parquet::errors::Result<Page>;

    fn next(&mut self) -> Option<Self::Item> {
        self.get_next_page().transpose()
    }
}
