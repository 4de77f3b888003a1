//! Work off the frame: a job (a template preview, a what-if, the planning scenarios) runs on its own thread.

/// Runs a background job (a template preview, a what-if, the planning scenarios) on its own thread; in the
/// browser, which has none, runs it at once.
pub fn spawn(job: impl FnOnce() + Send + 'static) {
    #[cfg(target_arch = "wasm32")]
    job();
    #[cfg(not(target_arch = "wasm32"))]
    std::thread::spawn(job);
}
