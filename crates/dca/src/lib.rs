//! ALF-DCA: divide-and-conquer with augmented Lagrangian and projections
