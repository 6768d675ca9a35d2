//! Schur-complement preconditioned conjugate gradient on the arrowhead system
//! (Chiou thesis, ch 6).
//!
//! The penalty-stabilized equations written body by body (eqs 6.2.3–6.2.5)
//!
//! ```text
//!   M_j ü_j + Σ_i B_(j,i) λ_i = c_j            (bodies j)
//!   Σ_j B_(i,j) ü_j + E_i λ_i = d_i,  E = −ε/ϱ² I   (joints i)
//! ```
//!
//! are reduced to the Schur complement (eqs 6.2.8–6.2.10)
//!
//! ```text
//!   M* λ = b,   M* = ε I + ϱ² Σ_j B_(i,j) M_j⁻¹ B_(j,i),   b = ϱ² Σ_j B_(i,j) M_j⁻¹ c_j − ϱ² d_i
//! ```
//!
//! which is solved by PCG (eqs 6.4.1–6.4.6) with `M* p` applied matrix-free body
//! by body (eq 6.4.7), never forming `B M⁻¹ Bᵀ`; then `ü_j = M_j⁻¹(c_j − Σ_i
//! B_(j,i) λ_i)` (eq 6.2.6). Preconditioners: none, diagonal (eq 6.5.1.3) and
//! scaled (eq 6.5.2.7).
//!
//! Determinism: the body loop writes per-body buffers, the joint loop per-joint
//! buffers, each summing its few contributions in a fixed order; dot products are
//! summed over fixed-size chunks and the chunk sums added in order. Results are
//! bit-identical for [`crate::Par::Seq`], [`crate::Par::Rayon`] and any thread
//! count.

mod arrowhead;
mod precond;
mod solver;

pub use arrowhead::{ArrowheadOperator, JointBlocks};
pub use precond::Preconditioner;
pub use solver::{PcgInfo, PcgParams, PcgSolver};
