//! The dataset metadata (`id, domain, type, culture, language, hop_count, perception,
//! conception`, optional `relation, explanation, reasoning, description1..4, foldername`), read
//! from a JSON array, an id-keyed JSON object, JSONL or CSV export of the dataset's columns.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::json::{self, Node};
use super::taxonomy::{find_labels, L1, L2, L3};
use super::{MmoperaError, Warning};
use crate::location::{snippet, Location};

/// The value used for a missing, null or empty category (as the released code's
/// `item.get("domain", "unknown")`).
pub const UNKNOWN: &str = "unknown";

/// One dataset item's metadata.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ItemMeta {
    /// Item id (the key of the result and judge files).
    pub id: String,
    /// The dataset's `foldername`, when given (the ICA scripts key results by it).
    pub foldername: Option<String>,
    /// Topic domain. ICA rows may list several, separated by commas.
    pub domain: String,
    /// Relationship type: Relation, Mutual Element or Metaphor.
    #[serde(rename = "type")]
    pub kind: String,
    /// Culture.
    pub culture: String,
    /// Language.
    pub language: String,
    /// Number of hops of the reference association path, as text (`"2"`, or `unknown`).
    pub hop_count: String,
    /// L-3 ability labels found in `perception` and `conception`, each once, in
    /// [`L3::ALL`] order.
    pub l3: Vec<L3>,
    /// Reference relation, if given.
    pub relation: Option<String>,
    /// Reference explanation, if given.
    pub explanation: Option<String>,
    /// Reference reasoning path(s), if given (as text; JSON values are kept as JSON text).
    pub reasoning: Option<String>,
    /// Image descriptions `description1..4` that are present.
    pub descriptions: Vec<String>,
    /// The group of concept-identical multi-image variants the item belongs to (the paper's
    /// §5.4 multi-image substitution test), from a `variant_group`, `concept_group` or `group`
    /// field when the metadata has one (the released metadata has none that coglab knows of).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant_group: Option<String>,
}

impl ItemMeta {
    /// The L-2 dimensions of the item's labels, each once.
    pub fn l2(&self) -> Vec<L2> {
        let mut out: Vec<L2> = self.l3.iter().map(|l| l.l2()).collect();
        out.sort();
        out.dedup();
        out
    }

    /// The L-1 levels of the item's labels, each once.
    pub fn l1(&self) -> Vec<L1> {
        let mut out: Vec<L1> = self.l3.iter().map(|l| l.l2().l1()).collect();
        out.sort();
        out.dedup();
        out
    }
}

/// All items of a metadata file, in file order.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(from = "MetadataRaw")]
pub struct Metadata {
    /// The file name, for messages.
    pub file: String,
    /// The items, in file order.
    pub items: Vec<ItemMeta>,
    /// Problems that did not stop parsing (e.g. an unknown ability label).
    pub warnings: Vec<Warning>,
    #[serde(skip)]
    index: HashMap<String, usize>,
    #[serde(skip)]
    folder_index: HashMap<String, usize>,
}

/// [`Metadata`] as serialized; the indexes are rebuilt on deserialization.
#[derive(Deserialize)]
struct MetadataRaw {
    file: String,
    items: Vec<ItemMeta>,
    warnings: Vec<Warning>,
}

impl From<MetadataRaw> for Metadata {
    fn from(raw: MetadataRaw) -> Self {
        let mut meta = Metadata {
            file: raw.file,
            items: raw.items,
            warnings: raw.warnings,
            ..Metadata::default()
        };
        meta.rebuild_index();
        meta
    }
}

