//! Parallelism as a parameter: one switch for every parallel loop of the
//! workspace (this crate's PCG, the DCA and HDCA tree sweeps, the branches of
//! natural partitioning).

use rayon::prelude::*;

/// Where the work of a solver runs.
///
/// Every user gives bit-identical results for `Seq` and `Rayon`, and for any
/// number of rayon threads: parallel loops write disjoint per-body, per-row or
/// per-node buffers, each piece's arithmetic does not depend on the schedule, and
/// reductions are summed in a fixed order afterwards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Par {
    /// Run on the calling thread.
    #[default]
    Seq,
    /// Run independent pieces (bodies, row blocks, subtrees, branches) on the
    /// current rayon pool.
    Rayon,
}

/// Items per rayon task in [`Par::for_each_chunk`] (scheduling only).
const MIN_CHUNKS: usize = 32;

impl Par {
    /// `Rayon` if `parallel`, else `Seq`.
    pub fn from_flag(parallel: bool) -> Self {
        if parallel { Par::Rayon } else { Par::Seq }
    }

    /// Whether work may run on the rayon pool.
    pub fn is_parallel(self) -> bool {
        self == Par::Rayon
    }

    /// `self` for a piece of work of `size` units (bodies of a subtree) when
    /// `size ≥ min_size`, `Seq` for smaller pieces: the granularity of a tree
    /// traversal, where splitting small subtrees costs more than it saves.
    pub fn for_size(self, size: usize, min_size: usize) -> Self {
        if size >= min_size { self } else { Par::Seq }
    }

    /// Runs `a` and `b`: one after the other (`Seq`, `a` first) or with
    /// `rayon::join` (`Rayon`).
    pub fn join<A, B, RA, RB>(self, a: A, b: B) -> (RA, RB)
    where
        A: FnOnce() -> RA + Send,
        B: FnOnce() -> RB + Send,
        RA: Send,
        RB: Send,
    {
        match self {
            Par::Seq => (a(), b()),
            Par::Rayon => rayon::join(a, b),
        }
    }

    /// `f(k, chunk)` for the consecutive chunks of `chunk` items of `data` (the
    /// last may be shorter).
    pub fn for_each_chunk<T, F>(self, data: &mut [T], chunk: usize, f: F)
    where
        T: Send,
        F: Fn(usize, &mut [T]) + Sync + Send,
    {
        match self {
            Par::Seq => data
                .chunks_mut(chunk)
                .enumerate()
                .for_each(|(k, c)| f(k, c)),
            Par::Rayon => data
                .par_chunks_mut(chunk)
                .with_min_len(MIN_CHUNKS)
                .enumerate()
                .for_each(|(k, c)| f(k, c)),
        }
    }

    /// `f(aᵢ, bᵢ)` for the pairs of `a` and `b` (to the shorter length). `Seq`
    /// stops at the first error; `Rayon` returns one of the errors.
    pub fn try_for_each_zip<A, B, E, F>(self, a: &mut [A], b: &[B], f: F) -> Result<(), E>
    where
        A: Send,
        B: Sync,
        E: Send,
        F: Fn(&mut A, &B) -> Result<(), E> + Sync + Send,
    {
        match self {
            Par::Seq => a.iter_mut().zip(b).try_for_each(|(x, y)| f(x, y)),
            Par::Rayon => a
                .par_iter_mut()
                .zip(b.par_iter())
                .try_for_each(|(x, y)| f(x, y)),
        }
    }

    /// The faer parallelism used for the dense and sparse kernels.
    ///
    /// Dense and sparse kernels always run sequentially (`faer::Par::Seq`): faer's
    /// blocked kernels may change summation order with the thread count, and the
    /// systems of this project are either small (dense) or already sparse.
    pub(crate) fn faer(self) -> faer::Par {
        faer::Par::Seq
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn switches_and_granularity() {
        assert_eq!(Par::from_flag(true), Par::Rayon);
        assert_eq!(Par::from_flag(false), Par::Seq);
        assert_eq!(Par::Rayon.for_size(10, 64), Par::Seq);
        assert_eq!(Par::Rayon.for_size(64, 64), Par::Rayon);
        assert_eq!(Par::Seq.for_size(100, 2), Par::Seq);
        for par in [Par::Seq, Par::Rayon] {
            assert_eq!(par.join(|| 1, || 2), (1, 2));
            let mut v = vec![0usize; 1000];
            par.for_each_chunk(&mut v, 7, |k, c| c.iter_mut().for_each(|x| *x = k));
            assert!(v.iter().enumerate().all(|(i, &x)| x == i / 7));
            let mut a = vec![0; 100];
            let b: Vec<i32> = (0..100).collect();
            par.try_for_each_zip(&mut a, &b, |x, y| {
                *x = 2 * y;
                Ok::<(), ()>(())
            })
            .unwrap();
            assert!(a.iter().zip(&b).all(|(x, y)| *x == 2 * y));
            assert_eq!(
                par.try_for_each_zip(&mut a, &b, |_, y| if *y == 50 { Err(*y) } else { Ok(()) }),
                Err(50)
            );
        }
    }
}
