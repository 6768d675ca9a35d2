//! Parameters of the HDCA front-end.

/// Options of [`crate::Hdca`].
#[derive(Clone, Debug, PartialEq)]
pub struct HdcaParams {
    /// Relative eigenvalue threshold below which a direction of an assembly system
    /// (eqs 26–27, 43, 45) is treated as redundant and dropped (minimum-norm
    /// impulses). Planar loops modelled in 3-D have 3 redundant rows per loop.
    pub redundancy_tol: f64,
    /// Use rayon for the assembly and disassembly sweeps over independent subtrees.
    /// The result is bit-identical for any thread count.
    pub parallel: bool,
    /// Sub-assemblies with fewer bodies than this are processed sequentially.
    pub parallel_min_bodies: usize,
}

impl Default for HdcaParams {
    fn default() -> Self {
        Self {
            redundancy_tol: 1e-10,
            parallel: true,
            parallel_min_bodies: 64,
        }
    }
}
