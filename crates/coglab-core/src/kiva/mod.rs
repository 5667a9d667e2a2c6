//! KiVA: model-run CSVs, the adult human data, three-stage scoring and aggregation (issue 3).
