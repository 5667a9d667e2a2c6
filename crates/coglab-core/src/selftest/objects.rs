//! The everyday-object drawings of the self-test, made for this project, and their rendering
//! as SVG with a picture's transformation applied.
//!
//! Each drawing is a set of polygons in a 100 × 100 box centred on (50, 50). Every drawing is
//! asymmetric (no mirror line, no rotational symmetry), so that a reflection of it can never be
//! mistaken for a rotation of it; `tests::reflections_differ_from_rotations` checks this on the
//! vertices.

use super::Picture;

/// One drawing: a name and its polygons (filled with the picture's colour).
#[derive(Debug, Clone, Copy)]
pub struct Drawing {
    /// Everyday name, e.g. `boot`.
    pub name: &'static str,
    /// Polygons, each a closed list of (x, y) points in the 100 × 100 box.
    pub polygons: &'static [&'static [(f64, f64)]],
}

/// The drawings (12 everyday objects).
pub const DRAWINGS: [Drawing; 12] = [
    Drawing {
        name: "boot",
        polygons: &[&[
            (32.0, 12.0),
            (52.0, 12.0),
            (52.0, 58.0),
            (82.0, 70.0),
            (86.0, 86.0),
            (26.0, 86.0),
            (28.0, 50.0),
        ]],
    },
    Drawing {
        name: "key",
        polygons: &[
            &[(14.0, 36.0), (38.0, 30.0), (42.0, 56.0), (18.0, 62.0)],
            &[
                (40.0, 42.0),
                (88.0, 42.0),
                (88.0, 50.0),
                (80.0, 50.0),
                (80.0, 62.0),
                (72.0, 62.0),
                (72.0, 50.0),
                (64.0, 50.0),
                (64.0, 58.0),
                (58.0, 58.0),
                (58.0, 50.0),
                (40.0, 50.0),
            ],
        ],
    },
    Drawing {
        name: "mug",
        polygons: &[
            &[(22.0, 24.0), (62.0, 24.0), (58.0, 82.0), (26.0, 82.0)],
            &[
                (62.0, 34.0),
                (80.0, 36.0),
                (78.0, 64.0),
                (60.0, 66.0),
                (60.0, 58.0),
                (70.0, 56.0),
                (71.0, 44.0),
                (61.0, 42.0),
            ],
        ],
    },
    Drawing {
        name: "flag",
        polygons: &[
            &[(24.0, 10.0), (30.0, 10.0), (30.0, 90.0), (24.0, 90.0)],
            &[
                (30.0, 12.0),
                (80.0, 22.0),
                (62.0, 32.0),
                (78.0, 44.0),
                (30.0, 46.0),
            ],
        ],
    },
    Drawing {
        name: "hammer",
        polygons: &[
            &[(46.0, 30.0), (54.0, 30.0), (56.0, 90.0), (44.0, 90.0)],
            &[
                (20.0, 14.0),
                (70.0, 14.0),
                (84.0, 22.0),
                (70.0, 30.0),
                (20.0, 30.0),
                (16.0, 22.0),
            ],
        ],
    },
    Drawing {
        name: "teapot",
        polygons: &[
            &[(30.0, 40.0), (64.0, 40.0), (70.0, 78.0), (26.0, 78.0)],
            &[(42.0, 30.0), (52.0, 30.0), (54.0, 40.0), (40.0, 40.0)],
            &[(26.0, 52.0), (10.0, 36.0), (14.0, 32.0), (30.0, 46.0)],
            &[
                (66.0, 46.0),
                (82.0, 50.0),
                (80.0, 70.0),
                (68.0, 68.0),
                (74.0, 60.0),
                (68.0, 54.0),
            ],
        ],
    },
    Drawing {
        name: "sneaker",
        polygons: &[&[
            (12.0, 48.0),
            (40.0, 44.0),
            (58.0, 30.0),
            (70.0, 34.0),
            (88.0, 62.0),
            (88.0, 72.0),
            (12.0, 72.0),
        ]],
    },
    Drawing {
        name: "umbrella",
        polygons: &[
            &[
                (10.0, 44.0),
                (26.0, 24.0),
                (50.0, 16.0),
                (74.0, 24.0),
                (90.0, 44.0),
            ],
            &[
                (48.0, 44.0),
                (53.0, 44.0),
                (53.0, 80.0),
                (42.0, 88.0),
                (34.0, 80.0),
                (38.0, 78.0),
                (43.0, 82.0),
                (48.0, 78.0),
            ],
        ],
    },
    Drawing {
        name: "house",
        polygons: &[
            &[
                (20.0, 48.0),
                (50.0, 20.0),
                (80.0, 48.0),
                (76.0, 48.0),
                (76.0, 86.0),
                (24.0, 86.0),
                (24.0, 48.0),
            ],
            &[(62.0, 18.0), (70.0, 18.0), (70.0, 38.0), (62.0, 31.0)],
        ],
    },
    Drawing {
        name: "watering can",
        polygons: &[
            &[(34.0, 40.0), (70.0, 40.0), (70.0, 80.0), (34.0, 80.0)],
            &[(34.0, 62.0), (14.0, 30.0), (20.0, 27.0), (36.0, 50.0)],
            &[
                (50.0, 40.0),
                (58.0, 22.0),
                (84.0, 30.0),
                (80.0, 38.0),
                (60.0, 32.0),
                (56.0, 40.0),
            ],
        ],
    },
    Drawing {
        name: "spoon",
        polygons: &[
            &[
                (20.0, 28.0),
                (34.0, 18.0),
                (44.0, 26.0),
                (40.0, 42.0),
                (26.0, 44.0),
            ],
            &[(40.0, 38.0), (44.0, 34.0), (86.0, 74.0), (82.0, 80.0)],
        ],
    },
    Drawing {
        name: "car",
        polygons: &[
            &[
                (10.0, 56.0),
                (26.0, 52.0),
                (38.0, 36.0),
                (64.0, 36.0),
                (74.0, 52.0),
                (90.0, 56.0),
                (90.0, 68.0),
                (10.0, 68.0),
            ],
            &[(20.0, 66.0), (32.0, 66.0), (32.0, 78.0), (20.0, 78.0)],
            &[(66.0, 66.0), (78.0, 66.0), (78.0, 78.0), (66.0, 78.0)],
            &[(80.0, 54.0), (88.0, 54.0), (88.0, 48.0)],
        ],
    },
];