impl Metadata {
    /// Parses a metadata file. The format is taken from the content: a JSON array of records,
    /// a JSON object keyed by id, one JSON record per line (JSONL), or CSV with a header row.
    ///
    /// # Errors
    /// [`MmoperaError::Json`] / [`MmoperaError::Csv`] for unreadable syntax,
    /// [`MmoperaError::MissingField`] for a record without `id`,
    /// [`MmoperaError::DuplicateId`], [`MmoperaError::Unexpected`] for a record that is not an
    /// object or a `hop_count` that is not a whole number, [`MmoperaError::Empty`].
    ///
    /// # Examples
    /// ```
    /// use coglab_core::mmopera::metadata::Metadata;
    /// let csv = "id,domain,type,culture,language,hop_count,perception,conception\n\
    ///            r1,Nature,Relation,Global,English,2,\"['Visual Similarity']\",[]\n";
    /// let meta = Metadata::parse("meta.csv", csv.as_bytes()).unwrap();
    /// assert_eq!(meta.get("r1").unwrap().hop_count, "2");
    /// ```
    pub fn parse(file: &str, bytes: &[u8]) -> Result<Self, MmoperaError> {
        let text = json::text(file, bytes)?;
        let trimmed = text.trim_start();
        let mut meta = Metadata {
            file: file.to_owned(),
            ..Metadata::default()
        };
        if trimmed.starts_with('[') {
            let node = json::parse_at(file, text, 1)?;
            let Node::Array(records) = node else {
                return Err(MmoperaError::Unexpected {
                    location: Location::file(file),
                    expected: "a JSON array of records".into(),
                    found: node.describe(),
                });
            };
            for (i, record) in records.iter().enumerate() {
                let at = RecordAt::Index(i);
                meta.push_record(record, &at, None)?;
            }
        } else if trimmed.starts_with('{') {
            match json::parse_at(file, text, 1) {
                Ok(node @ Node::Object(_)) if node.get("id").is_some() => {
                    meta.push_record(&node, &RecordAt::Line(1), None)?;
                }
                Ok(Node::Object(pairs)) => {
                    for (key, record) in &pairs {
                        let at = RecordAt::Key(key.clone());
                        meta.push_record(record, &at, Some(key))?;
                    }
                }
                // Not one JSON document: JSON Lines.
                _ => meta.parse_jsonl(text)?,
            }
        } else {
            meta.parse_csv(text)?;
        }
        if meta.items.is_empty() {
            return Err(MmoperaError::Empty {
                file: file.to_owned(),
            });
        }
        meta.rebuild_index();
        Ok(meta)
    }

    /// The item with this id, or else with this `foldername` (the ICA result files are keyed
    /// by folder name).
    pub fn get(&self, id: &str) -> Option<&ItemMeta> {
        let i = self.index.get(id).or_else(|| self.folder_index.get(id))?;
        self.items.get(*i)
    }

    fn rebuild_index(&mut self) {
        self.index.clear();
        self.folder_index.clear();
        for (i, item) in self.items.iter().enumerate() {
            self.index.entry(item.id.clone()).or_insert(i);
            if let Some(folder) = &item.foldername {
                self.folder_index.entry(folder.clone()).or_insert(i);
            }
        }
    }

