//! The few FlatBuffers reads an Arrow IPC message or footer needs: tables through their
//! vtables, scalars with their defaults, strings, and vectors of tables and of structs, every
//! offset checked against the buffer (a hostile offset is an error, never a panic).

/// What is wrong with a FlatBuffer (the caller names where it is).
pub(super) type Fb<T> = Result<T, &'static str>;

const PAST_END: &str = "an offset past the end of the metadata";

fn bytes<const N: usize>(b: &[u8], p: usize) -> Fb<[u8; N]> {
    p.checked_add(N)
        .and_then(|e| b.get(p..e))
        .and_then(|s| s.try_into().ok())
        .ok_or(PAST_END)
}

fn u16_at(b: &[u8], p: usize) -> Fb<u16> {
    bytes(b, p).map(u16::from_le_bytes)
}

fn u32_at(b: &[u8], p: usize) -> Fb<usize> {
    bytes(b, p).map(|x| u32::from_le_bytes(x) as usize)
}

/// A table: its position in the buffer and its vtable.
#[derive(Clone, Copy)]
pub(super) struct Table<'a> {
    buf: &'a [u8],
    pos: usize,
    vt: usize,
    vt_len: usize,
}

impl<'a> Table<'a> {
    /// The buffer's root table.
    pub(super) fn root(buf: &'a [u8]) -> Fb<Self> {
        Self::at(buf, u32_at(buf, 0)?)
    }

    fn at(buf: &'a [u8], pos: usize) -> Fb<Self> {
        let soff = i32::from_le_bytes(bytes(buf, pos)?);
        let vt = usize::try_from(pos as i64 - i64::from(soff)).map_err(|_| PAST_END)?;
        let vt_len = usize::from(u16_at(buf, vt)?);
        let table_len = usize::from(u16_at(buf, vt + 2)?);
        if vt_len < 4 || vt + vt_len > buf.len() || pos + table_len > buf.len() {
            return Err("a table whose vtable or fields lie past the end of the metadata");
        }
        Ok(Self {
            buf,
            pos,
            vt,
            vt_len,
        })
    }

    /// Where field `i` is, when present.
    fn field(&self, i: usize) -> Fb<Option<usize>> {
        let slot = 4 + 2 * i;
        if slot + 2 > self.vt_len {
            return Ok(None);
        }
        let off = usize::from(u16_at(self.buf, self.vt + slot)?);
        Ok((off != 0).then_some(self.pos + off))
    }

    fn scalar<const N: usize>(&self, i: usize) -> Fb<Option<[u8; N]>> {
        self.field(i)?.map(|p| bytes(self.buf, p)).transpose()
    }

    /// A `long` field (`default` when absent).
    pub(super) fn i64(&self, i: usize, default: i64) -> Fb<i64> {
        Ok(self.scalar(i)?.map_or(default, i64::from_le_bytes))
    }

    /// An `int` field.
    pub(super) fn i32(&self, i: usize, default: i32) -> Fb<i32> {
        Ok(self.scalar(i)?.map_or(default, i32::from_le_bytes))
    }

    /// A `short` field.
    pub(super) fn i16(&self, i: usize, default: i16) -> Fb<i16> {
        Ok(self.scalar(i)?.map_or(default, i16::from_le_bytes))
    }

    /// A `ubyte`, `byte` or `bool` field (an enum's or a union's type).
    pub(super) fn u8(&self, i: usize, default: u8) -> Fb<u8> {
        Ok(self.scalar::<1>(i)?.map_or(default, |b| b[0]))
    }

    /// Where an offset field (table, vector, string) points.
    fn target(&self, i: usize) -> Fb<Option<usize>> {
        let Some(p) = self.field(i)? else {
            return Ok(None);
        };
        let t = p.checked_add(u32_at(self.buf, p)?).ok_or(PAST_END)?;
        if t >= self.buf.len() {
            return Err(PAST_END);
        }
        Ok(Some(t))
    }

    /// A table field.
    pub(super) fn table(&self, i: usize) -> Fb<Option<Table<'a>>> {
        self.target(i)?.map(|t| Self::at(self.buf, t)).transpose()
    }

    /// A vector field: where its elements start and how many there are.
    fn vector(&self, i: usize, size: usize) -> Fb<Option<(usize, usize)>> {
        let Some(t) = self.target(i)? else {
            return Ok(None);
        };
        let n = u32_at(self.buf, t)?;
        let start = t + 4;
        let end = n
            .checked_mul(size)
            .and_then(|l| l.checked_add(start))
            .ok_or(PAST_END)?;
        if end > self.buf.len() {
            return Err("a vector longer than the metadata");
        }
        Ok(Some((start, n)))
    }

    /// A string field.
    pub(super) fn string(&self, i: usize) -> Fb<Option<&'a str>> {
        let Some((start, n)) = self.vector(i, 1)? else {
            return Ok(None);
        };
        std::str::from_utf8(&self.buf[start..start + n])
            .map(Some)
            .map_err(|_| "a name that is not UTF-8")
    }

    /// A vector of tables (empty when absent).
    pub(super) fn tables(&self, i: usize) -> Fb<Vec<Table<'a>>> {
        let Some((start, n)) = self.vector(i, 4)? else {
            return Ok(Vec::new());
        };
        (0..n)
            .map(|k| {
                let p = start + 4 * k;
                Self::at(self.buf, p + u32_at(self.buf, p)?)
            })
            .collect()
    }

    /// A vector of structs of `size` bytes each, as bytes (empty when absent).
    pub(super) fn structs(&self, i: usize, size: usize) -> Fb<&'a [u8]> {
        Ok(match self.vector(i, size)? {
            Some((start, n)) => &self.buf[start..start + n * size],
            None => &[],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table with one `long` (field 0) and one string (field 1), laid out by hand as the
    /// FlatBuffers builder lays it out: root offset, vtable, table, string.
    #[test]
    fn reads_a_hand_built_table() {
        let mut b = vec![0u8; 4];
        // vtable at 4: length 8, table length 16, field 0 at +4, field 1 at +12
        b.extend_from_slice(&8u16.to_le_bytes());
        b.extend_from_slice(&16u16.to_le_bytes());
        b.extend_from_slice(&4u16.to_le_bytes());
        b.extend_from_slice(&12u16.to_le_bytes());
        // table at 12: soffset to the vtable (12 - 4 = 8)
        let table = b.len();
        b.extend_from_slice(&8i32.to_le_bytes());
        b.extend_from_slice(&(-7i64).to_le_bytes());
        // field 1 at table + 12: offset to the string at table + 16
        b.extend_from_slice(&4u32.to_le_bytes());
        b.extend_from_slice(&2u32.to_le_bytes());
        b.extend_from_slice(b"ab\0\0");
        b[0..4].copy_from_slice(&(table as u32).to_le_bytes());
        let t = Table::root(&b).unwrap();
        assert_eq!(t.i64(0, 0), Ok(-7));
        assert_eq!(t.string(1), Ok(Some("ab")));
        assert_eq!(t.i32(5, 9), Ok(9));
        // An offset past the end.
        let mut bad = b.clone();
        bad[0..4].copy_from_slice(&1000u32.to_le_bytes());
        assert!(Table::root(&bad).is_err());
    }
}
