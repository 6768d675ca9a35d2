//! The rows of Φ_q that depend on earlier rows, by eliminating bodies one at a time
//! (sparse, O(n) memory on chains, trees and ladders of loops).
//!
//! Φ_q is stored as rows of 6-column blocks, one block per body a row touches. To
//! eliminate body b, take the live rows S touching b in row order and orthogonalize
//! their b-blocks one after the other (Gram–Schmidt twice, carrying the whole rows
//! along). A row whose b-block keeps a remainder above the threshold is independent
//! of every earlier row (no other row touches b): it counts toward the rank and
//! leaves the system. A row whose b-block vanishes is replaced by its remainder on
//! the other bodies (fill between b's neighbours), at its own place in the row
//! order. With R the rows not touching b, the span of the earlier rows restricted
//! to combinations without b-columns is span(R ∪ remainders), so a row depends on
//! earlier rows of the reduced system exactly when it did in Φ_q: the dependent
//! rows are those of a Gram–Schmidt pass over the rows of Φ_q in order, for any
//! order of elimination. Rows whose remainder falls to the threshold are
//! dependent; when every body is eliminated no row is left.
//!
//! Bodies are eliminated by least number of neighbours first (leaves of a tree
//! before their parents, so a tree has no fill; a loop or a ladder of loops keeps
//! at most a few rows between two bodies).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// One row of Φ_q: (body, its 6 columns), sorted by body.
pub(crate) type SparseRow = Vec<(usize, [f64; 6])>;

/// What [`dependent_rows_sparse`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Elimination {
    /// The dependent rows, ascending.
    pub dependent: Vec<usize>,
    /// Most f64 entries held at once (rows and the orthogonalized blocks).
    pub peak_entries: usize,
}

/// The elimination's storage passed `limit` entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct OverLimit {
    /// Entries held when the limit was passed.
    pub entries: usize,
}

const NEIGHBOURS_REFRESHED: usize = 32;

struct State {
    rows: Vec<SparseRow>,
    alive: Vec<bool>,
    body_rows: Vec<Vec<usize>>,
    eliminated: Vec<bool>,
    dependent: Vec<usize>,
    entries: usize,
    peak: usize,
    limit: usize,
    threshold: f64,
}

fn norm2(v: &[f64; 6]) -> f64 {
    v.iter().map(|x| x * x).sum()
}

fn block_of(row: &SparseRow, b: usize) -> Option<&[f64; 6]> {
    row.binary_search_by_key(&b, |(c, _)| *c)
        .ok()
        .map(|k| &row[k].1)
}

/// `row += alpha · w` (sorted block lists merged through `scratch`).
fn axpy(row: &mut SparseRow, alpha: f64, w: &SparseRow, scratch: &mut SparseRow) {
    scratch.clear();
    let (mut i, mut j) = (0, 0);
    while i < row.len() || j < w.len() {
        let take_row = j == w.len() || (i < row.len() && row[i].0 < w[j].0);
        let take_w = i == row.len() || (j < w.len() && w[j].0 < row[i].0);
        if take_row {
            scratch.push(row[i]);
            i += 1;
        } else if take_w {
            let mut v = w[j].1;
            v.iter_mut().for_each(|x| *x *= alpha);
            scratch.push((w[j].0, v));
            j += 1;
        } else {
            let mut v = row[i].1;
            for (x, y) in v.iter_mut().zip(&w[j].1) {
                *x += alpha * y;
            }
            scratch.push((row[i].0, v));
            i += 1;
            j += 1;
        }
    }
    std::mem::swap(row, scratch);
}

impl State {
    fn neighbours(&mut self, b: usize, out: &mut Vec<usize>) {
        out.clear();
        let alive = &self.alive;
        self.body_rows[b].retain(|r| alive[*r]);
        for &r in &self.body_rows[b] {
            out.extend(self.rows[r].iter().map(|(c, _)| *c).filter(|c| *c != b));
        }
        out.sort_unstable();
        out.dedup();
    }

    fn count(&mut self, delta_add: usize, delta_sub: usize) -> Result<(), OverLimit> {
        self.entries = self.entries + delta_add - delta_sub;
        self.peak = self.peak.max(self.entries);
        if self.entries > self.limit {
            return Err(OverLimit {
                entries: self.entries,
            });
        }
        Ok(())
    }

