//! A Parquet page header, read from the Thrift compact protocol it is written in, with every
//! size checked before it is used.
//!
//! The `parquet` crate reads page headers too, but keeps that reader to itself and allocates a
//! page's declared uncompressed size before decompressing it; a 1 KB page that declares 2 GB
//! would take 2 GB. This reader gives [`super::pages`] the sizes first, so it checks them
//! against [`crate::limits::MAX_PARQUET_PAGE_BYTES`] before anything is allocated. It reads
//! only the fields a page reader needs and skips the rest (statistics, index pages), with a
//! bound on nesting so that a hostile header cannot exhaust the stack.

/// The fields of a `PageHeader` (parquet.thrift) that the page reader uses.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct PageHeader {
    /// `type`: 0 data page, 1 index page, 2 dictionary page, 3 data page v2.
    pub page_type: i64,
    /// `uncompressed_page_size`.
    pub uncompressed: i64,
    /// `compressed_page_size`.
    pub compressed: i64,
    /// `num_values` of the data (v1 or v2) or dictionary page header.
    pub num_values: i64,
    /// `encoding` of the page's values.
    pub encoding: i64,
    /// v1: `definition_level_encoding`.
    pub def_level_encoding: i64,
    /// v1: `repetition_level_encoding`.
    pub rep_level_encoding: i64,
    /// v2: `num_nulls`.
    pub num_nulls: i64,
    /// v2: `num_rows`.
    pub num_rows: i64,
    /// v2: `definition_levels_byte_length`.
    pub def_levels_len: i64,
    /// v2: `repetition_levels_byte_length`.
    pub rep_levels_len: i64,
    /// v2: `is_compressed` (true when absent); dictionary: `is_sorted`.
    pub flag: bool,
    /// Whether the header had a data page, dictionary page or v2 header.
    pub has_sub_header: bool,
}

/// Compact protocol type ids.
const T_TRUE: u8 = 1;
const T_FALSE: u8 = 2;
const T_BYTE: u8 = 3;
const T_I16: u8 = 4;
const T_I32: u8 = 5;
const T_I64: u8 = 6;
const T_DOUBLE: u8 = 7;
const T_BINARY: u8 = 8;
const T_LIST: u8 = 9;
const T_SET: u8 = 10;
const T_MAP: u8 = 11;
const T_STRUCT: u8 = 12;

/// Deepest nesting of structs, lists and maps skipped (a page header's statistics nest 2).
const MAX_DEPTH: usize = 32;

/// A cursor over a header's bytes.
struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
}

type Res<T> = Result<T, String>;

impl Cursor<'_> {
    fn byte(&mut self) -> Res<u8> {
        let b = *self
            .bytes
            .get(self.pos)
            .ok_or("the page header is cut short")?;
        self.pos += 1;
        Ok(b)
    }

    fn varint(&mut self) -> Res<u64> {
        let mut out = 0u64;
        for shift in (0..70).step_by(7) {
            let b = self.byte()?;
            if shift == 63 && b > 1 {
                return Err("a number in the page header overflows 64 bits".into());
            }
            out |= u64::from(b & 0x7F) << shift;
            if b & 0x80 == 0 {
                return Ok(out);
            }
        }
        Err("a number in the page header overflows 64 bits".into())
    }

    fn zigzag(&mut self) -> Res<i64> {
        let v = self.varint()?;
        Ok((v >> 1) as i64 ^ -((v & 1) as i64))
    }

    fn advance(&mut self, n: u64) -> Res<()> {
        let end = usize::try_from(n)
            .ok()
            .and_then(|n| self.pos.checked_add(n))
            .filter(|&e| e <= self.bytes.len())
            .ok_or("the page header is cut short")?;
        self.pos = end;
        Ok(())
    }

    /// Skips a value of compact type `t`.
    fn skip(&mut self, t: u8, depth: usize) -> Res<()> {
        if depth > MAX_DEPTH {
            return Err("the page header nests too deep".into());
        }
        match t {
            T_TRUE | T_FALSE => Ok(()),
            T_BYTE => self.advance(1),
            T_I16 | T_I32 | T_I64 => self.varint().map(|_| ()),
            T_DOUBLE => self.advance(8),
            T_BINARY => {
                let n = self.varint()?;
                self.advance(n)
            }
            T_LIST | T_SET => {
                let head = self.byte()?;
                let n = match head >> 4 {
                    15 => self.varint()?,
                    n => u64::from(n),
                };
                let elem = head & 0x0F;
                for _ in 0..n {
                    // A boolean element is one byte.
                    if elem == T_TRUE || elem == T_FALSE {
                        self.advance(1)?;
                    } else {
                        self.skip(elem, depth + 1)?;
                    }
                }
                Ok(())
            }
            T_MAP => {
                let n = self.varint()?;
                if n == 0 {
                    return Ok(());
                }
                let kv = self.byte()?;
                for _ in 0..n {
                    self.skip(kv >> 4, depth + 1)?;
                    self.skip(kv & 0x0F, depth + 1)?;
                }
                Ok(())
            }
            T_STRUCT => self.fields(depth + 1, |c, _, t| c.skip(t, depth + 1)),
            other => Err(format!(
                "the page header has an unknown Thrift type {other}"
            )),
        }
    }

    /// Reads a struct's fields up to its stop byte, handing each (id, type) to `each`, which
    /// must consume the value.
    fn fields(
        &mut self,
        depth: usize,
        mut each: impl FnMut(&mut Self, i16, u8) -> Res<()>,
    ) -> Res<()> {
        if depth > MAX_DEPTH {
            return Err("the page header nests too deep".into());
        }
        let mut id: i16 = 0;
        loop {
            let head = self.byte()?;
            if head == 0 {
                return Ok(());
            }
            let t = head & 0x0F;
            id = match head >> 4 {
                0 => i16::try_from(self.zigzag()?)
                    .map_err(|_| "a field id in the page header is out of range")?,
                delta => id.saturating_add(i16::from(delta)),
            };
            each(self, id, t)?;
        }
    }

    /// An integer field's value (`t` must be an integer type).
    fn int(&mut self, t: u8) -> Res<i64> {
        match t {
            T_BYTE => Ok(i64::from(self.byte()? as i8)),
            T_I16 | T_I32 | T_I64 => self.zigzag(),
            _ => Err(format!(
                "the page header has type {t} where an integer is expected"
            )),
        }
    }

    /// A boolean field's value (in a struct, the type carries it).
    fn flag(&mut self, t: u8) -> Res<bool> {
        match t {
            T_TRUE => Ok(true),
            T_FALSE => Ok(false),
            _ => Err(format!(
                "the page header has type {t} where a boolean is expected"
            )),
        }
    }
}