    /// Number of items.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether there are no items.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    fn parse_jsonl(&mut self, text: &str) -> Result<(), MmoperaError> {
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let node = json::parse_at(&self.file, line, i + 1)?;
            self.push_record(&node, &RecordAt::Line(i + 1), None)?;
        }
        Ok(())
    }

    fn parse_csv(&mut self, text: &str) -> Result<(), MmoperaError> {
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(true)
            .from_reader(text.as_bytes());
        let csv_error = |file: &str, e: csv::Error| {
            let line = crate::location::LineIndex::new(text.as_bytes())
                .csv_line(e.position())
                .max(1);
            MmoperaError::Csv {
                location: Location::file(file).at_line(line),
                message: e.to_string(),
            }
        };
        let headers: Vec<String> = reader
            .headers()
            .map_err(|e| csv_error(&self.file, e))?
            .iter()
            .map(|h| h.trim().to_ascii_lowercase())
            .collect();
        if !headers.iter().any(|h| h == "id") {
            return Err(MmoperaError::MissingField {
                location: Location::file(&self.file).at_line(1).in_field("id"),
                expected: format!(
                    "a header row with an \"id\" column; found columns {}",
                    snippet(&headers.join(","))
                ),
            });
        }
        let mut lines = crate::location::LineIndex::new(text.as_bytes());
        for record in reader.records() {
            let record = record.map_err(|e| csv_error(&self.file, e))?;
            let line = lines.csv_line(record.position());
            let pairs: Vec<(String, Node)> = headers
                .iter()
                .zip(record.iter())
                .map(|(h, v)| (h.clone(), Node::Str(v.to_owned())))
                .collect();
            self.push_record(&Node::Object(pairs), &RecordAt::Line(line), None)?;
        }
        Ok(())
    }

    fn push_record(
        &mut self,
        record: &Node,
        at: &RecordAt,
        key: Option<&str>,
    ) -> Result<(), MmoperaError> {
        let file = self.file.clone();
        let loc = |field: &str| at.location(&file, field);
        if !matches!(record, Node::Object(_)) {
            return Err(MmoperaError::Unexpected {
                location: at.location(&file, ""),
                expected: "a record object".into(),
                found: record.describe(),
            });
        }
        let id = match record.get("id").and_then(Node::as_text) {
            Some(id) if !id.trim().is_empty() => id.trim().to_owned(),
            _ => match key {
                Some(k) => k.to_owned(),
                None => {
                    return Err(MmoperaError::MissingField {
                        location: loc("id"),
                        expected: "a non-empty item id".into(),
                    })
                }
            },
        };
        if let Some(&first) = self.index.get(&id) {
            return Err(MmoperaError::DuplicateId {
                location: loc("id"),
                id,
                first: format!("record {}", first + 1),
            });
        }
        let category = |field: &str| -> String {
            match record.get(field).and_then(Node::as_text) {
                Some(s) if !s.trim().is_empty() && s.trim() != "null" => s.trim().to_owned(),
                _ => UNKNOWN.to_owned(),
            }
        };
        let hop_count = match record.get("hop_count") {
            None | Some(Node::Null) => UNKNOWN.to_owned(),
            Some(node) => match node.as_f64() {
                Some(v) if v >= 0.0 && v.fract() == 0.0 && v < 1e9 => format!("{}", v as u64),
                _ if node.as_str().is_some_and(|s| s.trim().is_empty()) => UNKNOWN.to_owned(),
                _ => {
                    return Err(MmoperaError::Unexpected {
                        location: loc("hop_count"),
                        expected: "a whole number of hops".into(),
                        found: node.describe(),
                    })
                }
            },
        };
        let mut l3 = Vec::new();
        for field in ["perception", "conception"] {
            if let Some(node) = record.get(field) {
                self.collect_labels(node, &id, field, at, &mut l3);
            }
        }
        // ICA rows may carry the labels only inside the `reasoning` pairs.
        if l3.is_empty() {
            if let Some(pairs) = record.get("reasoning").and_then(reasoning_pairs) {
                for pair in &pairs {
                    for field in ["perception", "conception"] {
                        if let Some(node) = pair.get(field) {
                            self.collect_labels(node, &id, field, at, &mut l3);
                        }
                    }
                }
            }
        }
        l3.sort();
        l3.dedup();
        let optional = |field: &str| -> Option<String> {
            match record.get(field) {
                None | Some(Node::Null) => None,
                Some(Node::Str(s)) if s.trim().is_empty() => None,
                Some(Node::Str(s)) => Some(s.clone()),
                Some(other) => Some(other.to_string()),
            }
        };
        let descriptions = (1..=4)
            .filter_map(|i| optional(&format!("description{i}")))
            .collect();
        let item = ItemMeta {
            foldername: optional("foldername"),
            domain: category("domain"),
            kind: category("type"),
            culture: category("culture"),
            language: category("language"),
            hop_count,
            l3,
            relation: optional("relation"),
            explanation: optional("explanation"),
            reasoning: optional("reasoning"),
            descriptions,
            variant_group: ["variant_group", "concept_group", "group"]
                .iter()
                .find_map(|f| optional(f)),
            id: id.clone(),
        };
        self.index.insert(id, self.items.len());
        self.items.push(item);
        Ok(())
    }

    fn collect_labels(
        &mut self,
        node: &Node,
        id: &str,
        field: &str,
        at: &RecordAt,
        out: &mut Vec<L3>,
    ) {
        let unknown = |found: &str, warnings: &mut Vec<Warning>| {
            warnings.push(Warning {
                file: self.file.clone(),
                id: Some(id.to_owned()),
                field: Some(at.field_path(field)),
                message: format!(
                    "expected L-3 ability labels, found {}; ignored",
                    snippet(found)
                ),
            });
        };
        match node {
            Node::Array(items) => {
                for item in items {
                    match item.as_str().map(find_labels) {
                        Some(found) if !found.is_empty() => out.extend(found),
                        _ => unknown(&item.to_string(), &mut self.warnings),
                    }
                }
            }
            Node::Str(s) => {
                let found = find_labels(s);
                let bare = s.trim_matches(|c: char| "[](){}'\", ".contains(c) || c.is_whitespace());
                if found.is_empty() && !bare.is_empty() && !bare.eq_ignore_ascii_case("none") {
                    unknown(s, &mut self.warnings);
                }
                out.extend(found);
            }
            Node::Null => {}
            other => unknown(&other.to_string(), &mut self.warnings),
        }
    }
}