/// Screen position of a drawing point after the picture's orientation: mirrored upside down
/// first (when `mirrored`), then rotated counter-clockwise by `rotation` degrees, about the
/// centre (50, 50).
pub fn orient(point: (f64, f64), rotation: i32, mirrored: bool) -> (f64, f64) {
    let (x, mut y) = (point.0 - 50.0, point.1 - 50.0);
    if mirrored {
        y = -y;
    }
    // Screen y points down: a counter-clockwise turn on screen is a clockwise one in (x, y).
    let a = -(rotation as f64).to_radians();
    let (s, c) = a.sin_cos();
    (50.0 + x * c - y * s, 50.0 + x * s + y * c)
}

/// Where the copies of an object go in a 200 × 200 panel: `(centre x, centre y, size)`.
/// Every copy has the same size whatever the count (up to 7 on a 3-column grid), so a change
/// in number never looks like a change in size.
fn layout(count: u8) -> Vec<(f64, f64, f64)> {
    const SIZE: f64 = 62.0;
    let n = usize::from(count.max(1));
    let cols = if n <= 4 { 2 } else { 3 };
    let cols = if n == 1 { 1 } else { cols };
    let rows = n.div_ceil(cols);
    let cell = 64.0;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let (r, c) = (i / cols, i % cols);
        let in_row = if r + 1 == rows { n - r * cols } else { cols };
        let x0 = 100.0 - in_row as f64 * cell / 2.0;
        let y0 = 100.0 - rows as f64 * cell / 2.0;
        out.push((
            x0 + (c as f64 + 0.5) * cell,
            y0 + (r as f64 + 0.5) * cell,
            SIZE,
        ));
    }
    out
}

