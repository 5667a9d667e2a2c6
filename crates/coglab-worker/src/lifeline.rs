//! How the page learns that its worker is gone, whatever ended it: each worker is named after
//! its tab and generation (`coglab-worker-5f3a9c01-3`, the `name` of
//! `new Worker(url, { name })`; locks are shared by every tab of the site) and holds a
//! Web Lock of that name for as long as it lives ([`hold`]); the page asks for the same lock
//! ([`when_released`]), which the browser grants only once the worker has ended (terminated,
//! closed itself, crashed, or stopped by the browser), since a worker's locks go with it.
//! A worker that ends without an error event (`self.close()`, ended from outside) is otherwise
//! silent: requests posted to it are never answered.
//!
//! Where the browser has no Web Locks (a page served over plain HTTP from another host than
//! `localhost` is not a secure context), the worker still serves; the page then learns of a
//! crash from its error event alone.

use js_sys::{Function, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The name of the worker of `generation` in the tab `tab` (and of its lock).
pub fn worker_name(tab: &str, generation: u32) -> String {
    format!("coglab-worker-{tab}-{generation}")
}

/// A token for this tab's worker names: random, so two tabs' locks never meet.
pub fn tab_token() -> String {
    format!(
        "{:08x}",
        (js_sys::Math::random() * f64::from(u32::MAX)) as u32
    )
}

/// The generation a worker's name gives ([`worker_name`]), `None` for another name.
pub fn generation_of(name: &str) -> Option<u32> {
    name.strip_prefix("coglab-worker-")?
        .rsplit_once('-')?
        .1
        .parse()
        .ok()
}

/// `navigator.locks` of this global scope (window or worker), if the browser has it here.
fn locks() -> Option<JsValue> {
    let navigator = Reflect::get(&js_sys::global(), &"navigator".into()).ok()?;
    Reflect::get(&navigator, &"locks".into())
        .ok()
        .filter(|l| !l.is_undefined() && !l.is_null())
}

/// `locks.request(name, callback)`.
fn request(name: &str, callback: &Function) -> Option<()> {
    let locks = locks()?;
    let request: Function = Reflect::get(&locks, &"request".into())
        .ok()?
        .dyn_into()
        .ok()?;
    request
        .call2(&locks, &JsValue::from_str(name), callback)
        .ok()
        .map(drop)
}

/// In the worker: takes the lock `name` and holds it until the worker ends, calling `on_held`
/// once it holds it (at once where there are no Web Locks).
pub fn hold(name: &str, on_held: impl FnOnce() + 'static) {
    let on_held = std::rc::Rc::new(std::cell::Cell::new(Some(on_held)));
    let run = on_held.clone();
    let callback = Closure::once_into_js(move |_lock: JsValue| -> Promise {
        if let Some(f) = run.take() {
            f();
        }
        // Never settles: the lock is held while the worker lives.
        Promise::new(&mut |_, _| {})
    });
    if request(name, callback.unchecked_ref()).is_none() {
        if let Some(f) = on_held.take() {
            f();
        }
    }
}

/// On the page: calls `on_released` once the lock `name` is free, that is once the worker
/// holding it has ended. Returns whether the browser can tell (it has Web Locks).
pub fn when_released(name: &str, on_released: impl FnOnce() + 'static) -> bool {
    let callback = Closure::once_into_js(move |_lock: JsValue| on_released());
    request(name, callback.unchecked_ref()).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_carry_the_generation() {
        assert_eq!(worker_name("00ff00ff", 3), "coglab-worker-00ff00ff-3");
        assert_eq!(generation_of(&worker_name("a1", 41)), Some(41));
        assert_eq!(generation_of("coglab-worker-"), None);
        assert_eq!(generation_of("coglab-worker-3"), None);
        assert_eq!(generation_of("other-3"), None);
        assert_eq!(generation_of(""), None);
    }
}
