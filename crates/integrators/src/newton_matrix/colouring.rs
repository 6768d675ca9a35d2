//! Column colouring for finite-difference Jacobians (Curtis, Powell & Reid,
//! "On the estimation of sparse Jacobian matrices", J. Inst. Maths Applics 13
//! (1974) 117–119).
//!
//! Two columns that share no row are structurally orthogonal: perturbing both
//! at once changes disjoint components of `f`, so one right-hand side gives both
//! columns. A colouring assigns every column a group (colour) such that columns
//! of one group are pairwise orthogonal; a forward-difference Jacobian then costs
//! one evaluation per colour instead of one per column (a banded matrix of
//! bandwidth `w` needs `w` colours, independent of `n`).

use super::pattern::JacobianPattern;

/// Columns grouped by colour: the columns of colour `c` are
/// `columns[start[c]..start[c + 1]]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Colouring {
    pub start: Vec<usize>,
    pub columns: Vec<usize>,
}

impl Colouring {
    /// Number of colours (right-hand sides per finite-difference Jacobian).
    pub fn colours(&self) -> usize {
        self.start.len() - 1
    }

    /// Columns of colour `c`.
    pub fn group(&self, c: usize) -> &[usize] {
        &self.columns[self.start[c]..self.start[c + 1]]
    }

    /// One colour per column (the dense case).
    pub fn trivial(n: usize) -> Self {
        Self {
            start: (0..=n).collect(),
            columns: (0..n).collect(),
        }
    }

    /// The greedy sequential colouring of Curtis–Powell–Reid: columns in natural
    /// order, each given the smallest colour not yet used by a column sharing a
    /// row with it.
    pub fn greedy(p: &JacobianPattern) -> Self {
        let n = p.dim();
        // columns of every row (the transposed pattern)
        let mut row_cols: Vec<Vec<usize>> = vec![Vec::new(); n];
        for j in 0..n {
            for &i in p.rows(j) {
                row_cols[i].push(j);
            }
        }
        let mut colour = vec![usize::MAX; n];
        // forbidden[c] == j: colour c is taken by a neighbour of column j
        let mut forbidden: Vec<usize> = Vec::new();
        let mut count = 0;
        for j in 0..n {
            for &i in p.rows(j) {
                for &k in &row_cols[i] {
                    let c = colour[k];
                    if c != usize::MAX {
                        forbidden[c] = j;
                    }
                }
            }
            let c = (0..count).find(|&c| forbidden[c] != j).unwrap_or(count);
            if c == count {
                count += 1;
                forbidden.push(usize::MAX);
            }
            colour[j] = c;
        }
        let mut start = vec![0; count + 1];
        for &c in &colour {
            start[c + 1] += 1;
        }
        for c in 0..count {
            start[c + 1] += start[c];
        }
        let mut next = start.clone();
        let mut columns = vec![0; n];
        for (j, &c) in colour.iter().enumerate() {
            columns[next[c]] = j;
            next[c] += 1;
        }
        Self { start, columns }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Columns of one colour share no row, and every column has a colour.
    fn check(p: &JacobianPattern, col: &Colouring) {
        let mut seen = vec![false; p.dim()];
        for c in 0..col.colours() {
            let mut rows = vec![false; p.dim()];
            for &j in col.group(c) {
                assert!(!seen[j]);
                seen[j] = true;
                for &i in p.rows(j) {
                    assert!(!rows[i], "colour {c}: row {i} twice");
                    rows[i] = true;
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn banded_needs_bandwidth_colours() {
        let p = JacobianPattern::banded(50, 2, 1);
        let c = Colouring::greedy(&p);
        check(&p, &c);
        assert_eq!(c.colours(), 4);
        let d = JacobianPattern::dense(7);
        let c = Colouring::greedy(&d);
        check(&d, &c);
        assert_eq!(c.colours(), 7);
    }

    #[test]
    fn arrow_pattern() {
        // full first row and column plus the diagonal: column 0 meets all, the
        // others meet each other through row 0
        let n = 6;
        let e = (0..n).flat_map(|k| [(0, k), (k, 0), (k, k)]);
        let p = JacobianPattern::from_entries(n, e).unwrap();
        let c = Colouring::greedy(&p);
        check(&p, &c);
        assert_eq!(c.colours(), n);
    }
}
