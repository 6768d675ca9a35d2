//! The linear-algebra backend of the descriptor-form methods (`backend=` key of
//! `alf`, `alf-index1` and the `lagrange` family), with its default defined here.

use mbs_formulation::params;

/// Linear algebra of a method's global systems: the ALF leading matrix
/// `M + Φ_qᵀαΦ_q` (Bayo–Ledesma eq 10) or the KKT matrix `[M Φ_qᵀ; Φ_q 0]` (eq 4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AlfBackend {
    /// Dense factorizations, O(n³) per evaluation.
    #[default]
    Dense,
    /// Sparse factorizations with the symbolic analysis done once
    /// ([`crate::SparseAlf`], [`crate::SparseLagrange`]), O(n) per evaluation for
    /// chains and trees.
    Sparse,
}

impl AlfBackend {
    /// The names of the values, as typed after `backend=`.
    pub const NAMES: &'static [&'static str] = &["dense", "sparse"];

    /// The value's name.
    pub fn as_str(self) -> &'static str {
        match self {
            AlfBackend::Dense => "dense",
            AlfBackend::Sparse => "sparse",
        }
    }

    /// Parses a value's name.
    pub fn parse(v: &str) -> Result<Self, params::Problem> {
        match v {
            "dense" => Ok(AlfBackend::Dense),
            "sparse" => Ok(AlfBackend::Sparse),
            _ => Err(params::Problem::NotOneOf(Self::NAMES)),
        }
    }
}
