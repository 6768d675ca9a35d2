//! The readers and the builder recurse once per level of the source's tree (MJCF
//! bodies nest, a kinematic chain of 1 000 links is 1 000 levels), so the stack they
//! need grows with the model: about 1–2 KiB per level, depending on how the compiler
//! inlined them. A caller's stack is whatever it is (2 MiB on a Rust test or spawned
//! thread, 8 MiB on a main thread, less inside some embedding), so the import runs on
//! a thread of its own with a stack sized for the deepest tree the readers accept
//! (1 024 levels for MJCF, see `mjcf::xml::MAX_DEPTH`), with room to spare. The stack
//! is only reserved address space until used.

/// Stack of the import thread: 256 KiB per accepted level.
const STACK_BYTES: usize = 256 << 20;

/// Runs `f` on a scoped thread with a [`STACK_BYTES`] stack and returns its result;
/// a panic inside `f` continues in the caller. Where no thread can be started, runs
/// `f` on the caller's stack.
pub(crate) fn with_deep_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    let slot = std::sync::Mutex::new(Some(f));
    let run = || {
        let f = slot.lock().ok().and_then(|mut g| g.take());
        f.expect("the import closure runs once")()
    };
    std::thread::scope(|s| {
        match std::thread::Builder::new()
            .name("mbs-import".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(s, run)
        {
            Ok(handle) => handle
                .join()
                .unwrap_or_else(|payload| std::panic::resume_unwind(payload)),
            Err(_) => run(),
        }
    })
}
