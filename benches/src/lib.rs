//! criterion benchmarks of the mbs workspace (see benches/).
