//! Owned faer scratch memory (a `MemBuffer` with a `Debug` impl).

use faer::dyn_stack::{MemBuffer, MemStack, StackReq};

/// Preallocated scratch for faer kernels, sized once when a solver is built.
pub(crate) struct Scratch(MemBuffer);

impl Scratch {
    pub(crate) fn new(req: StackReq) -> Self {
        Self(MemBuffer::new(req))
    }

    pub(crate) fn stack(&mut self) -> &mut MemStack {
        MemStack::new(&mut self.0)
    }
}

impl std::fmt::Debug for Scratch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Scratch")
    }
}
