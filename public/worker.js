// coglab's scoring worker (a module worker started by src/worker/client.rs).
//
// It runs the app's own WebAssembly module, so nothing is downloaded twice: the page posts
// {glue, module}, the URL of the app's wasm-bindgen glue (same origin only) and the compiled
// WebAssembly.Module. Instantiating it runs the app's start, which sees it is in a worker,
// installs the Rust message handler and posts "ready"; the page sends no request before that.
self.onmessage = async (event) => {
  self.onmessage = null;
  const { glue, module } = event.data || {};
  const url = new URL(String(glue), self.location.href);
  if (url.origin !== self.location.origin) {
    throw new Error(`coglab worker: refusing to load ${url.href} (not this site's origin)`);
  }
  const bindings = await import(url.href);
  await bindings.default({ module_or_path: module });
};
