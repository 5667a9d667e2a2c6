//! An order-preserving JSON tree for the MM-OPERA files.
//!
//! `serde_json::Value` sorts object keys (without its `preserve_order` feature), but the
//! process-reward score depends on the order of the hops in `hop_quality` (hop i is weighted
//! γ^i), and reports should list items in file order. [`Node`] keeps keys in file order.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

use super::MmoperaError;
use crate::location::{snippet, Location};

/// A parsed JSON value whose objects keep their keys in file order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node {
    Null,
    Bool(bool),
    /// A number; `integer` tells whether it was written without fraction or exponent.
    Number {
        value: f64,
        integer: bool,
    },
    Str(String),
    Array(Vec<Node>),
    Object(Vec<(String, Node)>),
}

impl Node {
    /// The value of `key` in an object (the last one if the key repeats, as Python's `json`).
    pub(crate) fn get(&self, key: &str) -> Option<&Node> {
        match self {
            Node::Object(pairs) => pairs.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The string, if this is a string.
    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Node::Str(s) => Some(s),
            _ => None,
        }
    }

    /// A string, or a number / bool written as text; `None` for null, arrays and objects.
    pub(crate) fn as_text(&self) -> Option<String> {
        match self {
            Node::Str(s) => Some(s.clone()),
            Node::Number { .. } | Node::Bool(_) => Some(self.to_string()),
            _ => None,
        }
    }

    /// A number, or a string holding one (as Python's `float(x)`).
    pub(crate) fn as_f64(&self) -> Option<f64> {
        match self {
            Node::Number { value, .. } => Some(*value),
            Node::Str(s) => s.trim().parse::<f64>().ok().filter(|v| v.is_finite()),
            _ => None,
        }
    }

    /// A short description of the value for error messages: `a string "abc"`, `an object`, ...
    pub(crate) fn describe(&self) -> String {
        match self {
            Node::Null => "null".into(),
            Node::Bool(b) => format!("the boolean {b}"),
            Node::Number { .. } => format!("the number {self}"),
            Node::Str(s) => format!("the string {}", snippet(s)),
            Node::Array(items) => format!("an array of {} elements", items.len()),
            Node::Object(pairs) => {
                let keys: Vec<&str> = pairs.iter().take(4).map(|(k, _)| k.as_str()).collect();
                if keys.is_empty() {
                    "an empty object".into()
                } else {
                    format!("an object with keys {}", snippet(&keys.join(", ")))
                }
            }
        }
    }
}

impl fmt::Display for Node {
    /// Compact JSON-like text (numbers as written: integers without a fraction).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Node::Null => f.write_str("null"),
            Node::Bool(b) => write!(f, "{b}"),
            Node::Number { value, integer } => {
                if *integer && value.abs() < 1e15 {
                    write!(f, "{}", *value as i64)
                } else {
                    write!(f, "{value}")
                }
            }
            Node::Str(s) => write!(f, "{s:?}"),
            Node::Array(items) => {
                f.write_str("[")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str("]")
            }
            Node::Object(pairs) => {
                f.write_str("{")?;
                for (i, (k, v)) in pairs.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{k:?}: {v}")?;
                }
                f.write_str("}")
            }
        }
    }
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(NodeVisitor)
    }
}

struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Node, E> {
        Ok(Node::Bool(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Node, E> {
        Ok(Node::Number {
            value: v as f64,
            integer: true,
        })
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Node, E> {
        Ok(Node::Number {
            value: v as f64,
            integer: true,
        })
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Node, E> {
        Ok(Node::Number {
            value: v,
            integer: false,
        })
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Node, E> {
        Ok(Node::Str(v.to_owned()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Node, E> {
        Ok(Node::Str(v))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Node, E> {
        Ok(Node::Null)
    }
    fn visit_none<E: de::Error>(self) -> Result<Node, E> {
        Ok(Node::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Node, D::Error> {
        Node::deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(item) = seq.next_element::<Node>()? {
            items.push(item);
        }
        Ok(Node::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        let mut pairs = Vec::with_capacity(map.size_hint().unwrap_or(0).min(4096));
        while let Some((k, v)) = map.next_entry::<String, Node>()? {
            pairs.push((k, v));
        }
        Ok(Node::Object(pairs))
    }
}

/// Decodes bytes as UTF-8 text (dropping a byte-order mark), with a located error.
pub(crate) fn text<'a>(file: &str, bytes: &'a [u8]) -> Result<&'a str, MmoperaError> {
    crate::encoding::check_text(file, bytes)?;
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    // An empty (or blank) file is reported as such, not as a JSON or CSV syntax error.
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(MmoperaError::Empty {
            file: file.to_owned(),
        });
    }
    match crate::encoding::BadUtf8::find(bytes) {
        Some(bad) => Err(MmoperaError::Unexpected {
            location: Location::file(file).at_line(bad.line),
            expected: "UTF-8 text".into(),
            found: bad.to_string(),
        }),
        None => Ok(std::str::from_utf8(bytes).unwrap_or_default()),
    }
}

/// Parses one JSON document into a [`Node`]. `first_line` is added to serde_json's line
/// numbers (for JSONL, where the document is one line of a larger file).
pub(crate) fn parse_at(file: &str, text: &str, first_line: usize) -> Result<Node, MmoperaError> {
    serde_json::from_str::<Node>(text).map_err(|e| {
        let message = e.to_string();
        // serde_json appends " at line L column C"; the location carries the line instead.
        let message = match message.rfind(" at line ") {
            Some(cut) => format!("{} (column {})", &message[..cut], e.column()),
            None => message,
        };
        MmoperaError::Json {
            location: Location::file(file).at_line(first_line + e.line().max(1) - 1),
            message,
        }
    })
}

/// Parses a whole JSON file into a [`Node`].
pub(crate) fn parse(file: &str, bytes: &[u8]) -> Result<Node, MmoperaError> {
    parse_at(file, text(file, bytes)?, 1)
}

/// Formats a path to a value inside an id-keyed file: `q12`, `q12[2]`, `q12.score_judge`.
pub(crate) fn path(id: &str, rotation: Option<usize>, key: Option<&str>) -> String {
    let mut out = id.to_owned();
    if let Some(r) = rotation {
        out.push_str(&format!("[{r}]"));
    }
    if let Some(k) = key {
        out.push('.');
        out.push_str(k);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_key_order_and_last_duplicate() {
        let node = parse("x.json", br#"{"b": 1, "a": [2.5, "t", null], "b": 3}"#).unwrap();
        let Node::Object(pairs) = &node else {
            panic!("not an object")
        };
        let keys: Vec<&str> = pairs.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["b", "a", "b"]);
        assert_eq!(node.get("b").and_then(Node::as_f64), Some(3.0));
        assert_eq!(node.get("a").unwrap().to_string(), "[2.5, \"t\", null]");
    }

    #[test]
    fn syntax_errors_name_the_line() {
        let err = parse("judge.json", b"{\n  \"q1\": {\n  \"score_judge\": 3,,\n}").unwrap_err();
        let msg = err.to_string();
        assert!(msg.starts_with("judge.json line 3"), "{msg}");
        assert!(!msg.contains(" at line "), "{msg}");
    }

    #[test]
    fn invalid_utf8_is_located() {
        let err = parse("a.json", b"{\"q1\":\n\"\xff\"}").unwrap_err();
        assert!(err.to_string().starts_with("a.json line 2"), "{err}");
    }

    #[test]
    fn numbers_from_strings() {
        assert_eq!(Node::Str(" 0.75 ".into()).as_f64(), Some(0.75));
        assert_eq!(Node::Str("x".into()).as_f64(), None);
        assert_eq!(Node::Str("NaN".into()).as_f64(), None);
    }
}