/// Reads a page header from the start of `bytes`: the header and its length in bytes.
///
/// # Errors
/// A message naming what is wrong (cut short, an unknown type, a field of the wrong type).
pub(crate) fn read_page_header(bytes: &[u8]) -> Result<(PageHeader, usize), String> {
    let mut c = Cursor { bytes, pos: 0 };
    let mut h = PageHeader {
        flag: true,
        ..PageHeader::default()
    };
    c.fields(0, |c, id, t| {
        match (id, t) {
            (1, _) => h.page_type = c.int(t)?,
            (2, _) => h.uncompressed = c.int(t)?,
            (3, _) => h.compressed = c.int(t)?,
            // Data page (v1).
            (5, T_STRUCT) => {
                h.has_sub_header = true;
                c.fields(1, |c, id, t| {
                    match (id, t) {
                        (1, _) => h.num_values = c.int(t)?,
                        (2, _) => h.encoding = c.int(t)?,
                        (3, _) => h.def_level_encoding = c.int(t)?,
                        (4, _) => h.rep_level_encoding = c.int(t)?,
                        _ => c.skip(t, 2)?,
                    }
                    Ok(())
                })?;
            }
            // Dictionary page.
            (7, T_STRUCT) => {
                h.has_sub_header = true;
                c.fields(1, |c, id, t| {
                    match (id, t) {
                        (1, _) => h.num_values = c.int(t)?,
                        (2, _) => h.encoding = c.int(t)?,
                        (3, T_TRUE | T_FALSE) => h.flag = c.flag(t)?,
                        _ => c.skip(t, 2)?,
                    }
                    Ok(())
                })?;
            }
            // Data page v2.
            (8, T_STRUCT) => {
                h.has_sub_header = true;
                c.fields(1, |c, id, t| {
                    match (id, t) {
                        (1, _) => h.num_values = c.int(t)?,
                        (2, _) => h.num_nulls = c.int(t)?,
                        (3, _) => h.num_rows = c.int(t)?,
                        (4, _) => h.encoding = c.int(t)?,
                        (5, _) => h.def_levels_len = c.int(t)?,
                        (6, _) => h.rep_levels_len = c.int(t)?,
                        (7, T_TRUE | T_FALSE) => h.flag = c.flag(t)?,
                        _ => c.skip(t, 2)?,
                    }
                    Ok(())
                })?;
            }
            _ => c.skip(t, 1)?,
        }
        Ok(())
    })?;
    Ok((h, c.pos))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A header written by hand in the compact protocol: type 0 (field 1, i32, zigzag 0),
    /// uncompressed 100 (field 2: zigzag 200 = 0xC8 0x01), compressed 50 (field 3: zigzag
    /// 100 = 0x64), then a data page header (field 5, struct): num_values 10 (zigzag 20 =
    /// 0x14), encoding 0, and stop bytes.
    #[test]
    fn reads_a_hand_written_header() {
        let bytes = [
            0x15, 0x00, 0x15, 0xC8, 0x01, 0x15, 0x64, 0x2C, 0x15, 0x14, 0x15, 0x00, 0x00, 0x00,
            0xFF,
        ];
        let (h, len) = read_page_header(&bytes).unwrap();
        assert_eq!(len, 14);
        assert_eq!((h.page_type, h.uncompressed, h.compressed), (0, 100, 50));
        assert_eq!((h.num_values, h.encoding), (10, 0));
        assert!(h.has_sub_header);
    }

    #[test]
    fn cut_and_deep_headers_are_errors() {
        assert_eq!(
            read_page_header(&[0x15, 0xC8]).unwrap_err(),
            "the page header is cut short"
        );
        // Field 6 (skipped) as a struct holding a struct holding ... (field delta 1, type 12).
        let deep = vec![0x6C; 100];
        let mut bytes = vec![0x15, 0x00];
        bytes.extend(deep);
        assert_eq!(
            read_page_header(&bytes).unwrap_err(),
            "the page header nests too deep"
        );
        // A varint longer than 64 bits.
        let mut long = vec![0x25];
        long.extend([0xFF; 11]);
        assert!(read_page_header(&long).unwrap_err().contains("overflows"));
    }
}
