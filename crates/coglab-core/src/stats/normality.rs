//! Normality tests: Cramér-von Mises with estimated mean and SD (Stephens W*) (issue 5).
