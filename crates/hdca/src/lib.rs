//! Hamiltonian divide-and-conquer in joint coordinates and momenta
