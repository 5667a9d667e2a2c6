//! Intervals for proportions: Wilson score interval (issue 3).
