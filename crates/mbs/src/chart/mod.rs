//! What every chart of the workspace shares, without a drawing library (so that the
//! animation page, which draws its own panels, uses it as well as the PNG/SVG plots of
//! `plot` and of the bench report): tick positions and labels ([`ticks`]), series
//! colours and markers ([`style`]), and the output columns a plot can show by name
//! ([`columns`]).

pub mod columns;
pub mod style;
pub mod ticks;
