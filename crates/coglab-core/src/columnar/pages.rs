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

    fn page(&mut self) -> Result<Option<Page>, ColumnarError> {
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
        self.pos = end;
        self.page += 1;
        Ok(Some(page))
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
