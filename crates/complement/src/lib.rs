//! Orthogonal/natural complement family and natural partitioning