/// The picture as a standalone SVG (viewBox 0 0 200 200) with the given accessible label.
pub fn render_svg(picture: &Picture, label: &str) -> String {
    use std::fmt::Write;
    let drawing = &DRAWINGS[picture.object % DRAWINGS.len()];
    let mut svg = String::with_capacity(2048);
    let _ = write!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200" role="img" aria-label="{}" class="kiva-picture">"#,
        label.replace('"', "'")
    );
    let colour = super::colour_hex(&picture.colour);
    for (cx, cy, size) in layout(picture.count) {
        let k = size / 100.0;
        let _ = write!(
            svg,
            r##"<g fill="{colour}" stroke="#1b1b1b" stroke-width="{:.2}" stroke-linejoin="round">"##,
            2.0 / (k * picture.scale_x.max(picture.scale_y)).max(0.2)
        );
        for poly in drawing.polygons {
            svg.push_str("<polygon points=\"");
            for (i, p) in poly.iter().enumerate() {
                let (x, y) = orient(*p, picture.rotation, picture.mirrored);
                // Scale about the centre, then place in the cell.
                let x = cx + (x - 50.0) * k * picture.scale_x;
                let y = cy + (y - 50.0) * k * picture.scale_y;
                if i > 0 {
                    svg.push(' ');
                }
                let _ = write!(svg, "{x:.2},{y:.2}");
            }
            svg.push_str("\"/>");
        }
        svg.push_str("</g>");
    }
    svg.push_str("</svg>");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vertices(d: &Drawing, rotation: i32, mirrored: bool) -> Vec<(i64, i64)> {
        let mut v: Vec<(i64, i64)> = d
            .polygons
            .iter()
            .flat_map(|p| p.iter())
            .map(|p| {
                let (x, y) = orient(*p, rotation, mirrored);
                ((x * 10.0).round() as i64, (y * 10.0).round() as i64)
            })
            .collect();
        v.sort_unstable();
        v
    }

    #[test]
    fn reflections_differ_from_rotations() {
        assert!(DRAWINGS.len() >= 12);
        for d in &DRAWINGS {
            // Upside-down (about x) and sideways (about y = upside down then 180°) reflections.
            for reflection in [0, 180] {
                let mirrored = vertices(d, reflection, true);
                for rot in (0..360).step_by(45) {
                    assert_ne!(
                        mirrored,
                        vertices(d, rot, false),
                        "{} reflection {reflection} equals rotation {rot}",
                        d.name
                    );
                }
            }
            // No rotational symmetry either: every rotation is visible.
            for rot in (45..360).step_by(45) {
                assert_ne!(
                    vertices(d, 0, false),
                    vertices(d, rot, false),
                    "{} rot {rot}",
                    d.name
                );
            }
        }
    }

    #[test]
    fn orientation_by_hand() {
        // (90, 50) is 40 right of the centre; a quarter turn counter-clockwise on screen puts
        // it 40 above the centre: (50, 10). Mirrored upside down, (50, 90) goes to (50, 10).
        let (x, y) = orient((90.0, 50.0), 90, false);
        assert!((x - 50.0).abs() < 1e-9 && (y - 10.0).abs() < 1e-9);
        let (x, y) = orient((50.0, 90.0), 0, true);
        assert!((x - 50.0).abs() < 1e-9 && (y - 10.0).abs() < 1e-9);
    }

    #[test]
    fn svg_has_one_group_per_copy() {
        let p = Picture {
            object: 3,
            colour: "Red".into(),
            scale_x: 1.0,
            scale_y: 1.0,
            rotation: 0,
            mirrored: false,
            count: 5,
        };
        let svg = render_svg(&p, "five flags");
        assert_eq!(svg.matches("<g ").count(), 5);
        assert_eq!(svg.matches("<polygon").count(), 10);
        assert!(svg.contains("aria-label=\"five flags\""));
    }
}
