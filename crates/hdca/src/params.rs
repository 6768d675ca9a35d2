//! Parameters of the HDCA front-end.

use mbs_linalg::Par;

/// Options of [`crate::Hdca`].
#[derive(Clone, Debug, PartialEq)]
pub struct HdcaParams {
    /// Eigenvalue threshold, on the equilibrated matrix (unit diagonal), below which
    /// a direction of an assembly system (eqs 26–27, 43, 45) is treated as redundant
    /// and dropped. Planar loops modelled in 3-D have 3 redundant rows per loop. The
    /// assembled matrices of long loops carry round-off of order ε·cond (the known
    /// conditioning of DCA on long chains): for a planar loop of 64 bodies the
    /// redundant eigenvalues are ~1e-7, for 1024 bodies ~1e-3; raise the threshold
    /// accordingly for such loops (the benchmark only times them).
    pub redundancy_tol: f64,
    /// Where the assembly and disassembly sweeps over independent subtrees run
    /// (default [`Par::Rayon`]). The result is bit-identical for any thread count.
    pub par: Par,
    /// Sub-assemblies with fewer bodies than this are processed sequentially.
    pub parallel_min_bodies: usize,
    /// Store each momentum divided by its joint's diagonal entry of the tree's
    /// joint-space mass matrix at the initial configuration ([`crate::Hdca`]'s state
    /// layout), so that an integrator's absolute tolerance acts on joint-rate units
    /// as in the other formulations' states. Off: the paper's canonical momenta p.
    pub scale_momenta: bool,
}

impl Default for HdcaParams {
    fn default() -> Self {
        Self {
            redundancy_tol: 1e-8,
            par: Par::Rayon,
            parallel_min_bodies: 64,
            scale_momenta: true,
        }
    }
}