/// The `reasoning` value as a list of objects (ICA stores it as a JSON string of pairs).
fn reasoning_pairs(node: &Node) -> Option<Vec<Node>> {
    let parsed;
    let node = match node {
        Node::Str(s) if s.trim_start().starts_with('[') => {
            parsed = serde_json::from_str::<Node>(s).ok()?;
            &parsed
        }
        other => other,
    };
    match node {
        Node::Array(items) => Some(
            items
                .iter()
                .filter(|i| matches!(i, Node::Object(_)))
                .cloned()
                .collect(),
        ),
        _ => None,
    }
}

/// Where a record sits in its file, for locations.
enum RecordAt {
    /// JSONL or CSV line (1-based).
    Line(usize),
    /// Index in a JSON array (0-based, shown as `[i]`).
    Index(usize),
    /// Key in an id-keyed JSON object.
    Key(String),
}

impl RecordAt {
    fn field_path(&self, field: &str) -> String {
        match self {
            RecordAt::Line(_) => field.to_owned(),
            RecordAt::Index(i) if field.is_empty() => format!("[{i}]"),
            RecordAt::Index(i) => format!("[{i}].{field}"),
            RecordAt::Key(k) => json::path(k, None, (!field.is_empty()).then_some(field)),
        }
    }

    fn location(&self, file: &str, field: &str) -> Location {
        let loc = Location::file(file);
        let loc = match self {
            RecordAt::Line(line) => loc.at_line(*line),
            _ => loc,
        };
        let path = self.field_path(field);
        if path.is_empty() {
            loc
        } else {
            loc.in_field(path)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const JSON_ARRAY: &str = r#"[
      {"id": "r1", "domain": "Nature", "type": "Relation", "culture": "Global",
       "language": "English", "hop_count": 2,
       "perception": ["Visual Similarity", "Semantic Object"], "conception": ["Causal Connections"]},
      {"id": "r2", "domain": null, "type": "Metaphor", "culture": "Chinese",
       "language": "Chinese", "hop_count": "3",
       "perception": "Social Insight, Relational Perception", "conception": "[]"}
    ]"#;

    #[test]
    fn json_array_with_lists_and_strings() {
        let meta = Metadata::parse("meta.json", JSON_ARRAY.as_bytes()).unwrap();
        assert_eq!(meta.len(), 2);
        let r1 = meta.get("r1").unwrap();
        assert_eq!(
            r1.l3,
            vec![
                L3::VisualSimilarity,
                L3::SemanticObject,
                L3::CausalConnections
            ]
        );
        // Two recognition labels → recognition once; logic once.
        assert_eq!(r1.l2(), vec![L2::Recognition, L2::Logic]);
        assert_eq!(r1.l1(), vec![L1::Perception, L1::Conception]);
        let r2 = meta.get("r2").unwrap();
        assert_eq!(r2.domain, UNKNOWN);
        assert_eq!(r2.hop_count, "3");
        assert_eq!(r2.l3, vec![L3::SocialInsight, L3::RelationalPerception]);
        assert!(meta.warnings.is_empty(), "{:?}", meta.warnings);
    }

    #[test]
    fn jsonl_and_csv_give_the_same_items() {
        let jsonl = "{\"id\": \"a\", \"domain\": \"Art\", \"hop_count\": 1, \"perception\": [\"Visual Similarity\"]}\n\n\
                     {\"id\": \"b\", \"domain\": \"Art\", \"hop_count\": 4}\n";
        let csv = "id,domain,hop_count,perception\na,Art,1,['Visual Similarity']\nb,Art,4,\n";
        let a = Metadata::parse("m.jsonl", jsonl.as_bytes()).unwrap();
        let b = Metadata::parse("m.csv", csv.as_bytes()).unwrap();
        assert_eq!(a.items, b.items);
        assert_eq!(a.get("b").unwrap().kind, UNKNOWN);
    }

    #[test]
    fn id_keyed_object_and_ica_reasoning_labels() {
        let text = r#"{"ica1": {"domain": "Sports, History", "hop_count": 2,
            "reasoning": "[{\"pair_id\": 1, \"perception\": [\"Semantic Object\"], \"conception\": [\"Cultural Reference\"]}, {\"pair_id\": 2, \"perception\": [\"Semantic Object\"], \"conception\": []}]"}}"#;
        let meta = Metadata::parse("m.json", text.as_bytes()).unwrap();
        let item = meta.get("ica1").unwrap();
        assert_eq!(item.l3, vec![L3::SemanticObject, L3::CulturalReference]);
        assert_eq!(item.domain, "Sports, History");
    }

    #[test]
    fn foldername_lookup_and_json_round_trip() {
        let text = r#"[{"id": "7", "foldername": "ica_007", "hop_count": 1}]"#;
        let meta = Metadata::parse("m.json", text.as_bytes()).unwrap();
        assert_eq!(meta.get("ica_007").unwrap().id, "7");
        let back: Metadata = serde_json::from_str(&serde_json::to_string(&meta).unwrap()).unwrap();
        assert_eq!(back, meta);
        assert_eq!(
            back.get("7").unwrap().foldername.as_deref(),
            Some("ica_007")
        );
        assert_eq!(back.get("ica_007").unwrap().id, "7");
    }

    #[test]
    fn errors_are_located() {
        let err =
            Metadata::parse("m.jsonl", b"{\"id\": \"a\"}\n{\"domain\": \"x\"}\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "m.jsonl line 2: field \"id\": missing: expected a non-empty item id"
        );
        let err = Metadata::parse("m.csv", b"id,hop_count\na,2\nb,two\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "m.csv line 3: field \"hop_count\": expected a whole number of hops, found the string \"two\""
        );
        let err = Metadata::parse("m.json", br#"[{"id": "a"}, {"id": "a"}]"#).unwrap_err();
        assert!(matches!(err, MmoperaError::DuplicateId { .. }), "{err}");
        assert_eq!(
            err.to_string(),
            "m.json: field \"[1].id\": duplicate id \"a\" (first at record 1)"
        );
        let err = Metadata::parse("m.csv", b"name,domain\na,b\n").unwrap_err();
        assert!(
            err.to_string().starts_with("m.csv line 1: field \"id\""),
            "{err}"
        );
        let err = Metadata::parse("m.csv", b"id,domain\na,b,c\n").unwrap_err();
        assert!(err.to_string().starts_with("m.csv line 2"), "{err}");
        assert!(matches!(
            Metadata::parse("m.json", b"[]"),
            Err(MmoperaError::Empty { .. })
        ));
    }

    #[test]
    fn unknown_labels_warn() {
        let text = r#"[{"id": "a", "perception": ["Telepathy", "Visual Similarity"], "conception": "Mind reading"}]"#;
        let meta = Metadata::parse("m.json", text.as_bytes()).unwrap();
        assert_eq!(meta.get("a").unwrap().l3, vec![L3::VisualSimilarity]);
        assert_eq!(meta.warnings.len(), 2);
        assert_eq!(meta.warnings[0].field.as_deref(), Some("[0].perception"));
    }
}
