//! The page's encoding of requests and decoding of replies, a split point of its own: every
//! request and reply type's serde code (a quarter of the page module's code, most of it
//! serde-wasm-bindgen instantiations for the reply types of every page) is fetched with a
//! page's first worker request, beside the worker module itself, instead of with the page
//! (issue 42: the first page must be usable in 4 s on a slow link).
//!
//! Under the `split` feature the two functions below are one chunk (`worker_codec`) that
//! `wasm-split-cli` cuts out; its load failing (offline before it was cached) is an error of
//! the request, as the worker module's own load failing is. Without the feature they are
//! plain functions.

use wasm_bindgen::JsValue;

use super::api::{self, Envelope, Reply, WorkerError};

/// Why a request could not be encoded or its reply decoded.
#[derive(Debug)]
pub struct CodecError(pub String);

#[cfg(feature = "split")]
impl From<leptos::wasm_split::SplitLoaderError> for CodecError {
    fn from(e: leptos::wasm_split::SplitLoaderError) -> Self {
        Self(format!(
            "the page's part that talks to the scoring worker could not be loaded (offline \
             before the app had cached it?): {e}"
        ))
    }
}

/// A request as the JavaScript value posted to the worker.
///
/// # Errors
/// The chunk could not be loaded, or the request has a value serde-wasm-bindgen cannot write.
pub async fn encode(envelope: Envelope) -> Result<JsValue, CodecError> {
    #[cfg(feature = "split")]
    return encode_envelope(envelope).await;
    #[cfg(not(feature = "split"))]
    return encode_envelope(envelope);
}

/// A finished request's result ([`api::RawResult`]) read as the typed reply or the worker's
/// error.
///
/// # Errors
/// The chunk could not be loaded, or the value is not a reply of this build's API.
pub async fn decode(raw: JsValue) -> Result<Result<Reply, WorkerError>, CodecError> {
    #[cfg(feature = "split")]
    return decode_result(raw).await;
    #[cfg(not(feature = "split"))]
    return decode_result(raw);
}

#[cfg_attr(
    feature = "split",
    leptos::wasm_split::wasm_split(worker_codec, wasm_split_path = ::leptos::wasm_split, fallible)
)]
fn encode_envelope(envelope: Envelope) -> Result<JsValue, CodecError> {
    api::to_js(&envelope).map_err(CodecError)
}

#[cfg_attr(
    feature = "split",
    leptos::wasm_split::wasm_split(worker_codec, wasm_split_path = ::leptos::wasm_split, fallible)
)]
fn decode_result(raw: JsValue) -> Result<Result<Reply, WorkerError>, CodecError> {
    api::from_js(raw).map_err(CodecError)
}