    /// Eliminates body `b` (see the module docs).
    fn eliminate(&mut self, b: usize, scratch: &mut SparseRow) -> Result<(), OverLimit> {
        let mut ids = std::mem::take(&mut self.body_rows[b]);
        ids.retain(|r| self.alive[*r]);
        ids.sort_unstable();
        let mut basis: Vec<(SparseRow, f64)> = Vec::new();
        let mut basis_entries = 0;
        for &id in &ids {
            let mut row = std::mem::take(&mut self.rows[id]);
            let before = row.len();
            let old_bodies: Vec<usize> = row.iter().map(|(c, _)| *c).collect();
            for _pass in 0..2 {
                for (w, n2) in &basis {
                    let (Some(a), Some(wa)) = (block_of(&row, b), block_of(w, b)) else {
                        continue;
                    };
                    let c: f64 = a.iter().zip(wa).map(|(x, y)| x * y).sum::<f64>() / n2;
                    if c != 0.0 {
                        axpy(&mut row, -c, w, scratch);
                    }
                }
            }
            let a2 = block_of(&row, b).map_or(0.0, norm2);
            if a2.sqrt() > self.threshold {
                // independent: an orthogonalized block of b
                self.alive[id] = false;
                basis_entries += 6 * row.len();
                self.count(6 * row.len(), 6 * before)?;
                basis.push((row, a2));
                continue;
            }
            row.retain(|(c, _)| *c != b);
            let rest: f64 = row.iter().map(|(_, v)| norm2(v)).sum();
            if rest.sqrt() <= self.threshold {
                self.alive[id] = false;
                self.dependent.push(id);
                self.count(0, 6 * before)?;
                continue;
            }
            for (c, _) in &row {
                if !old_bodies.contains(c) {
                    self.body_rows[*c].push(id);
                }
            }
            self.count(6 * row.len(), 6 * before)?;
            self.rows[id] = row;
        }
        self.entries -= basis_entries;
        Ok(())
    }
}

/// The rows of the matrix given as `rows` (indexed in row order, blocks of bodies
/// `0..n_bodies`) that depend on earlier rows: a row is dependent when its remainder
/// is at most `threshold` (absolute). Errors when the storage would pass `limit`
/// f64 entries.
pub(crate) fn dependent_rows_sparse(
    rows: Vec<SparseRow>,
    n_bodies: usize,
    threshold: f64,
    limit: usize,
) -> Result<Elimination, OverLimit> {
    let m = rows.len();
    let mut st = State {
        alive: vec![true; m],
        body_rows: vec![Vec::new(); n_bodies],
        eliminated: vec![false; n_bodies],
        dependent: Vec::new(),
        entries: 0,
        peak: 0,
        limit,
        threshold,
        rows: Vec::new(),
    };
    let mut total = 0;
    for (id, row) in rows.iter().enumerate() {
        let n: f64 = row.iter().map(|(_, v)| norm2(v)).sum();
        if n.sqrt() <= threshold {
            st.alive[id] = false;
            st.dependent.push(id);
            continue;
        }
        total += 6 * row.len();
        for (c, _) in row {
            st.body_rows[*c].push(id);
        }
    }
    st.rows = rows;
    st.count(total, 0)?;
    let mut heap = BinaryHeap::with_capacity(n_bodies);
    let mut nb = Vec::new();
    for b in 0..n_bodies {
        st.neighbours(b, &mut nb);
        heap.push(Reverse((nb.len(), b)));
    }
    let mut scratch = Vec::new();
    let mut around = Vec::new();
    while let Some(Reverse((key, b))) = heap.pop() {
        if st.eliminated[b] {
            continue;
        }
        st.neighbours(b, &mut nb);
        if nb.len() != key {
            heap.push(Reverse((nb.len(), b)));
            continue;
        }
        st.eliminate(b, &mut scratch)?;
        st.eliminated[b] = true;
        if nb.len() <= NEIGHBOURS_REFRESHED {
            for &c in &nb {
                if !st.eliminated[c] {
                    st.neighbours(c, &mut around);
                    heap.push(Reverse((around.len(), c)));
                }
            }
        }
    }
    st.dependent.sort_unstable();
    Ok(Elimination {
        dependent: st.dependent,
        peak_entries: st.peak,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(blocks: &[(usize, [f64; 6])]) -> SparseRow {
        blocks.to_vec()
    }

    #[test]
    fn a_repeated_row_and_a_sum_of_rows_are_dependent() {
        let e = |k: usize| {
            let mut v = [0.0; 6];
            v[k] = 1.0;
            v
        };
        let rows = vec![
            row(&[(0, e(0)), (1, e(1))]),
            row(&[(1, e(2))]),
            row(&[(0, e(0)), (1, e(1))]),
            row(&[(0, e(0)), (1, [0.0, 1.0, 1.0, 0.0, 0.0, 0.0])]),
            row(&[]),
            row(&[(1, e(3))]),
        ];
        let r = dependent_rows_sparse(rows, 2, 1e-12, usize::MAX).unwrap();
        assert_eq!(r.dependent, vec![2, 3, 4]);
        assert!(r.peak_entries >= 6 * 6, "{}", r.peak_entries);
    }

    #[test]
    fn the_storage_limit_is_an_error() {
        let rows = vec![row(&[(0, [1.0; 6])]); 3];
        assert_eq!(
            dependent_rows_sparse(rows, 1, 1e-12, 12),
            Err(OverLimit { entries: 18 })
        );
    }
}
