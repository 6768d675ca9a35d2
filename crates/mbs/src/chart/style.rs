//! The colours and marker shapes of a chart's series: one palette and one marker
//! sequence for every chart of the workspace (the PNG/SVG plots of the CLI and of the
//! bench report, and the panels of the animation page, which get their styles from
//! here). Series may share a colour on purpose (a group: one method at several thread
//! counts or with several integrators), never a colour and a marker.

use serde::Serialize;

/// Ten colours (Tableau 10), in the order series get them.
pub const PALETTE: [(u8, u8, u8); 10] = [
    (31, 119, 180),
    (255, 127, 14),
    (44, 160, 44),
    (214, 39, 40),
    (148, 103, 189),
    (140, 86, 75),
    (227, 119, 194),
    (127, 127, 127),
    (188, 189, 34),
    (23, 190, 207),
];

/// A marker shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Marker {
    /// Filled disc.
    Circle,
    /// Open triangle.
    Triangle,
    /// Open square.
    Square,
    /// Diagonal cross.
    Cross,
    /// Open diamond.
    Diamond,
    /// Open circle.
    Ring,
}

/// The marker shapes, in the order series (or the variants of a group) get them.
pub const MARKERS: [Marker; 6] = [
    Marker::Circle,
    Marker::Triangle,
    Marker::Square,
    Marker::Cross,
    Marker::Diamond,
    Marker::Ring,
];

/// The look of one series.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Style {
    /// RGB colour.
    pub color: (u8, u8, u8),
    /// Marker shape.
    pub marker: Marker,
}

impl Style {
    /// The colour as `#rrggbb`.
    pub fn hex(&self) -> String {
        let (r, g, b) = self.color;
        format!("#{r:02x}{g:02x}{b:02x}")
    }
}

/// What chooses a series' style: its group (series of one group share a colour) and
/// its variant (series of one variant share a marker shape, e.g. "2 threads" in every
/// group). `None`: a group, or a variant, of its own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StyleKey<'a> {
    /// Group (colour).
    pub group: Option<&'a str>,
    /// Variant within the group (marker).
    pub variant: Option<&'a str>,
}

/// The styles of a chart's series, in order: the k-th group gets the k-th colour of
/// [`PALETTE`], the k-th variant (or, without variants, the k-th series of its group)
/// the k-th marker of [`MARKERS`] (a series of neither group nor variant: the k-th
/// colour and marker for the k-th such series); a pair already taken moves on to the next marker,
/// then the next colour, so that no two of the first 60 series share colour and
/// marker.
///
/// ```
/// use mbs::chart::style::{styles, StyleKey};
/// let k = |g, v| StyleKey { group: Some(g), variant: Some(v) };
/// let s = styles(&[k("aba", "1 thr"), k("aba", "2 thr"), k("hdca", "1 thr")]);
/// assert_eq!(s[0].color, s[1].color);
/// assert_ne!(s[0].color, s[2].color);
/// assert_eq!(s[0].marker, s[2].marker);
/// assert_ne!(s[0].marker, s[1].marker);
/// ```
pub fn styles(keys: &[StyleKey]) -> Vec<Style> {
    let (np, nm) = (PALETTE.len(), MARKERS.len());
    let mut groups: Vec<Option<&str>> = Vec::new();
    let mut variants: Vec<&str> = Vec::new();
    let mut in_group: Vec<usize> = Vec::new();
    let mut taken = std::collections::HashSet::new();
    let mut ungrouped = 0;
    keys.iter()
        .map(|key| {
            let g = match key.group {
                Some(name) => groups
                    .iter()
                    .position(|x| *x == Some(name))
                    .unwrap_or_else(|| {
                        groups.push(Some(name));
                        in_group.push(0);
                        groups.len() - 1
                    }),
                None => {
                    // a group of its own, whose first marker follows the ungrouped
                    // series before it (colour and marker both change)
                    groups.push(None);
                    in_group.push(ungrouped);
                    ungrouped += 1;
                    groups.len() - 1
                }
            };
            let v = match key.variant {
                Some(name) => variants.iter().position(|x| *x == name).unwrap_or_else(|| {
                    variants.push(name);
                    variants.len() - 1
                }),
                None => in_group[g],
            };
            in_group[g] += 1;
            let first = if key.group.is_some() { v + g / np } else { v };
            let (mut c, mut m) = (g % np, first % nm);
            if taken.len() < np * nm {
                let mut tries = 0;
                while taken.contains(&(c, m)) && tries < np * nm {
                    m = (m + 1) % nm;
                    if m == first % nm {
                        c = (c + 1) % np;
                    }
                    tries += 1;
                }
            }
            taken.insert((c, m));
            Style {
                color: PALETTE[c],
                marker: MARKERS[m],
            }
        })
        .collect()
}

/// The samples of a series of `n` points that get a marker: every one up to 25
/// points, else about 12 spread evenly, shifted by the series' index so that the
/// markers of overlaid series do not cover each other.
pub fn marker_indices(n: usize, series: usize) -> Vec<usize> {
    if n <= 25 {
        return (0..n).collect();
    }
    let every = n / 12;
    let offset = (series * every / 5) % every;
    (offset..n).step_by(every).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unique(s: &[Style]) -> bool {
        let set: std::collections::HashSet<_> = s.iter().collect();
        set.len() == s.len()
    }

    #[test]
    fn no_two_series_share_colour_and_marker() {
        for n in [1, 3, 10, 11, 20, 60] {
            let keys = vec![StyleKey::default(); n];
            let s = styles(&keys);
            assert!(unique(&s), "{n} ungrouped series: {s:?}");
            // the first ten ungrouped series get ten different colours, the first
            // six six different markers
            let colours: std::collections::HashSet<_> =
                s.iter().take(10).map(|s| s.color).collect();
            assert_eq!(colours.len(), n.min(10));
            let markers: std::collections::HashSet<_> =
                s.iter().take(6).map(|s| s.marker).collect();
            assert_eq!(markers.len(), n.min(6));
        }
        // the scaling plot: ten front-ends at 1 and 2 threads, one with 1 only
        let names: Vec<String> = (0..10).map(|k| format!("front-end {k}")).collect();
        let mut keys = Vec::new();
        for (i, n) in names.iter().enumerate() {
            for v in ["1 thr", "2 thr"].iter().take(if i == 3 { 1 } else { 2 }) {
                keys.push(StyleKey {
                    group: Some(n.as_str()),
                    variant: Some(v),
                });
            }
        }
        let s = styles(&keys);
        assert!(unique(&s), "{s:?}");
        let colours: std::collections::HashSet<_> = s.iter().map(|s| s.color).collect();
        assert_eq!(colours.len(), 10, "one colour per front-end");
        // eleven groups: the eleventh repeats a colour with another marker
        let mut more = keys.clone();
        more.extend([StyleKey {
            group: Some("alf-index1"),
            variant: Some("1 thr"),
        }]);
        assert!(unique(&styles(&more)));
        // two series of one group and one variant still differ
        let same = [StyleKey {
            group: Some("a"),
            variant: Some("v"),
        }; 3];
        assert!(unique(&styles(&same)));
    }

    #[test]
    fn markers_are_thinned_and_shifted_per_series() {
        assert_eq!(marker_indices(5, 3), vec![0, 1, 2, 3, 4]);
        let a = marker_indices(201, 0);
        let b = marker_indices(201, 1);
        assert!((10..=14).contains(&a.len()), "{a:?}");
        assert!(a.iter().chain(&b).all(|&k| k < 201));
        assert_ne!(a, b);
    }
}
