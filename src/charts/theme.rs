//! Colours shared by every chart: a light and a dark theme with the Okabe-Ito palette, which
//! stays distinguishable for the common forms of colour-blindness.

use plotters::style::RGBColor;

/// The Okabe-Ito palette (Okabe & Ito 2008), without black: orange, sky blue, bluish green,
/// yellow, blue, vermillion, reddish purple.
pub const OKABE_ITO: [RGBColor; 7] = [
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(0, 158, 115),
    RGBColor(240, 228, 66),
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(204, 121, 167),
];

/// The colours a chart is drawn with.
#[derive(Debug, Clone, PartialEq)]
pub struct ChartTheme {
    /// Background fill.
    pub background: RGBColor,
    /// Text, axes and error bars.
    pub foreground: RGBColor,
    /// Grid lines and secondary text.
    pub muted: RGBColor,
    /// Series colours, used in order and cycled.
    pub palette: Vec<RGBColor>,
}

impl ChartTheme {
    /// Dark text on white (matches the app's light CSS variables).
    pub fn light() -> Self {
        Self {
            background: RGBColor(255, 255, 255),
            foreground: RGBColor(26, 32, 44),
            muted: RGBColor(203, 213, 225),
            // Yellow is too pale on white: put it last.
            palette: vec![
                OKABE_ITO[4],
                OKABE_ITO[0],
                OKABE_ITO[2],
                OKABE_ITO[5],
                OKABE_ITO[1],
                OKABE_ITO[6],
                OKABE_ITO[3],
            ],
        }
    }

    /// Light text on a dark background.
    pub fn dark() -> Self {
        Self {
            background: RGBColor(17, 24, 39),
            foreground: RGBColor(229, 231, 235),
            muted: RGBColor(55, 65, 81),
            // Dark blue is too dark on the dark background: put it last.
            palette: vec![
                OKABE_ITO[1],
                OKABE_ITO[0],
                OKABE_ITO[2],
                OKABE_ITO[3],
                OKABE_ITO[6],
                OKABE_ITO[5],
                OKABE_ITO[4],
            ],
        }
    }

    /// The colour of series `i` (the palette cycles).
    pub fn series(&self, i: usize) -> RGBColor {
        if self.palette.is_empty() {
            self.foreground
        } else {
            self.palette[i % self.palette.len()]
        }
    }

    /// `#rrggbb` of a colour, for CSS swatches beside a chart.
    pub fn css(color: RGBColor) -> String {
        format!("#{:02x}{:02x}{:02x}", color.0, color.1, color.2)
    }
}
