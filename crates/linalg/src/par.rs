//! Parallelism as a parameter.

/// Where the work of a solver runs.
///
/// Every solver of this crate gives bit-identical results for `Seq` and `Rayon`,
/// and for any number of rayon threads: parallel loops write disjoint per-body or
/// per-row buffers, and reductions are summed in a fixed order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Par {
    /// Run on the calling thread.
    #[default]
    Seq,
    /// Run body-by-body / row-block loops on the current rayon pool.
    Rayon,
}

impl Par {
    /// The faer parallelism used for the dense and sparse kernels.
    ///
    /// Dense and sparse kernels always run sequentially (`faer::Par::Seq`): faer's
    /// blocked kernels may change summation order with the thread count, and the
    /// systems of this project are either small (dense) or already sparse.
    pub(crate) fn faer(self) -> faer::Par {
        faer::Par::Seq
    }
}
